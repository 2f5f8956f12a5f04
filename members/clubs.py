"""The installation's clubs: which one a single-club installation serves.

A single-club installation (today's, and every test that does not name a club) has one
club, created from the settings (``CLUB_NAME``, ``CLUB_SLUG``) by migration
``members.0007_clubs``; ``home_club`` returns it (and recreates it after a test flush)."""

from __future__ import annotations

from django.conf import settings
from django.utils.text import slugify

from members.models import Club


def default_club_fields() -> dict[str, str]:
    name = getattr(settings, "CLUB_NAME", "") or "Ranglijst"
    return {
        "name": name,
        "slug": getattr(settings, "CLUB_SLUG", "") or slugify(name)[:40] or "club",
        "venue": getattr(settings, "CLUB_ADDRESS", ""),
    }


def home_club() -> Club:
    """The installation's first club (the only one on a single-club installation)."""
    club = Club.objects.order_by("pk").first()
    if club is None:
        fields = default_club_fields()
        club, _ = Club.objects.get_or_create(slug=fields.pop("slug"), defaults=fields)
    return club
