"""Reads of the club layer: the signed-in person's clubs, for the menu."""

from __future__ import annotations

from typing import Any

from members.clubs.addresses import club_home_url
from members.models import Club


def my_clubs(user: Any, *, but: Club | None = None, host: str = "") -> list[tuple[Club, str | None]]:
    """The signed-in person's clubs (``but`` the one of the page, asked at ``host``), each
    with its address, None for a club this installation serves nowhere
    (``club_home_url``: "My clubs"): one query; none for a visitor."""
    if not getattr(user, "is_authenticated", False):
        return []
    clubs = Club.objects.filter(memberships__user=user).prefetch_related("domains").order_by("name")
    if but is not None:
        clubs = clubs.exclude(pk=but.pk)
    return [(club, club_home_url(club, from_host=host)) for club in clubs]
