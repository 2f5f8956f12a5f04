"""The outbox (core/mail.py): every e-mail that is not a pairing notice is one row, queued
in the transaction of its change, sent after commit over one connection, once."""

from __future__ import annotations

import pytest
from celery import current_app
from celery.fixups.django import DjangoWorkerFixup
from django.conf import settings
from django.core import mail

from core import mail as core_mail
from core.models import Mail, MailState
from core.tasks import send_mails
from tests.mailfakes import count_connections, patch_send

pytestmark = pytest.mark.django_db


def _queue(n: int) -> list[int]:
    return [core_mail.queue(key=f"test:{i}", subject=f"Subject {i}", body="Body",
                            to=[f"member{i}@example.org"]).pk for i in range(n)]


def test_queueing_the_same_key_twice_writes_one_row():
    first = core_mail.queue(key="club-duty:1:2", subject="S", body="B", to=["a@example.org"])
    assert first is not None
    assert core_mail.queue(key="club-duty:1:2", subject="S", body="B", to=["a@example.org"]) is None
    assert Mail.objects.count() == 1
    assert core_mail.queue(key="nobody", subject="S", body="B", to=[]) is None


def test_a_batch_of_n_mails_goes_over_one_connection(monkeypatch, django_assert_max_num_queries):
    ids = _queue(30)
    opened = count_connections(monkeypatch)
    monkeypatch.setattr(core_mail, "BATCH_SIZE", 7)  # five claimed batches, one connection
    with django_assert_max_num_queries(6 * 6):  # per batch: claim (4 with its savepoint), read, mark
        assert core_mail.send_rows(Mail.objects.filter(state=MailState.PENDING),
                                   core_mail._build_mails, batch_size=7) == 30
    assert len(opened) == 1 and len(mail.outbox) == 30
    assert set(Mail.objects.filter(pk__in=ids).values_list("state", flat=True)) == {"sent"}


def test_the_send_task_run_twice_sends_each_mail_once():
    ids = _queue(5)
    assert send_mails.apply(args=[ids]).get() == 5
    assert send_mails.apply(args=[ids]).get() == 0
    assert sorted(to for m in mail.outbox for to in m.to) == sorted(
        f"member{i}@example.org" for i in range(5))


def test_a_failed_mail_server_leaves_the_mails_unsent_and_the_retry_sends_each_once(monkeypatch):
    ids = _queue(4)
    sent: list[str] = []

    def down(subject, body, sender, to):
        if len(sent) == 2:
            raise ConnectionRefusedError("SMTP went away")
        sent.append(to[0])
        mail.outbox.append(mail.EmailMessage(subject, body, sender, to))
        return 1

    patch_send(monkeypatch, down)
    with pytest.raises(ConnectionRefusedError):
        core_mail.deliver(ids)
    rows = Mail.objects.filter(pk__in=ids)
    assert rows.filter(state=MailState.SENT).count() == 2
    assert list(rows.filter(state=MailState.PENDING).values_list("claimed_at", flat=True)) == [None, None]
    monkeypatch.undo()
    assert core_mail.deliver(ids) == 2 and core_mail.deliver(ids) == 0
    assert sorted(to for m in mail.outbox for to in m.to) == sorted(
        f"member{i}@example.org" for i in range(4))


def test_the_mail_tasks_have_a_queue_of_their_own():
    for name in ("core.tasks.send_mails", "pairing.tasks.send_pairing_notices"):
        assert settings.CELERY_TASK_ROUTES[name] == {"queue": core_mail.QUEUE}
    assert "pairing.tasks.pair_and_publish_evening" not in settings.CELERY_TASK_ROUTES


def test_a_worker_reuses_its_database_connection_across_tasks(monkeypatch):
    """Celery closes the connections around every task unless CELERY_DB_REUSE_MAX is set:
    91 tasks of a Thursday burst would open 91 connections."""
    fixup = DjangoWorkerFixup(current_app)
    assert fixup.db_reuse_max == settings.CELERY_DB_REUSE_MAX >= 50
    closed: list[int] = []
    monkeypatch.setattr(fixup, "_close_database", lambda: closed.append(1))
    for _task in range(91):  # before and after each task
        fixup.close_database()
        fixup.close_database()
    assert len(closed) <= 1


@pytest.mark.django_db(transaction=True)
def test_a_second_worker_claims_other_rows_without_waiting_for_the_first(monkeypatch):
    """On PostgreSQL the claim skips rows another worker's transaction holds (``SKIP
    LOCKED``) instead of waiting for them; on SQLite writers are serialised, and a second
    claim finds the first one's rows taken."""
    import threading

    from django.db import connection, connections, transaction
    from django.utils import timezone

    from members.clubs.context import club_context, current_club

    monkeypatch.setattr("core.jobs.enqueue", lambda *args: True)  # committed, not sent yet
    ids = _queue(10)
    pending = Mail.objects.filter(state=MailState.PENDING)
    if connection.vendor != "postgresql":
        first = core_mail.claim(pending, timezone.now(), 5)
        assert first == ids[:5] and core_mail.claim(pending, timezone.now(), 10) == ids[5:]
        return
    held, release = threading.Event(), threading.Event()
    club = current_club()  # the other worker claims this club's mail, in its club

    def other_worker() -> None:
        try:
            with club_context(club), transaction.atomic():
                list(Mail.objects.select_for_update().filter(pk__in=ids[:5]))
                held.set()
                release.wait(10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_worker)
    thread.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")  # waiting would fail, not hang
        assert core_mail.claim(pending, timezone.now(), 10) == ids[5:]
    finally:
        release.set()
        thread.join(10)
