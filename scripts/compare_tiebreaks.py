"""Our tie-breaks against FIDE's tie-break calculator, on random Swiss files.

FIDE's Technical Commission publishes its calculator as TieBreakServer (MIT licence, not a
dependency of ours). With a checkout of it:

    .venv/bin/python scripts/compare_tiebreaks.py --calculator PATH [--files 80] [--seed 1]

writes random 6-9-player Swiss files with every category of unplayed round (forfeits won
and lost, double forfeits, half- and zero-point byes, the pairing-allocated bye), lets the
calculator compute BH, BH-C1, BH-M1, SB, SB-C1 and FB under the 2024 and the 2026 rules
(it picks the edition by the start date, record 042), and prints every value where ours
differ and how many files differ.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competition.events.engine import trf  # noqa: E402
from competition.events.engine.tiebreaks import (  # noqa: E402
    Entrant,
    Kind,
    RoundResult,
    Tournament,
    tiebreak,
)

GAMES = ("1-0", "½-½", "0-1", "+-", "-+", "--")
WEIGHTS = (4, 3, 4, 1, 1, 0.3)
CODES = (("BH", "BH"), ("BH-C1", "BH/C1"), ("BH-M1", "BH/M1"), ("SB", "SB"), ("SB-C1", "SB/C1"), ("FB", "FB"))
EDITIONS = (("2024", "2024/08/01"), ("2026", "2026/12/01"))


def _pair(white: int, black: int, result: str) -> tuple[RoundResult, RoundResult]:
    g, f = RoundResult.game, RoundResult.forfeit
    if result == "1-0":
        return g(black, 1, "w"), g(white, 0, "b")
    if result == "½-½":
        return g(black, Fraction(1, 2), "w"), g(white, Fraction(1, 2), "b")
    if result == "0-1":
        return g(black, 0, "w"), g(white, 1, "b")
    return f(black, won=result[0] == "+", colour="w"), f(white, won=result[1] == "+", colour="b")


def random_swiss(rng: random.Random) -> Tournament:
    n, rounds = rng.randint(6, 9), rng.randint(3, 6)
    results: dict[int, list[RoundResult]] = {p: [] for p in range(1, n + 1)}
    for _ in range(rounds):
        order = list(results)
        rng.shuffle(order)
        paired = []
        for p in order:
            kind = rng.choice([None] * 6 + [Kind.HALF_BYE, Kind.ZERO_BYE])
            if kind is None:
                paired.append(p)
            else:
                results[p].append(RoundResult.bye(kind))
        if len(paired) % 2:
            results[paired.pop()].append(RoundResult.bye(Kind.PAIRING_BYE))
        for white, black in zip(paired[::2], paired[1::2], strict=True):
            w, b = _pair(white, black, rng.choices(GAMES, weights=WEIGHTS)[0])
            results[white].append(w)
            results[black].append(b)
    return Tournament(tuple(Entrant(p, tuple(r), f"Player {p}") for p, r in results.items()))


def calculator_values(calculator: Path, text: str, folder: Path) -> dict[int, list[str]]:
    path = folder / "file.trf"
    path.write_text(text)
    out = subprocess.run(
        [sys.executable, "tiebreakchecker.py", "-i", str(path), "-o", "-", "-t", "PTS", *[c for _, c in CODES]],
        cwd=calculator, capture_output=True, text=True, check=True,
    ).stdout
    return {row["cid"]: row["tiebreakScore"][1:] for row in json.loads(out)["tiebreakResult"]["competitors"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calculator", type=Path, required=True, help="a TieBreakServer checkout")
    parser.add_argument("--files", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    differing = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.files):
            t = random_swiss(rng)
            for rules, start in EDITIONS:
                headers = (("012", "Random"), ("042", start), ("092", "Swiss"), ("XXR", str(t.rounds)))
                theirs = calculator_values(args.calculator, trf.write(trf.from_tournament(t, headers)), Path(tmp))
                ours = {code: tiebreak(t, code, rules) for code, _ in CODES}
                bad = [
                    (n, code, str(ours[code][n]), value)
                    for n, values in theirs.items()
                    for (code, _), value in zip(CODES, values, strict=True)
                    if Fraction(value) != ours[code][n]
                ]
                if bad:
                    differing += 1
                    print(f"file {i}, {rules} rules: (start, code, ours, calculator) {bad}")
    print(f"{args.files} random Swiss files x {len(EDITIONS)} editions: {differing} differ from FIDE's calculator")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
