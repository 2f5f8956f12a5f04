"""FIDE Berger tables (C.05 Annex 1) for round robins, such as the blitz playoff (docs/rules.md 8).

Players are numbered 1..k by the caller (drawing of lots or standing order). For an odd k a
dummy player k+1 is added: being paired with it is the bye. With n = k rounded up to even,
round r (1-based) is:

* table 1: player n against a = ((r-1) * n/2) mod (n-1) + 1; a has white in odd rounds;
* table t > 1: ((a-1) + (t-1)) mod (n-1) + 1 (white) against ((a-1) - (t-1)) mod (n-1) + 1.

This reproduces the published tables (4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1). A double
round robin plays the second cycle with the colours reversed, so every pair meets twice,
once with each colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class BergerRound:
    number: int
    games: tuple[tuple[int, int], ...]  # (white, black)
    bye: int | None = None


def berger_rounds(k: int, *, double: bool = True) -> tuple[BergerRound, ...]:
    """The Berger schedule for players 1..k (k >= 2); double: a second cycle, colours reversed."""
    if k < 2:
        raise ValueError("a round robin needs at least two players")
    n = k + k % 2
    cycle: list[BergerRound] = []
    for r in range(1, n):
        a = ((r - 1) * (n // 2)) % (n - 1)  # 0-based partner of player n
        pairs = [(a + 1, n) if r % 2 else (n, a + 1)]
        for t in range(1, n // 2):
            pairs.append(((a + t) % (n - 1) + 1, (a - t) % (n - 1) + 1))
        cycle.append(_round(r, pairs, k))
    if not double:
        return tuple(cycle)
    second = [
        _round(len(cycle) + rd.number, [(b, w) for w, b in rd.games], k, rd.bye) for rd in cycle
    ]
    return tuple(cycle + second)


def _round(number: int, pairs: list[tuple[int, int]], k: int, bye: int | None = None) -> BergerRound:
    games = []
    for white, black in pairs:
        if max(white, black) > k:  # the dummy of an odd field
            bye = min(white, black)
        else:
            games.append((white, black))
    return BergerRound(number, tuple(games), bye)


def playoff_rounds(players: Sequence[int], *, double: bool = True) -> tuple[BergerRound, ...]:
    """The Berger schedule with start numbers: ``players[0]`` takes Berger number 1, etc."""
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")
    ids = {i + 1: p for i, p in enumerate(players)}
    return tuple(
        BergerRound(
            rd.number,
            tuple((ids[w], ids[b]) for w, b in rd.games),
            ids[rd.bye] if rd.bye is not None else None,
        )
        for rd in berger_rounds(len(players), double=double)
    )
