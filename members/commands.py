"""``--club <slug>`` for the management commands that act on one club's data.

Without it a command acts on the only club; with several clubs it stops and lists them,
so a command never guesses whose data it changes."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from .models import Club

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
        raise CommandError(f"no club {slug!r} (the clubs: {_listed(clubs)})", returncode=BAD_INPUT)
    if len(clubs) == 1:
        return clubs[0]
    raise CommandError(f"there are {len(clubs)} clubs: name one with --club ({_listed(clubs)})",
                       returncode=BAD_INPUT)


def _listed(clubs: list[Club]) -> str:
    return ", ".join(club.slug for club in clubs) or "none"
