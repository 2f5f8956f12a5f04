"""Random Dutch-system tournaments generated and paired by bbpPairings itself, for the
unit tests (tests/unit/events/test_dutch_generated.py, docs/swiss.md "Checked against
bbpPairings").

bbpPairings is not a dependency of the project; build it outside the repository:

    git clone https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp5
    git -C /tmp/bbp5 checkout v5.0.1 && make -C /tmp/bbp5        # 2017 edition
    git clone https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp6
    git -C /tmp/bbp6 checkout v6.0.0 && make -C /tmp/bbp6        # 2026 edition

then

    python scripts/generate_dutch_tournaments.py --engine /tmp/bbp5/bbpPairings.exe \
        --edition 2017 --tournaments 1000 --seed 2017 --out tests/data/dutch/generated-2017.json.gz
    python scripts/generate_dutch_tournaments.py --engine /tmp/bbp6/bbpPairings.exe \
        --edition 2026 --tournaments 1000 --seed 2026 --out tests/data/dutch/generated-2026.json.gz

Each tournament is ``ENGINE --dutch -g config -o out.trf -s SEED`` with a random config:
9-150 players, 5-13 rounds (fewer than the players), a forfeit, zero-point-bye (absence,
late entry, a round not played) and half-point-bye rate each drawn at random. The generator
pairs every round by its own Dutch engine, so the TRF it writes holds the reference's
pairing of each round; the test replays them. Stored per tournament: the seed, the number of
rounds and the TRF's player lines without names (gzip JSON).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import tempfile
from pathlib import Path


def config(rng: random.Random) -> tuple[int, int, str]:
    # Small fields more often than large ones: they find most bugs and are cheap to replay.
    players = rng.choice((rng.randint(9, 30), rng.randint(9, 60), rng.randint(9, 150)))
    rounds = rng.randint(5, min(13, players - 1))
    lines = [
        f"PlayersNumber={players}",
        f"RoundsNumber={rounds}",
        f"ForfeitRate={rng.choice((8, 15, 30, 100))}",
        f"RetiredRate={rng.choice((3, 5, 10, 50))}",
        f"HalfPointByeRate={rng.choice((3, 6, 12, 50))}",
    ]
    return players, rounds, "\n".join(lines) + "\n"


def one(engine: str, rng: random.Random, tmp: Path) -> dict[str, object] | None:
    players, rounds, text = config(rng)
    seed = rng.randrange(1, 2**31)
    (tmp / "cfg.txt").write_text(text, encoding="ascii")
    run = subprocess.run(
        [engine, "--dutch", "-g", str(tmp / "cfg.txt"), "-o", str(tmp / "out.trf"), "-s", str(seed)],
        capture_output=True, text=True, check=False,
    )
    if run.returncode != 0:
        return None
    lines = (tmp / "out.trf").read_text(encoding="ascii").splitlines()
    rows = [line[:14] + line[47:] for line in lines if line.startswith("001")]
    return {"seed": seed, "rounds": rounds, "config": text.split(), "players": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="path of a bbpPairings executable")
    parser.add_argument("--edition", choices=("2017", "2026"), required=True)
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    version = subprocess.run([args.engine, "--version"], capture_output=True, text=True, check=False)
    tournaments: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        while len(tournaments) < args.tournaments:
            t = one(args.engine, rng, Path(tmp))
            if t is not None:
                tournaments.append(t)
    data = {
        "edition": args.edition,
        "reference": (version.stdout.splitlines() or [""])[0],
        "command": "bbpPairings.exe --dutch -g config -o out.trf -s SEED",
        "seed": args.seed,
        "tournaments": tournaments,
    }
    with gzip.open(args.out, "wt", encoding="ascii", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"{len(tournaments)} tournaments, {sum(int(str(t['rounds'])) for t in tournaments)} rounds")


if __name__ == "__main__":
    main()
