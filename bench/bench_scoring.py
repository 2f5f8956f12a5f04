"""Standings engine timings: generated seasons of 100 (and 60) players and 40 evenings.

First the engine beside the naive reference (`bench/naive.py`: the rules of
docs/standings.md the straightforward way, in Fractions, every evening recomputed to its
fixpoint), in this process, CPU time (`time.process_time`, so other work on the machine
counts less), the best of a few runs, each after the garbage of the others is collected.
"cold": the engine's memory of settled evenings
(`keizer.SETTLED`) emptied before each run; "warm": it holds the season from a run
before (the fixpoint only; lagging and the ladder remember nothing). The engine makes
history rows and explanation lines when they are first read; "every row and line read"
times the Keizer runs with all of them read as well. Goals (issue 21):
the fixpoint's full history >= 250x the naive at 60 and at 100 players, lagging >= 10x,
the ladder's final standings >= 3x. Both results are compared: they must be equal.

Then, per recalculation method, the time for the full history of the season
(standings after every evening of both halves) and for one recalculation after
one result is changed on the last evening (final standings only; the fixpoint
method still walks every evening, since each starts from the previous standings).
The fixpoint is measured twice more on a cycle-heavy season (anyone meets anyone,
results at random, with absences and byes): the matrix engine beside the plain
loop it falls back to (`engine="python"`). Goals (issue 13): full history <= 150 ms,
one recalculation <= 40 ms, both >= 10x the plain loop.
Run: .venv/bin/python bench/bench_scoring.py
"""

from __future__ import annotations

import gc
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import naive  # noqa: E402
from competition.prizes.engine.report import compute
from competition.scoring.keizer import SETTLED, compute_keizer_season  # noqa: E402
from competition.scoring.ladder import compute_ladder  # noqa: E402
from competition.scoring.types import Game, KeizerParams, LadderParams, SeasonInput  # noqa: E402
from tests.generate import random_season  # noqa: E402

PLAYERS, EVENINGS, SEED, REPEAT = 100, 40, 2026, 5
ENGINE_REPEAT = 15  # the engine's runs are short: more of them, for a steadier least time
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
        f"  fixpoint  full history      plain loop {old_full * 1000:8.1f} ms   now {new_full * 1000:7.1f} ms"
        f"   {old_full / new_full:5.1f}x   (goal <= 150 ms, >= 10x)",
        f"  fixpoint  one recalculation plain loop {old_one * 1000:8.1f} ms   now {new_one * 1000:7.1f} ms"
        f"   {old_one / new_one:5.1f}x   (goal <= 40 ms, >= 10x; the earlier evenings remembered,"
        f" {cold_one * 1000:.1f} ms when nothing is)",
    ]


def cpu_best(fn, repeat: int, warm: bool = False) -> float:
    """The least CPU time of a few runs, in seconds. Before each run the engine's memory of
    settled evenings is emptied (``warm``: filled by one run of ``fn``) and the garbage of
    earlier runs collected, so no run pays for another's."""
    best = float("inf")
    for _ in range(repeat):
        SETTLED.clear()
        if warm:
            fn()
        gc.collect()
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def read_in_full(halves) -> None:
    """Read every history row and explanation line (the engine makes them on first read)."""
    for half in halves.values():
        for entry in half.history:
            _ = entry.rows
        for row in half.standings:
            _ = row.lines


def versus_naive_row(
    label: str, engine_run, naive_run, goal: float, iterations: int | None = None, naive_repeat: int = 5
) -> str:
    SETTLED.clear()
    same = "equal" if naive_run() == engine_run() else "DIFFERENT RESULTS"
    naive_time = cpu_best(naive_run, naive_repeat)
    cold = cpu_best(engine_run, ENGINE_REPEAT)
    warm = cpu_best(engine_run, ENGINE_REPEAT, warm=True)
    read = ""
    if iterations is not None:  # a Keizer history: also every row and line read
        full = cpu_best(lambda: read_in_full(engine_run()), ENGINE_REPEAT)
        read = f"   every row and line read cold {full * 1000:6.1f} ms {naive_time / full:6.1f}x"
    SETTLED.clear()
    per_iteration = f"   {cold / iterations * 1e6:5.1f} us per iteration cold ({iterations})" if iterations else ""
    return (
        f"  {label:26} naive {naive_time * 1000:8.1f} ms   cold {cold * 1000:6.1f} ms {naive_time / cold:6.1f}x"
        f"   warm {warm * 1000:6.1f} ms {naive_time / warm:6.1f}x   (goal >= {goal:g}x; {same}){read}{per_iteration}"
    )


def versus_naive_rows() -> list[str]:
    rows = []
    for players in (60, 100):
        season = random_season(SEED, players, EVENINGS, "classic", {"method": "fixpoint"})
        args = (season.params, season.players, season.evenings)
        iterations = sum(e.iterations for h in compute_keizer_season(*args).values() for e in h.history)
        rows.append(versus_naive_row(
            f"fixpoint {players} players history", lambda a=args: compute_keizer_season(*a),
            lambda a=args: naive.compute_keizer_season(*a), 250, iterations, naive_repeat=2,
        ))
    season = random_season(SEED, PLAYERS, EVENINGS, "classic", {"method": "lagging"})
    args = (season.params, season.players, season.evenings)
    lagging_iterations = sum(e.iterations for h in compute_keizer_season(*args).values() for e in h.history)
    rows.append(versus_naive_row(
        f"lagging {PLAYERS} players history", lambda: compute_keizer_season(*args),
        lambda: naive.compute_keizer_season(*args), 10, lagging_iterations,
    ))
    season = random_season(SEED, PLAYERS, EVENINGS, "ladder")
    ladder_args = (season.params, season.players, season.evenings)
    rows.append(versus_naive_row(
        f"ladder {PLAYERS} players final", lambda: compute_ladder(*ladder_args, history=False),
        lambda: naive.compute_ladder(*ladder_args, history=False), 3,
    ))
    return rows


def main() -> None:
    print(f"Engine against the naive reference (bench/naive.py), {EVENINGS} evenings, seed {SEED}, CPU time,"
          f" best of 2 (naive fixpoint), 5 (other naive) and {ENGINE_REPEAT} (engine)")
    for line in versus_naive_rows():
        print(line)
    print(f"Standings engine: {PLAYERS} players, {EVENINGS} evenings, seed {SEED}, best of {REPEAT}")
    for method in ("fixpoint", "lagging", "frozen"):
        print(keizer_row(method))
    print(ladder_row())
    for line in cycle_heavy_rows():
        print(line)


if __name__ == "__main__":
    main()
