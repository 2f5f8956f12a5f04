"""Frozen value types shared by the standings engines (no Django, no I/O).

Inputs: `Player`, `Game`, `Evening`, the parameter sets `KeizerParams` and
`LadderParams`, and `SeasonInput` (what a season file holds).
Outputs: `HalfResult` (Keizer) and `LadderResult` (ladder), with their rows.

Every number is a `fractions.Fraction`: totals are compared exactly, never as floats.
"""

from __future__ import annotations

import datetime
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from competition.scoring.exact import Fractions, fraction

Half = Literal["winter", "summer"]
HALVES: tuple[Half, Half] = ("winter", "summer")

Method = Literal["fixpoint", "lagging", "frozen"]
METHODS: tuple[Method, ...] = ("fixpoint", "lagging", "frozen")

Basis = Literal["opponent", "own", "fixed"]

RESULTS: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2", "1-0F", "0-1F", "0-0F", "postponed")


class Outcome(enum.StrEnum):
    """What happened to one player on one evening (one line of the explanation)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    BYE = "bye"
    ABSENT_WITH_NOTICE = "absent_with_notice"
    ABSENT_WITHOUT_NOTICE = "absent_without_notice"
    CLUB_DUTY = "club_duty"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    POSTPONED = "postponed"
    OWN_VALUE = "own_value"  # the Keizer 1956 own value, added once; not an evening


# The outcomes that have a scoring rule of their own (a parameter each).
SCORED_OUTCOMES: tuple[Outcome, ...] = (
    Outcome.WIN,
    Outcome.DRAW,
    Outcome.LOSS,
    Outcome.BYE,
    Outcome.ABSENT_WITH_NOTICE,
    Outcome.ABSENT_WITHOUT_NOTICE,
    Outcome.CLUB_DUTY,
    Outcome.FORFEIT_WIN,
    Outcome.FORFEIT_LOSS,
)
# Outcomes without an opponent cannot be a factor of the opponent's value.
OUTCOMES_WITH_OPPONENT: frozenset[Outcome] = frozenset(
    {Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS}
)

# Result -> (white's outcome, black's outcome).
RESULT_OUTCOMES: Mapping[str, tuple[Outcome, Outcome]] = {
    "1-0": (Outcome.WIN, Outcome.LOSS),
    "0-1": (Outcome.LOSS, Outcome.WIN),
    "1/2-1/2": (Outcome.DRAW, Outcome.DRAW),
    "1-0F": (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    "0-1F": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    "0-0F": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
    "postponed": (Outcome.POSTPONED, Outcome.POSTPONED),
}


# ---------------------------------------------------------------------------
# Inputs


@dataclass(frozen=True)
class Player:
    """A player of the season. `start` is the starting position (1 = first)."""

    id: int
    name: str
    rating: int | None
    start: int
    fixed: bool
    start_points: Fraction | None = None  # ladder only; None = the default


@dataclass(frozen=True)
class Game:
    white: int
    black: int
    result: str  # one of RESULTS


@dataclass(frozen=True)
class Evening:
    """One playing evening: who played whom, and what happened to the others.

    A player in the standings who is mentioned nowhere was absent without notice.
    """

    date: datetime.date
    half: Half | None = None  # None for the ladder
    games: tuple[Game, ...] = ()
    byes: tuple[int, ...] = ()
    absent_with_notice: tuple[int, ...] = ()
    club_duty: tuple[int, ...] = ()

    def mentioned(self) -> set[int]:
        """Every player id this evening names, in any role."""
        ids = {g.white for g in self.games} | {g.black for g in self.games}
        return ids | set(self.byes) | set(self.absent_with_notice) | set(self.club_duty)


@dataclass(frozen=True)
class Rule:
    """How one outcome scores: factor × opponent's value, factor × own value, or fixed."""

    basis: Basis
    amount: Fraction  # the factor, or the fixed points


@dataclass(frozen=True)
class KeizerParams:
    method: Method
    top: Fraction
    step: Fraction
    own_value_added: bool
    absent_with_notice_limit: int | None  # None: no limit
    win: Rule
    draw: Rule
    loss: Rule
    bye: Rule
    absent_with_notice: Rule
    absent_without_notice: Rule
    club_duty: Rule
    forfeit_win: Rule
    forfeit_loss: Rule

    def rule(self, outcome: Outcome) -> Rule | None:
        """The scoring rule of an outcome; None for outcomes that score nothing."""
        if outcome in SCORED_OUTCOMES:
            rule: Rule = getattr(self, outcome.value)
            return rule
        return None


@dataclass(frozen=True)
class LadderParams:
    win: Fraction
    draw: Fraction
    loss: Fraction
    place_factor: Fraction
    bonus: Fraction
    bonus_for_club_duty: bool
    bonus_for_bye: bool


@dataclass(frozen=True)
class SeasonInput:
    """A season as the season file describes it (see docs/season-file.md)."""

    system: str
    params: KeizerParams | LadderParams
    overrides: Mapping[str, Any]  # the file's `parameters`, normalised
    players: tuple[Player, ...]
    evenings: tuple[Evening, ...]


# ---------------------------------------------------------------------------
# Outputs


@dataclass(frozen=True)
class PlayerStats:
    """Counts for the standings table (docs/rules.md 9). Games are games played over the
    board; forfeits and postponed games are counted apart and are not games."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    whites: int = 0
    blacks: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    postponed: int = 0
    byes: int = 0
    absent_with_notice: int = 0
    absent_without_notice: int = 0
    club_duty: int = 0

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def colour_balance(self) -> int:
        """Whites minus blacks: +2 means two more games with white."""
        return self.whites - self.blacks

    @property
    def game_points(self) -> Fraction:
        """1 for a win, 1/2 for a draw, 0 for a loss (played games only)."""
        return self.won + Fraction(self.drawn, 2)

    @property
    def percentage(self) -> Fraction | None:
        """Score percentage over played games; None without games."""
        if not self.games:
            return None
        return self.game_points * 100 / self.games


@dataclass(frozen=True)
class Line:
    """One line of a Keizer total's explanation. The lines of a row sum to its total.

    `value` is the value the points were computed from (the opponent's or the
    player's own); None for fixed points and for outcomes that score nothing.
    `over_limit` marks an absence with notice beyond the season limit (scores 0).
    """

    date: datetime.date | None  # None for the own-value line
    outcome: Outcome
    opponent: int | None
    value: Fraction | None
    points: Fraction
    over_limit: bool = False


class Deferred:
    """A frozen result whose costly fields may be made on first read.

    The engine builds thousands of history rows and explanation lines a season, and most
    callers read a few of them; so it may leave such fields out of an object's `__dict__`
    and put there, under `_deferred`, a function that fills them (for every object of its
    group at once, then removes itself). Every read, comparison, `repr`, hash, copy and
    pickle sees the same values as if they had been built at once.
    """

    if not TYPE_CHECKING:  # mypy keeps checking every attribute name

        def __getattr__(self, name: str) -> Any:
            state = self.__dict__
            fill = state.get("_deferred")
            if fill is not None and name in type(self).__dataclass_fields__:
                fill()
            if name in state and name != "_deferred":
                return state[name]
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        fill = self.__dict__.get("_deferred")
        if fill is not None:
            fill()
        return self.__dict__


@dataclass(frozen=True)
class Standing(Deferred):
    """One row of Keizer standings."""

    rank: int
    player_id: int
    total: Fraction
    value: Fraction  # the value of this rank
    stats: PlayerStats
    lines: tuple[Line, ...] = ()  # empty in history rows (see HalfResult.history)


del Standing.lines  # the default stays __init__'s; the class attribute would hide a deferred `lines`


_STATS_FIELDS = tuple(PlayerStats.__dataclass_fields__)
_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True)
class StandingsTable:
    """An evening's Keizer standings as columns, best first, in integers: what a history
    is made of (docs/standings.md, "History as columns"). Rank i + 1 is player
    `player_ids[i]` with total `totals[i] / denominator` and the rank's value
    `values[i] / value_unit`; `counts` has one column per field of `PlayerStats` (in
    their order). `rows()` makes the `Standing` rows of it."""

    player_ids: tuple[int, ...]
    totals: tuple[int, ...]
    denominator: int
    values: tuple[int, ...]
    value_unit: int
    counts: tuple[tuple[int, ...], ...]

    def rows(self, fractions: Fractions | None = None) -> tuple[Standing, ...]:
        """The rows; their Fractions each made once (`fractions`: shared by a history)."""
        memo = fractions or Fractions()
        totals = _exacts(memo, self.totals, self.denominator)
        values = _exacts(memo, self.values, self.value_unit)
        fields, new, set_ = _STATS_FIELDS, _new, _set
        rows: list[Standing] = []
        append = rows.append
        # a column per field, each as long as the table: zip without strict (a history's thousands)
        for rank, player_id, total, value, counts in zip(  # noqa: B905
                range(1, len(totals) + 1), self.player_ids, totals, values, zip(*self.counts)):  # noqa: B905
            stats = new(PlayerStats)
            set_(stats, "__dict__", dict(zip(fields, counts)))  # noqa: B905
            row = new(Standing)
            set_(row, "__dict__", {"rank": rank, "player_id": player_id, "total": total, "value": value,
                                   "stats": stats, "lines": ()})
            append(row)
        return tuple(rows)

    @classmethod
    def of_rows(cls, rows: tuple[Standing, ...]) -> StandingsTable:
        """The table of rows made otherwise (by hand, in a test)."""
        unit = 1
        for row in rows:
            unit = unit * row.total.denominator // math.gcd(unit, row.total.denominator)
        value_unit = 1
        for row in rows:
            value_unit = value_unit * row.value.denominator // math.gcd(value_unit, row.value.denominator)
        return cls(
            tuple(row.player_id for row in rows),
            tuple(int(row.total * unit) for row in rows), unit,
            tuple(int(row.value * value_unit) for row in rows), value_unit,
            _count_columns([row.stats for row in rows]),
        )


@dataclass(frozen=True)
class LadderTable:
    """An evening's ladder as columns, best first (as `StandingsTable`): rank i + 1 is
    player `player_ids[i]`; `start_points`, `points`, `pairing_points` and `bonuses` are
    numerators over `unit`."""

    player_ids: tuple[int, ...]
    starts: tuple[int, ...]
    groups: tuple[int, ...]
    start_points: tuple[int, ...]
    points: tuple[int, ...]
    pairing_points: tuple[int, ...]
    bonuses: tuple[int, ...]
    unit: int
    counts: tuple[tuple[int, ...], ...]

    def rows(self, fractions: Fractions | None = None) -> tuple[LadderStanding, ...]:
        """The rows; their Fractions each made once (`fractions`: shared by a history)."""
        memo, unit = fractions or Fractions(), self.unit
        fields, new, set_ = _STATS_FIELDS, _new, _set
        rows: list[LadderStanding] = []
        append = rows.append
        for rank, player_id, start, group, start_points, points, pairing, bonus, counts in zip(  # noqa: B905
                range(1, len(self.player_ids) + 1), self.player_ids, self.starts, self.groups,
                _exacts(memo, self.start_points, unit), _exacts(memo, self.points, unit),
                _exacts(memo, self.pairing_points, unit), _exacts(memo, self.bonuses, unit),
                zip(*self.counts)):  # noqa: B905
            stats = new(PlayerStats)
            set_(stats, "__dict__", dict(zip(fields, counts)))  # noqa: B905
            row = new(LadderStanding)
            set_(row, "__dict__", {
                "rank": rank, "player_id": player_id, "start": start, "group": group,
                "start_points": start_points, "points": points, "pairing_points": pairing,
                "bonus": bonus, "stats": stats, "lines": (),
            })
            append(row)
        return tuple(rows)

    @classmethod
    def of_rows(cls, rows: tuple[LadderStanding, ...]) -> LadderTable:
        """The table of rows made otherwise (by hand, in a test)."""
        unit = 1
        for row in rows:
            for number in (row.start_points, row.points, row.pairing_points, row.bonus):
                unit = unit * number.denominator // math.gcd(unit, number.denominator)
        return cls(
            tuple(row.player_id for row in rows), tuple(row.start for row in rows),
            tuple(row.group for row in rows), tuple(int(row.start_points * unit) for row in rows),
            tuple(int(row.points * unit) for row in rows), tuple(int(row.pairing_points * unit) for row in rows),
            tuple(int(row.bonus * unit) for row in rows), unit, _count_columns([row.stats for row in rows]),
        )


def _exacts(memo: Fractions, numerators: tuple[int, ...], denominator: int) -> list[Fraction]:
    """Each `Fraction(n, denominator)`, made once per memo."""
    made = memo.over(denominator)
    found = [made.get(n) for n in numerators]
    for i, fraction_found in enumerate(found):
        if fraction_found is None:
            n = numerators[i]
            found[i] = made[n] = fraction(n, denominator)
    return found  # type: ignore[return-value]


def _count_columns(stats: list[PlayerStats]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(getattr(s, name) for s in stats) for name in _STATS_FIELDS)


class Tabled(Deferred):
    """An evening of a history whose rows come from its table (`table()`): the engine
    leaves `_table` (or, under `_tables`, a function that fills every evening's at
    once) in the object's `__dict__`; an evening built otherwise makes it of its rows."""

    def table(self) -> Any:
        state = self.__dict__
        if "_table" not in state and "_tables" in state:
            state["_tables"]()
        found = state.get("_table")
        if found is None:
            rows = self.rows  # type: ignore[attr-defined]
            found = (LadderTable if isinstance(self, LadderEvening) else StandingsTable).of_rows(rows)
            state["_table"] = found
        return found

    def __getstate__(self) -> dict[str, Any]:
        tables = self.__dict__.get("_tables")
        if tables is not None:  # a function: made before pickling, as the rows are
            tables()
        return super().__getstate__()


@dataclass(frozen=True)
class EveningStandings(Tabled):
    """The standings published after one evening. After a cycle (`cycle`) each total
    is the average of the player's totals over the cycle's `cycle_orders` orders."""

    date: datetime.date
    rows: tuple[Standing, ...]
    cycle: bool = False
    iterations: int = 1
    cycle_orders: int = 0  # 0 without a cycle


@dataclass(frozen=True)
class HalfResult:
    half: Half
    starting_order: tuple[int, ...]
    standings: tuple[Standing, ...]  # after the last evening, with explanation lines
    cycle: bool  # the last recalculation cycled and was settled by average totals
    history: tuple[EveningStandings, ...] = field(default=())
    cycle_orders: int = 0  # how many orders the last cycle averaged over (0: no cycle)

    def row(self, player_id: int) -> Standing:
        for row in self.standings:
            if row.player_id == player_id:
                return row
        raise KeyError(player_id)


@dataclass(frozen=True)
class LadderLine:
    """One evening of a ladder score: the game's delta plus the attendance bonus."""

    date: datetime.date
    outcome: Outcome
    opponent: int | None
    delta: Fraction
    bonus: Fraction


@dataclass(frozen=True)
class LadderStanding(Deferred):
    rank: int
    player_id: int
    start: int
    group: int
    start_points: Fraction
    points: Fraction  # start points + deltas + bonuses
    pairing_points: Fraction  # start points + deltas: the pairing order ignores bonuses
    bonus: Fraction
    stats: PlayerStats
    lines: tuple[LadderLine, ...] = ()

    @property
    def score(self) -> Fraction:
        """Progress since the start of the season."""
        return self.points - self.start_points


del LadderStanding.lines  # the default stays __init__'s; the class attribute would hide deferred `lines`


@dataclass(frozen=True)
class LadderEvening(Tabled):
    """The ladder after one evening; its rows may be made when first read (`Deferred`)."""

    date: datetime.date
    rows: tuple[LadderStanding, ...]


@dataclass(frozen=True)
class LadderResult:
    standings: tuple[LadderStanding, ...]
    history: tuple[LadderEvening, ...] = ()

    def row(self, player_id: int) -> LadderStanding:
        for row in self.standings:
            if row.player_id == player_id:
                return row
        raise KeyError(player_id)
