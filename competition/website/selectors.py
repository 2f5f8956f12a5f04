"""Reads of the club's website features; each a fixed number of queries."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from competition.models import ClubWebsite, Evening, EveningKind, EveningStatus, Season
from core.pagecache import versioned


def club_website() -> ClubWebsite:
    """The one row of settings; an unsaved default (no site may frame) before the first."""
    return ClubWebsite.objects.order_by("pk").first() or ClubWebsite()


def embed_origins() -> list[str]:
    """The sites that may show the embeds in a frame, memoised per data version (the
    setting's service moves the version on)."""
    return versioned(("embed-origins",), lambda: list(club_website().embed_origins))


def next_evening(season: Season, now: dt.datetime | None = None) -> Evening | None:
    """The next playing evening whose games have not begun: its pairing, or when it
    comes."""
    now = now or timezone.now()
    return (
        season.evenings.filter(kind=EveningKind.PLAYING, starts_at__gt=now)
        .select_related("half").order_by("date").first()
    )


def last_results_evening(season: Season, now: dt.datetime | None = None) -> Evening | None:
    """The latest published playing evening whose games have begun."""
    now = now or timezone.now()
    return (
        season.evenings.filter(kind=EveningKind.PLAYING, status=EveningStatus.PUBLISHED,
                               starts_at__lte=now)
        .select_related("half").order_by("-date").first()
    )


def published_evenings(limit: int) -> list[Evening]:
    """The latest evenings with a published pairing, newest first, with their games and
    bye (the feed): three queries."""
    return list(
        Evening.objects.filter(kind=EveningKind.PLAYING, status=EveningStatus.PUBLISHED)
        .select_related("season", "half", "bye__player__member")
        .prefetch_related("games__white__member", "games__black__member")
        .order_by("-date")[:limit]
    )
