"""Reading FIDE's full rating list (1.5 million lines) for a club of 60 members: time and
peak memory. The list is generated in a temporary file in FIDE's fixed-width layout.

    python bench/bench_ratings.py [lines] [--trace]
"""

from __future__ import annotations

import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competition.ratings.engine.lists import Wanted, name_key, open_list, read_list  # noqa: E402

HEADER = ("ID Number      Name                                                         Fed Sex "
          "Tit  WTit OTit           FOA SEP25 Gms  K  B-day Flag")
SURNAMES = ["Bakker", "Jansen", "Vries, de", "Visser", "Smit", "Meijer", "Mulder", "Bos",
            "Dekker", "Kuiper", "Novak", "Kovacs", "Garcia", "Ivanov", "Kumar", "Silva"]
FIRST = ["Anna", "Jan", "Pieter", "Els", "Tom", "Sanne", "Kees", "Maria", "Ivan", "Ravi"]


def generate(path: str, lines: int, seed: int = 16) -> None:
    rnd = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        out.write(HEADER + "\n")
        for i in range(lines - 1):
            name = f"{rnd.choice(SURNAMES)}{i % 997}, {rnd.choice(FIRST)}"
            out.write(f"{1_000_000 + i:<15}{name:<61}{'NED':<4}{'M':<4}{'':<5}{'':<5}{'':<15}"
                      f"{'':<4}{rnd.randint(1000, 2800):>5} {0:>3} {20:>3} {rnd.randint(1940, 2015):>4}  \n")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    lines = int(args[0]) if args else 1_500_000
    fd, path = tempfile.mkstemp(suffix=".txt", prefix="fide-list-")
    os.close(fd)
    try:
        generate(path, lines)
        size = os.path.getsize(path)
        rnd = random.Random(1)
        numbers = frozenset(str(1_000_000 + rnd.randrange(lines - 1)) for _ in range(50))
        names = frozenset(name_key(f"Anna Bakker{n}") for n in range(10))  # no number yet
        wanted = Wanted(numbers=numbers, names=names)
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        traced = "--trace" in sys.argv  # tracemalloc slows reading about threefold
        if traced:
            tracemalloc.start()
        started, cpu_started = time.perf_counter(), time.process_time()
        stream, total = open_list(path)
        with stream:
            kept = read_list(stream, wanted=wanted, total=total, progress=lambda _f: None)
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        peak = tracemalloc.get_traced_memory()[1] if traced else 0
        tracemalloc.stop()
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"FIDE text list: {lines:,} lines, {size / 2**20:.0f} MB; kept {len(kept)} entries "
              f"for 50 numbers and 10 names")
        print(f"  parse and filter: {elapsed:.1f} s ({lines / elapsed:,.0f} lines/s); "
              f"{cpu:.1f} s CPU ({lines / cpu:,.0f} lines per CPU second, what a busy "
              f"machine changes least); load average {os.getloadavg()[0]:.1f}")
        if traced:
            print(f"  peak Python memory while reading: {peak / 2**20:.2f} MB (tracemalloc)")
        print(f"  process max RSS {rss_after / 1024:.0f} MB (before reading "
              f"{rss_before / 1024:.0f} MB)")
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
