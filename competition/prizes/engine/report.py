"""The season's report (pure): the standings of each part with the eligibility
marks and the prizes, as ``compute_standings`` prints it (docs/season-file.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from competition.prizes.engine.awards import merge_prize_report, prize_report
from competition.scoring.display import points_json
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.scoring.types import (
    EveningStandings,
    HalfResult,
    KeizerParams,
    LadderParams,
    LadderStanding,
    SeasonInput,
    Standing,
)


def compute(season: SeasonInput, history: bool = False) -> dict[str, Any]:
    """The JSON-able standings report (numbers rounded to two decimals, half up), with
    `eligible` on every final row and the prizes of each part (see prizes.prize_report).

    Keizer: {"winter": {"standings": [...], "cycle": bool}, "summer": {...}}, a half
    only if it has evenings; ladder: {"season": {"standings": [...]}}. With
    `history`, each part also has "history": [{"date", "standings", ...}, ...].
    """
    names = {p.id: p.name for p in season.players}
    if isinstance(season.params, LadderParams):
        ladder = compute_ladder(season.params, season.players, season.evenings, history=history)
        part: dict[str, Any] = {"standings": [_ladder_row(r, names) for r in ladder.standings]}
        if history:
            part["history"] = [
                {"date": e.date.isoformat(), "standings": [_ladder_row(r, names) for r in e.rows]}
                for e in ladder.history
            ]
        return merge_prize_report({"season": part}, prize_report(season, ladder))
    assert isinstance(season.params, KeizerParams)
    halves = compute_keizer_season(season.params, season.players, season.evenings, history=history)
    report: dict[str, Any] = {
        half: _keizer_part(result, names, history) for half, result in halves.items()
    }
    return merge_prize_report(report, prize_report(season, halves))


def _keizer_part(result: HalfResult, names: Mapping[int, str], history: bool) -> dict[str, Any]:
    part: dict[str, Any] = {
        "standings": [_keizer_row(r, names) for r in result.standings],
        "cycle": result.cycle,
        "cycle_orders": result.cycle_orders,
    }
    if history:
        part["history"] = [_keizer_evening(e, names) for e in result.history]
    return part


def _keizer_evening(evening: EveningStandings, names: Mapping[int, str]) -> dict[str, Any]:
    return {
        "date": evening.date.isoformat(),
        "standings": [_keizer_row(r, names) for r in evening.rows],
        "cycle": evening.cycle,
        "cycle_orders": evening.cycle_orders,
    }


def _keizer_row(row: Standing, names: Mapping[int, str]) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "id": row.player_id,
        "name": names[row.player_id],
        "score": points_json(row.total),
        "value": points_json(row.value),
        "games": row.stats.games,
        "won": row.stats.won,
        "drawn": row.stats.drawn,
        "lost": row.stats.lost,
    }


def _ladder_row(row: LadderStanding, names: Mapping[int, str]) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "id": row.player_id,
        "name": names[row.player_id],
        "start": row.start,
        "group": row.group,
        "score": points_json(row.score),
        "points": points_json(row.points),
        "pairing_points": points_json(row.pairing_points),
        "games": row.stats.games,
        "won": row.stats.won,
        "drawn": row.stats.drawn,
        "lost": row.stats.lost,
    }
