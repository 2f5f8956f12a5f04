"""Reads: the queries pages and services share. Each returns a fixed number of queries."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import (
    Attendance,
    AuditRecord,
    Bye,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Half,
    Player,
    PlayerKind,
    Registration,
    Season,
    Standing,
    StandingsSnapshot,
)
from .signup import default_status


def club_today() -> dt.date:
    return timezone.localdate()


def current_season(today: dt.date | None = None) -> Season | None:
    """The season running today; else the next one; else the latest."""
    today = today or club_today()
    season = (
        Season.objects.filter(start_date__lte=today, end_date__gte=today)
        .select_related("competition")
        .order_by("-start_date")
        .first()
    )
    if season is None:
        season = (
            Season.objects.filter(start_date__gt=today).order_by("start_date").first()
            or Season.objects.order_by("-start_date").first()
        )
    return season


def running_half(season: Season, today: dt.date | None = None) -> Half | None:
    """The half whose first evening has come; before the season, its first half."""
    today = today or club_today()
    halves = list(season.halves.order_by("start_date"))
    started = [h for h in halves if h.start_date <= today]
    return started[-1] if started else (halves[0] if halves else None)


def season_evenings(season: Season) -> QuerySet[Evening]:
    return season.evenings.select_related("half").order_by("date")


def next_playing_evening(season: Season, now: dt.datetime | None = None) -> Evening | None:
    today = (now or timezone.now()).astimezone(timezone.get_current_timezone()).date()
    return (
        season.evenings.filter(kind=EveningKind.PLAYING, date__gte=today)
        .order_by("date")
        .first()
    )


def upcoming_evenings(season: Season, today: dt.date | None = None) -> QuerySet[Evening]:
    today = today or club_today()
    return season.evenings.filter(kind=EveningKind.PLAYING, date__gte=today).order_by("date")


def latest_snapshot(half: Half) -> StandingsSnapshot | None:
    return (
        StandingsSnapshot.objects.filter(half=half)
        .select_related("evening")
        .order_by("-evening__date")
        .first()
    )


def player_for(user, season: Season) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(season=season, member=user).select_related("member").first()


# --- Standings --------------------------------------------------------------------------


def standings_table_rows(
    half: Half, limit: int | None = None
) -> tuple[StandingsSnapshot | None, list[Standing]]:
    """The latest standings of a half (the first ``limit`` rows): two queries, whatever
    the number of players."""
    snapshot = latest_snapshot(half)
    if snapshot is None:
        return None, []
    rows = snapshot.rows.select_related("player__member").defer("explanation").order_by("rank")
    return snapshot, list(rows[:limit] if limit else rows)


def standings_count(snapshot: StandingsSnapshot | None) -> int:
    return snapshot.rows.count() if snapshot else 0


def standings_rows(half: Half, limit: int | None = None) -> list[Standing]:
    _, rows = standings_table_rows(half, limit)
    return rows


# --- Evenings ---------------------------------------------------------------------------


def evening_by_date(day: dt.date, season_slug: str | None = None) -> Evening | None:
    qs = Evening.objects.filter(date=day).select_related("season__competition", "half")
    if season_slug:
        qs = qs.filter(season__slug=season_slug)
    return qs.order_by("-season__start_date").first()


def evening_page(evening: Evening) -> dict[str, Any]:
    """Everything the evening page shows, in a fixed number of queries."""
    games = list(
        evening.games.select_related("white__member", "black__member").order_by("board")
    )
    for g in games:  # who may ask for the alternative tempo
        g.member_ids = (g.white.member_id, g.black.member_id)
    bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
    registrations = list(
        evening.registrations.select_related("player__member").order_by("player__start")
    )
    seated = {g.white_id for g in games} | {g.black_id for g in games}
    if bye:
        seated.add(bye.player_id)
    by_status: dict[str, list[Player]] = defaultdict(list)
    registered = set()
    for r in registrations:
        registered.add(r.player_id)
        if r.player_id not in seated:
            by_status[r.status].append(r.player)
    published = evening.status == EveningStatus.PUBLISHED
    if published:
        # A fixed player who neither played nor signed off was absent without notice.
        for p in Player.objects.filter(season_id=evening.season_id, kind=PlayerKind.FIXED).exclude(
            pk__in=seated | registered
        ).select_related("member"):
            by_status[Attendance.ABSENT_WITHOUT_NOTICE].append(p)
    return {
        "evening": evening,
        "season": evening.season,
        "games": games,
        "bye": bye,
        "published": published,
        "absent_with_notice": by_status[Attendance.ABSENT_WITH_NOTICE],
        "absent_without_notice": by_status[Attendance.ABSENT_WITHOUT_NOTICE],
        "club_duty": by_status[Attendance.CLUB_DUTY],
        "present_unpaired": by_status[Attendance.PRESENT] if published else [],
    }


def statuses_for(player: Player, evenings: list[Evening]) -> list[tuple[Evening, str, bool]]:
    """(evening, status, explicit) for each evening: the registration or the default."""
    regs = {
        r.evening_id: r
        for r in Registration.objects.filter(player=player, evening__in=evenings)
    }
    result = []
    for e in evenings:
        reg = regs.get(e.pk)
        status = reg.status if reg else default_status(player.is_fixed)
        result.append((e, status, reg is not None))
    return result


def member_overview(player: Player) -> dict[str, Any]:
    """The signed-in member's own status and next game (home page)."""
    season = player.season
    upcoming = list(upcoming_evenings(season)[:4])
    next_game = (
        Game.objects.filter(
            Q(white=player) | Q(black=player),
            evening__status=EveningStatus.PUBLISHED,
            evening__date__gte=club_today(),
        )
        .select_related("evening", "white__member", "black__member")
        .order_by("evening__date")
        .first()
    )
    return {"my_statuses": statuses_for(player, upcoming), "next_game": next_game}


# --- Players ----------------------------------------------------------------------------


def player_page(player: Player) -> dict[str, Any]:
    """A player's games, the explanation of his totals and his place after each evening."""
    season = player.season
    games = list(
        Game.objects.filter(Q(white=player) | Q(black=player))
        .select_related("evening", "white__member", "black__member")
        .order_by("evening__date")
    )
    history = list(
        Standing.objects.filter(player=player, snapshot__half__season=season)
        .select_related("snapshot__evening", "snapshot__half")
        .order_by("snapshot__evening__date")
    )
    names = dict(
        Player.objects.filter(season=season).values_list("pk", "member__name")
    )
    halves: dict[int, dict[str, Any]] = {}
    places = []
    for row in history:
        half = row.snapshot.half
        places.append((row.snapshot.evening.date, row.rank, half.kind))
        halves[half.pk] = {"half": half, "row": row}  # the last one wins: the latest
    explained = []
    for entry in halves.values():
        row = entry["row"]
        lines = [_explanation_line(line, names) for line in row.explanation]
        explained.append({**entry, "lines": lines})
    return {
        "player": player,
        "season": season,
        "games": games,
        "explained": explained,
        "places": places,
        "ladder": season.competition.is_ladder,
    }


# --- Audit ------------------------------------------------------------------------------


def audit_records(*, evening_id: str | None = None, player_id: str | None = None,
                  limit: int = 500) -> dict[str, Any]:
    """The audit trail of an evening or a player (or everything), newest first."""
    qs = AuditRecord.objects.select_related("actor", "evening", "player__member")
    evening = player = None
    if _is_key(evening_id):
        evening = Evening.objects.filter(pk=evening_id).first()
        qs = qs.filter(evening_id=evening_id)
    if _is_key(player_id):
        player = Player.objects.select_related("member").filter(pk=player_id).first()
        qs = qs.filter(player_id=player_id)
    return {"records": list(qs[:limit]), "evening": evening, "player": player}


def _is_key(text: str | None) -> bool:
    """ASCII digits that fit a 64-bit key: ``'²'.isdigit()`` is true, and a 40-digit
    number overflows PostgreSQL's bigint."""
    return bool(text) and text.isascii() and text.isdigit() and len(text) <= 18


def _explanation_line(line: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A stored explanation line with numbers and dates as such, for formatting."""
    result = dict(line)
    for key in ("points", "value", "delta", "bonus"):
        if result.get(key) is not None:
            result[key] = Decimal(result[key])
    if result.get("date"):
        result["date"] = dt.date.fromisoformat(result["date"])
    result["opponent_name"] = names.get(line.get("opponent"))
    return result
