"""Standings engine timings: a generated season of 100 players and 40 evenings.

Prints, per recalculation method, the time for the full history of the season
(standings after every evening of both halves) and for one recalculation after
one result is changed on the last evening (final standings only; the fixpoint
method still walks every evening, since each starts from the previous standings).
Run: .venv/bin/python bench/bench_scoring.py
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competition.scoring.generate import random_season  # noqa: E402
from competition.scoring.keizer import compute_keizer_season  # noqa: E402
from competition.scoring.ladder import compute_ladder  # noqa: E402
from competition.scoring.types import Game, KeizerParams, LadderParams, SeasonInput  # noqa: E402
from competition.seasonfile import compute  # noqa: E402

PLAYERS, EVENINGS, SEED, REPEAT = 100, 40, 2026, 5


def best_of(fn, repeat: int = REPEAT) -> float:
    """The fastest of a few runs, in seconds (least disturbed by the machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def with_last_result_flipped(season: SeasonInput) -> SeasonInput:
    last = season.evenings[-1]
    first, *rest = last.games
    flipped = Game(first.white, first.black, "0-1" if first.result == "1-0" else "1-0")
    return replace(season, evenings=(*season.evenings[:-1], replace(last, games=(flipped, *rest))))


def keizer_row(method: str) -> str:
    season = random_season(SEED, PLAYERS, EVENINGS, "classic", {"method": method})
    params = season.params
    assert isinstance(params, KeizerParams)
    full = best_of(lambda: compute_keizer_season(params, season.players, season.evenings))
    changed = with_last_result_flipped(season)
    one = best_of(lambda: compute_keizer_season(params, changed.players, changed.evenings, history=False))
    halves = compute_keizer_season(params, season.players, season.evenings)
    entries = [e for h in halves.values() for e in h.history]
    cycles = sum(e.cycle for e in entries)
    iterations = sum(e.iterations for e in entries)
    report = best_of(lambda: compute(season, history=True))
    return (
        f"{method:9} full history {full * 1000:7.1f} ms   one recalculation {one * 1000:7.1f} ms"
        f"   season-file report with history {report * 1000:7.1f} ms"
        f"   ({iterations} iterations over {len(entries)} evenings, {cycles} cycles settled)"
    )


def ladder_row() -> str:
    season = random_season(SEED, PLAYERS, EVENINGS, "ladder")
    params = season.params
    assert isinstance(params, LadderParams)
    full = best_of(lambda: compute_ladder(params, season.players, season.evenings))
    changed = with_last_result_flipped(season)
    one = best_of(lambda: compute_ladder(params, changed.players, changed.evenings, history=False))
    return f"{'ladder':9} full history {full * 1000:7.1f} ms   one recalculation {one * 1000:7.1f} ms"


def main() -> None:
    print(f"Standings engine: {PLAYERS} players, {EVENINGS} evenings, seed {SEED}, best of {REPEAT}")
    for method in ("fixpoint", "lagging", "frozen"):
        print(keizer_row(method))
    print(ladder_row())


if __name__ == "__main__":
    main()
