"""Mixed load on the whole stack, then a check that no acknowledged write was lost.

Builds a club of 100 players and 40 evenings on a PostgreSQL database it creates itself
(``--database``, default ``ranglijst_loadtest_<pid>``; refused if it exists already, and
only a database this run created is dropped at the end), serves it with gunicorn (production-like
settings: DEBUG off, manifest static files) next to a Celery worker, with Redis on
127.0.0.1:6379 (a database number of its own, emptied before and after), and for
``--seconds`` (30) runs, in threads of this process, against 127.0.0.1 only:

- visitors reading the standings (public and ``?all=1``), an evening's pairings and
  player pages;
- players who sign in and sign up and off for the coming evenings (with CSRF);
- arbiters entering and correcting results on the published evening, with the version
  field: two arbiters on the same boards meet conflicts, which are counted apart, not as
  errors.

Two Celery worker processes recalculate the standings. ``--mix`` picks the clients:
``default`` (30 visitors, 3 players, 1 arbiter: a club's results evening, read-heavy),
``stress`` (the writers' stress mix: 12 visitors, 8 players, 2 arbiters) or
``results-night`` (6 arbiters correcting results at once, 4 visitors);
``--visitors``, ``--players`` and ``--arbiters`` override it.

It prints requests per second, errors (5xx and connection errors) and the median and 95th
percentile latency per kind, then checks every acknowledged write against the database
(each player's last acknowledged status per evening is the stored one, with one audit
row per acknowledged change; each game's stored version and result follow from the
acknowledged results) and prints the result. Then it waits until the queue is empty
(no season's standings behind its inputs version) and compares, for every season, the
stored standings with a fresh computation from the data, printed as such. The machine's
load average (1, 5, 15 minutes) is printed before and after the run, beside the figure:
on a shared machine the figure is only as good as the quiet. Exit code 1 on errors, lost
writes, or stored standings that differ from a fresh computation.

Run: ``make loadtest`` (the default mix, then a results night) or
``.venv/bin/python scripts/loadtest.py [--mix default|stress|results-night] [--seconds 30]
[--database NAME] [--port PORT] [--redis-url URL] [--smoke]``; ``make loadtest-smoke`` (CI)
is ``--smoke``: a club of 16 players for 3 seconds. The environment gives the same:
LOADTEST_DATABASE, LOADTEST_PORT (default: a free port), LOADTEST_REDIS_URL (default
redis://127.0.0.1:6379/13; it must be empty, and is emptied at the end),
LOADTEST_POSTGRES_URL (the server, default postgres://postgres@127.0.0.1:5432/postgres).
Two runs with different names and ports do not collide.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from contextlib import ExitStack, suppress
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench_pages import SETTINGS, free_port, stop_server, wait_until_up  # noqa: E402

DATABASE_NAME = re.compile(r"[a-z][a-z0-9_]{0,62}")
ADMIN_URL = os.environ.get("LOADTEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/13")
PLAYERS, EVENINGS, PLAYED = 100, 40, 19
# ``--smoke`` (CI, after the tests): a small club and a few seconds, under a minute in all;
# a missing PostgreSQL or Redis fails it instead of skipping.
SMOKE_CLUB = (16, 12, 3)
SMOKE_MIX = (3, 1, 1)
SMOKE_SECONDS = 3.0
PASSWORD = "load-test-123"
PYTHON = sys.executable
# visitors, players signing up and off, arbiters entering and correcting results
MIXES = {"default": (30, 3, 1), "stress": (12, 8, 2), "results-night": (4, 0, 6)}
CELERY_WORKERS = 2
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# Each board's shown result, then its result form (game id and version).
RESULT_FORM = re.compile(
    r'data-result="([^"]*)".*?action="/games/(\d+)/result/".*?name="version" value="(\d+)"',
    re.S,
)
MESSAGE = re.compile(r'<li class="(success|error)[^"]*">')


# --- The database and the processes ---------------------------------------------------------


def admin_connection():
    import psycopg

    return psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)


class Refused(Exception):
    """The run would touch a database that is not its own."""


def create_database(database: str) -> None:
    """CREATE only: an existing database belongs to somebody else and is left alone."""
    import psycopg

    if not DATABASE_NAME.fullmatch(database):
        raise Refused(f"database name {database!r}: lower-case letters, digits and _ only")
    with admin_connection() as conn:
        try:
            conn.execute(f'CREATE DATABASE "{database}"')
        except psycopg.errors.DuplicateDatabase:
            raise Refused(f"database {database!r} exists already; choose another "
                          "--database (LOADTEST_DATABASE)") from None


def drop_database(database: str) -> None:
    """Only ever called for the database this run created."""
    with admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def claim_redis(url: str) -> None:
    import redis

    if redis.Redis.from_url(url, socket_timeout=2).dbsize():
        raise Refused(f"Redis {url} is not empty; choose another --redis-url (LOADTEST_REDIS_URL)")


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url, socket_timeout=2).flushdb()


def environment(folder: Path, database: str, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    env.update(
        DATABASE_URL=urlsplit(ADMIN_URL)._replace(path=f"/{database}").geturl(),
        REDIS_URL=redis_url,
        CACHE_KEY_PREFIX="loadtest",
        DJANGO_SETTINGS_MODULE="loadtest_settings",
        PYTHONPATH=os.pathsep.join([str(folder), str(ROOT)]),
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="loadtest-only-" + os.urandom(24).hex(),
        DJANGO_SECURE_HTTPS="0",  # plain HTTP on 127.0.0.1
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        RANGLIJST_VAR_DIR=str(folder / "var"),
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        LOG_LEVEL="WARNING",
    )
    env.pop("DATABASE_CONN_MAX_AGE", None)
    return env


def build_club(players: int = PLAYERS, evenings: int = EVENINGS, played: int = PLAYED) -> dict:
    """100 players (every fourth flexible), 40 playing Fridays: the first 19 played, the
    20th paired with its results to enter, the rest open for sign-ups (the smoke run: 16
    players, 12 Fridays, 3 played). The ladder system, since it plays every Friday (pion's
    calendar has 10 evenings a half)."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from competition.models import EveningKind, PlayerKind, Result
    from competition.season import services
    from members.clubs import roles
    from members.clubs.memo import home_club
    from members.models import User
    from pairing.services import evening_pair_and_publish

    club = home_club()  # a fresh installation's one club

    roles.ensure_groups()
    hashed = make_password(PASSWORD)

    def account(email: str, name: str, role: str, rating: int | None = None) -> User:
        user = User.objects.create(email=email, name=name, rating=rating, password=hashed)
        roles.set_club_role(user, role, club)
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        return user

    admin = account("admin@load.test", "Admin", roles.ADMINISTRATOR)
    today = timezone.localdate()
    friday = today - dt.timedelta(days=(today.weekday() - 4) % 7)
    first = friday - dt.timedelta(weeks=played)  # the last Friday before today is paired
    season = services.season_set_up(
        actor=admin, name="load", opening=first - dt.timedelta(days=1),
        last_day=first + dt.timedelta(weeks=evenings - 1, days=1), system="ladder", club=club,
    )
    rng = random.Random(2026)
    for i in range(players):
        member = account(f"player{i + 1}@load.test", f"Player {i + 1:03d}", roles.PLAYER,
                         int(rng.gauss(1700, 200)))
        kind = PlayerKind.FLEXIBLE if i % 4 == 3 else PlayerKind.FIXED
        services.player_add(actor=admin, season=season, member=member, kind=kind)
    services.players_order_by_rating(actor=admin, season=season)
    arbiters = [account(f"arbiter{i}@load.test", f"Arbiter {i}", roles.ARBITER)
                for i in range(1, 7)]
    playing = list(season.evenings.filter(kind=EveningKind.PLAYING).order_by("date"))
    past = [e for e in playing if e.date < today]
    outcomes = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    with services.recalculation_deferred():
        for evening in past[:-1]:
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
            for game in evening.games.all():
                services.result_set(actor=arbiters[0], game=game, result=rng.choice(outcomes))
        evening_pair_and_publish(actor=None, system=True, evening_id=past[-1].pk, now=past[-1].deadline)
    from competition.season.standings import recalculate_season

    recalculate_season(season.pk)
    coming = [e for e in playing if e.deadline > timezone.now()]
    return {
        "evenings": len(playing),
        "results_evening": past[-1].date.isoformat(),
        "coming": [(e.pk, e.date.isoformat()) for e in coming[:6]],
        "played_dates": [e.date.isoformat() for e in past],
        "player_ids": list(season.players.values_list("pk", flat=True)),
        "arbiters": [a.email for a in arbiters],
    }


# --- A browser, in short ------------------------------------------------------------------


class Browser:
    """One member's connection with cookies; every request is timed and counted."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(self, kind: str, method: str, path: str, form: dict | None = None):
        body = urlencode(form or {}, doseq=True) if form is not None else None
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://127.0.0.1:{self.port}{path}"
        started = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode(errors="replace")
        except (OSError, http.client.HTTPException):
            self.stats.error(kind)
            self.close()
            return None, ""
        self.stats.record(kind, time.perf_counter() - started, response.status)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel.value:
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return response, text

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def sign_in(self, email: str) -> bool:
        _, page = self.request("sign-in", "GET", "/accounts/login/")
        token = CSRF_INPUT.search(page)
        if not token:
            return False
        response, _ = self.request("sign-in", "POST", "/accounts/login/", {
            "csrfmiddlewaretoken": token.group(1), "login": email, "password": PASSWORD,
        })
        return response is not None and response.status == 302 and "sessionid" in self.cookies


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.conflicts = 0

    def record(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latency[kind].append(seconds)
            if status >= 500:
                self.errors[kind] += 1

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] += 1


# --- The members ----------------------------------------------------------------------------


def visitor(port: int, stats: Stats, club: dict, stop: float, rng: random.Random) -> None:
    browser = Browser(port, stats)
    while time.monotonic() < stop:
        roll = rng.random()
        if roll < 0.35:
            browser.request("standings", "GET", "/standings/")
        elif roll < 0.55:
            browser.request("standings ?all=1", "GET", "/standings/?all=1")
        elif roll < 0.75:
            browser.request("evening", "GET", f"/evenings/{rng.choice(club['played_dates'])}/")
        else:
            browser.request("player", "GET", f"/players/{rng.choice(club['player_ids'])}/")
    browser.close()


def player(port: int, stats: Stats, club: dict, stop: float, rng: random.Random, n: int,
           acknowledged: dict) -> None:
    """Signs in once, then signs up and off for the coming evenings; remembers each
    acknowledged change (a redirect back with a success message)."""
    email = f"player{n}@load.test"
    browser = Browser(port, stats)
    if not browser.sign_in(email):
        stats.error("sign-in")
        return
    while time.monotonic() < stop:
        _, page = browser.request("sign-up page", "GET", "/signup/")
        token = CSRF_INPUT.search(page)
        if not token:
            continue
        evening_id, _date = rng.choice(club["coming"])
        status = rng.choice(["present", "absent_with_notice"])
        response, _ = browser.request("sign-up", "POST", "/signup/", {
            "csrfmiddlewaretoken": token.group(1), "evenings": [str(evening_id)],
            "status": status,
        })
        if response is not None and response.status == 302:
            _, page = browser.request("sign-up page", "GET", response.getheader("Location"))
            if 'class="success' in page:
                acknowledged[(email, evening_id)].append(status)
    browser.close()


def arbiter(port: int, stats: Stats, club: dict, stop: float, rng: random.Random,
            email: str, acknowledged: dict) -> None:
    """Enters a result on a random board, always a different one from what he sees, with
    the version he saw; a conflict (somebody was first) is counted, not an error."""
    browser = Browser(port, stats)
    if not browser.sign_in(email):
        stats.error("sign-in")
        return
    path = f"/evenings/{club['results_evening']}/"
    _, page = browser.request("evening (arbiter)", "GET", path)
    while time.monotonic() < stop:
        forms = RESULT_FORM.findall(page)
        token = CSRF_INPUT.search(page)
        if not forms or not token:
            _, page = browser.request("evening (arbiter)", "GET", path)
            continue
        current, game_id, version = rng.choice(forms)
        result = rng.choice([r for r in ("1-0", "1/2-1/2", "0-1") if r != current])
        response, _ = browser.request("result", "POST", f"/games/{game_id}/result/", {
            "csrfmiddlewaretoken": token.group(1), "version": version, "result": result,
        })
        if response is None or response.status != 302:
            _, page = browser.request("evening (arbiter)", "GET", path)
            continue
        _, page = browser.request("evening (arbiter)", "GET", path)
        message = MESSAGE.search(page)
        if message and message.group(1) == "success":
            acknowledged[int(game_id)].append((int(version), result))
        elif message:
            with stats.lock:
                stats.conflicts += 1
    browser.close()


# --- Checking the writes afterwards -------------------------------------------------------


def check_writes(signups: dict, results: dict) -> list[str]:
    from competition.models import AuditRecord, Game, Registration

    problems = []
    for (email, evening_id), statuses in signups.items():
        reg = Registration.objects.filter(player__member__email=email, evening_id=evening_id).first()
        if reg is None or reg.status != statuses[-1]:
            problems.append(f"{email} evening {evening_id}: acknowledged {statuses[-1]}, "
                            f"stored {reg.status if reg else 'nothing'}")
        audited = AuditRecord.objects.filter(
            action="registration.set", player__member__email=email, evening_id=evening_id
        ).count()
        if audited != len(statuses):
            problems.append(f"{email} evening {evening_id}: {len(statuses)} changes "
                            f"acknowledged, {audited} audited")
    for game_id, writes in results.items():
        game = Game.objects.get(pk=game_id)
        versions = sorted(v for v, _ in writes)
        if len(set(versions)) != len(versions):
            problems.append(f"game {game_id}: two writes acknowledged on version {versions}")
            continue
        last_version, last_result = max(writes)
        if game.version != last_version + 1 or game.result != last_result:
            problems.append(f"game {game_id}: acknowledged {last_result} at version "
                            f"{last_version + 1}, stored {game.result} at {game.version}")
    return problems


def queue_drained(redis_url: str, seconds: float = 180) -> bool:
    """Wait until no task is queued and no season's standings are behind its inputs."""
    import redis

    from competition.models import Season
    from competition.season.standings import standings_behind

    queue = redis.Redis.from_url(redis_url, socket_timeout=2)
    deadline = time.monotonic() + seconds
    quiet = 0
    while time.monotonic() < deadline:
        behind = [pk for pk in Season.objects.values_list("pk", flat=True) if standings_behind(pk)]
        quiet = quiet + 1 if not behind and not queue.llen("celery") else 0
        if quiet >= 3:  # three looks in a row, half a second apart
            return True
        time.sleep(0.5)
    return False


def check_standings(redis_url: str) -> list[str]:
    """Every season's stored standings against a fresh computation, once the queue is
    empty; one line per season."""
    from competition.models import Season, StandingsState
    from competition.season.standings import standings_current

    drained = queue_drained(redis_url)
    problems = [] if drained else ["the queue did not drain within 3 minutes"]
    for season in Season.objects.order_by("pk"):
        state = StandingsState.objects.filter(season=season).first()
        computed = state.inputs_version if state else "never"
        if standings_current(season.pk):
            print(f"season {season.name}: stored standings equal to a fresh computation "
                  f"(inputs version {season.inputs_version}, computed from {computed})")
        else:
            problems.append(f"season {season.name}")
            print(f"season {season.name}: STORED STANDINGS DIFFER from a fresh computation "
                  f"(inputs version {season.inputs_version}, computed from {computed})")
    return problems


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# --- Main -------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] * 1000 if ordered else float("nan")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=os.environ.get("LOADTEST_DATABASE")
                        or f"ranglijst_loadtest_{os.getpid()}",
                        help="PostgreSQL database to create (must not exist)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("LOADTEST_PORT") or 0),
                        help="gunicorn's port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--redis-url", default=REDIS_URL, help="an empty Redis database")
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (2-4)")
    # The default mix is a club's results evening, read-heavy: visitors refreshing the
    # pages, a few members signing up and off and an arbiter entering results, none of them
    # pausing. None of the clients pause in the other mixes either.
    parser.add_argument("--mix", choices=sorted(MIXES), default="default")
    parser.add_argument("--visitors", type=int)
    parser.add_argument("--players", type=int)
    parser.add_argument("--arbiters", type=int)
    parser.add_argument("--smoke", action="store_true",
                        help="a small club for a few seconds (CI); fails if a service is missing")
    args = parser.parse_args(argv)
    mix = SMOKE_MIX if args.smoke else MIXES[args.mix]
    if args.seconds is None:
        args.seconds = SMOKE_SECONDS if args.smoke else 30.0
    for kind, count in zip(("visitors", "players", "arbiters"), mix, strict=True):
        if getattr(args, kind) is None:
            setattr(args, kind, count)
    args.workers = max(2, min(args.workers, 4))
    args.seconds = max(1.0, min(args.seconds, 600.0))
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        claim_redis(args.redis_url)
        create_database(args.database)
    except Refused as exc:
        print(f"REFUSED: {exc}")
        return 2
    except Exception as exc:
        print(f"{'FAILED' if args.smoke else 'SKIPPED'}: PostgreSQL ({ADMIN_URL}) or Redis "
              f"({args.redis_url}) is not usable: {exc.__class__.__name__}: {str(exc).strip()}")
        return 1 if args.smoke else 0
    folder = Path(tempfile.mkdtemp(prefix="ranglijst-loadtest-"))
    (folder / "loadtest_settings.py").write_text(SETTINGS.format(static=str(folder / "static")))
    env = environment(folder, args.database, args.redis_url)
    os.environ.update(env)
    sys.path.insert(0, str(folder))
    processes: list[subprocess.Popen] = []
    scope = ExitStack()
    try:
        import django
        from django.core.management import call_command

        django.setup()
        started = time.perf_counter()
        call_command("migrate", "--noinput", verbosity=0)
        call_command("collectstatic", "--noinput", verbosity=0)
        from members.clubs.context import club_context
        from members.clubs.memo import home_club

        # This process reads and writes the installation's own club's rows, until the end
        # (the checks of the writes and the standings read them too). The context is kept
        # by the stack: entered without its reference, it was collected and closed at once.
        scope.enter_context(club_context(home_club()))
        club = build_club(*SMOKE_CLUB) if args.smoke else build_club()
        from django.db import connections

        connections.close_all()
        print(f"club: {len(club['player_ids'])} players, {club['evenings']} evenings, set up in "
              f"{time.perf_counter() - started:.1f} s")

        port = args.port or free_port()
        logs = open(folder / "processes.log", "w")  # noqa: SIM115
        processes.append(subprocess.Popen(
            [str(Path(PYTHON).with_name("gunicorn")), "config.wsgi", "--bind",
             f"127.0.0.1:{port}", "--workers", str(args.workers), "--log-level", "warning"],
            env=env, cwd=folder, stdout=logs, stderr=logs))
        for n in range(1, CELERY_WORKERS + 1):  # two processes recalculate at once
            processes.append(subprocess.Popen(
                [str(Path(PYTHON).with_name("celery")), "-A", "config", "worker", "--pool=solo",
                 "--loglevel=WARNING", "--without-gossip", "--without-mingle",
                 "-Q", "standings,celery,mail", "-n", f"loadtest{n}-{os.getpid()}@127.0.0.1"],
                env=env, cwd=ROOT, stdout=logs, stderr=logs))
        wait_until_up(port, processes[0], limit=120)  # a shared machine starts slowly
        print(f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}; {CELERY_WORKERS} "
              f"Celery worker processes; Redis {args.redis_url}; database {args.database}; "
              f"mix {args.mix}: {args.visitors} visitors, {args.players} players, "
              f"{args.arbiters} arbiters for {args.seconds:g} s")
        load_before = load_average()

        stats = Stats()
        signups: dict = defaultdict(list)
        results: dict = defaultdict(list)
        stop = time.monotonic() + args.seconds
        threads = []
        for i in range(args.visitors):
            threads.append(threading.Thread(
                target=visitor, args=(port, stats, club, stop, random.Random(i))))
        for i in range(args.players):
            threads.append(threading.Thread(
                target=player, args=(port, stats, club, stop, random.Random(100 + i), i + 1,
                                     signups)))
        for i in range(args.arbiters):
            threads.append(threading.Thread(
                target=arbiter, args=(port, stats, club, stop, random.Random(200 + i),
                                      club["arbiters"][i % len(club["arbiters"])], results)))
        begun = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=args.seconds + 60)
        elapsed = time.monotonic() - begun

        total = sum(len(v) for v in stats.latency.values())
        errors = sum(stats.errors.values())
        print(f"\n{'kind':20} {'requests':>9} {'errors':>7} {'p50 ms':>8} {'p95 ms':>8}")
        for kind in sorted(stats.latency):
            lat = stats.latency[kind]
            print(f"{kind:20} {len(lat):9d} {stats.errors[kind]:7d} "
                  f"{statistics.median(lat) * 1000:8.1f} {percentile(lat, 0.95):8.1f}")
        print(f"\n{total / elapsed:.1f} requests per second ({total} in {elapsed:.1f} s); "
              f"errors (5xx, connection): {errors}; result conflicts (expected): "
              f"{stats.conflicts}")
        print(f"load average (1, 5, 15 min) of this {os.cpu_count()}-core machine: "
              f"{load_before} before the run, {load_average()} at its end")

        problems = check_writes(signups, results)
        acknowledged = sum(len(v) for v in signups.values()) + sum(len(v) for v in results.values())
        if problems:
            print(f"WRITES LOST OR WRONG: {len(problems)} of {acknowledged} acknowledged:")
            for line in problems[:20]:
                print("  " + line)
        else:
            print(f"writes checked: all {acknowledged} acknowledged writes are in the database "
                  f"({sum(len(v) for v in signups.values())} sign-ups, "
                  f"{sum(len(v) for v in results.values())} results); nothing lost")
        different = check_standings(args.redis_url)
        if errors:  # a 5xx leaves its traceback in the processes' log; a timeout does not
            logs.flush()
            log = (folder / "processes.log").read_text(errors="replace")
            if "Traceback" in log:
                tail = log[log.index("Traceback"):].splitlines()[:40]
                print("the first traceback in the processes' log:\n  " + "\n  ".join(tail))
            else:
                print("no traceback in the processes' log: the errors were connection "
                      "errors or client timeouts (15 s)")
        return 1 if problems or errors or different else 0
    finally:
        scope.close()
        for process in processes:
            stop_server(process)
        from django.db import connections

        connections.close_all()
        drop_database(args.database)  # created by this run (create_database refuses others)
        with suppress(Exception):
            flush_redis(args.redis_url)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
