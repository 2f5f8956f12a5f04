"""The ladder as it was computed before it moved to integer units: every sum a `Fraction`.

Kept as the reference the integer ladder (`ladder.compute_ladder`) must equal exactly,
in tests and in `make bench`. Not used by the application.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from competition.scoring.keizer import count_event, new_counts
from competition.scoring.ladder import _evening_lines, ladder_groups, start_points
from competition.scoring.types import (
    Evening,
    LadderEvening,
    LadderLine,
    LadderParams,
    LadderResult,
    LadderStanding,
    Outcome,
    Player,
    PlayerStats,
)


def compute_ladder_reference(
    params: LadderParams, players: Sequence[Player], evenings: Sequence[Evening], *, history: bool = True
) -> LadderResult:
    """Ladder standings after every evening. Fixed players are in the standings from
    the start; flexible players from the first evening that mentions them."""
    starts = {p.id: p.start for p in players}
    points0 = {p.id: start_points(params, p, len(players)) for p in players}
    groups = ladder_groups(players)
    active = {p.id for p in players if p.fixed}
    deltas = dict.fromkeys(starts, Fraction(0))
    bonuses = dict.fromkeys(starts, Fraction(0))
    counts = {player_id: new_counts() for player_id in starts}
    lines: dict[int, list[LadderLine]] = {player_id: [] for player_id in starts}
    snapshots: list[LadderEvening] = []
    for evening in evenings:
        evening_lines = _evening_lines(params, evening, starts)
        active |= set(evening_lines)
        for player_id in active - set(evening_lines):
            line = LadderLine(evening.date, Outcome.ABSENT_WITHOUT_NOTICE, None, Fraction(0), Fraction(0))
            evening_lines[player_id] = (line, None)
        for player_id, (line, colour) in evening_lines.items():
            deltas[player_id] += line.delta
            bonuses[player_id] += line.bonus
            lines[player_id].append(line)
            count_event(counts[player_id], line.outcome, colour)
        if history:
            rows = _rows(active, starts, groups, points0, deltas, bonuses, counts, lines, with_lines=False)
            snapshots.append(LadderEvening(evening.date, rows))
    final = _rows(active, starts, groups, points0, deltas, bonuses, counts, lines, with_lines=True)
    return LadderResult(standings=final, history=tuple(snapshots) if history else ())


def _rows(
    active: set[int],
    starts: Mapping[int, int],
    groups: Mapping[int, int],
    points0: Mapping[int, Fraction],
    deltas: Mapping[int, Fraction],
    bonuses: Mapping[int, Fraction],
    counts: Mapping[int, dict[str, int]],
    lines: Mapping[int, list[LadderLine]],
    *,
    with_lines: bool,
) -> tuple[LadderStanding, ...]:
    def points(player_id: int) -> Fraction:
        return points0[player_id] + deltas[player_id] + bonuses[player_id]

    ordered = sorted(active, key=lambda p: (-points(p), starts[p]))
    return tuple(
        LadderStanding(
            rank=rank,
            player_id=p,
            start=starts[p],
            group=groups[p],
            start_points=points0[p],
            points=points(p),
            pairing_points=points0[p] + deltas[p],
            bonus=bonuses[p],
            stats=PlayerStats(**counts[p]),
            lines=tuple(lines[p]) if with_lines else (),
        )
        for rank, p in enumerate(ordered, start=1)
    )
