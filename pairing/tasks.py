"""Celery entry points of the Keizer evening: thin, idempotent, each calling a service.

The deadline job is a dispatcher: every minute it queues one ``pair_and_publish_evening``
task per due evening (so two workers pair two clubs' evenings at once, and one evening's
failure is that task's alone), and asks for withdrawal and pairing e-mails only where there
is work. Every task takes an evening's id and reads nothing global, so a club can be
added to its arguments later.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from competition.models import Evening
from core.jobs import enqueue
from members.clubs.context import per_club

from . import notices, services
from .selectors import due_evenings, evening_is_due, evenings_with_unnotified_withdrawals

log = logging.getLogger(__name__)

PAIR_TASK = "pairing.tasks.pair_and_publish_evening"
WITHDRAWALS_TASK = "pairing.tasks.notify_withdrawals"


@shared_task(name="pairing.tasks.close_due_evenings", acks_late=True)
def close_due_evenings() -> list[int]:
    """Beat entry, every minute (each evening has its own deadline): queue one pairing task
    per due evening and return their ids. Safe to run twice at once: a task queued twice
    pairs once (the evening's row lock, and a published evening is left alone). It runs
    as the platform and queues each evening's task in the evening's club."""
    queued = per_club(Evening, due_evenings(), lambda ids: [
        evening_id for evening_id in ids
        if _queue_or_run(PAIR_TASK, pair_and_publish_evening, evening_id)])
    # A withdrawal whose task was lost (the broker was down) is noticed here; only the
    # evenings with a sign-off nobody has been told of are locked, by their own task.
    per_club(Evening, evenings_with_unnotified_withdrawals(), lambda ids: [
        _queue_or_run(WITHDRAWALS_TASK, notify_withdrawals, evening_id) for evening_id in ids])
    # E-mails left in the outbox (the broker was down, retries ran out) go now.
    per_club(Evening, notices.evenings_with_pending(), lambda ids: [
        _queue_or_run(notices.DELIVER_TASK, send_pairing_notices, evening_id)
        for evening_id in ids])
    return queued


def _queue_or_run(name: str, task: Any, evening_id: int) -> bool:
    """Queue the evening's task; when the broker refuses it, run it here (one failing
    evening logged, the others still done)."""
    if enqueue(name, evening_id):
        return True
    try:
        return bool(task(evening_id))
    except Exception:
        log.exception("%s for evening %s failed", name, evening_id)
        return False


@shared_task(
    name="pairing.tasks.pair_and_publish_evening",
    acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=3,
)
def pair_and_publish_evening(evening_id: int) -> bool:
    """Close the sign-ups of one due evening, pair and publish it; False when there was
    nothing to do (published already, by another run of this task or by the leader, or
    begun: that is left to the leader)."""
    if not evening_is_due(evening_id):
        return False
    return services.evening_pair_and_publish(
        evening_id=evening_id, actor=None, system=True) is not None


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
