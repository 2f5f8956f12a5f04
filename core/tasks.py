"""Celery entry points of the outbox (``core.mail``), on the queue "mail"."""

from __future__ import annotations

from celery import shared_task

from . import mail


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
    """Beat job: mails whose task was lost (the broker was down, the retries ran out)."""
    ids = mail.pending_ids()
    return mail.deliver(ids) if ids else 0
