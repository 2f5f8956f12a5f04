"""Reads of the club layer: the signed-in person's clubs, for the menu."""

from __future__ import annotations

from typing import Any

from members.clubs.addresses import club_home_url
from members.models import Club


def my_clubs(user: Any, *, but: Club | None = None) -> list[tuple[Club, str]]:
    """The signed-in person's clubs (``but`` the one of the page), each with its address
    ("My clubs"): one query; none for a visitor."""
    if not getattr(user, "is_authenticated", False):
        return []
    clubs = Club.objects.filter(memberships__user=user).prefetch_related("domains").order_by("name")
    if but is not None:
        clubs = clubs.exclude(pk=but.pk)
    return [(club, club_home_url(club)) for club in clubs]
