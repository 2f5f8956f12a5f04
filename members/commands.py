"""The base of the management commands that read or write a club's rows: each runs in a
club (``--club <address>``; the installation's own club when not given). A command that
reads only files (``pair_evening``, ``compute_standings``, ``swiss_pair``,
``swiss_tiebreaks``) needs no database and stays a plain ``BaseCommand``
(tests/integration/test_file_tools_without_database.py)."""

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
                raise _no_club(slug, list(Club.objects.order_by("slug")))
        else:
            club = current_club() or home_club()
        with club_context(club):
            return super().execute(*args, **options)


# Commands that must not guess: with several clubs they stop and list them.
BAD_INPUT = 2


def add_club_argument(parser: CommandParser) -> None:
    parser.add_argument("--club", metavar="SLUG",
                        help="the club's address (/<slug>/); needed when there are several clubs")


def club_from_options(options: dict[str, Any]) -> Club:
    slug = options.get("club")
    clubs = list(Club.objects.order_by("slug"))
    if slug:
        for club in clubs:
            if club.slug == slug:
                return club
        raise _no_club(slug, clubs)
    if len(clubs) == 1:
        return clubs[0]
    raise CommandError(f"there are {len(clubs)} clubs: name one with --club ({_listed(clubs)})",
                       returncode=BAD_INPUT)


def _no_club(slug: str, clubs: list[Club]) -> CommandError:
    """One message for an unknown ``--club``, whichever kind of command was given it."""
    return CommandError(f"no club with the address {slug!r} (the clubs: {_listed(clubs)})",
                        returncode=BAD_INPUT)


def _listed(clubs: list[Club]) -> str:
    return ", ".join(club.slug for club in clubs) or "none"
