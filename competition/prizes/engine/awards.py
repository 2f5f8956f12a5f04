"""Prize eligibility, the prizes of a half and the playoff groups (docs/rules.md 6).

Pure: standings rows in, frozen dataclasses and JSON-able dicts out. The decisions (who
counts as absent, how an ineligible leader is skipped, how leftover playoff players are
placed) are in docs/prizes.md.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from competition.scoring.display import points_json
from competition.scoring.eligibility import (
    MAX_EXEMPTED,
    MIN_GAMES,
    Eligibility,
    keizer_eligibility,
    ladder_eligibility,
)
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder, ladder_groups, progress
from competition.scoring.presets import default_percentage
from competition.scoring.types import (
    Evening,
    Half,
    HalfResult,
    KeizerParams,
    LadderParams,
    LadderResult,
    LadderStanding,
    Player,
    PlayerStats,
    SeasonInput,
    Standing,
)

PrizeName = Literal["champion", "silver", "bronze", "best_of_rest", "summer_champion"]

PLAYOFF_GROUP = 4
PERIOD_GROUPS = 4


# ---------------------------------------------------------------------------
# Prizes


@dataclass(frozen=True)
class Prize:
    prize: PrizeName
    player_id: int

    def to_json(self) -> dict[str, Any]:
        return {"prize": self.prize, "id": self.player_id}


def game_score(stats: PlayerStats) -> Fraction:
    """1 / ½ / 0 per game; a forfeit win counts as a won game."""
    return stats.won + stats.forfeit_wins + Fraction(stats.drawn, 2)


def _eligible_in_order(standings: Sequence[Standing | LadderStanding], eligible: Collection[int]) -> list[int]:
    return [row.player_id for row in sorted(standings, key=lambda r: r.rank) if row.player_id in eligible]


def winter_prizes(standings: Sequence[Standing], eligible: Collection[int]) -> tuple[Prize, ...]:
    """Champion, silver and bronze to the three highest-placed eligible players (an
    ineligible player is skipped, not counted); best of the rest to the highest game
    score among the other eligible players, ties by standings place."""
    ordered = _eligible_in_order(standings, eligible)
    medals: tuple[PrizeName, ...] = ("champion", "silver", "bronze")
    prizes = [Prize(name, player_id) for name, player_id in zip(medals, ordered, strict=False)]
    others = set(ordered[3:])
    rest = [row for row in standings if row.player_id in others]
    if rest:
        best = max(rest, key=lambda r: (game_score(r.stats), -r.rank))
        prizes.append(Prize("best_of_rest", best.player_id))
    return tuple(prizes)


def summer_prizes(standings: Sequence[Standing], eligible: Collection[int]) -> tuple[Prize, ...]:
    """The summer champion: the highest-placed eligible player."""
    ordered = _eligible_in_order(standings, eligible)
    return (Prize("summer_champion", ordered[0]),) if ordered else ()


def ladder_prizes(standings: Sequence[LadderStanding], eligible: Collection[int]) -> tuple[Prize, ...]:
    """Season prizes of the ladder: the first three eligible players of the final ladder."""
    medals: tuple[PrizeName, ...] = ("champion", "silver", "bronze")
    ordered = _eligible_in_order(standings, eligible)
    return tuple(Prize(name, player_id) for name, player_id in zip(medals, ordered, strict=False))


def playoff_players(standings: Sequence[Standing], eligible: Collection[int]) -> tuple[int, ...]:
    """Every eligible player of the summer half, in summer final order."""
    return tuple(_eligible_in_order(standings, eligible))


def playoff_groups(players: Sequence[int], size: int = PLAYOFF_GROUP) -> tuple[tuple[int, ...], ...]:
    """Groups of four in the given order, the top group first. A last group of three
    stays a group (its first gets a bye to the final); one or two leftover players join
    the group above (a group of five or six). Fewer than three players in all form one
    group. See competition/prizes/engine/playoffs.py for the brackets."""
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")
    groups = [tuple(players[i : i + size]) for i in range(0, len(players), size)]
    if len(groups) > 1 and len(groups[-1]) < size - 1:
        groups[-2:] = [groups[-2] + groups[-1]]
    return tuple(groups)


# ---------------------------------------------------------------------------
# The ladder's period championship


@dataclass(frozen=True)
class PeriodChampion:
    group: int
    player_id: int
    progress: Fraction


def period_dates(evenings: Sequence[Evening]) -> tuple[datetime.date, datetime.date] | None:
    """September to the end of January: from the season's first evening to 31 January
    after it; None without evenings."""
    if not evenings:
        return None
    first = evenings[0].date
    return first, datetime.date(first.year + (1 if first.month >= 7 else 0), 1, 31)


def period_championship(
    params: LadderParams,
    players: Sequence[Player],
    evenings: Sequence[Evening],
    date_from: datetime.date,
    date_to: datetime.date,
    groups: int = PERIOD_GROUPS,
) -> tuple[PeriodChampion, ...]:
    """Per group of the starting order (`ladder_groups`), the player with the greatest
    progress in ladder points (deltas + bonuses) from `date_from` to `date_to`. Only
    players who played a game in the period compete; equal progress: the better
    starting position wins."""
    gained = progress(params, players, evenings, date_from, date_to)
    played = {
        player_id
        for evening in evenings
        if date_from <= evening.date <= date_to
        for game in evening.games
        if game.result in ("1-0", "0-1", "1/2-1/2")
        for player_id in (game.white, game.black)
    }
    group_of = ladder_groups(players, groups)
    champions = []
    for group in range(1, groups + 1):
        competing = [p for p in players if group_of.get(p.id) == group and p.id in played]
        if competing:
            best = max(competing, key=lambda p: (gained[p.id], -p.start))
            champions.append(PeriodChampion(group, best.id, gained[best.id]))
    return tuple(champions)


# ---------------------------------------------------------------------------
# The season-file report


def prize_report(
    season: SeasonInput,
    results: Mapping[Half, HalfResult] | LadderResult | None = None,
    overrides: Mapping[int, bool] | None = None,
    *,
    percentage: int | None = None,
    min_games: int = MIN_GAMES,
    max_exempted: int = MAX_EXEMPTED,
) -> dict[str, Any]:
    """Eligibility, prizes and playoff groups, shaped like `seasonfile.compute`'s report.

    Keizer: {"winter": {"standings": [{"id", "eligible"}], "prizes": [{"prize", "id"}]},
    "summer": {..., "playoff_groups": [[id, ...], ...]}}; ladder: {"season": {"standings",
    "prizes", "period_championship": [{"group", "id", "progress"}]}}. Rows are in standings
    order. `results` are the engines' results for `season` (computed when None);
    `percentage` defaults to the system's preset (`default_percentage`);
    `merge_prize_report` adds this to the standings report.
    """
    if isinstance(season.params, LadderParams):
        ladder = results if isinstance(results, LadderResult) else None
        return {"season": _ladder_part(season, ladder, overrides, min_games, max_exempted)}
    assert isinstance(season.params, KeizerParams)
    halves = results
    if halves is None or isinstance(halves, LadderResult):
        halves = compute_keizer_season(season.params, season.players, season.evenings, history=False)
    if percentage is None:
        percentage = default_percentage(season.system)
    report: dict[str, Any] = {}
    for half, result in halves.items():
        evenings = sum(1 for e in season.evenings if e.half == half)
        eligibility = keizer_eligibility(result.standings, evenings, percentage=percentage, overrides=overrides)
        eligible = {p for p, e in eligibility.items() if e.eligible}
        part: dict[str, Any] = {"standings": _rows(result.standings, eligibility)}
        if half == "summer":
            part["prizes"] = [p.to_json() for p in summer_prizes(result.standings, eligible)]
            groups = playoff_groups(playoff_players(result.standings, eligible))
            part["playoff_groups"] = [list(g) for g in groups]
        else:
            part["prizes"] = [p.to_json() for p in winter_prizes(result.standings, eligible)]
        report[half] = part
    return report


def _ladder_part(
    season: SeasonInput,
    result: LadderResult | None,
    overrides: Mapping[int, bool] | None,
    min_games: int,
    max_exempted: int,
) -> dict[str, Any]:
    assert isinstance(season.params, LadderParams)
    if result is None:
        result = compute_ladder(season.params, season.players, season.evenings, history=False)
    eligibility = ladder_eligibility(
        result.standings, len(season.evenings), min_games=min_games, max_exempted=max_exempted, overrides=overrides
    )
    eligible = {p for p, e in eligibility.items() if e.eligible}
    champions: tuple[PeriodChampion, ...] = ()
    dates = period_dates(season.evenings)
    if dates is not None:
        champions = period_championship(season.params, season.players, season.evenings, *dates)
    return {
        "standings": _rows(result.standings, eligibility),
        "prizes": [p.to_json() for p in ladder_prizes(result.standings, eligible)],
        "period_championship": [
            {"group": c.group, "id": c.player_id, "progress": points_json(c.progress)} for c in champions
        ],
    }


def _rows(standings: Sequence[Standing | LadderStanding], eligibility: Mapping[int, Eligibility]) -> list[dict[str, Any]]:
    return [{"id": row.player_id, "eligible": eligibility[row.player_id].eligible} for row in standings]


def merge_prize_report(report: Mapping[str, Any], prizes: Mapping[str, Any]) -> dict[str, Any]:
    """`report` (from `seasonfile.compute`) with `eligible` on every final standings row
    and the other keys of `prize_report` on each part. History rows are left alone."""
    merged: dict[str, Any] = {}
    for name, part in report.items():
        extra = prizes.get(name)
        if extra is None:
            merged[name] = part
            continue
        eligible = {row["id"]: row["eligible"] for row in extra["standings"]}
        new_part = dict(part)
        new_part["standings"] = [{**row, "eligible": eligible[row["id"]]} for row in part["standings"]]
        new_part.update({key: value for key, value in extra.items() if key != "standings"})
        merged[name] = new_part
    return merged
