"""Members at once (issue 31): a member list of 500 rows, read, previewed and saved.

Builds a season of 20 players in a throwaway SQLite database (the test settings), writes a
KNSB-style member export of ``BENCH_ROWS`` (500) rows, 50 of them members already, and
times: reading the file (CSV and .xlsx), the preview against the club, and saving (one
transaction, an invitation queued per member with an address). Prints seconds and SQL
queries of each step, and the queries per saved member; asserts nothing.

Run: .venv/bin/python bench/bench_member_import.py   (also part of ``make bench``)
"""

from __future__ import annotations

import io
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
ROWS = int(os.environ.get("BENCH_ROWS", "500"))
SITE = "http://testserver"


def member_list(existing: list[tuple[str, str]], rows: int) -> list[list[str]]:
    lines = [["Relatienummer", "Naam", "Rating", "E-mail"]]
    for name, email in existing:
        lines.append(["", name, "", email])
    for i in range(rows - len(existing)):
        address = f"lid{i}@example.org" if i % 10 else ""  # one in ten has none
        lines.append([str(8_500_000 + i), f"Achternaam{i}, Voornaam", str(1000 + i % 1500), address])
    return lines


def main() -> None:
    folder = tempfile.mkdtemp(prefix="ranglijst-bench-members-")
    os.environ["RANGLIJST_VAR_DIR"] = folder
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from openpyxl import Workbook

    import core.jobs
    from competition.roster import memberimport
    from competition.roster.memberfile import read_table
    from members.clubs.context import club_context
    from members.clubs.memo import home_club
    from tests import factories as f

    logging.disable(logging.INFO)  # one line per invitation queued
    call_command("migrate", verbosity=0)
    core.jobs.enqueue = lambda *args, **kwargs: True  # the outbox is filled, not sent
    with club_context(home_club()):
        season = f.season(players=20)
        leader = f.leader()
        existing = [(p.member.name, p.member.email)
                    for p in season.players.select_related("member")]
        lines = member_list(existing, ROWS)
        csv_bytes = "\n".join(";".join(cells) for cells in lines).encode()
        book = Workbook()
        for cells in lines:
            book.active.append(cells)
        xlsx = io.BytesIO()
        book.save(xlsx)
        print(f"member list of {ROWS} rows ({len(csv_bytes) // 1024} KB as CSV, "
              f"{len(xlsx.getvalue()) // 1024} KB as .xlsx), 20 of them members already")

        def timed(label: str, call):
            queries = [0]

            def count(execute, sql, params, many, context):
                queries[0] += 1
                return execute(sql, params, many, context)

            with connection.execute_wrapper(count):
                start, cpu = time.perf_counter(), time.process_time()
                result = call()
                elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            print(f"  {label:<32} {elapsed:6.2f} s ({cpu:5.2f} s CPU)  {queries[0]:6d} queries")
            return result, queries[0]

        table, _ = timed("read the CSV", lambda: read_table(csv_bytes, "leden.csv"))
        timed("read the .xlsx", lambda: read_table(xlsx.getvalue(), "leden.xlsx"))
        mapping = memberimport.guess_mapping(table.header)
        preview, _ = timed("preview", lambda: memberimport.preview(
            season=season, table=table, mapping=mapping))
        print(f"  preview: {preview.counts}")
        added, queries = timed("save (one transaction)", lambda: memberimport.members_import(
            actor=leader, season=season, table=table, mapping=mapping, site_url=SITE))
        print(f"  {len(added)} members added, {queries / len(added):.1f} queries per member")
        if os.environ.get("BENCH_PROFILE"):  # where the save's time goes, on a fresh file
            import cProfile
            import pstats

            again = read_table(csv_bytes.replace(b"@example.org", b"@example.net")
                               .replace(b"\n85", b"\n86").replace(b"Voornaam", b"Tweede"))
            profile = cProfile.Profile()
            profile.runcall(memberimport.members_import, actor=leader, season=season, table=again,
                            mapping=mapping, site_url=SITE)
            pstats.Stats(profile).sort_stats(os.environ["BENCH_PROFILE"]).print_stats(30)


if __name__ == "__main__":
    main()
