"""Celery entry points of the outbox (``core.mail``), on the queue "mail"."""

from __future__ import annotations

from celery import shared_task

from core import mail
from core.jobs import enqueue_in_club


@shared_task(
    name="core.tasks.send_mails",
    acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5,
)
def send_mails(mail_ids: list[int] | None = None) -> int:
    """Send the given outbox rows still pending (all of them without ids), over one
    connection to the mail server; a retry sends only what is missing."""
    return mail.deliver(mail_ids)


@shared_task(name="core.tasks.send_mails_pending", acks_late=True)
def send_mails_pending() -> int:
    """Beat job: mails whose task was lost (the broker was down, the retries ran out). It
    runs as the platform and queues each club's mails as that club's task (a mail of no
    club as the platform's); where the broker refuses, it sends them itself."""
    by_club: dict[int | None, list[int]] = {}
    for mail_id, club_id in mail.pending():
        by_club.setdefault(club_id, []).append(mail_id)
    sent = 0
    for club_id, ids in sorted(by_club.items(), key=lambda item: item[0] or 0):
        if enqueue_in_club(club_id, mail.SEND_TASK, ids):
            sent += len(ids)
        else:
            sent += mail.deliver(ids)
    return sent
