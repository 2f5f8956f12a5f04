"""A task runs in the club it was queued for (config/celery.py): the club travels in the
message header ``club``, a club's task without one is refused when there are several
clubs, and two clubs' tasks in one worker process never inherit each other's club."""

from __future__ import annotations

import logging
import time

import pytest
from celery.signals import task_failure

from config.celery import NoClub, app
from core import jobs
from members.clubs.context import club_context, current_club
from members.clubs.memo import home_club
from members.models import Club

SEEN: list[tuple[str, str | None]] = []


@app.task(name="tests.club_probe")
def club_probe(label: str) -> None:
    club = current_club()
    SEEN.append((label, club.slug if club is not None else None))


@app.task(name="tests.platform_probe")
def platform_probe(label: str) -> None:
    club = current_club()
    SEEN.append((label, club.slug if club is not None else None))


@pytest.fixture(autouse=True)
def _probe_is_a_clubs_task(monkeypatch):
    """``tests.club_probe`` is a club's task (one a service queues); the platform probe is
    a beat job's (core.jobs.PLATFORM_TASKS). The tests queue from outside any club, as the
    beat and the worker do (a test of one club leaves club A, which ``one_club`` puts it
    in, to queue): a task called inside a club's work runs in that club."""
    monkeypatch.setitem(jobs.TASKS, "tests.club_probe", None)
    monkeypatch.setattr(jobs, "PLATFORM_TASKS", jobs.PLATFORM_TASKS | {"tests.platform_probe"})
    SEEN.clear()
    with club_context(None):
        yield
    SEEN.clear()


def _two_clubs() -> tuple[Club, Club]:
    return (Club.objects.create(name="Schaakclub Alfa", slug="alfa"),
            Club.objects.create(name="Schaakclub Beta", slug="beta"))


@pytest.mark.django_db
def test_a_task_queued_in_a_clubs_context_runs_in_that_club():
    alfa, beta = _two_clubs()
    with club_context(alfa):
        club_probe.delay("a")
    with club_context(beta):
        club_probe.apply_async(args=["b"])
    club_probe.apply_async(args=["header"], headers={"club": alfa.pk})
    assert SEEN == [("a", "alfa"), ("b", "beta"), ("header", "alfa")]
    assert current_club() is None


@pytest.mark.django_db
def test_a_clubs_task_without_a_club_is_refused_when_there_are_several():
    _two_clubs()
    with pytest.raises(NoClub):
        club_probe.delay("none")
    assert SEEN == []
    platform_probe.delay("beat")  # the platform's own jobs run in no club
    assert SEEN == [("beat", None)]


@pytest.mark.django_db
def test_a_clubs_task_without_a_club_runs_in_the_only_club_and_says_so(caplog, one_club):
    with caplog.at_level(logging.WARNING, logger="config.celery"), club_context(None):
        club_probe.delay("only")  # from no club, as the beat queues
    assert SEEN == [("only", home_club().slug)]
    assert "without a club header" in caplog.text


@app.task(name="tests.evening_probe")
def evening_probe(evening_id: int) -> None:
    club = current_club()
    SEEN.append((str(evening_id), club.slug if club is not None else None))


@pytest.mark.django_db
def test_a_clubs_task_without_a_header_runs_in_the_club_of_the_evening_it_names(monkeypatch):
    """As the beat's dispatcher queues them, from no club: the evening's club is the task's
    (config.celery.CLUB_OF_ARGUMENT); an evening that is gone leaves it without a club."""
    from config import celery
    from tests import factories as f

    monkeypatch.setitem(jobs.TASKS, "tests.evening_probe", None)
    monkeypatch.setitem(celery.CLUB_OF_ARGUMENT, "tests.evening_probe", "competition.Evening")
    alfa, beta = _two_clubs()
    with club_context(beta):
        evening = f.playing_evenings(f.season(players=2))[0]
    evening_probe.delay(evening.pk)
    assert SEEN == [(str(evening.pk), "beta")]
    with pytest.raises(NoClub):
        evening_probe.delay(evening.pk + 10_000)
    assert SEEN == [(str(evening.pk), "beta")]


def _wait(predicate, seconds=20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.django_db(transaction=True)
def test_two_clubs_tasks_in_one_worker_do_not_inherit_each_others_club(real_worker):
    alfa, beta = _two_clubs()
    failures: list[str] = []

    def failed(sender=None, exception=None, **kwargs):
        failures.append(type(exception).__name__)

    task_failure.connect(failed, weak=False)
    try:
        with club_context(alfa):
            club_probe.delay("a1")
        with club_context(beta):
            club_probe.delay("b")
        platform_probe.delay("after b")  # the worker's context is empty again
        with club_context(alfa):
            club_probe.delay("a2")
        club_probe.delay("none")  # three clubs, no header: refused
        platform_probe.delay("last")
        assert _wait(lambda: len(SEEN) == 5 and failures), (SEEN, failures)
    finally:
        task_failure.disconnect(failed)
    # The filesystem broker does not keep the order: each label is checked on its own.
    assert sorted(SEEN, key=str) == sorted(
        [("a1", "alfa"), ("b", "beta"), ("after b", None), ("a2", "alfa"), ("last", None)], key=str)
    assert failures == ["NoClub"]


@pytest.mark.django_db
def test_work_queued_in_a_club_runs_in_that_club_whenever_the_transaction_commits(
        django_capture_on_commit_callbacks):
    """A command or the demo builds several clubs in one outer transaction, each club in
    its own context, and commits once, outside all of them: what each club queued for
    after the commit (core.jobs.enqueue_on_commit) is still that club's work."""
    alfa, beta = _two_clubs()
    with django_capture_on_commit_callbacks(execute=True):
        with club_context(alfa):
            jobs.enqueue_on_commit("tests.club_probe", "a")
        with club_context(beta):
            jobs.enqueue_on_commit("tests.club_probe", "b")
        assert SEEN == []  # not before the commit
    assert SEEN == [("a", "alfa"), ("b", "beta")]
    assert current_club() is None
