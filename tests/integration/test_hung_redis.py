"""A hung Redis (it accepts the connection and never answers) must not stall the site
(issue 12, findings 4 and 5): a page and a sign-in pay one short socket timeout in all
(the breaker skips Redis after it), a task that cannot be queued is given up after one
try, and while Redis is unreachable the sign-in rate limit still holds, counted in the
web process. Counted, not timed: what it costs in seconds is a benchmark's to measure."""

from __future__ import annotations

import socket
import threading
import uuid

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from config import cache as resilient
from config.celery import app
from core.jobs import enqueue
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
PASSWORD = "pw-schaak-123"


class SilentRedis:
    """A TCP listener that accepts every connection and never sends a byte."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)  # held open, never answered

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def close(self) -> None:
        self.sock.close()
        for conn in self.accepted:
            conn.close()


def _cache_settings(url: str) -> dict:
    one = {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": url,
           "OPTIONS": {"socket_connect_timeout": settings.REDIS_SOCKET_TIMEOUT,
                       "socket_timeout": settings.REDIS_SOCKET_TIMEOUT}}
    return {"default": one, "pages": one}


@pytest.fixture
def hung_redis():
    silent = SilentRedis()
    resilient.breaker.reset()
    resilient.local.clear()
    saved = (app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options,
             app.conf.broker_connection_timeout, app.conf.task_publish_retry)
    app.conf.broker_url = silent.url
    app.conf.broker_transport_options = settings.REDIS_BROKER_TRANSPORT_OPTIONS
    app.conf.broker_connection_timeout = settings.REDIS_SOCKET_TIMEOUT
    app.conf.task_publish_retry = False
    app.conf.task_always_eager = False
    app._pool = None
    app.amqp._producer_pool = None
    with override_settings(CACHES=_cache_settings(silent.url), PAGE_CACHE_SECONDS=600):
        caches._settings = None
        yield silent
    (app.conf.broker_url, app.conf.task_always_eager, app.conf.broker_transport_options,
     app.conf.broker_connection_timeout, app.conf.task_publish_retry) = saved
    app._pool = None
    app.amqp._producer_pool = None
    caches._settings = None
    resilient.breaker.reset()
    resilient.local.clear()
    silent.close()


@pytest.fixture
def timeouts(monkeypatch):
    """The Redis calls that waited for their socket timeout (each trips the breaker). The
    breaker stays open for the whole test, so a slow machine does not close it again."""
    paid: list[None] = []
    real_trip = resilient.breaker.trip

    def trip() -> None:
        paid.append(None)
        real_trip()

    monkeypatch.setattr(resilient.breaker, "trip", trip)
    with override_settings(CACHE_RETRY_SECONDS=3600):
        yield paid


def _member() -> str:
    email = f"hung-{uuid.uuid4().hex[:8]}@example.org"
    user = f.member(email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return email


def test_the_socket_timeouts_are_short():
    """What a hung Redis costs one call: the socket timeout, for the cache and the broker."""
    assert settings.REDIS_SOCKET_TIMEOUT <= 0.5
    options = settings.REDIS_BROKER_TRANSPORT_OPTIONS
    assert options["socket_connect_timeout"] == options["socket_timeout"] == settings.REDIS_SOCKET_TIMEOUT
    assert options["max_retries"] == 0


def test_pages_pay_one_timeout_in_all_while_redis_hangs(hung_redis, timeouts):
    """A page answers within about a second: the first cache call waits for its timeout,
    the breaker opens, and every later call (of that page and the next) skips Redis."""
    f.season(players=4)
    for url in ("/", "/standings/", "/rules/", "/calendar/", "/evenings/"):
        response = Client().get(url)
        assert response.status_code == 200, url
        assert len(timeouts) == 1, url
    assert resilient.breaker.is_open()


def test_sign_in_pays_one_timeout_while_redis_hangs(hung_redis, timeouts):
    email = _member()
    client = Client()
    response = client.post(reverse("account_login"), {"login": email, "password": PASSWORD})
    assert response.status_code == 302 and client.session.get("_auth_user_id")
    assert len(timeouts) == 1


def test_a_task_that_cannot_be_queued_is_given_up_after_one_try(hung_redis, caplog):
    """One publish, bounded by the broker's socket timeouts, no retries; then the caller
    carries on and the warning names who does the work instead."""
    assert app.conf.broker_connection_timeout == settings.REDIS_SOCKET_TIMEOUT
    assert app.conf.task_publish_retry is False
    assert app.conf.broker_transport_options["max_retries"] == 0
    with caplog.at_level("WARNING", logger="core.jobs"):
        queued = enqueue("competition.tasks.recalculate_half", 0)
    assert queued is False
    warnings = [r for r in caplog.records if r.getMessage().startswith("could not queue")]
    assert len(warnings) == 1


def test_the_sign_in_rate_limit_holds_per_process_while_redis_hangs(hung_redis):
    email = _member()
    limited = 0
    for _ in range(8):
        response = Client().post(reverse("account_login"), {"login": email, "password": "wrong-1"})
        form = response.context["form"] if response.status_code == 200 else None
        codes = {e.code for errs in form.errors.as_data().values() for e in errs} if form else set()
        if response.status_code == 429 or "too_many_login_attempts" in codes:
            limited += 1
    assert limited >= 3  # 5 failures per address, then refused
    right = Client().post(reverse("account_login"), {"login": email, "password": PASSWORD})
    assert not right.client.session.get("_auth_user_id")
