"""Every link opens: each role walks the demo club from its home page and follows every
link it is shown (tests/crawler.py). A link that leads to a 403, a 404, a 500 or the
sign-in page is a link the role should not have been shown; a link into the Django admin
is shown to staff only. The failure names the page that showed the link.

The site's own 403 and 404 pages are in Dutch and keep the site's navigation."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from members.models import User
from tests.crawler import crawl, links
from tests.demo_snapshot import demo_season
from tests.transactions import rolled_back

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 30)  # as test_pages.py: ten winter evenings played
ACCOUNTS = {
    "visitor": None,
    "player": "speler1@demo.club",
    "arbiter": "arbiter@demo.club",
    "leader": "leider@demo.club",
    "administrator": "beheer@demo.club",
}
START = {
    "visitor": ["/"],
    "player": ["/", "/signup/"],
    "arbiter": ["/"],
    "leader": ["/", "/leader/", "/leader/audit/", "/leader/members/"],
    "administrator": ["/", "/leader/", "/leader/audit/", "/leader/members/"],
}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), rolled_back():
        season = demo_season(TODAY)
        yield season


@pytest.fixture(autouse=True)
def club_today(monkeypatch):
    real_now = timezone.now
    offset = TODAY - timezone.localdate(real_now())
    monkeypatch.setattr(timezone, "now", lambda: real_now() + offset)


def _client(role: str) -> Client:
    client = Client(raise_request_exception=False)
    if ACCOUNTS[role]:
        client.force_login(User.objects.get(email=ACCOUNTS[role]))
    return client


def _broken(page) -> str | None:
    if page.status in (403, 404) or page.status >= 500:
        return str(page.status)
    if page.status in (301, 302) and page.location.startswith("/accounts/login/"):
        return "sign-in redirect"
    return None


@pytest.mark.parametrize("role", list(ACCOUNTS))
def test_every_link_a_role_is_shown_opens(demo, role):
    client = _client(role)
    staff = bool(ACCOUNTS[role]) and User.objects.get(email=ACCOUNTS[role]).is_staff
    problems, visited = [], 0
    for page in crawl(client, START[role]):
        visited += 1
        if page.linked_from == "(start)":
            assert page.status == 200, f"{role}: start page {page.url} gives {page.status}"
        elif (why := _broken(page)) is not None:
            problems.append(f"{page.url} ({why}), linked from {page.linked_from}")
        if not staff:
            problems += [
                f"{link} (the admin, for staff only), linked from {page.url}"
                for link in links(page.html, page.url) if link.startswith("/admin/")
            ]
    assert visited > 20, f"{role} reached only {visited} pages"
    assert not problems, f"{role} is shown links it may not follow:\n" + "\n".join(
        sorted(set(problems))
    )


# --- The site's own error pages -----------------------------------------------------------


@override_settings(DEBUG=False)
def test_the_404_page_is_the_sites_own_in_dutch(client, demo):
    client.cookies["django_language"] = "nl"
    response = client.get("/players/999999/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Pagina niet gevonden" in html
    assert 'href="/standings/"' in html  # the site's navigation, from base.html
    assert "Not Found" not in html


@override_settings(DEBUG=False)
def test_the_403_page_is_the_sites_own_in_dutch(client, demo):
    client.force_login(User.objects.get(email=ACCOUNTS["player"]))
    client.cookies["django_language"] = "nl"
    response = client.get("/leader/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Geen toegang" in html
    assert 'href="/standings/"' in html
    assert "Forbidden" not in html
