"""Moving in (issue 31): last season from a TRF file (the member list: bench_member_import.py).

Builds a club with a current season in a throwaway SQLite database (the test settings),
writes a TRF file of a realistic season (``BENCH_PLAYERS`` 30 players, ``BENCH_EVENINGS``
33 evenings, 20 of the players members already), and times reading and matching the TRF
(the preview) and importing it as an earlier season with its standings. Prints
seconds and SQL queries of each step; asserts nothing.

Run: .venv/bin/python bench/bench_history_import.py   (also part of ``make bench``)
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "30"))
EVENINGS = int(os.environ.get("BENCH_EVENINGS", "33"))


def main() -> None:
    folder = tempfile.mkdtemp(prefix="ranglijst-bench-history-")
    os.environ["RANGLIJST_VAR_DIR"] = folder
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    import core.jobs
    from competition.history import importing
    from members.clubs.context import club_context
    from members.clubs.memo import home_club
    from tests import factories as f

    logging.disable(logging.INFO)
    call_command("migrate", verbosity=0)
    core.jobs.enqueue = lambda *args, **kwargs: True  # the outbox is filled, not sent

    def timed(label: str, call):
        queries = [0]

        def count(execute, sql, params, many, context):
            queries[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            start, cpu = time.perf_counter(), time.process_time()
            result = call()
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"  {label:<36} {elapsed:6.2f} s ({cpu:5.2f} s CPU)  {queries[0]:6d} queries")
        return result

    with club_context(home_club()):
        season = f.season(players=20, opening=dt.date(2026, 9, 4))
        leader = f.leader()
        members = [p.member.name for p in season.players.select_related("member").order_by("start")]
        names = members + [f"Oud Lid {i:02d}" for i in range(PLAYERS - len(members))]
        ratings = [2000 - 20 * i for i in range(len(names))]
        raw = f.trf_season(names, EVENINGS, first=dt.date(2025, 9, 5), ratings=ratings).encode()
        print(f"TRF file of {PLAYERS} players and {EVENINGS} evenings ({len(raw) // 1024} KB), "
              f"{len(members)} of them members already")
        preview = timed("preview (read and match)", lambda: importing.history_preview(
            raw=raw, filename="vorig.trf"))
        print(f"  matched {preview.matched}, not found {preview.unmatched}, "
              f"{preview.file.games} games")
        timed("import with its standings", lambda: importing.history_import(
            actor=leader, raw=raw, filename="vorig.trf", choices={}))


if __name__ == "__main__":
    main()
