"""The overviews of a half, as the notice board shows them: the cross table (every
player against every other, in standings order) and the results by evening (player ×
evening: what happened and what it scored).

Pure: plain values in (player ids in standings order, the games, the explanation lines
the standings stored), frozen dataclasses out; the page formats them.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

# A game's result as the database stores it (docs/rules.md 4.3).
WHITE_WINS, DRAW, BLACK_WINS = "1-0", "1/2-1/2", "0-1"
WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN, DOUBLE_FORFEIT = "1-0F", "0-1F", "0-0F"
POSTPONED, PENDING = "postponed", ""

# What a cell says, from its player's side.
WIN, DRAW_, LOSS = "win", "draw", "loss"
FORFEIT_WIN, FORFEIT_LOSS = "forfeit_win", "forfeit_loss"
TO_PLAY = "to_play"  # postponed, or not yet entered

# (white's kind, black's kind, white's game points, black's game points)
_SIDES: dict[str, tuple[str, str, Fraction | None, Fraction | None]] = {
    WHITE_WINS: (WIN, LOSS, Fraction(1), Fraction(0)),
    DRAW: (DRAW_, DRAW_, Fraction(1, 2), Fraction(1, 2)),
    BLACK_WINS: (LOSS, WIN, Fraction(0), Fraction(1)),
    WHITE_FORFEIT_WIN: (FORFEIT_WIN, FORFEIT_LOSS, None, None),
    BLACK_FORFEIT_WIN: (FORFEIT_LOSS, FORFEIT_WIN, None, None),
    DOUBLE_FORFEIT: (FORFEIT_LOSS, FORFEIT_LOSS, None, None),
    POSTPONED: (POSTPONED, POSTPONED, None, None),
    PENDING: (TO_PLAY, TO_PLAY, None, None),
}


@dataclass(frozen=True)
class CrossGame:
    """One board of an evening of the half."""

    date: dt.date
    white: int
    black: int
    result: str


@dataclass(frozen=True)
class Cell:
    """One game from one player's side. ``score`` is the game score over the board
    ("1", "½", "0"), "+" / "−" for a forfeit won or lost, "" when there is none yet."""

    date: dt.date
    opponent: int
    colour: str  # "w" or "b"
    kind: str  # WIN, DRAW_, LOSS, FORFEIT_WIN, FORFEIT_LOSS, POSTPONED, TO_PLAY
    score: str


@dataclass(frozen=True)
class CrossRow:
    place: int
    player: int
    # One entry per column (the players in standings order): the games against that
    # opponent, in date order; () where they did not meet and on the diagonal.
    cells: tuple[tuple[Cell, ...], ...]
    games: tuple[Cell, ...]  # all of them, in date order (the phone's list)
    game_points: Fraction  # 1, ½, 0 over the board; forfeits and postponements count nothing
    played: int


_SCORE = {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}


def _cell(game: CrossGame, own: str, opponent: int, kind: str, points: Fraction | None) -> Cell:
    if points is not None:
        score = _SCORE[points]
    else:
        score = {FORFEIT_WIN: "+", FORFEIT_LOSS: "−"}.get(kind, "")
    return Cell(game.date, opponent, own, kind, score)


def cross_table(order: Sequence[int], games: Sequence[CrossGame]) -> tuple[CrossRow, ...]:
    """Every player of ``order`` (standings order) against every other. Games with a
    player outside the order (not in these standings) are left out."""
    places = {player: i for i, player in enumerate(order)}
    by_player: dict[int, list[tuple[Cell, Fraction | None]]] = defaultdict(list)
    for game in sorted(games, key=lambda g: (g.date, g.white, g.black)):
        if game.white not in places or game.black not in places:
            continue
        white_kind, black_kind, white_points, black_points = _SIDES[game.result]
        by_player[game.white].append(
            (_cell(game, "w", game.black, white_kind, white_points), white_points))
        by_player[game.black].append(
            (_cell(game, "b", game.white, black_kind, black_points), black_points))
    rows = []
    for i, player in enumerate(order):
        own = by_player.get(player, [])
        columns: list[list[Cell]] = [[] for _ in order]
        for cell, _points in own:
            columns[places[cell.opponent]].append(cell)
        scored = [points for _cell_, points in own if points is not None]
        rows.append(CrossRow(
            place=i + 1,
            player=player,
            cells=tuple(tuple(c) for c in columns),
            games=tuple(cell for cell, _points in own),
            game_points=sum(scored, Fraction(0)),
            played=len(scored),
        ))
    return tuple(rows)


# --- Results by evening -----------------------------------------------------------------


@dataclass(frozen=True)
class EveningLine:
    """One line of a player's stored explanation: an evening (``date``) or, for the 1956
    method, the own value added once (``date`` None)."""

    date: dt.date | None
    outcome: str
    opponent: int | None
    points: Decimal
    over_limit: bool = False


@dataclass(frozen=True)
class MatrixCell:
    """What happened to a player on an evening; ``outcome`` None before he entered the
    standings (he was not in them yet)."""

    outcome: str | None
    points: Decimal | None = None
    opponent: int | None = None
    colour: str | None = None  # "w" or "b" when he played
    over_limit: bool = False


@dataclass(frozen=True)
class MatrixRow:
    place: int
    player: int
    cells: tuple[MatrixCell, ...]  # one per evening of ``EveningMatrix.dates``
    extra: Decimal  # points not of an evening (the 1956 own value), 0 for most methods


@dataclass(frozen=True)
class EveningMatrix:
    dates: tuple[dt.date, ...]
    rows: tuple[MatrixRow, ...]
    has_extra: bool


def evening_matrix(
    order: Sequence[int],
    lines: Mapping[int, Sequence[EveningLine]],
    colours: Mapping[tuple[dt.date, int], str],
) -> EveningMatrix:
    """Players (standings order) × the evenings any of them has a line for, in date
    order. ``colours`` gives the colour a player had on an evening he was paired."""
    dates = tuple(sorted({
        line.date for player in order for line in lines.get(player, ()) if line.date is not None
    }))
    rows = []
    for i, player in enumerate(order):
        by_date: dict[dt.date, EveningLine] = {}
        extra = Decimal(0)
        for line in lines.get(player, ()):
            if line.date is None:
                extra += line.points
            else:
                by_date[line.date] = line
        cells = []
        for day in dates:
            found = by_date.get(day)
            if found is None:
                cells.append(MatrixCell(None))
                continue
            cells.append(MatrixCell(
                outcome=found.outcome, points=found.points, opponent=found.opponent,
                colour=colours.get((day, player)) if found.opponent is not None else None,
                over_limit=found.over_limit,
            ))
        rows.append(MatrixRow(i + 1, player, tuple(cells), extra))
    return EveningMatrix(dates, tuple(rows), any(row.extra for row in rows))
