"""Celery tasks of the competition: they receive ids and are safe to run twice."""

import datetime as dt

from celery import shared_task
from django.utils import timezone

from competition.models import Season
from competition.season import notices
from competition.season.standings import (
    recalculate_half_season,
    recalculate_season,
    recalculation_started,
    seasons_behind,
)
from core import mail
from core.jobs import enqueue
from members.clubs.context import per_club

SEASON_TASK = "competition.tasks.recalculate_season"


@shared_task(
    name="competition.tasks.recalculate_half",
    acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5,
)
def recalculate_half(half_id: int) -> int:
    """Recalculate the season of a half (the summer half depends on the winter one).

    Every change moves its season's inputs version on in its own transaction; when the
    stored standings were computed from that version already (a recalculation ran since),
    there is nothing to do, so a burst of results costs a few recalculations, not one
    each."""
    recalculation_started(half_id)  # a change from now on queues a task of its own
    return recalculate_half_season(half_id)


@shared_task(
    name="competition.tasks.recalculate_season",
    acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5,
)
def recalculate_season_behind(season_id: int) -> int:
    """Recalculate a season whose standings are behind its inputs (queued by the catch-up
    in the season's club); nothing when a recalculation ran since."""
    return recalculate_season(season_id, if_behind=True)


@shared_task(name="competition.tasks.recalculate_stale_seasons", acks_late=True)
def recalculate_stale_seasons() -> list[int]:
    """Beat job: recalculate seasons whose standings are behind their inputs (the version
    they were computed from is older than the season's), whatever became of the task (broker
    down, a worker killed mid-way). Seasons changed in the last half minute are left to the
    tasks that are probably running for them. It runs as the platform and queues each
    season's recalculation in its club (so the page version it moves is the club's); where
    the broker refuses, it recalculates the season itself, in the club."""
    behind = seasons_behind(timezone.now() - dt.timedelta(seconds=30))
    return per_club(Season, behind, _recalculate_each)


def _recalculate_each(season_ids: list[int]) -> list[int]:
    done = []
    for season_id in season_ids:
        if not enqueue(SEASON_TASK, season_id):
            recalculate_season(season_id)
        done.append(season_id)
    return done


# The club duty decision e-mail goes through the outbox (core.mail) now; these two names
# stay registered for messages queued before (core.jobs.RETIRED).
@shared_task(name="competition.tasks.send_club_duty_notice", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def send_club_duty_notice(request_id: int) -> bool:
    """E-mail the leader's club duty decision to the player and the leader, once."""
    return notices.club_duty_decision_deliver(request_id)


@shared_task(name="competition.tasks.send_club_duty_notices_undelivered", acks_late=True)
def send_club_duty_notices_undelivered() -> int:
    """Formerly the beat's catch-up of the decisions; the outbox's catch-up does it now."""
    return mail.deliver()
