"""Frozen value types of the Keizer/ladder pairing engine (no Django imports).

The caller (pairing/services.py) turns database rows into these, calls
`pairing.engine.keizer.pair_evening` and stores the `PairingResult`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PlayerId = int
Colour = Literal["W", "B"]
Half = Literal["winter", "summer"]
ByePolicy = Literal["random", "lowest"]
Rule = Literal["min_evenings_between", "max_meetings_per_half", "max_meetings_per_season"]
# The bye policy's rule: the bye goes to a player with the fewest byes this season. Only
# keeping the meeting rules comes before it, so it is relaxed before any of them.
ByeRule = Literal["fewest_byes"]
FEWEST_BYES: ByeRule = "fewest_byes"

# Weakest first: this is the order in which rules are relaxed.
RULES_WEAKEST_FIRST: tuple[Rule, ...] = (
    "min_evenings_between",
    "max_meetings_per_half",
    "max_meetings_per_season",
)


@dataclass(frozen=True)
class PresentPlayer:
    """A player to be paired tonight, given in current standings order by the caller.

    `colours` holds this season's colours of games played over the board, oldest first
    (forfeits excluded). `byes` counts this season's pairing byes.
    """

    id: PlayerId
    colours: tuple[Colour, ...] = ()
    byes: int = 0
    rating: int | None = None

    @property
    def colour_balance(self) -> int:
        """Whites minus blacks (column W/Z of the standings)."""
        return self.colours.count("W") - self.colours.count("B")


@dataclass(frozen=True)
class Meeting:
    """Two players met this season on playing evening `evening` (season-wide index).

    A game played over the board or postponed is a meeting; a forfeit (someone did not
    show) is not: the caller leaves those out.
    """

    a: PlayerId
    b: PlayerId
    evening: int
    half: Half


@dataclass(frozen=True)
class PairingRules:
    """The competition's pairing parameters.

    `min_evenings_between`: playing evenings strictly between two meetings of the same
    pair (5: met on evening 3, may meet again on evening 9 at the earliest).
    """

    max_meetings_per_season: int = 2
    max_meetings_per_half: int = 1
    min_evenings_between: int = 5
    bye_policy: ByePolicy = "random"


PION_RULES = PairingRules(
    max_meetings_per_season=2, max_meetings_per_half=1, min_evenings_between=5, bye_policy="random"
)
CLASSIC_RULES = PairingRules(
    max_meetings_per_season=1, max_meetings_per_half=1, min_evenings_between=0, bye_policy="lowest"
)


@dataclass(frozen=True)
class PairedGame:
    board: int
    white: PlayerId
    black: PlayerId


@dataclass(frozen=True)
class Relaxation:
    """The game `white`-`black` breaks `rule`; reported to the competition leader.

    For `fewest_byes` there is no game: `white` is the player who has the bye although
    another player present had fewer byes this season, and `black` is None.
    """

    white: PlayerId
    black: PlayerId | None
    rule: Rule | ByeRule


@dataclass(frozen=True)
class PairingResult:
    """One evening's pairing.

    `bye_drawn_from` is non-empty only when the bye was drawn by lot: it lists the players
    the lot was drawn among, in standings order.
    """

    games: tuple[PairedGame, ...]
    bye: PlayerId | None = None
    bye_drawn_from: tuple[PlayerId, ...] = ()
    relaxed: tuple[Relaxation, ...] = ()
