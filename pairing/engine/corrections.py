"""The leader's corrections of a published pairing, as pure functions (no Django): the
pairing a correction makes, the rules a pairing breaks, and what changes for each player.

The preview the leader confirms and the service that saves the correction both call
these, so what he was shown is what is saved (docs/pairing.md, "Corrections").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pairing.engine.keizer import bye_violation, violations
from pairing.engine.types import (
    Colour,
    Half,
    Meeting,
    PairedGame,
    PairingRules,
    PlayerId,
    PresentPlayer,
    Relaxation,
)


class CorrectionRefused(ValueError):
    """The correction cannot be made on this pairing (a board that is not there)."""


def _by_board(games: Iterable[PairedGame]) -> dict[int, PairedGame]:
    return {g.board: g for g in games}


def swap_colours(games: Sequence[PairedGame], board: int) -> tuple[PairedGame, ...]:
    """The pairing with white and black of ``board`` exchanged."""
    boards = _by_board(games)
    if board not in boards:
        raise CorrectionRefused(f"no game on board {board}")
    g = boards[board]
    boards[board] = PairedGame(board, g.black, g.white)
    return tuple(sorted(boards.values(), key=lambda x: x.board))


def swap_blacks(games: Sequence[PairedGame], board_a: int, board_b: int) -> tuple[PairedGame, ...]:
    """The pairing with the black players of two boards exchanged (each keeps his colour)."""
    boards = _by_board(games)
    if board_a == board_b or board_a not in boards or board_b not in boards:
        raise CorrectionRefused(f"cannot swap boards {board_a} and {board_b}")
    a, b = boards[board_a], boards[board_b]
    boards[board_a] = PairedGame(board_a, a.white, b.black)
    boards[board_b] = PairedGame(board_b, b.white, a.black)
    return tuple(sorted(boards.values(), key=lambda x: x.board))


def broken_by(
    games: Sequence[PairedGame], bye: PlayerId | None, byes: Mapping[PlayerId, int],
    history: Iterable[Meeting], rules: PairingRules, evening_index: int, half: Half,
) -> list[Relaxation]:
    """Every rule the pairing ``games`` (and ``bye``) breaks: the meeting rules game by
    game (by board, weakest first), then a bye given to a player with more byes this
    season than another player in the pairing. ``byes``: each player's byes before tonight."""
    found = list(violations(games, history, rules, evening_index, half))
    if bye is not None:
        tonight = [pid for g in games for pid in (g.white, g.black)] + [bye]
        repeated = bye_violation([PresentPlayer(pid, byes=byes.get(pid, 0)) for pid in tonight], bye)
        if repeated is not None:
            found.append(repeated)
    return found


@dataclass(frozen=True)
class Seat:
    """Where a player sits tonight: board, opponent and colour; the bye has no board."""

    board: int | None
    opponent: PlayerId | None
    colour: Colour | None

    @property
    def is_bye(self) -> bool:
        return self.opponent is None


BYE = Seat(None, None, None)


def seats(games: Iterable[PairedGame], bye: PlayerId | None) -> dict[PlayerId, Seat]:
    found: dict[PlayerId, Seat] = {}
    for g in games:
        found[g.white] = Seat(g.board, g.black, "W")
        found[g.black] = Seat(g.board, g.white, "B")
    if bye is not None:
        found[bye] = BYE
    return found


def seat_changes(
    before: Iterable[PairedGame], bye_before: PlayerId | None,
    after: Iterable[PairedGame], bye_after: PlayerId | None,
) -> dict[PlayerId, tuple[Seat | None, Seat | None]]:
    """The players whose board, opponent or colour differs, with their seat before and
    after (None: not in that pairing). These, and only these, are told."""
    was, now = seats(before, bye_before), seats(after, bye_after)
    return {
        pid: (was.get(pid), now.get(pid))
        for pid in sorted(was.keys() | now.keys())
        if was.get(pid) != now.get(pid)
    }
