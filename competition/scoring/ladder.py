"""The rank-difference ladder (seed 001, docs/rules.md 4.2).

A played game moves `delta(A) = base(A) + place_factor × (start(A) - start(B))`
from B to A (zero-sum); each game played (and, by parameter, each club duty or
bye) adds an attendance bonus. Ladder points = start points + deltas + bonuses;
the pairing order ignores the bonuses. No recalculation: a game's delta depends
only on the starting positions, so the ladder is a plain running sum.
"""

from __future__ import annotations

import collections
import datetime
import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Final

from competition.scoring.exact import Fractions
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
    alone = (  # the outcomes of a player alone, in the order `_evening_events` names them
        ("byes", Outcome.BYE, bonus if Outcome.BYE in bonused else 0),
        ("absent_with_notice", Outcome.ABSENT_WITH_NOTICE, 0),
        ("club_duty", Outcome.CLUB_DUTY, bonus if Outcome.CLUB_DUTY in bonused else 0),
    )
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
    after: list[tuple[list[int], dict[int, int], dict[int, int]]] = []  # per evening, for its rows
    add_who, add_what, add_against, add_colour = who.append, what.append, against.append, colours.append
    add_moved, add_gained = moved.append, gained.append
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
        for attribute, outcome, amount in alone:
            for player_id in getattr(evening, attribute):
                if player_id not in starts:
                    raise ValueError(f"unknown player in evening {date}")
                if player_id in seen:
                    raise ValueError(f"player {player_id} appears twice in evening {date}")
                seen.add(player_id)
                bonuses[player_id] += amount
                add_who(player_id), add_what(outcome), add_against(None), add_colour(None)
                add_moved(0), add_gained(amount)
        ends.append(len(who))
        active |= seen
        absent.append([p for p in active if p not in seen])
        if history:
            after.append((list(active), dict(deltas), dict(bonuses)))
    counts_of = _counts_replay(who, what, colours, ends, absent, starts)
    rows_of = functools.partial(_rows, starts, ladder_groups(players), points0, start_units, made, fraction)
    snapshots: list[LadderEvening] = []

    def fill(start: int) -> None:
        """The rows of evening `start` and of every later one (`types.Deferred`)."""
        for k, counts in enumerate(counts_of()):
            state = snapshots[k].__dict__
            if k >= start and "rows" not in state:
                state["rows"] = rows_of(*after[k], counts)
                state.pop("_deferred", None)

    if history:
        for k, evening in enumerate(evenings):
            entry = _new(LadderEvening)
            _set(entry, "__dict__", {"date": evening.date, "_deferred": functools.partial(fill, k)})
            snapshots.append(entry)
    final_counts = collections.deque(counts_of(), maxlen=1)  # after the last evening
    final = rows_of(list(active), deltas, bonuses, final_counts[0] if final_counts
                    else {player_id: new_counts() for player_id in starts})
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


def _increments() -> dict[tuple[Outcome, str | None], tuple[str, ...]]:
    """The fields of `PlayerStats` that one event adds 1 to (`count_event`), per outcome
    and colour."""
    table: dict[tuple[Outcome, str | None], tuple[str, ...]] = {}
    for outcome in Outcome:
        if outcome is Outcome.OWN_VALUE:
            continue
        for colour in ("white", "black", None):
            counts = new_counts()
            count_event(counts, outcome, colour)
            table[outcome, colour] = tuple(field for field, count in counts.items() if count)
    return table


_INCREMENTS: Final = _increments()


def _counts_replay(
    who: Sequence[int], what: Sequence[Outcome], colours: Sequence[str | None], ends: Sequence[int],
    absent: Sequence[Sequence[int]], starts: Mapping[int, int],
) -> Callable[[], Iterator[dict[int, dict[str, int]]]]:
    """Every player's running counts (`count_event`) after each evening, as a generator
    made anew for each walk: one dict per player, the same dicts updated evening by
    evening (copy what is kept)."""

    def walk() -> Iterator[dict[int, dict[str, int]]]:
        counts = {player_id: new_counts() for player_id in starts}
        increments = _INCREMENTS
        event = 0
        for k, end in enumerate(ends):
            for i in range(event, end):
                player_counts = counts[who[i]]
                for field in increments[what[i], colours[i]]:
                    player_counts[field] += 1
            event = end
            for player_id in absent[k]:
                counts[player_id]["absent_without_notice"] += 1
            yield counts

    return walk


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
