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
from typing import Final

import numpy as np

from competition.scoring.exact import Fractions
from competition.scoring.keizer import history_counts, kind_of, stats_after
from competition.scoring.types import (
    RESULT_OUTCOMES,
    Evening,
    LadderEvening,
    LadderLine,
    LadderParams,
    LadderResult,
    LadderStanding,
    LadderTable,
    Outcome,
    Player,
    PlayerStats,
)

GROUPS = 4


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
    `Fraction`s appear only in the output, each value built once. The evenings are read
    once into flat lists (no object per game per evening); the explanation lines and the
    history rows are made from them when first read (`types.Deferred`)."""
    starts = {p.id: p.start for p in players}
    points0 = {p.id: start_points(params, p, len(players)) for p in players}
    numbers = (params.win, params.draw, params.loss, params.place_factor, params.bonus, *points0.values())
    unit = math.lcm(1, *(Fraction(n).denominator for n in numbers))

    def scaled(number: Fraction) -> int:
        number = Fraction(number)
        return number.numerator * (unit // number.denominator)

    memo = Fractions()  # every Fraction of the output, made once
    made = memo.over(unit)  # by its units
    fraction: Callable[[int], Fraction] = functools.partial(memo.get, denominator=unit)

    base = {Outcome.WIN: scaled(params.win), Outcome.DRAW: scaled(params.draw), Outcome.LOSS: scaled(params.loss)}
    factor, bonus = scaled(params.place_factor), scaled(params.bonus)
    bonused = {Outcome.WIN, Outcome.DRAW, Outcome.LOSS}
    if params.bonus_for_club_duty:
        bonused.add(Outcome.CLUB_DUTY)
    if params.bonus_for_bye:
        bonused.add(Outcome.BYE)
    # Per game result, each side's outcome and its base move (None: the game moves nothing)
    sides = {result: (white, black, base.get(white), base.get(black), bonus if white in bonused else 0,
                      bonus if black in bonused else 0)
             for result, (white, black) in RESULT_OUTCOMES.items()}
    # The counts are tallied as the Keizer engine's are (`keizer.stats_after`): each event
    # as its kind × size + the player's position.
    size = len(starts)
    position = {player_id: i for i, player_id in enumerate(starts)}
    kinds = {result: (kind_of(white, "white") * size, kind_of(black, "black") * size)
             for result, (white, black) in RESULT_OUTCOMES.items()}
    alone = (  # the outcomes of a player alone, in the order `_evening_events` names them
        ("byes", Outcome.BYE, bonus if Outcome.BYE in bonused else 0),
        ("absent_with_notice", Outcome.ABSENT_WITH_NOTICE, 0),
        ("club_duty", Outcome.CLUB_DUTY, bonus if Outcome.CLUB_DUTY in bonused else 0),
    )
    absent_kind = kind_of(Outcome.ABSENT_WITHOUT_NOTICE, None) * size
    start_units = {p: scaled(points) for p, points in points0.items()}
    active = {p.id for p in players if p.fixed}
    deltas = dict.fromkeys(starts, 0)
    bonuses = dict.fromkeys(starts, 0)
    # Every event of the season, in flat lists: who, what, against whom, with which colour,
    # the delta and the bonus in units; `ends[k]` is where evening k's events end. The
    # players absent without notice, per evening.
    who: list[int] = []
    what: list[Outcome] = []
    against: list[int | None] = []
    colours: list[str | None] = []
    moved: list[int] = []
    gained: list[int] = []
    ends: list[int] = []
    absent: list[list[int]] = []
    after: list[tuple[int, list[int], list[int]]] = []  # per evening: how many are in, deltas, bonuses
    entered = [(0, [position[p] for p in active])]  # (evening, the positions of who entered the ladder then)
    tally: list[int] = []
    tally_ends: list[int] = []  # where each evening's part of the tally ends
    add_who, add_what, add_against, add_colour = who.append, what.append, against.append, colours.append
    add_moved, add_gained, count = moved.append, gained.append, tally.append
    for evening in evenings:
        seen: set[int] = set()
        date = evening.date
        for game in evening.games:
            white, black = game.white, game.black
            if white not in starts or black not in starts:
                raise ValueError(f"unknown player in evening {date}")
            if white in seen:
                raise ValueError(f"player {white} appears twice in evening {date}")
            seen.add(white)
            if black in seen:
                raise ValueError(f"player {black} appears twice in evening {date}")
            seen.add(black)
            white_outcome, black_outcome, white_base, black_base, white_bonus, black_bonus = sides[game.result]
            difference = factor * (starts[white] - starts[black])
            white_delta = 0 if white_base is None else white_base + difference
            black_delta = 0 if black_base is None else black_base - difference
            deltas[white] += white_delta
            deltas[black] += black_delta
            bonuses[white] += white_bonus
            bonuses[black] += black_bonus
            add_who(white), add_what(white_outcome), add_against(black), add_colour("white")
            add_moved(white_delta), add_gained(white_bonus)
            add_who(black), add_what(black_outcome), add_against(white), add_colour("black")
            add_moved(black_delta), add_gained(black_bonus)
            white_kind, black_kind = kinds[game.result]
            count(white_kind + position[white]), count(black_kind + position[black])
        for attribute, outcome, amount in alone:
            alone_kind = kind_of(outcome, None) * size
            for player_id in getattr(evening, attribute):
                if player_id not in starts:
                    raise ValueError(f"unknown player in evening {date}")
                if player_id in seen:
                    raise ValueError(f"player {player_id} appears twice in evening {date}")
                seen.add(player_id)
                bonuses[player_id] += amount
                add_who(player_id), add_what(outcome), add_against(None), add_colour(None)
                add_moved(0), add_gained(amount)
                count(alone_kind + position[player_id])
        ends.append(len(who))
        if history and not seen <= active:
            entered.append((len(ends) - 1, [position[p] for p in seen - active]))
        active |= seen
        missing = [p for p in active if p not in seen]
        absent.append(missing)
        tally.extend([absent_kind + position[p] for p in missing])
        tally_ends.append(len(tally))
        if history:
            after.append((len(active), list(deltas.values()), list(bonuses.values())))
    groups = ladder_groups(players)
    rows_of = functools.partial(_rows, starts, groups, points0, start_units, made, fraction)
    snapshots: list[LadderEvening] = []

    def tables() -> None:
        """Every evening's table (`types.LadderTable`, what the store reads), at once."""
        made_tables = _history_tables(starts, groups, start_units, unit, after, entered, tally, tally_ends)
        for entry, table in zip(snapshots, made_tables, strict=True):
            entry.__dict__["_table"] = table
            entry.__dict__.pop("_tables", None)

    def fill(start: int) -> None:
        """The rows of evening `start` and of every later one (`types.Deferred`)."""
        for entry in snapshots[start:]:
            state = entry.__dict__
            if "rows" not in state:
                state["rows"] = entry.table().rows(memo)
                state.pop("_deferred", None)

    if history:
        for k, evening in enumerate(evenings):
            entry = _new(LadderEvening)
            _set(entry, "__dict__", {"date": evening.date, "_deferred": functools.partial(fill, k),
                                     "_tables": tables})
            snapshots.append(entry)
    stats = stats_after(tally, size)  # after the last evening
    final = rows_of(list(active), deltas, bonuses, {player_id: stats[i] for player_id, i in position.items()})
    lines: dict[int, tuple[LadderLine, ...]] = {}

    def fill_lines() -> None:
        if not lines:
            lines.update(_lines(evenings, who, what, against, moved, gained, ends, absent, starts, fraction))
        for row in final:
            state = row.__dict__
            if "lines" not in state:
                state["lines"] = lines[state["player_id"]]
            state.pop("_deferred", None)

    for row in final:
        del row.__dict__["lines"]
        row.__dict__["_deferred"] = fill_lines
    return LadderResult(standings=final, history=tuple(snapshots))


def _history_tables(
    starts: Mapping[int, int],
    groups: Mapping[int, int],
    start_units: Mapping[int, int],
    unit: int,
    after: Sequence[tuple[int, list[int], list[int]]],
    entered: Sequence[tuple[int, list[int]]],
    tally: Sequence[int],
    tally_ends: Sequence[int],
) -> list[LadderTable]:
    """Every evening's table, all evenings at once: the counts (`keizer.history_counts`),
    the points as arrays (evenings × players) and every evening's order in one sort, as
    `_rows` orders (points, ties by start; who is not yet in the ladder last). Exact: the
    sort keys are int64 only when every one fits (`_KEY_LIMIT`), else the evenings are
    ordered one by one in Python ints."""
    players = list(starts)
    size, evenings = len(players), len(after)
    counts = history_counts(tally, tally_ends, size)
    beyond = max(starts.values(), default=0) - min(starts.values(), default=0) + 1  # a tie goes by start
    start_of = np.array([starts[p] for p in players], dtype=np.int64)
    since = np.full(size, evenings, dtype=np.int64)  # the first evening each player is in the ladder
    for k, positions in entered:
        since[positions] = k
    counted = [count for count, _, _ in after]
    units0_list = [start_units[p] for p in players]
    try:
        units0 = np.array(units0_list, dtype=np.int64)
        deltas = np.array([d for _, d, _ in after], dtype=np.int64).reshape(evenings, size)
        bonuses = np.array([b for _, _, b in after], dtype=np.int64).reshape(evenings, size)
    except OverflowError:
        keys_fit = False
    else:  # |points| at most the largest of each part (in float64, with room to spare)
        largest = sum(float(np.abs(part.astype(np.float64)).max(initial=0)) for part in (units0, deltas, bonuses))
        keys_fit = beyond * (largest + 1) + float(start_of.max(initial=0)) + 1 < _KEY_LIMIT / 2
    if keys_fit:
        pairing = units0 + deltas
        points = pairing + bonuses
        keys = start_of - beyond * points
        keys[since[None, :] > np.arange(evenings)[:, None]] = _KEY_LIMIT  # not yet in: last
        orders = keys.argsort(axis=1, kind="stable")
    ids = np.array(players, dtype=np.int64)
    group_of = np.array([groups[p] for p in players], dtype=np.int64)
    if keys_fit:  # every column of every evening in one gather each
        rows = np.arange(evenings)[:, None]
        gathered = [units0[orders].tolist(), points[rows, orders].tolist(), pairing[rows, orders].tolist(),
                    bonuses[rows, orders].tolist(), ids[orders].tolist(), start_of[orders].tolist(),
                    group_of[orders].tolist()]
        picked_counts = np.take_along_axis(counts, orders[:, None, :], axis=2).tolist()
        tables = []
        for k in range(evenings):
            n = counted[k]
            start_points, points_k, pairing_k, bonuses_k, ids_k, starts_k, groups_k = (
                column[k][:n] for column in gathered)
            table = _new(LadderTable)
            _set(table, "__dict__", {
                "player_ids": tuple(ids_k), "starts": tuple(starts_k), "groups": tuple(groups_k),
                "start_points": tuple(start_points), "points": tuple(points_k),
                "pairing_points": tuple(pairing_k), "bonuses": tuple(bonuses_k), "unit": unit,
                "counts": tuple([tuple(column[:n]) for column in picked_counts[k]]),
            })
            tables.append(table)
        return tables
    tables = []  # the numbers too large for int64 keys: each evening ordered in Python ints
    start_list = start_of.tolist()
    for k in range(evenings):
        _, delta_list, bonus_list = after[k]
        pairing_list = [u + d for u, d in zip(units0_list, delta_list, strict=True)]
        points_list = [q + b for q, b in zip(pairing_list, bonus_list, strict=True)]
        picked = sorted(np.flatnonzero(since <= k).tolist(), key=lambda i: start_list[i] - beyond * points_list[i])
        ordered = np.array(picked, dtype=np.intp)
        table = _new(LadderTable)
        _set(table, "__dict__", {
            "player_ids": tuple(ids[ordered].tolist()),
            "starts": tuple(start_of[ordered].tolist()),
            "groups": tuple(group_of[ordered].tolist()),
            "start_points": tuple([units0_list[i] for i in picked]),
            "points": tuple([points_list[i] for i in picked]),
            "pairing_points": tuple([pairing_list[i] for i in picked]),
            "bonuses": tuple([bonus_list[i] for i in picked]),
            "unit": unit,
            "counts": tuple(map(tuple, counts[k][:, ordered].tolist())),
        })
        tables.append(table)
    return tables


_KEY_LIMIT: Final = 2**62  # int64 sort keys below it: exact


def _rows(
    starts: Mapping[int, int],
    groups: Mapping[int, int],
    points0: Mapping[int, Fraction],
    start_units: Mapping[int, int],
    made: Mapping[int, Fraction],
    fraction: Callable[[int], Fraction],
    active: Sequence[int],
    deltas: Mapping[int, int],
    bonuses: Mapping[int, int],
    counts: Mapping[int, dict[str, int]],
) -> tuple[LadderStanding, ...]:
    """One evening's rows, best first (ties by starting position), without lines; their
    Fractions from `made` (by units), else from `fraction`. The frozen rows are made
    without their dataclass __init__ (which sets every field through
    object.__setattr__), every field given."""
    pairing = {p: start_units[p] + deltas[p] for p in active}
    points = {p: pairing[p] + bonuses[p] for p in active}
    beyond = max(starts.values(), default=0) - min(starts.values(), default=0) + 1  # a tie goes by start
    ordered = sorted(active, key={p: starts[p] - beyond * points[p] for p in active}.__getitem__)
    rows: list[LadderStanding] = []
    append, new, set_, known = rows.append, _new, _set, made.get
    for rank, p in enumerate(ordered, start=1):
        stats = new(PlayerStats)
        set_(stats, "__dict__", counts[p].copy())
        total, before_bonus, bonus = points[p], pairing[p], bonuses[p]
        total_fraction, pairing_fraction, bonus_fraction = known(total), known(before_bonus), known(bonus)
        if total_fraction is None:
            total_fraction = fraction(total)
        if pairing_fraction is None:
            pairing_fraction = fraction(before_bonus)
        if bonus_fraction is None:
            bonus_fraction = fraction(bonus)
        row = new(LadderStanding)
        set_(row, "__dict__", {
            "rank": rank, "player_id": p, "start": starts[p], "group": groups[p],
            "start_points": points0[p], "points": total_fraction, "pairing_points": pairing_fraction,
            "bonus": bonus_fraction, "stats": stats, "lines": (),
        })
        append(row)
    return tuple(rows)


def _lines(
    evenings: Sequence[Evening], who: Sequence[int], what: Sequence[Outcome], against: Sequence[int | None],
    moved: Sequence[int], gained: Sequence[int], ends: Sequence[int], absent: Sequence[Sequence[int]],
    starts: Mapping[int, int], fraction: Callable[[int], Fraction],
) -> dict[int, tuple[LadderLine, ...]]:
    """Every player's explanation lines, evening by evening, from the flat events."""
    lines: dict[int, list[LadderLine]] = {player_id: [] for player_id in starts}
    event = 0
    zero = fraction(0)
    for k, end in enumerate(ends):
        date = evenings[k].date
        for i in range(event, end):
            line = _new(LadderLine)
            _set(line, "__dict__", {"date": date, "outcome": what[i], "opponent": against[i],
                                    "delta": fraction(moved[i]), "bonus": fraction(gained[i])})
            lines[who[i]].append(line)
        event = end
        if absent[k]:
            line = LadderLine(date, Outcome.ABSENT_WITHOUT_NOTICE, None, zero, zero)
            for player_id in absent[k]:
                lines[player_id].append(line)  # equal lines may be one object: they are frozen
    return {player_id: tuple(player_lines) for player_id, player_lines in lines.items()}


_new = object.__new__
_set = object.__setattr__


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
