"""A member's record against each opponent over all his seasons (the head-to-head).

Pure: the boards of every season he played in, in; one record per opponent, out.

Who is an opponent: a *member*, not a season's player. A player row belongs to one season,
so the same club member is a different player every season; ``members`` maps each player
id to its member id and the records are kept per member, across seasons.

What counts (docs/standings.md, "The club's history"):

- a game played over the board (1-0, ½-½, 0-1) is a game: won, drawn or lost, and 1, ½ or
  0 to the score; the last meeting is the last such game;
- a forfeit (1-0F, 0-1F, 0-0F) is *not* a game played, the same as in the standings
  (``PlayerStats``): nobody moved a piece. It is counted apart, so the record still shows
  that the two were paired;
- a board without a result yet (pending or postponed) counts for nothing;
- a pairing bye has no opponent and is no meeting.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .types import RESULT_OUTCOMES, Outcome

_GAME = {Outcome.WIN: "won", Outcome.DRAW: "drawn", Outcome.LOSS: "lost"}
_FORFEIT = frozenset({Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS})


@dataclass(frozen=True)
class Board:
    """One pairing of a season: two players and the result, or a bye (``black`` None)."""

    date: dt.date
    white: int  # player ids (of that season)
    black: int | None
    result: str  # one of types.RESULTS, or "" while not played


@dataclass(frozen=True)
class Record:
    """The member's record against one opponent (a member id)."""

    opponent: int
    won: int = 0
    drawn: int = 0
    lost: int = 0
    forfeits: int = 0  # forfeits either way: paired, but no game
    last_met: dt.date | None = None  # the last game played over the board

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def score(self) -> Fraction:
        """Game points: 1 a win, ½ a draw, 0 a loss."""
        return self.won + Fraction(self.drawn, 2)


def head_to_head(
    member: int, boards: Iterable[Board], members: Mapping[int, int]
) -> tuple[Record, ...]:
    """``member``'s records, most games first, then the most recent meeting first.

    ``members`` maps every player id on the boards to its member id; a board on which the
    member is neither side is ignored, and so is one against himself (impossible within a
    season, and no meeting across them)."""
    counts: dict[int, dict[str, int]] = {}
    last: dict[int, dt.date] = {}
    for board in boards:
        if board.black is None:
            continue  # a bye: no opponent
        white, black = members[board.white], members[board.black]
        if member not in (white, black) or white == black:
            continue
        outcomes = RESULT_OUTCOMES.get(board.result)
        if outcomes is None or outcomes[0] == Outcome.POSTPONED:
            continue  # no result yet
        mine, opponent = (outcomes[0], black) if white == member else (outcomes[1], white)
        tally = counts.setdefault(opponent, {"won": 0, "drawn": 0, "lost": 0, "forfeits": 0})
        if mine in _FORFEIT:
            tally["forfeits"] += 1
        else:
            tally[_GAME[mine]] += 1
            if opponent not in last or board.date > last[opponent]:
                last[opponent] = board.date
    records = [Record(opponent, last_met=last.get(opponent), **tally)
               for opponent, tally in counts.items()]
    return tuple(sorted(
        records,
        key=lambda r: (-r.games, -(r.last_met or dt.date.min).toordinal(), r.opponent),
    ))
