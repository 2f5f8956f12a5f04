"""Absolute links for e-mails: they are written outside a request, so the address is the
club's (``members.clubs.addresses.club_url``: ``SITE_URL`` and ``/<slug>``, or the club's own
host name) rather than a request's host."""

from __future__ import annotations

from django.urls import reverse

from competition.models import Evening, Player
from core.tenancy.context import club_in_hand
from members.clubs.addresses import club_url
from members.models import Club


def absolute(path: str, club: Club | None = None) -> str:
    """``path`` on the club's site: the given club, else the club of the work in hand
    (outside every club: ``NoClub``, never the installation's first club)."""
    return club_url(club or club_in_hand(), path)


def evening_url(evening: Evening) -> str:
    """The evening's public page (pairing and results), for this season."""
    path = reverse("competition:evening", args=[evening.date.isoformat()])
    return absolute(f"{path}?season={evening.season.slug}", evening.season.club)


def player_url(player: Player, club: Club | None = None) -> str:
    """The player's own page (games, points, place over time); ``club``: his season's,
    given by a caller that has it loaded (one query fewer per message)."""
    return absolute(reverse("competition:player", args=[player.pk]), club or player.season.club)
