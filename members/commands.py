"""The base of the management commands that read or write a club's rows: each runs in a
club (``--club <address>``; the installation's own club when not given). A command that
reads only files (``compute_standings``, ``swiss_pair``, ``swiss_tiebreaks``) needs no
database and stays a plain ``BaseCommand``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from members.clubs import home_club
from members.context import club_context, current_club
from members.models import Club


class ClubCommand(BaseCommand):
    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument(
            "--club", default="",
            help="The club's address (slug); default: the installation's own club.",
        )
        return parser

    def execute(self, *args: Any, **options: Any) -> Any:
        slug = options.get("club") or ""
        if slug:
            club = Club.objects.filter(slug=slug).first()
            if club is None:
                raise CommandError(f"no club with the address {slug!r}")
        else:
            club = current_club() or home_club()
        with club_context(club):
            return super().execute(*args, **options)
