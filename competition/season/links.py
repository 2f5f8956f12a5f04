"""Absolute links for e-mails: they are written outside a request, so the site's address
comes from ``settings.SITE_URL`` rather than from a request's host."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from competition.models import Evening, Player


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def evening_url(evening: Evening) -> str:
    """The evening's public page (pairing and results), for this season."""
    path = reverse("competition:evening", args=[evening.date.isoformat()])
    return absolute(f"{path}?season={evening.season.slug}")


def player_url(player: Player) -> str:
    """The player's own page (games, points, place over time)."""
    return absolute(reverse("competition:player", args=[player.pk]))
