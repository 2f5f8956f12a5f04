"""Pairing a blitz Swiss by FIDE's Dutch system: time per round, 150 players, 13 rounds.

A tournament is played out by the project's own pairing (``pair_blitz_round``, both
editions of C.04.3): 150 rated entrants, six of them entering late (from round 3), a few
absent for a round or withdrawn, results drawn at random with the stronger player more
often winning, now and then a forfeit. Each round is paired three times; the figure of a
round is its median, and the table gives each edition's median and worst round, with the
machine's load beside it. Goal (issue 40): every round under a second. Rounds 1, 7 and 13
are also explained once (``explain_round``: the pairing again with the deciding criterion
of every pair, floater and the first player's every candidate), timed beside it.
Run: .venv/bin/python bench/bench_swiss.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competition.events.engine.dutch import EDITIONS, Edition, pair_blitz_round  # noqa: E402
from competition.events.engine.explain import explain_round  # noqa: E402
from competition.events.engine.tiebreaks import (  # noqa: E402
    Entrant,
    Kind,
    RoundPairing,
    RoundResult,
    Tournament,
)

PLAYERS, ROUNDS, LATE, RUNS, SEED = 150, 13, 6, 3, 2026
EXPLAINED = (1, 7, 13)
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)


def _game(
    rng: random.Random, white: int, black: int, ratings: dict[int, int]
) -> tuple[RoundResult, RoundResult]:
    """One game's two entries: a forfeit now and then, else a result weighted by rating."""
    if rng.random() < 0.02:
        return (
            RoundResult(Kind.FORFEIT_WIN, ONE, black, "w"),
            RoundResult(Kind.FORFEIT_LOSS, ZERO, white, "b"),
        )
    expected = 1 / (1 + 10 ** ((ratings[black] - ratings[white]) / 400))
    draw = 0.2
    roll = rng.random()
    if roll < expected - draw / 2:
        points = ONE
    elif roll < expected + draw / 2:
        points = HALF
    else:
        points = ZERO
    return (
        RoundResult(Kind.PLAYED, points, black, "w"),
        RoundResult(Kind.PLAYED, ONE - points, white, "b"),
    )


def play(edition: Edition) -> tuple[list[float], list[float]]:
    """Play the tournament out; the median time of each round's pairing, and the time of
    explaining each of the ``EXPLAINED`` rounds, in seconds."""
    rng = random.Random(SEED)
    ratings = {
        n: r
        for n, r in enumerate(
            sorted((rng.randint(1000, 2400) for _ in range(PLAYERS)), reverse=True), 1
        )
    }
    late = set(rng.sample(sorted(ratings), LATE))
    withdrawn = set(rng.sample(sorted(set(ratings) - late), 3))
    results: dict[int, list[RoundResult]] = {n: [] for n in ratings}
    times, explained = [], []
    for rnd in range(ROUNDS):
        away = {n for n in ratings if rng.random() < 0.04}
        away |= late if rnd < 2 else set()
        away |= withdrawn if rnd >= 7 else set()
        present = [n for n in ratings if n not in away]
        tournament = Tournament(
            tuple(Entrant(n, tuple(results[n]), f"Player {n}", ratings[n]) for n in ratings)
        )
        runs = []
        pairing: RoundPairing | None = None
        for _ in range(RUNS):
            start = time.perf_counter()
            pairing = pair_blitz_round(tournament, present, ROUNDS, edition=edition)
            runs.append(time.perf_counter() - start)
        times.append(statistics.median(runs))
        assert pairing is not None
        if rnd + 1 in EXPLAINED:
            start = time.perf_counter()
            explanation = explain_round(tournament, present, ROUNDS, edition, player=present[0])
            explained.append(time.perf_counter() - start)
            assert explanation.pairing == pairing
        for white, black in pairing.games:
            w, b = _game(rng, white, black, ratings)
            results[white].append(w)
            results[black].append(b)
        if pairing.bye is not None:
            results[pairing.bye].append(RoundResult(Kind.PAIRING_BYE, ONE))
        for n in away:
            results[n].append(RoundResult(Kind.ZERO_BYE, ZERO))
    return times, explained


def main() -> None:
    print(
        f"Dutch system, {PLAYERS} players ({LATE} entering in round 3, 3 withdrawn after round 7,"
        f" about 4 % absent a round), {ROUNDS} rounds, seed {SEED}; each round the median of {RUNS} pairings"
    )
    print(
        f"{'edition':8} {'median':>8} {'worst':>8} {'worst round':>11}  per round (s)  load (1 min)"
        f"  explain rounds {', '.join(map(str, EXPLAINED))} (s)"
    )
    for edition in EDITIONS:
        times, explained = play(edition)
        worst = max(times)
        print(
            f"{edition:8} {statistics.median(times):>7.2f}s {worst:>7.2f}s {times.index(worst) + 1:>11}"
            f"  {' '.join(f'{t:.2f}' for t in times)}  {os.getloadavg()[0]:.2f}"
            f"   (goal: every round < 1 s{'' if worst < 1 else '; NOT MET'})"
            f"  {' '.join(f'{t:.2f}' for t in explained)}"
        )


if __name__ == "__main__":
    main()
