"""Frozen value types shared by the standings engines (no Django, no I/O).

Inputs: `Player`, `Game`, `Evening`, the parameter sets `KeizerParams` and
`LadderParams`, and `SeasonInput` (what a season file holds).
Outputs: `HalfResult` (Keizer) and `LadderResult` (ladder), with their rows.

Every number is a `fractions.Fraction`: totals are compared exactly, never as floats.
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

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


@dataclass(frozen=True)
class EveningStandings(Deferred):
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
class LadderEvening(Deferred):
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
