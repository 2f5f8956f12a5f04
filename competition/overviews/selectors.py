"""Reads of the overviews; each costs a fixed number of queries, however many players and
evenings the half has."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from competition.models import (
    Bye,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Half,
    Result,
    Season,
    Standing,
    StandingsSnapshot,
    Tempo,
)
from competition.scoring.crosstable import CrossGame, EveningLine, cross_table, evening_matrix
from competition.season.selectors import latest_snapshot
from members.models import club_part


def _half_games(half: Half):
    return Game.objects.filter(
        evening__half=half, evening__kind=EveningKind.PLAYING,
        evening__status=EveningStatus.PUBLISHED,
    )


def _playing_dates(half: Half) -> list[dt.date]:
    return list(
        half.evenings.filter(kind=EveningKind.PLAYING).order_by("date").values_list("date", flat=True)
    )


def half_cross_table(half: Half) -> dict[str, Any]:
    """The half's cross table in the latest standings' order: three queries."""
    snapshot = latest_snapshot(half)
    rows: list[Standing] = []
    if snapshot is not None:
        rows = list(snapshot.rows.select_related("player__member").defer("explanation")
                    .order_by("rank"))
    games = [
        CrossGame(day, white, black, result)
        for day, white, black, result in _half_games(half).exclude(result=Result.PENDING)
        .values_list("evening__date", "white_id", "black_id", "result")
    ] if rows else []
    table = cross_table([row.player_id for row in rows], games)
    return {
        "half": half,
        "snapshot": snapshot,
        "rows": list(zip(rows, table, strict=True)),
        "names": {row.player_id: row.player.member.shown_name for row in rows},
    }


def _line(line: dict[str, Any]) -> EveningLine:
    return EveningLine(
        date=dt.date.fromisoformat(line["date"]) if line.get("date") else None,
        outcome=line["outcome"],
        opponent=line.get("opponent"),
        points=Decimal(line["points"]),
        over_limit=bool(line.get("over_limit")),
    )


def half_evening_matrix(half: Half) -> dict[str, Any]:
    """Players × the half's evenings: what happened and what it scored, from the
    explanation the latest standings stored; four queries."""
    snapshot = latest_snapshot(half)
    rows: list[Standing] = []
    if snapshot is not None:
        rows = list(snapshot.rows.select_related("player__member").order_by("rank"))
    colours: dict[tuple[dt.date, int], str] = {}
    if rows:
        for day, white, black in _half_games(half).values_list("evening__date", "white_id", "black_id"):
            colours[(day, white)] = "w"
            colours[(day, black)] = "b"
    matrix = evening_matrix(
        [row.player_id for row in rows],
        {row.player_id: [_line(line) for line in row.lines()] for row in rows},
        colours,
    )
    playing = _playing_dates(half) if rows else []
    numbers = {day: i for i, day in enumerate(playing, start=1)}
    evenings = [(numbers.get(day), day) for day in matrix.dates]
    return {
        "half": half,
        "snapshot": snapshot,
        "evenings": evenings,
        # (standing, matrix row, [(round number, date, cell)] for the phone's list)
        "rows": [
            (row, mx, [(number, day, cell) for (number, day), cell in zip(evenings, mx.cells, strict=True)])
            for row, mx in zip(rows, matrix.rows, strict=True)
        ],
        "has_extra": matrix.has_extra,
        "names": {row.player_id: row.player.member.shown_name for row in rows},
    }


def evening_round_number(evening: Evening) -> int | None:
    """The evening's round: the n-th playing evening of its half (None if not playing)."""
    if evening.kind != EveningKind.PLAYING or evening.half_id is None:
        return None
    return Evening.objects.filter(
        half_id=evening.half_id, kind=EveningKind.PLAYING, date__lte=evening.date
    ).count()


def pairing_sheet(evening: Evening) -> dict[str, Any]:
    """The notice board's pairing sheet: boards, colours, approved tempo exceptions, the
    bye, and each player's place in the standings before the evening; five queries."""
    games = list(
        evening.games.select_related("white__member", "black__member").order_by("board")
    )
    bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
    before = (
        StandingsSnapshot.objects.filter(half_id=evening.half_id, evening__date__lt=evening.date)
        .order_by("-evening__date").first()
    ) if evening.half_id else None
    places = dict(before.rows.values_list("player_id", "rank")) if before else {}
    for game in games:
        game.white_place = places.get(game.white_id)  # type: ignore[attr-defined]
        game.black_place = places.get(game.black_id)  # type: ignore[attr-defined]
    return {
        "evening": evening,
        "season": evening.season,
        "round_number": evening_round_number(evening),
        "games": games,
        "bye": bye,
        "bye_place": places.get(bye.player_id) if bye else None,
        "published": evening.status == EveningStatus.PUBLISHED,
        "exceptions": [g for g in games if g.tempo == Tempo.APPROVED],
    }


def postponed_games(season: Season, today: dt.date) -> list[Game]:
    """The season's postponed games still to play, oldest first, each with the date it
    was paired (its evening) and its age in days; two queries (the games, and how the club
    shows its members: read whether or not a game is postponed, so the count is the same
    for any club)."""
    club_part(None, season.club_id, load=True)
    games = list(
        Game.objects.filter(evening__season=season, result=Result.POSTPONED)
        .select_related("evening__half", "white__member", "black__member")
        .order_by("evening__date", "board")
    )
    for game in games:
        game.age_days = (today - game.evening.date).days  # type: ignore[attr-defined]
    return games
