"""Pairing a Keizer evening: time per evening for 30, 60 and 120 present players.

Each field first plays a generated season of 40 evenings (85% attendance, standings
drifting with the results), then the 41st evening is paired with everybody present.
Prints the time of that pairing (median and worst of several runs), whether any rule
had to be relaxed, and the colour balance the season ended with.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.engine import keizer  # noqa: E402
from pairing.engine.keizer import pair_evening  # noqa: E402
from pairing.engine.keizer_simulation import half_of, simulate_season  # noqa: E402
from pairing.engine.types import (  # noqa: E402
    CLASSIC_RULES,
    PION_RULES,
    Meeting,
    PairingRules,
    PresentPlayer,
)

EVENINGS = 40
RUNS = 7


def time_pairing(
    present: list[PresentPlayer], meetings: list[Meeting], rules: PairingRules, runs: int = RUNS
) -> tuple[float, float, int]:
    times = []
    relaxed = 0
    for run in range(runs):
        start = time.perf_counter()
        result = pair_evening(
            present, meetings, rules, evening_index=EVENINGS, half=half_of(EVENINGS), seed=run
        )
        times.append(time.perf_counter() - start)
        relaxed = len(result.relaxed)
    return statistics.median(times), max(times), relaxed


def colour_figures(present: list[PresentPlayer]) -> str:
    balances = [abs(p.colour_balance) for p in present]
    within = sum(b <= 2 for b in balances) / len(balances)
    return f"max |W-B| {max(balances)}, within +-2: {within:.0%}"


def main() -> None:
    print(f"Keizer pairing, {EVENINGS} evenings of history, all present on evening {EVENINGS + 1}")
    header = f"{'rules':8} {'players':>7} {'meetings':>8} {'median':>9} {'worst':>9} {'relaxed':>7}"
    print(header + "  colours after the season")
    for name, rules in (("pion", PION_RULES), ("classic", CLASSIC_RULES)):
        for players in (30, 60, 120):
            start = time.perf_counter()
            present, meetings = simulate_season(
                players=players, evenings=EVENINGS, seed=players, rules=rules
            )
            season = time.perf_counter() - start
            median, worst, relaxed = time_pairing(present, meetings, rules)
            print(
                f"{name:8} {players:>7} {len(meetings):>8} {median * 1000:>7.1f}ms"
                f" {worst * 1000:>7.1f}ms {relaxed:>7}  {colour_figures(present)}"
                f"  (whole season paired in {season:.2f}s)"
            )

    # The relaxed path (no valid pairing exists) is a weighted matching over everybody:
    # force it by letting the top player have met everyone on the last evening. "before"
    # is the earlier method (one networkx matching over every pair), timed in this run.
    print("\nNo valid pairing exists (player 1 met everybody on the last evening):")
    print(f"{'rules':8} {'players':>7} {'meetings':>8} {'median':>9} {'worst':>9} {'relaxed':>7}"
          f"  {'before':>9}  same result")
    for players in (30, 60, 120):
        present, meetings = simulate_season(
            players=players, evenings=EVENINGS, seed=players, rules=PION_RULES
        )
        top = present[0].id
        meetings = meetings + [
            Meeting(top, p.id, EVENINGS - 1, half_of(EVENINGS - 1)) for p in present[1:]
        ]
        median, worst, relaxed = time_pairing(present, meetings, PION_RULES)
        result = pair_evening(present, meetings, PION_RULES, evening_index=EVENINGS,
                              half=half_of(EVENINGS), seed=0)
        sparse = keizer._pair_relaxed
        keizer._pair_relaxed = keizer._pair_relaxed_dense
        try:
            before, _worst, _relaxed = time_pairing(present, meetings, PION_RULES, runs=3)
            reference = pair_evening(present, meetings, PION_RULES, evening_index=EVENINGS,
                                     half=half_of(EVENINGS), seed=0)
        finally:
            keizer._pair_relaxed = sparse
        print(
            f"pion     {players:>7} {len(meetings):>8} {median * 1000:>7.1f}ms"
            f" {worst * 1000:>7.1f}ms {relaxed:>7}  {before * 1000:>7.1f}ms"
            f"  {'yes' if result == reference else 'NO'}"
        )


if __name__ == "__main__":
    main()
