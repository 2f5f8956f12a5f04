"""Celery tasks of the competition: they receive ids and are safe to run twice."""

import datetime as dt
import logging

from celery import shared_task
from django.utils import timezone

from . import notices
from .models import Half
from .standings import recalculate_season, stale_seasons

log = logging.getLogger(__name__)


@shared_task(
    name="competition.tasks.recalculate_half",
    acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5,
)
def recalculate_half(half_id: int) -> int:
    """Recalculate the season of a half (the summer half depends on the winter one).

    Every change marks its season stale in its own transaction; a recalculation that has
    run since then cleared the mark, so a burst of results costs one or two
    recalculations, not one each."""
    season_id = (
        Half.objects.filter(pk=half_id, season__standings_stale_since__isnull=False)
        .values_list("season_id", flat=True)
        .first()
    )
    if season_id is None:
        return 0
    return recalculate_season(season_id)


@shared_task(name="competition.tasks.recalculate_stale_seasons", acks_late=True)
def recalculate_stale_seasons() -> list[int]:
    """Beat job: recalculate seasons whose recalculation task was lost (broker down, a
    worker killed mid-way). Seasons marked stale in the last half minute are left to the
    task that is probably running for them."""
    done = []
    for season_id in stale_seasons(timezone.now() - dt.timedelta(seconds=30)):
        recalculate_season(season_id)
        done.append(season_id)
    return done


@shared_task(
    name="competition.tasks.send_club_duty_notice",
    acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5,
)
def send_club_duty_notice(request_id: int) -> bool:
    """E-mail the leader's club duty decision to the player and the leader, once."""
    return notices.club_duty_decision_deliver(request_id)


@shared_task(name="competition.tasks.send_club_duty_notices_undelivered", acks_late=True)
def send_club_duty_notices_undelivered() -> list[int]:
    """Beat job: club duty decisions whose e-mail task was lost."""
    sent = []
    for request_id in notices.club_duty_decisions_undelivered():
        try:
            if notices.club_duty_decision_deliver(request_id):
                sent.append(request_id)
        except Exception:  # one failing address must not stop the others
            log.exception("club duty e-mail of request %s failed", request_id)
    return sent
