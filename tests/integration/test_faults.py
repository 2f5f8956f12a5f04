"""Faults survived: Redis down, a lost recalculation task."""

import datetime as dt

import pytest
from django.core.cache import caches
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from competition.models import Registration, Season, StandingsSnapshot
from competition.season.services import result_set
from competition.season.standings import standings_behind, standings_current
from competition.season.tasks import recalculate_stale_seasons
from config.celery import app
from pairing.services import evening_pair_and_publish
from tests import factories as f

DEAD_REDIS = "redis://127.0.0.1:6390/0"  # nothing listens there
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def redis_down():
    """Cache and broker pointed at a Redis that does not answer."""
    cache = {"default": {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": DEAD_REDIS,
                         "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    saved = (app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options)
    app.conf.broker_url = DEAD_REDIS
    app.conf.broker_transport_options = {"socket_connect_timeout": 0.2, "max_retries": 0}
    app.conf.task_always_eager = False
    _fresh_connections()
    cache["pages"] = cache["default"]
    with override_settings(CACHES=cache):
        caches._settings = None
        yield
    app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options = saved
    _fresh_connections()
    caches._settings = None


def _fresh_connections():
    """Drop Celery's pooled broker connections so the next send uses the current URL."""
    app._pool = None
    app.amqp._producer_pool = None


def test_cache_down_reads_miss_and_writes_are_dropped(redis_down):
    cache = caches["default"]
    cache.set("k", "v")
    assert cache.get("k", "missing") == "missing"
    assert cache.add("k", "v") is True  # dropped, but counted as stored (see config/cache.py)
    assert cache.incr("counter") == 1


def test_with_redis_down_pages_and_sign_ups_work_and_standings_catch_up(
    client, redis_down, django_capture_on_commit_callbacks
):
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        game = evening.games.first()
        result_set(actor=f.arbiter(), game=game, result="1-0")
    # The recalculation task could not be queued: the standings are behind the season's
    # inputs version, nothing is lost.
    assert standings_behind(s.pk)
    assert not StandingsSnapshot.objects.filter(half__season=s).exists()
    # Pages work.
    assert client.get(reverse("competition:standings")).status_code == 200
    assert client.get(reverse("competition:home")).status_code == 200
    # A player signs off for a later evening through the site.
    later = f.playing_evenings(s)[-1]
    player = s.players.order_by("start").first()
    client.force_login(player.member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("competition:signup"),
            {"evenings": [str(later.pk)], "status": "absent_with_notice"},
        )
    assert response.status_code == 302
    assert Registration.objects.get(evening=later, player=player).status == "absent_with_notice"
    # Redis is back: the beat job recalculates what was missed.
    # Changes of the last half minute are left to their tasks.
    assert recalculate_stale_seasons() == []
    Season.objects.filter(pk=s.pk).update(
        inputs_changed_at=Season.objects.get(pk=s.pk).inputs_changed_at
        - dt.timedelta(minutes=5)
    )
    assert recalculate_stale_seasons() == [s.pk]
    assert StandingsSnapshot.objects.filter(half__season=s).exists()
    assert not standings_behind(s.pk) and standings_current(s.pk)
    assert recalculate_stale_seasons() == []


def test_pairing_e_mails_lost_while_the_broker_was_down_are_sent_by_the_catch_up(
    redis_down, django_capture_on_commit_callbacks, mailoutbox
):
    from pairing.tasks import close_due_evenings

    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    now = timezone.now()
    type(evening).objects.filter(pk=evening.pk).update(
        deadline=now - dt.timedelta(minutes=1), starts_at=now + dt.timedelta(hours=2)
    )
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk)
    assert mailoutbox == []  # the notice task could not be queued
    close_due_evenings()  # the beat's catch-up, once a worker runs again
    assert sorted(m.to[0] for m in mailoutbox) == sorted(
        p.member.email for p in s.players.all()
    )
    close_due_evenings()
    assert len(mailoutbox) == 4  # and never twice
