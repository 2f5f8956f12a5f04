"""The rank-difference ladder (seed 001, docs/rules.md 4.2).

A played game moves `delta(A) = base(A) + place_factor × (start(A) - start(B))`
from B to A (zero-sum); each game played (and, by parameter, each club duty or
bye) adds an attendance bonus. Ladder points = start points + deltas + bonuses;
the pairing order ignores the bonuses. No recalculation: a game's delta depends
only on the starting positions, so the ladder is a plain running sum.
"""

from __future__ import annotations

import datetime
import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from competition.scoring.keizer import count_event, new_counts
from competition.scoring.types import (
    RESULT_OUTCOMES,
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

GROUPS = 4

_Row = TypeVar("_Row", LadderStanding, LadderLine, PlayerStats)


def ladder_groups(players: Sequence[Player], groups: int = GROUPS) -> dict[int, int]:
    """Group 1..4 by starting position, as equal as possible, larger groups first
    (58 players: 15, 15, 14, 14)."""
    ordered = sorted(players, key=lambda p: (p.start, p.id))
    size, extra = divmod(len(ordered), groups)
    result: dict[int, int] = {}
    position = 0
    for group in range(1, groups + 1):
        count = size + (1 if group <= extra else 0)
        for player in ordered[position : position + count]:
            result[player.id] = group
        position += count
    return result


def start_points(params: LadderParams, player: Player, player_count: int) -> Fraction:
    """Given start points, or by default place_factor × (N - start): keeps the order."""
    if player.start_points is not None:
        return player.start_points
    return params.place_factor * (player_count - player.start)


def game_delta(params: LadderParams, outcome: Outcome, own_start: int, opponent_start: int) -> Fraction:
    """Ladder points a played game moves to the player (the opponent gets the negative).
    A lower starting position (higher number) beating a higher one gains more."""
    base = {Outcome.WIN: params.win, Outcome.DRAW: params.draw, Outcome.LOSS: params.loss}.get(outcome)
    if base is None:  # forfeits and postponed games move nothing
        return Fraction(0)
    return base + params.place_factor * (own_start - opponent_start)


def _bonus(params: LadderParams, outcome: Outcome) -> Fraction:
    if outcome in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS):
        return params.bonus
    if outcome == Outcome.CLUB_DUTY and params.bonus_for_club_duty:
        return params.bonus
    if outcome == Outcome.BYE and params.bonus_for_bye:
        return params.bonus
    return Fraction(0)


def _evening_events(evening: Evening) -> Iterator[tuple[int, Outcome, int | None, str | None]]:
    """(player, outcome, opponent, colour) for everybody the evening mentions."""
    for game in evening.games:
        white, black = RESULT_OUTCOMES[game.result]
        yield game.white, white, game.black, "white"
        yield game.black, black, game.white, "black"
    for player_id in evening.byes:
        yield player_id, Outcome.BYE, None, None
    for player_id in evening.absent_with_notice:
        yield player_id, Outcome.ABSENT_WITH_NOTICE, None, None
    for player_id in evening.club_duty:
        yield player_id, Outcome.CLUB_DUTY, None, None


def _evening_lines(
    params: LadderParams, evening: Evening, starts: Mapping[int, int]
) -> dict[int, tuple[LadderLine, str | None]]:
    lines: dict[int, tuple[LadderLine, str | None]] = {}
    for player_id, outcome, opponent, colour in _evening_events(evening):
        if player_id not in starts or (opponent is not None and opponent not in starts):
            raise ValueError(f"unknown player in evening {evening.date}")
        if player_id in lines:
            raise ValueError(f"player {player_id} appears twice in evening {evening.date}")
        delta = Fraction(0)
        if opponent is not None:
            delta = game_delta(params, outcome, starts[player_id], starts[opponent])
        line = LadderLine(evening.date, outcome, opponent, delta, _bonus(params, outcome))
        lines[player_id] = (line, colour)
    return lines


def compute_ladder(
    params: LadderParams, players: Sequence[Player], evenings: Sequence[Evening], *, history: bool = True
) -> LadderResult:
    """Ladder standings after every evening. Fixed players are in the standings from
    the start; flexible players from the first evening that mentions them.

    Sums are integers in one unit (hundredths with the presets: 0.07 and 0.3 are exact);
    `Fraction`s appear only in the output, each value built once."""
    starts = {p.id: p.start for p in players}
    points0 = {p.id: start_points(params, p, len(players)) for p in players}
    numbers = (params.win, params.draw, params.loss, params.place_factor, params.bonus, *points0.values())
    unit = math.lcm(1, *(Fraction(n).denominator for n in numbers))

    def scaled(number: Fraction) -> int:
        number = Fraction(number)
        return number.numerator * (unit // number.denominator)

    fractions: dict[int, Fraction] = {}

    def fraction(units: int) -> Fraction:
        result = fractions.get(units)
        if result is None:
            result = fractions[units] = Fraction(units, unit)
        return result

    base = {Outcome.WIN: scaled(params.win), Outcome.DRAW: scaled(params.draw), Outcome.LOSS: scaled(params.loss)}
    factor, bonus = scaled(params.place_factor), scaled(params.bonus)
    bonused = {Outcome.WIN, Outcome.DRAW, Outcome.LOSS}
    if params.bonus_for_club_duty:
        bonused.add(Outcome.CLUB_DUTY)
    if params.bonus_for_bye:
        bonused.add(Outcome.BYE)
    start_units = {p: scaled(points) for p, points in points0.items()}
    groups = ladder_groups(players)
    active = {p.id for p in players if p.fixed}
    deltas = dict.fromkeys(starts, 0)
    bonuses = dict.fromkeys(starts, 0)
    counts = {player_id: new_counts() for player_id in starts}
    lines: dict[int, list[LadderLine]] = {player_id: [] for player_id in starts}
    snapshots: list[LadderEvening] = []
    # What the history rows of each evening need beyond the running counts, which are
    # replayed from the evenings' counted events when its rows are first read.
    states: list[tuple[frozenset[int], dict[int, int], dict[int, int], list[tuple[int, Outcome, str | None]], list[int]]] = []

    def fill(start: int) -> None:
        """The rows of evening `start` and of every later one (`types.Deferred`)."""
        replay = {player_id: new_counts() for player_id in starts}
        for k, (were_active, deltas_k, bonuses_k, counted, absent_k) in enumerate(states):
            for player_id, outcome, colour in counted:
                count_event(replay[player_id], outcome, colour)
            for player_id in absent_k:
                replay[player_id]["absent_without_notice"] += 1
            state = snapshots[k].__dict__
            if k < start or "rows" in state:
                continue
            state["rows"] = _unit_rows(set(were_active), starts, groups, points0, start_units, deltas_k,
                                       bonuses_k, replay, lines, fraction, False)
            state.pop("_deferred", None)

    for evening in evenings:
        seen: set[int] = set()
        counted: list[tuple[int, Outcome, str | None]] = []
        for player_id, outcome, opponent, colour in _evening_events(evening):
            if player_id not in starts or (opponent is not None and opponent not in starts):
                raise ValueError(f"unknown player in evening {evening.date}")
            if player_id in seen:
                raise ValueError(f"player {player_id} appears twice in evening {evening.date}")
            seen.add(player_id)
            delta = 0
            if opponent is not None and outcome in base:
                delta = base[outcome] + factor * (starts[player_id] - starts[opponent])
            gained = bonus if outcome in bonused else 0
            deltas[player_id] += delta
            bonuses[player_id] += gained
            line = _frozen(
                LadderLine, date=evening.date, outcome=outcome, opponent=opponent,
                delta=fraction(delta), bonus=fraction(gained),
            )
            lines[player_id].append(line)
            count_event(counts[player_id], outcome, colour)
            counted.append((player_id, outcome, colour))
        active |= seen
        absent = LadderLine(evening.date, Outcome.ABSENT_WITHOUT_NOTICE, None, fraction(0), fraction(0))
        missing = list(active - seen)
        for player_id in missing:
            lines[player_id].append(absent)  # equal lines may be one object: they are frozen
            counts[player_id]["absent_without_notice"] += 1
        if history:  # the rows made when first read: most evenings' never are
            states.append((frozenset(active), dict(deltas), dict(bonuses), counted, missing))
            entry = _new(LadderEvening)
            _set(entry, "__dict__", {"date": evening.date,
                                     "_deferred": functools.partial(fill, len(snapshots))})
            snapshots.append(entry)
    final = _unit_rows(active, starts, groups, points0, start_units, deltas, bonuses, counts, lines, fraction, True)
    return LadderResult(standings=final, history=tuple(snapshots) if history else ())


def _unit_rows(
    active: set[int],
    starts: Mapping[int, int],
    groups: Mapping[int, int],
    points0: Mapping[int, Fraction],
    start_units: Mapping[int, int],
    deltas: Mapping[int, int],
    bonuses: Mapping[int, int],
    counts: Mapping[int, dict[str, int]],
    lines: Mapping[int, list[LadderLine]],
    fraction: Callable[[int], Fraction],
    with_lines: bool,
) -> tuple[LadderStanding, ...]:
    points = {p: start_units[p] + deltas[p] + bonuses[p] for p in active}
    ordered = sorted(active, key=lambda p: (-points[p], starts[p]))
    rows = []
    for rank, p in enumerate(ordered, start=1):
        stats = _frozen_from(PlayerStats, dict(counts[p]))
        rows.append(_frozen_from(LadderStanding, {
            "rank": rank, "player_id": p, "start": starts[p], "group": groups[p],
            "start_points": points0[p], "points": fraction(points[p]),
            "pairing_points": fraction(start_units[p] + deltas[p]),
            "bonus": fraction(bonuses[p]), "stats": stats,
            "lines": tuple(lines[p]) if with_lines else (),
        }))
    return tuple(rows)


def _frozen(cls: type[_Row], **fields: object) -> _Row:
    """A frozen dataclass built without its __init__, which sets every field through
    object.__setattr__ and costs most of a full history. Every field must be given."""
    return _frozen_from(cls, fields)


_new = object.__new__
_set = object.__setattr__


def _frozen_from(cls: type[_Row], fields: dict[str, object]) -> _Row:
    """`_frozen` with the fields as a dict of their own (it becomes the row's)."""
    row = _new(cls)
    _set(row, "__dict__", fields)
    return row


def pairing_order(standings: Sequence[LadderStanding]) -> list[int]:
    """Player ids for pairing: by ladder points without bonuses, ties by start."""
    return [row.player_id for row in sorted(standings, key=lambda r: (-r.pairing_points, r.start))]


def progress(
    params: LadderParams,
    players: Sequence[Player],
    evenings: Sequence[Evening],
    date_from: datetime.date,
    date_to: datetime.date,
) -> dict[int, Fraction]:
    """Ladder points gained (deltas + bonuses) on evenings from `date_from` to
    `date_to`, both included: the period championship's measure."""
    starts = {p.id: p.start for p in players}
    gained = dict.fromkeys(starts, Fraction(0))
    for evening in evenings:
        if date_from <= evening.date <= date_to:
            for player_id, (line, _) in _evening_lines(params, evening, starts).items():
                gained[player_id] += line.delta + line.bonus
    return gained
