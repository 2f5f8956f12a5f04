"""The registry of queued tasks (core/jobs.py): every name a service queues is a
registered task with a pinned name, unknown names fail loudly, only broker errors are
"try again later", and every catch-up named is a task the beat runs."""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

import pytest
from celery import current_app
from django.conf import settings
from kombu.exceptions import OperationalError

from core import jobs

ROOT = Path(__file__).resolve().parents[2]
APPS = ("core", "competition", "pairing", "members", "config")


def _sources():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def test_every_task_pins_its_name_so_a_queued_message_survives_a_move():
    for path in _sources():
        text = path.read_text()
        for decorator in re.findall(r"@shared_task\((.*?)\)\ndef", text, re.S):
            assert re.search(r'name="[\w.]+"', decorator), f"{path}: @shared_task without name="


def test_every_registered_name_is_a_task_of_that_name():
    for name, catch_up in jobs.TASKS.items():
        assert current_app.tasks[name].name == name
        if catch_up is not None:
            assert catch_up in current_app.tasks


def test_every_name_queued_in_the_code_is_in_the_registry():
    queued: set[str] = set()
    for path in _sources():
        text = path.read_text()
        queued |= set(re.findall(r'"((?:core|competition|pairing|members)\.[\w.]*tasks\.\w+)"', text))
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    # Names in the source are either queued by a service (registered) or run by the beat.
    known = set(jobs.TASKS) | jobs.RETIRED
    assert queued - beat <= known, sorted(queued - beat - known)


def test_a_retired_name_is_still_a_registered_task_and_no_longer_queueable():
    for name in jobs.RETIRED:
        assert current_app.tasks[name].name == name and name not in jobs.TASKS


def test_every_catch_up_is_run_by_the_beat():
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    catch_ups = {c for c in jobs.TASKS.values() if c}
    assert catch_ups <= beat, sorted(catch_ups - beat)


def test_an_unknown_task_name_fails_at_once_instead_of_being_logged_away():
    with pytest.raises(jobs.UnknownTask):
        jobs.enqueue("competition.season.tasks.no_such_task")
    with pytest.raises(jobs.UnknownTask):
        jobs.enqueue_on_commit("pairing.tasks.sned_pairing_notices")


def test_a_broker_error_is_logged_and_the_caller_carries_on(caplog):
    task = current_app.tasks["pairing.tasks.send_pairing_notices"]
    with mock.patch.object(task, "delay", side_effect=OperationalError("broker down")):
        assert jobs.enqueue("pairing.tasks.send_pairing_notices", 1) is False
    assert "pairing.tasks.close_due_evenings will do it" in caplog.text


def test_a_fault_of_the_code_in_queueing_is_not_swallowed():
    task = current_app.tasks["pairing.tasks.send_pairing_notices"]
    with mock.patch.object(task, "delay", side_effect=TypeError("bad arguments")):
        with pytest.raises(TypeError):
            jobs.enqueue("pairing.tasks.send_pairing_notices", 1)


def test_every_registered_task_is_a_clubs_or_the_platforms():
    """A task in neither list would run with no club: it is refused (config/celery.py)."""
    ours = [name for name in current_app.tasks if not name.startswith(jobs.CELERY_OWN)
            and not name.startswith("tests.")]
    unclassified = []
    for name in ours:
        try:
            jobs.task_kind(name)
        except jobs.UnlistedTask:
            unclassified.append(name)
    assert not unclassified, unclassified
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert beat == set(jobs.PLATFORM_TASKS)
    assert not jobs.PLATFORM_TASKS & (set(jobs.TASKS) | jobs.RETIRED)


@pytest.mark.django_db
def test_an_unlisted_task_is_refused_and_does_not_run():
    ran = []

    @current_app.task(name="tests.unlisted_probe")
    def unlisted() -> None:
        ran.append(True)

    with pytest.raises(jobs.UnlistedTask):
        unlisted.delay()
    with pytest.raises(jobs.UnlistedTask):
        unlisted()
    assert ran == []
