"""Celery entry points of the Keizer evening: thin, idempotent, each calling a service."""

from __future__ import annotations

import logging

from celery import shared_task

from . import notices, services
from .selectors import due_evenings, published_not_begun

log = logging.getLogger(__name__)


@shared_task(name="pairing.tasks.close_due_evenings", acks_late=True)
def close_due_evenings() -> list[int]:
    """Beat entry, every minute (each evening has its own deadline). Safe to run twice at once:
    each evening is paired under its row lock, and a published one is left alone."""
    paired = []
    for evening_id in due_evenings():
        try:
            if services.evening_pair_and_publish(
                evening_id=evening_id, actor=None, system=True
            ) is not None:
                paired.append(evening_id)
        except Exception:  # one evening's failure must not stop the others
            log.exception("pairing evening %s failed", evening_id)
    # A withdrawal whose task was lost (the broker was down) is noticed here.
    for evening_id in published_not_begun():
        try:
            services.withdrawals_notify(evening_id=evening_id)
        except Exception:
            log.exception("withdrawal e-mails of evening %s failed", evening_id)
    # E-mails left in the outbox (the broker was down, retries ran out) go now.
    for evening_id in notices.evenings_with_pending():
        try:
            notices.deliver(evening_id)
        except Exception:
            log.exception("pairing e-mails of evening %s failed", evening_id)
    return paired


@shared_task(
    name="pairing.tasks.send_pairing_notices",
    acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5,
)
def send_pairing_notices(evening_id: int) -> int:
    """Send the evening's e-mails still in the outbox; a retry sends only what is missing."""
    return notices.deliver(evening_id)


@shared_task(name="pairing.tasks.notify_withdrawals", acks_late=True)
def notify_withdrawals(evening_id: int) -> int:
    """After a paired player signed off: queue the e-mails to his opponent and the
    leaders (once) and send them."""
    return services.withdrawals_notify(evening_id=evening_id)
