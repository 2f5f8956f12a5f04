"""A hung Redis (it accepts the connection and never answers) must not stall the site
(issue 12, findings 4 and 5): a page and a sign-in answer within about a second, a task
that cannot be queued is given up quickly, and while Redis is unreachable the sign-in
rate limit still holds, counted in the web process."""

from __future__ import annotations

import socket
import threading
import time
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

pytestmark = pytest.mark.django_db
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


def _timed(fn, *args, **kwargs):
    start = time.monotonic()
    result = fn(*args, **kwargs)
    return result, time.monotonic() - start


def _member() -> str:
    email = f"hung-{uuid.uuid4().hex[:8]}@example.org"
    user = f.member(email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return email


def test_pages_answer_within_a_second_while_redis_hangs(hung_redis):
    f.season(players=4)
    for url in ("/", "/standings/", "/rules/", "/calendar/", "/evenings/"):
        response, seconds = _timed(Client().get, url)
        assert response.status_code == 200, url
        assert seconds < 1.0, f"{url} took {seconds:.2f} s"


def test_sign_in_answers_within_a_second_while_redis_hangs(hung_redis):
    email = _member()
    client = Client()
    response, seconds = _timed(client.post, reverse("account_login"),
                               {"login": email, "password": PASSWORD})
    assert response.status_code == 302 and client.session.get("_auth_user_id")
    assert seconds < 1.0, f"sign-in took {seconds:.2f} s"


def test_a_task_that_cannot_be_queued_is_given_up_within_a_second(hung_redis):
    queued, seconds = _timed(enqueue, "competition.tasks.recalculate_half", 0)
    assert queued is False
    assert seconds < 1.5, f"queueing took {seconds:.2f} s"


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
