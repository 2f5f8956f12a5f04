"""A worker killed (SIGKILL) in the middle of pairing an evening, and again in the middle of
recalculating the standings: its transaction rolls back, the work is done again, once.

Real ``celery -A config worker --pool=solo`` processes run against a database of their
own: a temporary SQLite file with the filesystem broker by default, or, when the suite
runs on PostgreSQL with ``REDIS_URL`` set, a fresh PostgreSQL database (dropped at the
end) with Redis on a queue of this test's own. pytest's test database is not used: an
in-memory SQLite database cannot be shared with another process, so every step (set-up,
sending a job, checking the rows) runs in a short ``python`` subprocess on the same
database, through the helpers at the bottom of this module.

How a worker is made slow at the right moment: the worker is started through ``BOOT``
below, which wraps one function of the real code when ``RANGLIJST_TEST_SLOW`` says so:
``pairing.services.notices.pairing_changed`` (sleep once the games are written, before the
e-mails are queued) or
``competition.season.standings._computed_from`` (sleep once every snapshot's rows are written,
before the transaction commits).
It touches a marker file, and the test kills the worker as soon as the file appears: in
the middle of the service's transaction, with part of its rows written.

How the lost job comes back: on Redis the message was never acknowledged (``acks_late``),
so the next worker gets it again once the visibility timeout has passed (3 s, swept every
second, for these worker processes only; in production 1 hour, swept every ~100 s, which
is why the beat's catch-up jobs exist). The filesystem broker deletes a message when it hands it out,
so there the job is gone; the beat's catch-up jobs (``close_due_evenings``, and
``recalculate_stale_seasons`` for a season whose standings are behind its inputs
version and that has not changed for 30 s) do the work, as they
would in production. Both ways end in the same checks: one pairing, one e-mail per player,
standings equal to a fresh recalculation.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 8
TIMEOUT = 40  # seconds for any one wait

# Runs in every subprocess: configures Celery for this test, arms the slow hook, then
# either starts the worker (``worker``) or calls a helper of this module by name.
BOOT = r"""
import functools, os, sys, time
import django
django.setup()
from django.conf import settings
from config.celery import app

settings.EMAIL_FILE_PATH = os.environ["RANGLIJST_TEST_MAIL_DIR"]
app.conf.task_default_queue = os.environ["RANGLIJST_TEST_QUEUE"]
app.conf.task_routes = {}  # the e-mail tasks too: into this test's own queue
if settings.REDIS_URL:
    app.conf.broker_transport_options = {
        **app.conf.broker_transport_options, "visibility_timeout": 3,
        "unacked_restore_interval": 1, "unacked_restore_throttle": 1}

def slow_after(module, name, calls):
    original = getattr(module, name)
    seen = [0]

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        seen[0] += 1
        if seen[0] == calls:
            open(os.environ["RANGLIJST_TEST_MARK"], "w").close()
            time.sleep(120)  # killed here, inside the transaction
        return original(*args, **kwargs)

    setattr(module, name, wrapper)

slow = os.environ.get("RANGLIJST_TEST_SLOW")
if slow == "pairing":
    import pairing.services
    # Inside the pairing's transaction: every game written, the e-mails not yet queued.
    slow_after(pairing.services.notices, "pairing_changed", 1)
elif slow == "recalculation":
    import competition.season.standings
    # The last step inside recalculate_season's transaction: every row is written.
    slow_after(competition.season.standings, "_computed_from", 1)

if sys.argv[1] == "worker":
    app.worker_main(["worker", "--pool=solo", "--concurrency=1", "--without-heartbeat",
                     "--without-gossip", "--without-mingle", "--loglevel=WARNING",
                     "-Q", app.conf.task_default_queue])
else:
    import json
    from members.clubs.memo import home_club
    from members.clubs.context import club_context
    from tests.integration import test_worker_killed as helpers
    with club_context(home_club()):  # the installation's club A, the helpers' season's
        print(json.dumps(getattr(helpers, sys.argv[1])(*sys.argv[2:])))
"""


# --- The environment the subprocesses share ---------------------------------------------


def _postgres_and_redis() -> tuple[str, str] | None:
    url, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if url.startswith(("postgres://", "postgresql://")) and redis:
        return url, redis
    return None


@contextmanager
def own_database(folder: Path):
    """A fresh database URL: a PostgreSQL database created (and dropped) here, or a file."""
    backends = _postgres_and_redis()
    if backends is None:
        yield f"sqlite:///{folder / 'killed.sqlite3'}", None
        return
    import psycopg

    url, redis = backends
    parts = urlsplit(url)
    name = f"ranglijst_killed_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield parts._replace(path=f"/{name}").geturl(), redis
    finally:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Club:
    """The subprocesses of one run: helpers, workers, and what they share."""

    def __init__(self, folder: Path, database_url: str, redis_url: str | None):
        self.folder = folder
        self.mark = folder / "mark"
        self.mails = folder / "mails"
        self.mails.mkdir()
        self.queue = f"killed-{uuid.uuid4().hex[:8]}"
        self.redis_url = redis_url
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DJANGO_", "CELERY_", "EMAIL_", "REDIS_", "DATABASE_"))}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DJANGO_DEBUG="1",
            DATABASE_URL=database_url,
            RANGLIJST_VAR_DIR=str(folder / "var"),  # filesystem broker and cache files
            EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
            RANGLIJST_TEST_MAIL_DIR=str(self.mails),
            RANGLIJST_TEST_QUEUE=self.queue,
            RANGLIJST_TEST_MARK=str(self.mark),
            PYTHONPATH=str(ROOT),
            LOG_LEVEL="WARNING",
        )
        if redis_url:
            env["REDIS_URL"] = redis_url
        self.env = env
        self.workers: list[subprocess.Popen] = []

    def run(self, helper: str, *args: str, **env: str):
        done = subprocess.run(
            [sys.executable, "-c", BOOT, helper, *args], env={**self.env, **env}, cwd=ROOT,
            capture_output=True, text=True, timeout=TIMEOUT,
        )
        assert done.returncode == 0, f"{helper} failed:\n{done.stdout}\n{done.stderr}"
        return json.loads(done.stdout.strip().splitlines()[-1])

    def migrate(self) -> None:
        done = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"],
                              env=self.env, cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr

    def start_worker(self, slow: str = "", **env: str) -> subprocess.Popen:
        with suppress(FileNotFoundError):
            self.mark.unlink()
        log = open(self.folder / f"worker{len(self.workers)}.log", "w")  # noqa: SIM115
        worker = subprocess.Popen(
            [sys.executable, "-c", BOOT, "worker"], cwd=ROOT, stdout=log, stderr=log,
            env={**self.env, "RANGLIJST_TEST_SLOW": slow, **env},
        )
        self.workers.append(worker)
        return worker

    def kill_when_marked(self, worker: subprocess.Popen) -> None:
        assert wait(self.mark.exists), f"the worker never reached the slow point:\n{self.logs()}"
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)

    def stop_all(self) -> None:
        for worker in self.workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGKILL)
                with suppress(subprocess.TimeoutExpired):
                    worker.wait(timeout=10)
        if self.redis_url:
            import redis

            with suppress(Exception):
                redis.Redis.from_url(self.redis_url, socket_timeout=2).delete(self.queue)

    def logs(self) -> str:
        return "\n".join(p.read_text()[-2000:] for p in sorted(self.folder.glob("worker*.log")))

    def mail_recipients(self) -> list[str]:
        to = []
        for path in self.mails.iterdir():
            to += [line[4:].strip() for line in path.read_text().splitlines()
                   if line.startswith("To: ")]
        return sorted(to)


def wait(predicate, seconds: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


# --- The test --------------------------------------------------------------------------------


def test_a_worker_killed_mid_pairing_and_mid_recalculation_loses_nothing_and_doubles_nothing():
    with tempfile.TemporaryDirectory(prefix="ranglijst-killed-") as tmp, \
            own_database(Path(tmp)) as (database_url, redis_url):
        club = Club(Path(tmp), database_url, redis_url)
        try:
            _run_the_scenario(club, redelivered=redis_url is not None)
        finally:
            club.stop_all()


def _run_the_scenario(club: Club, *, redelivered: bool) -> None:
    club.migrate()
    ids = club.run("set_up_club", CELERY_TASK_ALWAYS_EAGER="1",
                   EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
    evening = str(ids["evening"])

    # 1. The deadline job pairs the evening; the worker dies after writing two games.
    first = club.start_worker(slow="pairing")
    club.run("send", "pairing.tasks.close_due_evenings")
    club.kill_when_marked(first)
    state = club.run("evening_state", evening)
    assert state == {"status": "open", "games": 0, "byes": 0, "notices": 0}, state

    # 2. Another worker: the job comes back (Redis) or the catch-up runs (filesystem).
    second = club.start_worker()
    if not redelivered:
        club.run("send", "pairing.tasks.close_due_evenings")
    assert wait(lambda: club.run("evening_state", evening)["notices"] == PLAYERS), club.logs()
    assert wait(lambda: len(club.mail_recipients()) >= PLAYERS)
    state = club.run("evening_state", evening)
    assert state == {"status": "published", "games": PLAYERS // 2, "byes": 0,
                     "notices": PLAYERS}, state
    assert wait(lambda: not club.run("season_state")["stale"]), club.logs()
    second.send_signal(signal.SIGTERM)  # warm shutdown: it has nothing left to do
    second.wait(timeout=20)

    # 3. The results come in; the worker recalculating the standings dies after writing
    # the new rows, before its transaction commits.
    before = club.run("standings_digest")
    third = club.start_worker(slow="recalculation")
    club.run("enter_results", evening)
    club.kill_when_marked(third)
    assert club.run("standings_digest") == before  # rolled back: the old standings stand
    assert club.run("season_state")["stale"]

    # 4. A new worker: the recalculation comes back, or the stale-season job runs.
    club.start_worker()
    if not redelivered:
        club.run("backdate_stale")  # the beat job leaves seasons stale for < 30 s alone
        club.run("send", "competition.tasks.recalculate_stale_seasons")
    assert wait(lambda: not club.run("season_state")["stale"]), club.logs()
    assert club.run("standings_equal_a_fresh_recalculation") is True
    assert club.run("season_state")["evenings_counted"] == 2

    # Exactly one pairing, and one e-mail per player, however often the job ran.
    state = club.run("evening_state", evening)
    assert (state["games"], state["notices"]) == (PLAYERS // 2, PLAYERS)
    recipients = club.mail_recipients()
    assert len(recipients) == PLAYERS and len(set(recipients)) == PLAYERS
    assert club.run("publish_records", evening) == 1


# --- Helpers run inside the subprocesses (Django is set up there) ----------------------------


def set_up_club() -> dict:
    """A season of PLAYERS; its first evening played, the second due (its deadline just
    passed, the games start in two hours)."""
    import datetime as dt

    from django.utils import timezone

    from competition.season import services
    from pairing.services import evening_pair_and_publish
    from tests import factories as f

    s = f.season(players=PLAYERS)
    first, second = f.playing_evenings(s)[:2]
    evening_pair_and_publish(actor=None, system=True, evening_id=first.pk, now=first.deadline)
    arbiter = f.arbiter()
    for game in first.games.all():
        services.result_set(actor=arbiter, game=game, result="1-0")
    now = timezone.now()
    type(second).objects.filter(pk=second.pk).update(
        deadline=now - dt.timedelta(minutes=1), starts_at=now + dt.timedelta(hours=2)
    )
    return {"season": s.pk, "evening": second.pk}


def send(task_name: str) -> bool:
    from config.celery import app

    app.send_task(task_name, queue=app.conf.task_default_queue)
    return True


def evening_state(evening_id: str) -> dict:
    from competition.models import Bye, Evening
    from pairing.models import PairingNotice

    evening = Evening.objects.get(pk=evening_id)
    return {
        "status": evening.status,
        "games": evening.games.count(),
        "byes": Bye.objects.filter(evening=evening).count(),
        "notices": PairingNotice.objects.filter(evening=evening, state="sent").count(),
    }


def season_state() -> dict:
    from competition.models import Season
    from competition.season.standings import counted_evenings, standings_behind

    season = Season.objects.get()
    return {"stale": standings_behind(season.pk),
            "evenings_counted": counted_evenings(season).count()}


def backdate_stale() -> bool:
    import datetime as dt

    from django.db.models import F

    from competition.models import Season

    Season.objects.filter(inputs_changed_at__isnull=False).update(
        inputs_changed_at=F("inputs_changed_at") - dt.timedelta(minutes=5)
    )
    return True


def enter_results(evening_id: str) -> int:
    """Every board of the evening in one go, as an import would: one recalculation."""
    import datetime as dt

    from django.utils import timezone

    from competition.models import Evening, Game
    from competition.season import services
    from members.models import User

    # The games have begun (results are refused before the evening's start).
    Evening.objects.filter(pk=evening_id).update(starts_at=timezone.now() - dt.timedelta(minutes=1))
    arbiter = User.objects.get(name="Arbiter")
    games = Game.objects.filter(evening_id=evening_id).order_by("board")
    with services.recalculation_deferred():
        for n, game in enumerate(games):
            services.result_set(actor=arbiter, game=game, result=["1-0", "1/2-1/2", "0-1"][n % 3])
    return games.count()


def standings_digest() -> list:
    from competition.models import Standing

    return [
        [r.snapshot.evening_id, r.player_id, r.rank, str(r.score), r.games]
        for r in Standing.objects.select_related("snapshot").order_by(
            "snapshot__half_id", "snapshot__evening__date", "rank", "player_id")
    ]


def standings_equal_a_fresh_recalculation() -> bool:
    from django.db import transaction

    from competition.models import Season
    from competition.season.standings import recalculate_season

    stored = standings_digest()
    with transaction.atomic():
        recalculate_season(Season.objects.get().pk)
        fresh = standings_digest()
        transaction.set_rollback(True)
    return bool(stored) and stored == fresh


def publish_records(evening_id: str) -> int:
    from competition.models import AuditRecord

    return AuditRecord.objects.filter(evening_id=evening_id, action="pairing.publish").count()
