"""A Swiss event's overviews: the cross table (a row per player in standings order, a
cell per round: the opponent's place, the colour and the result) and a player's card
(round by round, with the running score). Pure: the ``Tournament`` in, dataclasses out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .tiebreaks import Entrant, Kind, RoundResult, Tournament


@dataclass(frozen=True)
class RoundCell:
    """One round of one player. ``opponent`` is a start number, ``opponent_place`` the
    opponent's row in the cross table (None for a bye or an absence)."""

    round: int
    kind: Kind
    points: Fraction
    max_points: Fraction
    opponent: int | None
    opponent_place: int | None
    colour: str | None  # "w", "b"; None for a bye and for a rapid two-game match
    running: Fraction  # the player's score after this round

    @property
    def outcome(self) -> str:
        """win, draw, loss (a match: more, half, less than half its points), forfeit_win,
        forfeit_loss, bye (a pairing or full bye), half_bye, or absent (not paired)."""
        if self.kind in (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS):
            return str(self.kind)
        if self.kind is Kind.PLAYED:
            twice = self.points * 2
            return "win" if twice > self.max_points else "loss" if twice < self.max_points else "draw"
        return {Kind.PAIRING_BYE: "bye", Kind.FULL_BYE: "bye", Kind.HALF_BYE: "half_bye"}.get(
            self.kind, "absent")


@dataclass(frozen=True)
class CrossRow:
    place: int
    number: int
    cells: tuple[RoundCell, ...]
    score: Fraction


def _cells(entrant: Entrant, places: dict[int, int]) -> tuple[RoundCell, ...]:
    running = Fraction(0)
    cells = []
    for i, result in enumerate(entrant.results, start=1):
        running += result.points
        cells.append(_cell(i, result, places, running))
    return tuple(cells)


def _cell(number: int, result: RoundResult, places: dict[int, int], running: Fraction) -> RoundCell:
    return RoundCell(
        round=number,
        kind=result.kind,
        points=result.points,
        max_points=result.max_points,
        opponent=result.opponent,
        opponent_place=places.get(result.opponent) if result.opponent is not None else None,
        colour=result.colour,
        running=running,
    )


def round_cross_table(t: Tournament, order: Sequence[int]) -> tuple[CrossRow, ...]:
    """The rows in ``order`` (start numbers in standings order); entrants missing from
    the order are left out."""
    places = {number: i for i, number in enumerate(order, start=1)}
    return tuple(
        CrossRow(places[number], number, _cells(t.entrant(number), places), t.entrant(number).score)
        for number in order
    )


def player_card(t: Tournament, number: int, order: Sequence[int]) -> tuple[RoundCell, ...]:
    """One player's rounds, each with the running score; ``order`` gives the opponents'
    places."""
    places = {n: i for i, n in enumerate(order, start=1)}
    return _cells(t.entrant(number), places)
