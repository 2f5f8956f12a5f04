"""The commands' one policy for the club they act on: ``--club <address>``; without it the
only club, and with several clubs the command stops (exit status 2) and names them, never
guessing the first (``add_club_argument``, ``club_from_options``; the command enters the
club's context itself, ``core.tenancy.context.club_context``). A command that
reads only files (``pair_evening``, ``compute_standings``, ``swiss_pair``,
``swiss_tiebreaks``) needs no database and stays a plain ``BaseCommand``
(tests/integration/test_file_tools_without_database.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from members.models import Club

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
