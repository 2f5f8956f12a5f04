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
@pytest.mark.usefixtures("in_home_club")
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


WARM_UP = """
import sys
import django
django.setup()
from celery.signals import worker_init
from django.db import connections
from django.template import engines
from config.celery import _warm_up_worker
assert "config.urls" not in sys.modules
worker_init.send(sender=None)  # the worker's start, before any task and before the pool forks
assert any(getattr(r(), "__name__", "") == _warm_up_worker.__name__ for _k, r in worker_init.receivers)
assert "config.urls" in sys.modules and "competition.pages.views" in sys.modules
loader = engines["django"].engine.template_loaders[0]
cached = {str(key) for key in loader.get_template_cache}
assert any("pairing/email_body.txt" in key for key in cached), cached
assert all(c.connection is None for c in connections.all())  # no database: safe to fork
print("warm")
"""


def test_a_worker_loads_its_urls_templates_and_translations_before_its_first_task(tmp_path):
    """Otherwise the first club's deadline in each worker pays for it (config.celery
    ``warm_up``)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "1",
           "RANGLIJST_VAR_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", WARM_UP], cwd=root, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "warm", done.stderr[-2000:]
