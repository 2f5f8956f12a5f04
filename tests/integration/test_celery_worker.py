"""Jobs travel through the real broker to a real worker: the filesystem broker by default,
Redis when REDIS_URL is set (as on CI)."""

import datetime as dt

import pytest
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from competition.models import EveningStatus, StandingsSnapshot
from competition.season.tasks import recalculate_half
from config.celery import app
from pairing.tasks import close_due_evenings
from tests import factories as f


def _wait(predicate, seconds=20):
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OperationalError:  # SQLite's shared in-memory test database: table busy
            pass
        time.sleep(0.1)
    return False


@pytest.mark.django_db(transaction=True)
def test_the_configured_broker_is_the_one_expected():
    expected = "redis" if settings.REDIS_URL else "filesystem"
    assert app.connection_for_write().transport_cls.startswith(expected) or (
        expected in str(app.conf.broker_url)
    )


@pytest.mark.django_db(transaction=True)
def test_deadline_job_and_recalculation_run_in_a_worker(real_worker):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[0]
    # Its deadline has just passed (tonight's games are still to come): the job, sent
    # through the broker, pairs and publishes it.
    now = timezone.now()
    type(evening).objects.filter(pk=evening.pk).update(
        deadline=now - dt.timedelta(minutes=1), starts_at=now + dt.timedelta(hours=2)
    )
    close_due_evenings.delay()
    assert _wait(lambda: type(evening).objects.get(pk=evening.pk).status == EveningStatus.PUBLISHED)
    recalculate_half.delay(evening.half_id)
    assert _wait(lambda: StandingsSnapshot.objects.filter(half_id=evening.half_id).exists())
