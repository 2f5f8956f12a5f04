"""Random blitz tournaments paired round by round by a reference Dutch engine, recorded for
the unit tests (docs/swiss.md, "Checked against bbpPairings").

    python scripts/generate_dutch_reference.py --engine PATH --edition 2026 \
        --tournaments 60 --seed 1 --out tests/data/dutch/bbp6-2026.json

PATH is a bbpPairings executable (not a dependency of the project; the tests read only the
recorded file). Each round the script writes the tournament so far as a TRF, exactly as
``competition.events.engine.dutch`` writes it for its own engine (start numbers 1..N,
``XXR``, ``XXC white1``), marks the players who sit the round out with ``0000 - Z``, runs
``PATH --dutch round.trf -p out.txt``, stores the reference's pairing, then plays it with
random results (wins, draws, losses, now and then a forfeit) and random absences (a
zero-point bye, a requested half-point bye, now and then a full-point bye).

The file keeps, per tournament, the final TRF and per round the start numbers that sat out
and the reference's output as it wrote it; the TRF of round r's input is the final one cut
after round r - 1 (the test rebuilds it).
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competition.events.engine import trf as trf_format  # noqa: E402
from competition.events.engine.dutch import propose_rounds, round_trf  # noqa: E402
from competition.events.engine.tiebreaks import Entrant, Kind, RoundResult, Tournament  # noqa: E402


def parse_output(text: str) -> tuple[list[tuple[int, int]], int | None]:
    lines = [line.split() for line in text.splitlines() if line.strip()]
    games, bye = [], None
    for white, black in (tuple(map(int, parts)) for parts in lines[1:]):
        if black == 0:
            bye = white
        else:
            games.append((white, black))
    return games, bye


def absences(rng: random.Random, t: Tournament, withdrawn: set[int]) -> dict[int, Kind]:
    out: dict[int, Kind] = {n: Kind.ZERO_BYE for n in withdrawn}
    for e in t.entrants:
        if e.number in withdrawn:
            continue
        x = rng.random()
        if x < 0.04:
            out[e.number] = Kind.ZERO_BYE
        elif x < 0.07:
            out[e.number] = Kind.HALF_BYE
        elif x < 0.08:
            out[e.number] = Kind.FULL_BYE
        elif x < 0.09 and t.rounds:
            withdrawn.add(e.number)
            out[e.number] = Kind.ZERO_BYE
    return out


def play(rng: random.Random, games: list[tuple[int, int]]) -> dict[int, RoundResult]:
    results: dict[int, RoundResult] = {}
    for white, black in games:
        x = rng.random()
        if x < 0.03:
            results[white] = RoundResult.forfeit(black, won=True, colour="w")
            results[black] = RoundResult.forfeit(white, won=False, colour="b")
        elif x < 0.05:
            results[white] = RoundResult.forfeit(black, won=False, colour="w")
            results[black] = RoundResult.forfeit(white, won=True, colour="b")
        else:
            s = Fraction(1) if x < 0.45 else Fraction(1, 2) if x < 0.7 else Fraction(0)
            results[white] = RoundResult.game(black, s, "w")
            results[black] = RoundResult.game(white, 1 - s, "b")
    return results


def one_tournament(rng: random.Random, engine: str, tmp: Path) -> dict[str, object] | None:
    n = rng.randint(6, 24)
    total = max(3, propose_rounds(n) - rng.choice((0, 0, 1)))
    ratings = sorted((rng.randint(1100, 2450) for _ in range(n)), reverse=True)
    t = Tournament(tuple(Entrant(i + 1, (), f"Player {i + 1}", r) for i, r in enumerate(ratings)))
    withdrawn: set[int] = set()
    rounds: list[dict[str, object]] = []
    for _ in range(total):
        away = absences(rng, t, withdrawn)
        present = {e.number for e in t.entrants} - set(away)
        if len(present) < 2:
            break
        text = round_trf(t, present, total, absent_marks=True)
        (tmp / "round.trf").write_text(text, encoding="utf-8")
        run = subprocess.run(
            [engine, "--dutch", str(tmp / "round.trf"), "-p", str(tmp / "out.txt")],
            capture_output=True, text=True, check=False,
        )
        if run.returncode != 0:
            break
        output = (tmp / "out.txt").read_text(encoding="utf-8")
        games, bye = parse_output(output)
        rounds.append({"absent": sorted(away), "output": output})
        results = play(rng, games)
        for number, kind in away.items():
            results[number] = RoundResult.bye(kind)
        if bye is not None:
            results[bye] = RoundResult.bye(Kind.PAIRING_BYE)
        t = t.with_round(results)
    if not rounds:
        return None
    final = trf_format.write(trf_format.from_tournament(t, (("012", "Random"), ("XXR", str(total)))))
    return {"rounds_total": total, "trf": final, "rounds": rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="path of a bbpPairings executable")
    parser.add_argument("--edition", choices=("2017", "2026"), required=True)
    parser.add_argument("--engine-version", default="", help="written into the file")
    parser.add_argument("--tournaments", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tournaments: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        while len(tournaments) < args.tournaments:
            one = one_tournament(rng, args.engine, Path(tmp))
            if one is not None:
                tournaments.append(one)
    data = {
        "edition": args.edition,
        "reference": args.engine_version,
        "command": "bbpPairings.exe --dutch round.trf -p out.txt",
        "seed": args.seed,
        "tournaments": tournaments,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    rounds = sum(len(x["rounds"]) for x in tournaments)  # type: ignore[arg-type,misc]
    print(f"{len(tournaments)} tournaments, {rounds} rounds")


if __name__ == "__main__":
    main()
