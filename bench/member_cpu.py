"""CPU per request of the pages a signed-in member reads (no page cache for him).

Run inside a prepared bench environment (``bench_pages.py`` calls it with the bench
database and production settings): signs in as the season's first player in-process with
Django's test client and times each page with ``time.process_time`` (this process's CPU:
Python and template work, not the database server's), after a warm-up. Prints the median
and the 90th percentile per page.
"""

from __future__ import annotations

import statistics
import sys
import time

import django

django.setup()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from competition.models import Player  # noqa: E402

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 60


def main() -> None:
    from members.clubs.context import club_context
    from members.clubs.memo import home_club

    setup_test_environment()  # the test client's host and cookie handling
    club_context(home_club()).__enter__()  # the installation's own club's rows
    player = Player.objects.select_related("member").order_by("start").first()
    client = Client()
    client.force_login(player.member)
    pages = ["/standings/", "/", f"/players/{player.pk}/", "/evenings/"]
    print(f"{'signed-in page':22} {'median CPU ms':>14} {'p90 CPU ms':>11}")
    for path in pages:
        for _ in range(5):
            assert client.get(path, HTTP_HOST="127.0.0.1").status_code == 200, path
        times = []
        for _ in range(ROUNDS):
            started = time.process_time()
            client.get(path, HTTP_HOST="127.0.0.1")
            times.append((time.process_time() - started) * 1000)
        times.sort()
        print(f"{path:22} {statistics.median(times):14.1f} {times[int(len(times) * 0.9)]:11.1f}")


if __name__ == "__main__":
    main()
