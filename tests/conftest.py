"""Test-suite wiring: browser tests run where Chromium is, and say so where it is not;
PostgreSQL-only tests are skipped elsewhere with their reason, and every run counts its
skips and fails from 5 % of its tests skipped (tests/skips.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
_notes: list[str] = []


@pytest.fixture(autouse=True)
def _language_reset():
    """Every test starts with no rate-limit counts, and in the test settings' language.

    A request in Dutch activates Dutch in the test's thread (LocaleMiddleware), and it
    would stay for the next test in the same worker: every test starts in the test settings'
    language. Without Django (``make test-unit``) there is nothing to reset."""
    yield
    translation = sys.modules.get("django.utils.translation")
    if translation is not None and "django.conf" in sys.modules:
        from django.conf import settings

        if settings.configured:
            translation.deactivate()
            # The sign-in and sign-up limits live in a cache no page clears (they must
            # survive a full page cache): one test's attempts are not the next test's.
            from django.core.cache import caches

            caches["default"].clear()


def _uses_database(request) -> bool:
    marker = request.node.get_closest_marker("django_db")
    return marker is not None or bool(
        {"db", "transactional_db", "django_db_reset_sequences", "live_server", "in_home_club"}
        & set(request.fixturenames)
    )


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, with the decoy club B beside the installation's club A
    (tests/decoy.py): every test runs with a second club present. On PostgreSQL with
    ``RANGLIJST_TEST_AS_APP_ROLE=1`` (CI) every query from here on runs as the
    application's role (tests/approle.py): migrated as the owner, tested as the app."""
    from tests.approle import become_app_role, leave_app_role
    from tests.decoy import ensure_decoy

    with django_db_blocker.unblock():
        become_app_role()
        ensure_decoy()
    yield
    with django_db_blocker.unblock():
        leave_app_role()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """A transactional test empties the database when its fixtures end: the decoy club is
    built again then, for the tests after it (none after the last: the database is gone)."""
    result = yield
    if nextitem is not None and getattr(item, "_empties_database", False):
        from pytest_django.plugin import blocking_manager_key

        from members.clubs.memo import forget_home_club
        from tests.decoy import ensure_decoy

        forget_home_club()
        with item.config.stash[blocking_manager_key].unblock():
            ensure_decoy()
    return result


@pytest.fixture
def one_club(in_home_club):
    """An installation of one club, and the test in it (``in_home_club``): the decoy club B
    removed in the test's transaction (a transactional test's flush and the decoy's rebuild
    after it bring it back)."""
    from tests.decoy import remove_decoy

    remove_decoy()


@pytest.fixture
def dutch_club(in_home_club):
    """Club A, the test's club (``in_home_club``), writes its e-mails in Dutch
    (``Club.language``; the tests run in English); the test goes on in the club as it is
    now."""
    from members.clubs.context import club_context
    from members.clubs.memo import home_club

    club = home_club()
    club.language = "nl"
    club.save(update_fields=["language"])  # the memo of the club forgets the old one
    with club_context(home_club()):
        yield home_club()


@pytest.fixture(autouse=True)
def _database_ready(request):
    """A test that touches the database gets it ready: the decoy club B beside the
    installation's club A (tests/decoy.py), in the test's transaction, or flushed after it
    for a transactional test. It enters no club: a test starts outside every club, where a
    club-scoped query raises ``ScopeError``, and names the club it runs in (``in_home_club``,
    or its own ``club_context``)."""
    if "django.conf" not in sys.modules or not _uses_database(request):
        yield
        return
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and (marker.kwargs.get("transaction") or (marker.args[:1] == (True,)))
    from tests.decoy import ensure_decoy

    with request.getfixturevalue("django_db_blocker").unblock():
        ensure_decoy()  # one query; a build only where something took it (a flush)
    if transactional or "live_server" in request.fixturenames or "transactional_db" in request.fixturenames:
        request.node._empties_database = True  # the decoy is built again after it
        request.getfixturevalue("transactional_db")
    else:
        request.getfixturevalue("db")
    from members.clubs.memo import forget_home_club

    forget_home_club()
    yield


@pytest.fixture
def in_home_club(_database_ready):
    """The test runs in the installation's own club A, as a request to A's address does
    (members/clubs/middleware.py): every query of a club-scoped model is A's. The database
    is asked for as for any test that uses it (``_database_ready``); a test of two clubs
    enters the other's ``club_context`` inside."""
    from members.clubs.context import club_context
    from members.clubs.memo import home_club

    with club_context(home_club()):
        yield


@pytest.fixture(autouse=True)
def _celery_join_allowed():
    """Every test starts with Celery's process-wide "a task must not wait for another"
    mark off. An eager task sets it while it runs and puts back what it found, so two
    tasks running at once in two threads (the race tests, a live server's requests) can
    leave it on for good, and every later ``.get()`` in the process is refused."""
    yield
    state = sys.modules.get("celery._state")
    if state is not None:
        state._set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _redis_breaker_closed():
    """A test that points the cache at a dead or hung Redis trips this process's circuit
    breaker (config/cache.py); the next test starts with Redis asked again. The rules' own
    tests (tests/unit/, ``make test-unit``) run without Django: no breaker to close there."""
    yield
    resilient = sys.modules.get("config.cache")
    if resilient is None:
        return
    resilient.breaker.reset()
    resilient.local.clear()


@pytest.fixture(autouse=True)
def _page_changes_forgotten():
    """Every test starts with no pending page changes. In production a transaction's
    changes are flushed at its commit or dropped with its rollback (core/pagecache.py); in
    a test, whose writes sit in the test's transaction (and a module's data in its own),
    callbacks never run unless captured, and their changes would join the next test's
    write. Without Django (``make test-unit``) there is no page cache."""
    pagecache = sys.modules.get("core.pagecache")
    if pagecache is not None:
        pagecache._pending.clear()
    yield


@pytest.fixture(autouse=True)
def _club_parts_forgotten():
    """Every test reads the club's part of a person anew (members.models.club_part memoises
    it per request or task; a test is neither, and its rows are rolled back)."""
    models = sys.modules.get("members.models")
    if models is not None:
        models.forget_club_parts()
    yield


def pytest_sessionstart(session):
    """CI (``.ci/run``) sets RANGLIJST_REQUIRE_SERVICES: then the suite, fuzzing and
    security tests included, must run on PostgreSQL and Redis, or not at all."""
    if not os.environ.get("RANGLIJST_REQUIRE_SERVICES"):
        return
    try:
        from django.conf import settings
    except ModuleNotFoundError:
        # ``make test-unit``: the rules' own tests, in a virtualenv without Django by design;
        # they touch no database or cache.
        return

    engine = settings.DATABASES["default"]["ENGINE"]
    cache = settings.CACHES["default"]["BACKEND"]
    if "postgresql" not in engine or "Redis" not in cache or "redis" not in settings.CELERY_BROKER_URL:
        raise pytest.UsageError(
            f"PostgreSQL and Redis are required here, got {engine}, {cache} and broker "
            f"{settings.CELERY_BROKER_URL}: set DATABASE_URL and REDIS_URL."
        )


def pytest_collection_modifyitems(config, items):
    _skip_postgres_only(items)
    e2e = [item for item in items if item.get_closest_marker("e2e")]
    if not e2e or CHROMIUM.exists():
        return
    if os.environ.get("RANGLIJST_REQUIRE_BROWSER"):
        raise pytest.UsageError(
            f"Browser tests are required here but {CHROMIUM} is missing "
            "(apt-get install -y chromium)."
        )
    # Deselect rather than skip: without a browser they did not run, and we say so.
    config.hook.pytest_deselected(items=e2e)
    items[:] = [item for item in items if not item.get_closest_marker("e2e")]
    _note(config, f"BROWSER TESTS DID NOT RUN: {len(e2e)} end-to-end tests need Chromium at {CHROMIUM} "
          "(apt-get install -y chromium); everything else ran.")


POSTGRES_ONLY = "needs PostgreSQL"


def _skip_postgres_only(items) -> None:
    """A test marked ``postgres`` needs what only PostgreSQL has (row-level security, the
    application's role, real row locks and concurrent writers, COPY): on SQLite it is
    skipped, its reason (the marker's argument) in the summary (``-rs``, pyproject's
    addopts), and counted against the limit of skips (tests/skips.py). On PostgreSQL it
    runs; CI runs there, where a skip fails (``pytest_runtest_makereport``)."""
    marked = [item for item in items if item.get_closest_marker("postgres")]
    if not marked:
        return
    from django.conf import settings

    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    for item in marked:
        why = item.get_closest_marker("postgres").args
        item.add_marker(pytest.mark.skip(
            reason=f"{POSTGRES_ONLY} ({why[0]}): set DATABASE_URL=postgres://..." if why
            else f"{POSTGRES_ONLY}: set DATABASE_URL=postgres://..."))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Where every test must run (``RANGLIJST_REQUIRE_SERVICES``, CI) a skipped test is a
    failed one: nothing there may quietly not run."""
    report = yield
    if report.skipped and not hasattr(report, "wasxfail") and os.environ.get("RANGLIJST_REQUIRE_SERVICES"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped where every test must run (RANGLIJST_REQUIRE_SERVICES): {reason}"
    return report


def _note(config, line: str) -> None:
    """A line for the end of the run. Under pytest-xdist the workers collect and the
    controller prints: a worker's notes go to it with the worker's output."""
    if line not in _notes:
        _notes.append(line)
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["ranglijst_notes"] = list(_notes)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook (absent with -p no:xdist)
def pytest_testnodedown(node, error):
    """The controller (pytest-xdist) takes a finished worker's notes."""
    for line in getattr(node, "workeroutput", {}).get("ranglijst_notes", []):
        if line not in _notes:
            _notes.append(line)


_outcomes: dict[str, str] = {}  # each test's outcome by its node id, for tests/skips.py
_SKIPS = pytest.StashKey["object"]()  # the count, from the session's end to its summary


def pytest_runtest_logreport(report):
    """Each test's outcome, for the count of skips; under pytest-xdist the controller gets
    every worker's reports here too. A subtest's report is its test's, not a test."""
    if type(report).__name__ == "SubtestReport":
        return
    from tests.skips import outcome

    ran = "passed" if hasattr(report, "wasxfail") else report.outcome  # an expected failure ran
    _outcomes[report.nodeid] = outcome(_outcomes.get(report.nodeid), ran)


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


def pytest_sessionfinish(session, exitstatus):
    """A run that skipped too many tests fails (tests/skips.py); decided once, where every
    report arrives (the controller under pytest-xdist, the one process without it)."""
    if _is_worker(session.config) or not _outcomes:
        return
    from tests.skips import count

    skips = count(_outcomes)
    session.config.stash[_SKIPS] = skips
    if skips.too_many and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    for line in _notes:
        terminalreporter.write_sep("!", line, yellow=True, bold=True)
    skips = config.stash.get(_SKIPS, None)
    if skips is not None:
        terminalreporter.write_sep(
            "!" if skips.too_many else "-",
            skips.line() + (": TOO MANY, THE RUN FAILS" if skips.too_many else ""),
            red=skips.too_many, yellow=not skips.too_many, bold=True)
