"""Fixtures the integration tests share. Every test starts in the test settings' language
(English) already (tests/conftest.py), so no module sets it itself.

A module that plays on a fixed day names it ``TODAY`` and asks for ``club_today`` (the
site's clock moved to that day) and, where it reads the demo club, ``demo``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.utils import timezone

from core.pagecache import cache
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.clock import on_day
from tests.demo_snapshot import demo_season
from tests.transactions import rolled_back


@pytest.fixture
def club_today(request, monkeypatch):
    """The site's today is the module's ``TODAY``, whatever day the suite runs (from noon
    on, never backwards: tests/clock.py)."""
    monkeypatch.setattr(timezone, "now", on_day(request.module.TODAY))


@pytest.fixture(scope="module")
def demo(request, django_db_setup, django_db_blocker):
    """The demo club on the module's ``TODAY``, built once for the module and rolled back
    after it; each test runs in a savepoint inside this transaction."""
    with django_db_blocker.unblock(), rolled_back():
        yield demo_season(request.module.TODAY)  # built once per process, then from its copy


@pytest.fixture
def at(monkeypatch) -> Callable[[dt.datetime], None]:
    """Set the site's clock to a moment (it stands still there)."""

    def set_(moment: dt.datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: moment)

    return set_


@pytest.fixture
def people(in_home_club) -> dict:
    """A leader and an arbiter of club A; the test runs in it (``in_home_club``)."""
    return {"leader": f.leader(), "arbiter": f.arbiter()}


@pytest.fixture
def paired_club(in_home_club, django_capture_on_commit_callbacks):
    """A season of six of club A, the test's club (``in_home_club``), with its first
    evening paired and published (its after-commit work run), and an empty page cache:
    (season, evening)."""
    cache.clear()
    s = f.season(players=6)
    evening = f.playing_evenings(s)[0]
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                 now=evening.deadline)
    return s, evening


@pytest.fixture
def played_evening(in_home_club, django_capture_on_commit_callbacks):
    """A season of four (2025-2026) of club A, the test's club (``in_home_club``), whose
    first evening is paired, published and played (white wins every board), its
    after-commit work run: (season, evening)."""
    from competition.models import Result
    from competition.season import services

    season = f.season(players=4, opening=dt.date(2025, 9, 5), last_day=dt.date(2026, 7, 10))
    evening = f.playing_evenings(season)[0]
    arbiter = f.arbiter()
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                 now=evening.deadline)
    with django_capture_on_commit_callbacks(execute=True):
        for game in evening.games.all():
            services.result_set(actor=arbiter, game=game, result=Result.WHITE_WINS)
    return season, evening


@pytest.fixture
def real_worker():
    """A Celery worker in this process (solo pool) on the configured broker, consuming the
    queues the site uses; tasks are queued, not run eagerly, while it lives. Celery marks
    the process as a worker's ("a task must not wait for another"), which would refuse
    every ``.get()`` of the tests after it: the mark is taken off again. Its logging set-up
    (the root logger at ERROR) is undone too, or the warnings the tests after it look
    for would never be written."""
    import logging

    from celery._state import _set_task_join_will_block
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    app.conf.task_always_eager = False
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30,
                          queues=["standings", "celery", "mail"]):
            yield
    finally:
        app.conf.task_always_eager = True
        _set_task_join_will_block(False)
        root.setLevel(level)
        root.handlers[:] = handlers


@pytest.fixture
def open_registration(db):
    """Club A (the installation's) opens public registration: its own setting
    (``Club.open_registration``), no other club's."""
    from members.clubs.memo import home_club

    club = home_club()
    club.open_registration = True
    club.save(update_fields=["open_registration"])
    return club


@contextmanager
def app_role(role: str) -> Iterator[None]:
    """The test's connection as ``role``, a role that owns nothing and bypasses no row
    security (as production's application role), inside the test's transaction. Each
    module names its own role: the test processes share one PostgreSQL cluster."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        before = cursor.fetchone()[0]  # the suite's own app role in CI (tests/approle.py)
        cursor.execute("RESET ROLE")  # the owner creates the role
        cursor.execute(f"DROP ROLE IF EXISTS {role}")
        cursor.execute(f"CREATE ROLE {role} NOLOGIN NOSUPERUSER NOBYPASSRLS")
        cursor.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}")
        cursor.execute(f"SET ROLE {role}")
    yield
    with connection.cursor() as cursor:
        cursor.execute(f'SET ROLE "{before}"')
