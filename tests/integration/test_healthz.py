"""``/healthz`` and the web container's healthcheck (scripts/healthcheck.py)."""

from __future__ import annotations

import http.client
import importlib.util
import socket
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]


def load_probe():
    spec = importlib.util.spec_from_file_location("healthcheck", ROOT / "scripts" / "healthcheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db
def test_healthz_answers_ok_with_one_query_and_is_never_cached(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
@override_settings(PAGE_CACHE_SECONDS=600)
def test_healthz_says_503_as_soon_as_the_database_fails_even_with_the_page_cache_on(client):
    assert client.get("/healthz").status_code == 200
    with mock.patch("django.db.backends.utils.CursorWrapper.execute",
                    side_effect=OperationalError("connection refused")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unavailable"
    assert client.get("/healthz").content == b"ok"


@pytest.mark.django_db
def test_healthz_accepts_only_reads(client):
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["club.example"])
def test_behind_the_tls_proxy_healthz_trusts_x_forwarded_proto(client):
    """Production redirects plain HTTP to HTTPS; the probe, like the proxy, says https."""
    response = client.get("/healthz", HTTP_HOST="club.example")
    assert response.status_code == 301
    assert response["Location"] == "https://club.example/healthz"
    response = client.get("/healthz", HTTP_HOST="club.example", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 200


def test_probe_asks_for_the_first_allowed_host_as_the_proxy_would():
    probe = load_probe()
    request = probe.request_for({"DJANGO_ALLOWED_HOSTS": "club.example, www.club.example"})
    assert request.full_url == "http://127.0.0.1:8000/healthz"
    assert request.get_header("Host") == "club.example"
    assert request.get_header("X-forwarded-proto") == "https"
    assert probe.request_for({"DJANGO_ALLOWED_HOSTS": "*,.club.example"}).get_header(
        "Host") == "club.example"
    assert probe.request_for({}).get_header("Host") == "localhost"
    assert probe.request_for({"PORT": "8123"}).full_url == "http://127.0.0.1:8123/healthz"


def test_probe_fails_when_nothing_listens(capsys):
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert load_probe().main({"PORT": str(port)}) == 1
    assert "unhealthy" in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)
def test_probe_passes_behind_production_host_and_https_checks(live_server, settings):
    """With the production's allowed hosts a bare request to 127.0.0.1 is refused; the
    probe's Host header gets its 200 "ok" from a real HTTP server."""
    settings.ALLOWED_HOSTS = ["club.example"]
    port = live_server.url.rsplit(":", 1)[1]

    def status(**headers: str) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=5)
        try:
            connection.request("GET", "/healthz", headers=headers)
            return connection.getresponse().status
        finally:
            connection.close()

    assert status() == 400  # 127.0.0.1 is not an allowed host
    assert status(Host="club.example", **{"X-Forwarded-Proto": "https"}) == 200
    environ = {"DJANGO_ALLOWED_HOSTS": "club.example", "PORT": port}
    assert load_probe().main(environ) == 0
