"""Many clubs on one installation: the Thursday burst and a results night, on PostgreSQL
and Redis with two Celery worker processes.

Builds a throwaway database (``ranglijst_federation_<pid>``, created by this run and only
then dropped) with N clubs (``BENCH_CLUBS``, default 400) of 20 to 120 players, each with
a generated season (``tests.generate.random_season``, imported as the
command line does) of which the first half has been played and whose next evening's
sign-up deadline has just passed; every member has an e-mail address and wants the
pairing by e-mail. A local SMTP sink (a process of its own on 127.0.0.1) takes the mail.

1. The Thursday burst: the beat's deadline job runs once; two worker processes (``solo``
   pool, both queues) pair, publish and e-mail every club's evening. Printed: the time to
   the last published evening and to the last e-mail, worker CPU per club (pairing and
   publishing, and with its e-mails) and per e-mail, SQL queries per club. Each task's CPU
   (``time.process_time``) and queries are counted in the worker itself, by signals this
   run's settings module adds.
2. Results nights: results entered at each rate of ``BENCH_RATES`` (default 5 and 20
   a second) across the clubs for ``BENCH_SECONDS`` (20) each, then a realistic Friday
   (results from 21:00 to 23:30 compressed into ``BENCH_FRIDAY_SECONDS``, 60, rising to
   ``BENCH_FRIDAY_PEAK``, 20 a second, at 22:30 and falling off), each result through the
   result service in its club's context, on the evening after ``BENCH_PLAYED`` (18 of 20,
   late in the season). Printed per night: p50/p95/max freshness (from the save's commit
   to standings stored that include it), the recalculations' worker CPU and queries
   (p50/p95; also for the clubs of about 60 players), the load average; then the highest
   rate whose p95 freshness is at most 1 s, and, after the queue drains, the number of
   clubs whose stored standings differ from a fresh computation (must be 0). Also per
   night: the worker CPU per result for the clubs of each size (20-39 players, ...), the
   CPU per result of the load generators themselves (the saving processes and the
   watcher, on the same cores), the servers' CPU per result (PostgreSQL's and Redis's
   every process, from ``/proc``: they share the cores too), PostgreSQL's write-ahead
   log per result, the load average before and after.

Goals (issue 20, this 2-core machine): per-club deadline CPU at most a third of the
single-club figure of before (60 players: 0,60 s, so at most 0,2 s), e-mail at most 2 ms of
CPU a message, 40 clubs' burst fully e-mailed within 30 s. Goals of issue 33, at the
default 400 clubs: p95 freshness at most 1 s at 20 results a second and 300 ms at 5; at
most 25 ms of worker CPU a recalculation of a 60-player season late in the season; 0
clubs differing. docs/operations.md turns the figures into what 400 clubs need.

Run: .venv/bin/python bench/bench_federation.py   (also part of ``make bench``)
Environment: BENCH_CLUBS (400), BENCH_RATES (5,20), BENCH_SECONDS (20), BENCH_PLAYED (18),
BENCH_FRIDAY_SECONDS (60; 0: no Friday), BENCH_FRIDAY_PEAK (20), BENCH_TEMPLATE (1: keep
the built clubs as a template database, ``ranglijst_fedtpl_...``, and start from it next
time: the same clubs, evening day and migrations; drop: drop it), BENCH_REDIS_URL
(redis://127.0.0.1:6379/12; must be empty, emptied at the end), LOADTEST_POSTGRES_URL
(the server, default postgres://postgres@127.0.0.1:5432/postgres). Without PostgreSQL or
Redis it says so and exits 0. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import multiprocessing
import os
import random
import shutil
import socket
import socketserver
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts"), str(ROOT / "bench")]

from loadtest import (  # noqa: E402
    ADMIN_URL,
    Refused,
    admin_connection,
    claim_redis,
    create_database,
    drop_database,
    environment,
    flush_redis,
    stop_server,
)

CLUBS = int(os.environ.get("BENCH_CLUBS", "400"))
RATES = [float(r) for r in os.environ.get("BENCH_RATES", os.environ.get("BENCH_RATE", "5,20")).split(",")]
SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
# Evenings played before the one whose results come in: 18 of 20, late in the season (the
# summer half eight evenings deep), where a result costs the most.
PLAYED = int(os.environ.get("BENCH_PLAYED", "18"))
FRIDAY_SECONDS = float(os.environ.get("BENCH_FRIDAY_SECONDS", "60"))
FRIDAY_PEAK = float(os.environ.get("BENCH_FRIDAY_PEAK", "20"))
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
# BENCH_TEMPLATE=1: keep the built clubs as a template database and start from it when
# one for the same clubs, evening and migrations exists (building 400 clubs takes
# minutes); drop it with BENCH_TEMPLATE=drop.
TEMPLATE = os.environ.get("BENCH_TEMPLATE", "")
WORKERS = 2
# The processes that save the results (a results night's web processes): one process
# saving alone kept up with about 4 results a second on a loaded machine.
SAVERS = int(os.environ.get("BENCH_SAVERS", "3"))
PYTHON = sys.executable

# The worker side: each task's CPU and queries, appended to a file per process.
SETTINGS = '''from config.settings import *  # noqa
import os as _os, time as _time
from celery.signals import task_prerun as _prerun, task_postrun as _postrun
from django.db.backends.signals import connection_created as _created

_LOG = {log!r}
_state = {{"queries": 0, "cpu": 0.0}}


def _count(execute, sql, params, many, context):
    _state["queries"] += 1
    return execute(sql, params, many, context)


def _install(sender, connection, **kwargs):
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def _begin(task=None, **kwargs):
    _state["queries"], _state["cpu"] = 0, _time.process_time()


def _end(task=None, args=None, **kwargs):
    cpu = _time.process_time() - _state["cpu"]
    first = args[0] if args and isinstance(args[0], int) else -1
    with open(f"{{_LOG}}.{{_os.getpid()}}", "a") as out:
        out.write(f"{{task.name}} {{cpu:.6f}} {{_state['queries']}} {{first}}\\n")


_created.connect(_install, weak=False)
_prerun.connect(_begin, weak=False)
_postrun.connect(_end, weak=False)
'''


# --- The SMTP sink ------------------------------------------------------------------------


class _Sink(socketserver.StreamRequestHandler):
    """Just enough SMTP for smtplib: every message is accepted, counted and timed."""

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        server = self.server
        server.connections.value += 1  # type: ignore[attr-defined]
        self.reply("220 sink ESMTP")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line[:4].upper()
            if verb == b"EHLO":
                self.wfile.write(b"250-sink\r\n250 8BITMIME\r\n")
            elif verb == b"DATA":
                self.reply("354 go on")
                while self.rfile.readline() not in (b".\r\n", b""):
                    pass
                with server.messages.get_lock():  # type: ignore[attr-defined]
                    server.messages.value += 1  # type: ignore[attr-defined]
                    server.last.value = time.time()  # type: ignore[attr-defined]
                self.reply("250 ok")
            elif verb == b"QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


def _serve_sink(port, messages, connections, last) -> None:
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    with socketserver.ThreadingTCPServer(("127.0.0.1", port), _Sink) as server:
        server.messages, server.connections, server.last = messages, connections, last  # type: ignore[attr-defined]
        server.serve_forever()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- The clubs -----------------------------------------------------------------------------


def due_date(now: dt.datetime) -> dt.date:
    """An evening whose sign-up deadline (the day before, 18:00) has passed and whose
    start (20:00) has not."""
    return now.date() if now.time() < dt.time(19, 30) else now.date() + dt.timedelta(days=1)


def build_clubs(n: int) -> list[dict]:
    """N clubs of 20 to 120 players; a quarter of them ladder clubs, the rest Keizer."""
    from django.utils import timezone

    from competition.models import (
        Attendance,
        Evening,
        EveningStatus,
        PlayerKind,
        Registration,
        Season,
    )
    from competition.season.seasonio import season_import
    from members.clubs.context import club_context
    from members.models import Club, Membership
    from tests.generate import random_season

    day = due_date(timezone.localtime())
    clubs = []
    for i in range(n):
        players = 20 + (100 * i) // max(n - 1, 1)
        system = "ladder" if i % 4 == 3 else "pion"
        data = random_season(seed=1000 + i, players=players, evenings=20, system=system)
        played = PLAYED
        evenings = list(data.evenings[: played + 1])
        shift = day - evenings[played].date
        evenings = [dataclasses.replace(e, date=e.date + shift) for e in evenings]
        evenings[played] = dataclasses.replace(
            evenings[played], games=(), byes=(), absent_with_notice=(), club_duty=(),
        )
        data = dataclasses.replace(data, evenings=tuple(evenings))
        club = Club.objects.create(name=f"Schaakclub {i + 1:03d}", slug=f"club-{i + 1:03d}")
        with club_context(club):
            season = season_import(data=data, name="2026-2027", actor=None, system=True)
            Membership.objects.bulk_create(
                [Membership(user_id=m, club=club, role="player")
                 for m in season.players.values_list("member_id", flat=True)],
                ignore_conflicts=True,
            )
            due = Evening.objects.get(season=season, date=day)
            assert due.status == EveningStatus.OPEN and due.deadline <= timezone.now(), due
            # The file names nobody on the evening to come, which the import reads as fixed
            # players absent: they come, as most do, and half the flexible ones sign up.
            Registration.objects.filter(evening=due).delete()
            flexible = list(season.players.filter(kind=PlayerKind.FLEXIBLE).values_list("pk", flat=True))
            Registration.objects.bulk_create(
                Registration(evening=due, player_id=pk, status=Attendance.PRESENT)
                for pk in flexible[::2])
        clubs.append({"club": club.pk, "season": season.pk, "players": players, "system": system,
                      "evening": due.pk, "half": due.half_id})
    assert Season.objects.count() == n
    return clubs


def template_name() -> str:
    """The template of this run's clubs: their number, the evenings played, the day of the
    evening due and the migrations (a new one makes a new template)."""
    import hashlib

    from django.utils import timezone

    migrations = hashlib.sha256("\n".join(sorted(
        str(p.relative_to(ROOT)) for p in ROOT.glob("*/migrations/0*.py"))).encode()).hexdigest()
    day = due_date(timezone.localtime())
    return f"ranglijst_fedtpl_{CLUBS}_{PLAYED}_{day:%Y%m%d}_{migrations[:8]}"


def template_exists(name: str) -> bool:
    with admin_connection() as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def analyze() -> None:
    """The planner's statistics of the built clubs, as autovacuum keeps them on a database
    in service. A database just filled (or copied before autovacuum came round) has none,
    and the planner then scans whole tables: at 1.000 clubs the season's inputs took
    160 ms instead of 4."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def copy_database(source: str, target: str) -> None:
    """CREATE DATABASE target from source (which nobody may be connected to)."""
    with admin_connection() as conn:
        conn.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')


def clubs_of_database() -> list[dict]:
    """``build_clubs``'s list, read back from a database copied from a template."""
    from django.utils import timezone

    from competition.models import Evening, Season

    day = due_date(timezone.localtime())
    clubs = []
    for season in Season.objects.select_related("competition").order_by("club_id"):
        due = Evening.objects.get(season=season, date=day)
        clubs.append({"club": season.club_id, "season": season.pk,
                      "players": season.players.count(), "system": season.competition.system,
                      "evening": due.pk, "half": due.half_id})
    return clubs


# --- Measuring ------------------------------------------------------------------------------


def task_log(folder: Path) -> list[tuple[str, float, int, int]]:
    """(task, CPU seconds, queries, its evening id or -1) for every task the workers ran."""
    rows = []
    for path in folder.glob("tasks.log.*"):
        for line in path.read_text().splitlines():
            name, cpu, queries, evening = line.split()
            rows.append((name, float(cpu), int(queries), int(evening)))
    return rows


def wait_for(check, seconds: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return False


def burst(clubs: list[dict], folder: Path, sink) -> dict:
    """The deadline job once; every evening published and every e-mail in the sink."""
    from django.db import close_old_connections

    from competition.models import Evening, EveningStatus
    from pairing.tasks import close_due_evenings

    evenings = [c["evening"] for c in clubs]
    begun = time.time()
    queued = close_due_evenings()
    assert sorted(queued) == sorted(evenings), (len(queued), len(evenings))

    def published() -> bool:
        close_old_connections()
        return not Evening.objects.filter(pk__in=evenings).exclude(
            status=EveningStatus.PUBLISHED).exists()

    assert wait_for(published, 600), "not every evening was published within 10 minutes"
    published_at = max(Evening.objects.filter(pk__in=evenings).values_list("published_at", flat=True))
    expected = _expected_mails(evenings)
    mailed = wait_for(lambda: sink["messages"].value >= expected, 600)
    return {
        "published": published_at.timestamp() - begun,
        "mailed": (sink["last"].value - begun) if mailed else float("nan"),
        "messages": sink["messages"].value, "expected": expected,
        "connections": sink["connections"].value,
    }


def _expected_mails(evening_ids: list[int]) -> int:
    """Every paired player with an address gets his pairing (members want it by default)."""
    from competition.models import Bye, Game

    games = Game.objects.filter(evening_id__in=evening_ids).count()
    byes = Bye.objects.filter(evening_id__in=evening_ids).count()
    return 2 * games + byes


def friday_rate(peak: float, seconds: float):
    """A realistic Friday compressed into ``seconds``: results from 21:00 to 23:30, rising
    from a trickle to the peak at 22:30 (three fifths in), then falling off by 23:30."""
    peak_at = 0.6 * seconds

    def rate(t: float) -> float:
        share = t / peak_at if t <= peak_at else (seconds - t) / (seconds - peak_at)
        return max(0.1 * peak, peak * share)

    return rate


def _rate_function(rate):
    """("steady", r) or ("friday", peak, seconds): a rate a second as a function of the
    seconds since the start (a spec, so a saver process can rebuild it)."""
    if rate[0] == "friday":
        return friday_rate(rate[1], rate[2])
    return lambda _t, r=rate[1]: r


def _saver(share: list[dict], rate, seconds: float, seed: int, events, go) -> None:
    """One of the saving processes (the web processes of a results night): results at its
    share of the rate across its share of the clubs, each through the result service in
    its club's context as its leader; (season, inputs version, commit time) of each
    result to ``events``."""
    import django

    django.setup()
    from django.db import connection

    from competition.models import Game, Result, Season
    from competition.season import services
    from members.clubs.context import club_context
    from members.models import Club, User

    rng = random.Random(seed)
    rate_at = _rate_function(rate)
    clubs = {c["season"]: (Club.objects.get(pk=c["club"]), User.objects.get(pk=c["leader"]))
             for c in share}
    # Each club is this process's alone, so the games read once stay what it last saved:
    # the service locks and reads the game again itself. Read with their evenings, as the
    # result's view reads a game (``season.views.enter_result``).
    games: dict[int, list] = {}
    for season, (club, _leader) in clubs.items():
        with club_context(club):
            games[season] = list(Game.objects.select_related("evening__season").filter(
                pk__in=next(c["games"] for c in share if c["season"] == season)))
    outcomes = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    seasons = list(clubs)
    version_sql = (f"SELECT inputs_version FROM {Season._meta.db_table} WHERE id = %s")
    events.put(("ready", 0, 0.0))
    go.wait()
    cpu = time.process_time()
    began = time.monotonic()
    stop_at = time.time() + seconds
    next_at = began
    saved = 0
    while time.time() < stop_at:
        season = rng.choice(seasons)
        club, leader = clubs[season]
        with club_context(club):
            game = rng.choice(games[season])
            result = rng.choice([r for r in outcomes if r != game.result])
            services.result_set(actor=leader, game=game, result=result, before_start=True)
            game.result = result
            with connection.cursor() as cursor:  # this club's result is the last one saved
                cursor.execute(version_sql, [season])
                version = cursor.fetchone()[0]
        events.put((season, version, time.time()))
        saved += 1
        next_at += SAVERS / rate_at(time.monotonic() - began)
        time.sleep(max(0.0, next_at - time.monotonic()))
    events.put(("done", saved, time.process_time() - cpu))


def results_night(clubs: list[dict], rate, seconds: float) -> dict:
    """Results at ``rate`` a second across the clubs (``("steady", r)`` or ``("friday",
    peak, seconds)``), saved by ``SAVERS`` processes of their own, as the web processes of
    a results night would; freshness from commit to stored, watched here."""
    import queue as queues

    from django.db import close_old_connections, connections

    from competition.models import Game, StandingsState
    from members.clubs.context import club_context, platform_context
    from members.models import Club, Membership, User

    share: list[list[dict]] = [[] for _ in range(SAVERS)]
    for i, c in enumerate(clubs):
        club = Club.objects.get(pk=c["club"])
        # The evening has not begun (the burst is at the deadline): its leader enters the
        # results, saying so (``before_start``), as a club that plays on does.
        user = User.objects.filter(email=f"leider@{club.slug}.bench").first()
        if user is None:  # one leader for every night of the run
            user = User.objects.create_user(email=f"leider@{club.slug}.bench", name="Leider",
                                            password=None)
            Membership.objects.create(user=user, club=club, role="leader")
        with club_context(club):
            games = list(Game.objects.filter(evening_id=c["evening"]).values_list("pk", flat=True))
        if games:
            share[i % SAVERS].append({"club": club.pk, "season": c["season"], "leader": user.pk,
                                      "games": games})
    connections.close_all()
    context = multiprocessing.get_context("spawn")  # a fresh Django each, no shared sockets
    events = context.Queue()
    go = context.Event()
    savers = [context.Process(target=_saver, args=(part, rate, seconds, 7 + k, events, go),
                              daemon=True) for k, part in enumerate(share) if part]
    for process in savers:
        process.start()
    for _ in savers:
        assert events.get(timeout=120)[0] == "ready"
    go.set()
    waiting: dict[int, list[tuple[int, float]]] = defaultdict(list)  # season -> (version, saved at)
    freshness: list[float] = []
    per_season: dict[int, int] = defaultdict(int)  # results saved per season
    saved = 0
    done = 0
    savers_cpu = 0.0
    deadline = time.time() + seconds + 300
    # Only the seasons with a result not yet seen stored, in one plain query every 20 ms
    # (the watcher shares the cores with the workers: it costs them little).
    states_sql = (f"SELECT season_id, inputs_version FROM {StandingsState._meta.db_table} "
                  f"WHERE season_id = ANY(%s)")
    watcher_cpu = time.process_time()
    with platform_context():  # the watcher reads every club's state
        while time.time() < deadline and (done < len(savers) or any(waiting.values())):
            while True:
                try:
                    season, version, at = events.get_nowait()
                except queues.Empty:
                    break
                if season == "done":
                    done += 1
                    saved += version
                    savers_cpu += at
                else:
                    waiting[season].append((version, at))
                    per_season[season] += 1
            pending_seasons = [season for season, pending in waiting.items() if pending]
            if pending_seasons:
                close_old_connections()
                with connections["default"].cursor() as cursor:
                    cursor.execute(states_sql, [pending_seasons])
                    states = dict(cursor.fetchall())
                now = time.time()
                for season in pending_seasons:
                    pending = waiting[season]
                    stored = states.get(season, -1)
                    freshness.extend(now - at for version, at in pending if stored >= version)
                    pending[:] = [p for p in pending if stored < p[0]]
            time.sleep(0.02)
    watcher_cpu = time.process_time() - watcher_cpu
    for process in savers:
        process.join(timeout=30)
    return {"saved": saved, "freshness": freshness, "per_season": dict(per_season),
            "savers_cpu": savers_cpu, "watcher_cpu": watcher_cpu}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else float("nan")


RECALCULATION = "competition.tasks.recalculate_half"


def recalculation_figures(rows, clubs: list[dict]) -> dict:
    """Worker CPU and queries of the recalculation tasks (p50/p95), all clubs and those of
    55 to 65 players; a task that found nothing to do (coalesced) counts too."""
    sizes = {c["half"]: c["players"] for c in clubs}
    tasks = [r for r in rows if r[0] == RECALCULATION]
    sixty = [r for r in tasks if 55 <= sizes.get(r[3], 0) <= 65]
    return {
        "tasks": len(tasks),
        "cpu": (percentile([r[1] for r in tasks], 0.5), percentile([r[1] for r in tasks], 0.95)),
        "queries": (percentile([r[2] for r in tasks], 0.5), percentile([r[2] for r in tasks], 0.95)),
        "sixty": len(sixty),
        "sixty_cpu": (percentile([r[1] for r in sixty], 0.5), percentile([r[1] for r in sixty], 0.95)),
        "total_cpu": sum(r[1] for r in tasks),
    }


def night_lines(name: str, night: dict, clubs: list[dict], rows) -> list[str]:
    fresh = night["freshness"]
    lines = [f"{name}: {night['saved']} results in {night['seconds']:.0f} s across "
             f"{len(clubs)} clubs"]
    if fresh:
        lines.append(f"  freshness (save to standings stored): p50 {percentile(fresh, 0.5) * 1000:.0f} ms, "
                     f"p95 {percentile(fresh, 0.95) * 1000:.0f} ms, max {max(fresh) * 1000:.0f} ms "
                     f"({len(fresh)} of {night['saved']} seen stored)")
    r = recalculation_figures(rows, clubs)
    lines.append(f"  recalculations: {r['tasks']} tasks; worker CPU p50 {r['cpu'][0] * 1000:.1f} ms, "
                 f"p95 {r['cpu'][1] * 1000:.1f} ms; queries p50 {r['queries'][0]:.0f}, "
                 f"p95 {r['queries'][1]:.0f}; clubs of 55-65 players ({r['sixty']} tasks): CPU p50 "
                 f"{r['sixty_cpu'][0] * 1000:.1f} ms, p95 {r['sixty_cpu'][1] * 1000:.1f} ms")
    if night["saved"]:
        lines.append(f"  worker CPU per result: {r['total_cpu'] / night['saved'] * 1000:.1f} ms "
                     f"(every recalculation task's CPU over the results saved); by club size: "
                     + "; ".join(per_size_cpu(rows, clubs, night["per_season"])))
        lines.append(f"  the load generators' CPU per result: saving {night['savers_cpu'] / night['saved'] * 1000:.1f} ms "
                     f"({SAVERS} processes, the result service and its commit), watching "
                     f"{night['watcher_cpu'] / night['saved'] * 1000:.1f} ms")
        servers = night.get("servers", {})
        lines.append(f"  the servers' CPU per result: PostgreSQL {servers.get('postgres', 0) / night['saved'] * 1000:.1f} ms, "
                     f"Redis {servers.get('redis', 0) / night['saved'] * 1000:.1f} ms (each server's every "
                     f"process on this machine, from the night's start to the queue drained); the worker "
                     f"processes' in all {night.get('workers', 0) / night['saved'] * 1000:.1f} ms (their "
                     f"tasks and Celery's receiving and acknowledging)")
        lines.append(f"  PostgreSQL's write-ahead log per result: {night.get('wal', 0) / night['saved'] / 1024:.1f} kB "
                     f"(the saving and the recalculations)")
    return lines


SIZES = ((20, 39), (40, 59), (60, 79), (80, 99), (100, 120))


def per_size_cpu(rows, clubs: list[dict], per_season: dict[int, int]) -> list[str]:
    """The recalculation tasks' worker CPU over the results saved, for the clubs of each
    size (players): a task that coalesced several results counts once."""
    size = {c["half"]: c["players"] for c in clubs}
    season_size = {c["season"]: c["players"] for c in clubs}
    out = []
    for low, high in SIZES:
        cpu = sum(r[1] for r in rows if r[0] == RECALCULATION and low <= size.get(r[3], 0) <= high)
        results = sum(n for season, n in per_season.items() if low <= season_size[season] <= high)
        if results:
            out.append(f"{low}-{high} players {cpu / results * 1000:.1f} ms ({results} results)")
    return out


def _stat(path: Path) -> tuple[str, float, float] | None:
    """(name, CPU seconds, its reaped children's) of a ``/proc/<pid>/stat``; None when
    the process is gone."""
    try:
        text = path.read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # from field 3, the state
    tick = os.sysconf("SC_CLK_TCK")
    return (text[text.index("(") + 1 : text.rindex(")")],
            (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick)


def process_cpu(pids: list[int]) -> float:
    """CPU seconds so far of these processes (the workers: every task's and Celery's own
    work around it, receiving and acknowledging)."""
    return sum(found[1] for pid in pids if (found := _stat(Path(f"/proc/{pid}/stat"))))


def server_cpu() -> dict[str, float]:
    """CPU seconds so far of the PostgreSQL and the Redis server on this machine: every
    live process of each (user and system time), with what their exited children used (a
    backend that closed its connection, reaped by the postmaster). The servers share the
    two cores with the workers and the savers; every process of theirs counts, this run's
    or not (nothing else uses them meanwhile)."""
    totals = {"postgres": 0.0, "redis": 0.0}
    for path in Path("/proc").glob("[0-9]*/stat"):
        found = _stat(path)
        if found is None:
            continue
        name, cpu, children = found
        kind = "postgres" if name == "postgres" else "redis" if name.startswith("redis-server") else None
        if kind is not None:
            totals[kind] += cpu + children
    return totals


def wal_bytes() -> int:
    """Where PostgreSQL's write-ahead log is now, in bytes: what a night wrote to it is the
    difference (every database of the server; nothing else writes meanwhile). A figure
    that does not move with the machine's speed, unlike the CPU."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")
        return int(cursor.fetchone()[0])


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def differing(clubs: list[dict]) -> int:
    from competition.season.standings import standings_current

    return sum(not standings_current(c["season"]) for c in clubs)


def cpu_figures(rows, clubs: list[dict], messages: int) -> dict:
    pair = [r for r in rows if r[0] == "pairing.tasks.pair_and_publish_evening"]
    mail = [r for r in rows if r[0] in ("pairing.tasks.send_pairing_notices", "core.tasks.send_mails")]
    other = [r for r in rows if r not in pair and r not in mail]
    n = len(clubs)
    return {
        "pair_cpu": sum(r[1] for r in pair) / n,
        "mail_cpu": sum(r[1] for r in mail) / max(messages, 1),
        "club_cpu": (sum(r[1] for r in pair) + sum(r[1] for r in mail)) / n,
        "other_cpu": sum(r[1] for r in other),
        "other_tasks": len(other),
        "queries": (sum(r[2] for r in pair) + sum(r[2] for r in mail)) / n,
        "tasks": len(rows),
    }


PAIR_AND_MAIL = ("pairing.tasks.pair_and_publish_evening", "pairing.tasks.send_pairing_notices")


def per_size(rows, clubs: list[dict]) -> list[str]:
    """Pairing, publishing and e-mailing CPU of the clubs nearest 20, 60 and 120 players
    (the single-club figures of before: 0,24, 0,60 and 1,12 s)."""
    cpu: dict[int, float] = defaultdict(float)
    for name, seconds, _queries, evening in rows:
        if name in PAIR_AND_MAIL:
            cpu[evening] += seconds
    lines = []
    for size, before in ((20, 0.24), (60, 0.60), (120, 1.12)):
        club = min(clubs, key=lambda c: (abs(c["players"] - size), c["system"] != "pion"))
        # One task's CPU on a loaded machine varies by tens of per cent: its neighbours of
        # the same system show how much.
        near = sorted((c for c in clubs if c["system"] == club["system"]),
                      key=lambda c: abs(c["players"] - size))[:3]
        neighbours = ", ".join(f"{c['players']}: {cpu[c['evening']] * 1000:.0f}"
                               for c in sorted(near, key=lambda c: c["players"]))
        lines.append(f"{club['players']}-player {club['system']} club: {cpu[club['evening']] * 1000:.0f} ms "
                     f"of worker CPU for its deadline (before: {before * 1000:.0f} ms for {size}; "
                     f"the {club['system']} clubs nearest {size} players, ms: {neighbours})")
    return lines


def main() -> int:
    try:
        claim_redis(REDIS_URL)
        database = f"ranglijst_federation_{os.getpid()}"
        create_database(database)  # refuses a name that exists; dropped again when copying
    except Refused as exc:
        print(f"REFUSED: {exc}")
        return 2
    except Exception as exc:
        print(f"SKIPPED: PostgreSQL ({ADMIN_URL}) or Redis ({REDIS_URL}) is not usable: "
              f"{exc.__class__.__name__}: {str(exc).strip()}")
        return 0
    folder = Path(tempfile.mkdtemp(prefix="ranglijst-federation-"))
    (folder / "loadtest_settings.py").write_text(SETTINGS.format(log=str(folder / "tasks.log")))
    smtp_port = _free_port()
    env = environment(folder, database, REDIS_URL)
    env.pop("EMAIL_BACKEND", None)
    env.update(EMAIL_URL=f"smtp://127.0.0.1:{smtp_port}", DEFAULT_FROM_EMAIL="bench@127.0.0.1")
    os.environ.update(env)
    os.environ.pop("EMAIL_BACKEND", None)
    sys.path.insert(0, str(folder))
    messages = multiprocessing.Value("i", 0)
    connections = multiprocessing.Value("i", 0)
    last = multiprocessing.Value("d", 0.0)
    sink_process = multiprocessing.Process(
        target=_serve_sink, args=(smtp_port, messages, connections, last), daemon=True)
    sink_process.start()
    processes: list[subprocess.Popen] = []
    try:
        import django
        from django.core.management import call_command

        django.setup()
        from django.db import connections as dbs

        from members.clubs.context import platform_context

        started = time.perf_counter()
        template = template_name() if TEMPLATE else ""
        if TEMPLATE == "drop":
            dbs.close_all()
            with admin_connection() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')
            print(f"dropped {template}")
            return 0
        if template and template_exists(template):
            dbs.close_all()
            drop_database(database)
            copy_database(template, database)
            analyze()
            with platform_context():
                clubs = clubs_of_database()
            print(f"started from the template {template}")
        else:
            call_command("migrate", "--noinput", verbosity=0)
            with platform_context():
                clubs = build_clubs(CLUBS)
            analyze()
            dbs.close_all()
            if template:
                copy_database(database, template)
                print(f"kept the clubs as the template {template}")
        dbs.close_all()
        sizes = [c["players"] for c in clubs]
        print(f"{len(clubs)} clubs of {min(sizes)}-{max(sizes)} players ({sum(sizes)} in all), "
              f"half a season each, set up in {time.perf_counter() - started:.0f} s")
        logs = open(folder / "processes.log", "w")  # noqa: SIM115
        for n in range(1, WORKERS + 1):
            processes.append(subprocess.Popen(
                [str(Path(PYTHON).with_name("celery")), "-A", "config", "worker", "--pool=solo",
                 "-Q", "standings,celery,mail", "--loglevel=WARNING", "--without-gossip", "--without-mingle",
                 "-n", f"federation{n}-{os.getpid()}@127.0.0.1"],
                env=env, cwd=ROOT, stdout=logs, stderr=logs))
        time.sleep(8)  # the workers connect to the broker
        load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
        with platform_context():
            figures = burst(clubs, folder, {"messages": messages, "connections": connections,
                                            "last": last})
        time.sleep(1)
        rows = task_log(folder)
        cpu = cpu_figures(rows, clubs, figures["messages"])
        print("\nThe Thursday burst")
        print(f"  last evening published after {figures['published']:.1f} s; last e-mail after "
              f"{figures['mailed']:.1f} s ({figures['messages']} of {figures['expected']} e-mails, "
              f"{figures['connections']} SMTP connections)")
        print(f"  worker CPU per club: {cpu['pair_cpu'] * 1000:.0f} ms pairing and publishing, "
              f"{cpu['club_cpu'] * 1000:.0f} ms with its e-mails; {cpu['mail_cpu'] * 1000:.2f} ms "
              f"per e-mail; {cpu['queries']:.0f} SQL queries per club ({cpu['tasks']} tasks)")
        print(f"  other tasks the burst queued (standings recalculations): {cpu['other_tasks']}, "
              f"{cpu['other_cpu']:.1f} s of worker CPU in all")
        for line in per_size(rows, clubs):
            print(f"  {line}")
        print(f"  load average before: {load_before}")

        from loadtest import queue_drained

        met = []
        drained = True
        nights = [(f"A results night at {rate:g} a second", ("steady", rate), SECONDS)
                  for rate in RATES]
        if FRIDAY_SECONDS > 0:  # BENCH_FRIDAY_SECONDS=0: no Friday
            nights.append((f"A realistic Friday (21:00-23:30 in {FRIDAY_SECONDS:.0f} s, peak "
                           f"{FRIDAY_PEAK:g} a second at 22:30)",
                           ("friday", FRIDAY_PEAK, FRIDAY_SECONDS), FRIDAY_SECONDS))
        for name, rate, seconds in nights:
            for path in folder.glob("tasks.log.*"):
                path.unlink()
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            servers = server_cpu()
            wal = wal_bytes()
            workers = process_cpu([p.pid for p in processes])
            with platform_context():
                night = results_night(clubs, rate, seconds)
                drained = queue_drained(REDIS_URL, seconds=300) and drained
            time.sleep(1)
            night["seconds"] = seconds
            night["servers"] = {k: v - servers[k] for k, v in server_cpu().items()}
            night["wal"] = wal_bytes() - wal
            night["workers"] = process_cpu([p.pid for p in processes]) - workers
            print()
            for line in night_lines(name, night, clubs, task_log(folder)):
                print(line)
            print(f"  load average before: {load}; after: {_load()}")
            if rate[0] == "steady" and night["freshness"] and percentile(night["freshness"], 0.95) <= 1.0:
                met.append(rate[1])
        print(f"\nHighest rate with p95 freshness at or under 1 s on {WORKERS} workers: "
              f"{max(met):g} a second" if met else
              f"\nNo rate tried ({', '.join(f'{r:g}' for r in RATES)}) kept p95 freshness at or under 1 s")
        with platform_context():
            wrong = differing(clubs)
        print(f"  queue drained: {'yes' if drained else 'NO'}; clubs whose stored standings "
              f"differ from a fresh computation: {wrong}")
        print(f"  load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return 1 if wrong or not drained or figures["messages"] < figures["expected"] else 0
    finally:
        for process in processes:
            stop_server(process)
        sink_process.terminate()
        from django.db import connections as dbs

        dbs.close_all()
        drop_database(database)
        with suppress(Exception):
            flush_redis(REDIS_URL)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
