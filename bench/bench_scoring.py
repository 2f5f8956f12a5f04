"""Standings engine timings: a generated season of 100 players and 40 evenings.

Prints, per recalculation method, the time for the full history of the season
(standings after every evening of both halves) and for one recalculation after
one result is changed on the last evening (final standings only; the fixpoint
method still walks every evening, since each starts from the previous standings).
The fixpoint is measured twice more on a cycle-heavy season (anyone meets anyone,
results at random, with absences and byes): today's matrix engine beside the plain
reference loop it replaced (`engine="python"`), and the ladder beside its Fraction
reference. Goals (issue 13): full history ≤ 150 ms, one recalculation ≤ 40 ms, both ≥ 10×
the reference; the ladder ≥ 5×.
Run: .venv/bin/python bench/bench_scoring.py
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competition.scoring.generate import random_season  # noqa: E402
from competition.scoring.keizer import SETTLED, compute_keizer_season  # noqa: E402
from competition.scoring.ladder import compute_ladder  # noqa: E402
from competition.scoring.ladder_reference import compute_ladder_reference  # noqa: E402
from competition.scoring.types import Game, KeizerParams, LadderParams, SeasonInput  # noqa: E402
from competition.seasonfile import compute  # noqa: E402

PLAYERS, EVENINGS, SEED, REPEAT = 100, 40, 2026, 5
CHAOTIC_SEED = 1


def best_of(fn, repeat: int = REPEAT, setup=None) -> float:
    """The fastest of a few runs, in seconds (least disturbed by the machine). Every run
    starts with the engine's memory of settled evenings emptied, then ``setup`` (not
    timed)."""
    times = []
    for _ in range(repeat):
        SETTLED.clear()
        if setup is not None:
            setup()
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


def cycle_heavy_rows() -> list[str]:
    season = random_season(CHAOTIC_SEED, PLAYERS, EVENINGS, "classic", chaotic=True)
    params = season.params
    assert isinstance(params, KeizerParams)
    changed = with_last_result_flipped(season)
    halves = compute_keizer_season(params, season.players, season.evenings)
    entries = [e for h in halves.values() for e in h.history]
    times = {}
    for engine, repeat in (("python", 2), ("matrix", REPEAT)):
        full = best_of(lambda e=engine: compute_keizer_season(params, season.players, season.evenings, engine=e), repeat)
        one = best_of(
            lambda e=engine: compute_keizer_season(params, changed.players, changed.evenings, history=False, engine=e),
            repeat,
        )
        times[engine] = (full, one)
    (old_full, old_one), (new_full, cold_one) = times["python"], times["matrix"]
    # What the site does: the season was computed, then one result on the last evening
    # changed; the earlier evenings' settled standings are remembered.
    new_one = best_of(
        lambda: compute_keizer_season(params, changed.players, changed.evenings, history=False),
        setup=lambda: compute_keizer_season(params, season.players, season.evenings),
    )
    return [
        f"cycle-heavy season (seed {CHAOTIC_SEED}, chaotic): {sum(e.iterations for e in entries)} iterations over"
        f" {len(entries)} evenings, {sum(e.cycle for e in entries)} cycles settled,"
        f" longest recalculation {max(e.iterations for e in entries)} iterations",
        f"  fixpoint  full history      reference {old_full * 1000:8.1f} ms   now {new_full * 1000:7.1f} ms"
        f"   {old_full / new_full:5.1f}x   (goal <= 150 ms, >= 10x)",
        f"  fixpoint  one recalculation reference {old_one * 1000:8.1f} ms   now {new_one * 1000:7.1f} ms"
        f"   {old_one / new_one:5.1f}x   (goal <= 40 ms, >= 10x; the earlier evenings remembered,"
        f" {cold_one * 1000:.1f} ms when nothing is)",
    ]


def ladder_versus_reference() -> list[str]:
    season = random_season(SEED, PLAYERS, EVENINGS, "ladder")
    params = season.params
    assert isinstance(params, LadderParams)
    changed = with_last_result_flipped(season)
    out = []
    for label, args, history in (
        ("full history     ", (params, season.players, season.evenings), True),
        ("one recalculation", (params, changed.players, changed.evenings), False),
    ):
        old = best_of(lambda a=args, h=history: compute_ladder_reference(*a, history=h), 15)
        new = best_of(lambda a=args, h=history: compute_ladder(*a, history=h), 15)
        out.append(
            f"  ladder    {label} reference {old * 1000:8.1f} ms   now {new * 1000:7.1f} ms"
            f"   {old / new:5.1f}x   (goal >= 5x)"
        )
    return out


def main() -> None:
    print(f"Standings engine: {PLAYERS} players, {EVENINGS} evenings, seed {SEED}, best of {REPEAT}")
    for method in ("fixpoint", "lagging", "frozen"):
        print(keizer_row(method))
    print(ladder_row())
    for line in cycle_heavy_rows() + ladder_versus_reference():
        print(line)


if __name__ == "__main__":
    main()
