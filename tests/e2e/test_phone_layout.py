"""Every page fits a 360 px phone, in each role: the page never scrolls sideways and no
table is wider than the screen (no column hidden in a scrolling box). The pages are
found by walking the site as the role does (tests/crawler.py); one page of each kind
(the same path with other ids or dates) is opened in Chromium. Screenshots of each page
at 360 px and at desktop width land in tests/e2e/screenshots/."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.crawler import crawl

from .conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Pages the phone test leaves out: the leader's, the arbiter's and the administrator's
# (issue 14 owns them), and the export/print variants of a page already opened.
NOT_MINE = re.compile(
    r"^/(leader|pairing|prizes/[^/]+/manage|events/\d+/(arbiter|entrants)|events/(new|import))"
)

# The elements reaching past the right edge, and the tables wider than the screen.
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (typeof el.className === 'string' && el.className.trim()
       ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  // A table wider than the screen, or than the box it sits in (a column scrolled away).
  const wide = [...document.querySelectorAll('table')]
    .filter(t => t.getBoundingClientRect().width > width + 0.5 || t.scrollWidth > width + 0.5
                 || t.parentElement.scrollWidth > t.parentElement.clientWidth + 0.5)
    .map(t => name(t) + ' ' + Math.round(t.getBoundingClientRect().width) + 'px');
  const past = [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > width + 0.5
                  && getComputedStyle(el).display !== 'none')
    .map(name).slice(0, 6);
  return {scroll: document.documentElement.scrollWidth, wide, past};
}"""


def kind_of(url: str) -> str:
    """One page of each kind: ids and dates do not make another kind of page."""
    path = url.split("?")[0]
    path = re.sub(r"\d{4}-\d{2}-\d{2}", "D", path)
    path = re.sub(r"/\d+(?=/|$)", "/N", path)
    return path + ("?all" if "all=1" in url else "")


def pages_of_role(email: str | None) -> dict[str, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE="nl")
    if email:
        from members.models import User

        client.force_login(User.objects.get(email=email))
    found: dict[str, str] = {}
    for page in crawl(client, ["/", "/accounts/login/", "/accounts/signup/"], max_pages=250):
        if page.status != 200 or not page.html or NOT_MINE.search(page.url):
            continue
        if "export=" in page.url or "print=" in page.url:
            continue
        found.setdefault(kind_of(page.url), page.url)
    return found


def fits_phone(page, path, screenshot, name):
    page.set_viewport_size(PHONE)
    response = page.goto(path)
    assert response.ok, f"{path}: HTTP {response.status}"
    screenshot(name)  # first: a failing page is the one worth looking at
    page.set_viewport_size(PHONE)
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], f"{path} is {measured['scroll']}px wide: {measured['past']}"
    assert not measured["wide"], f"{path}: tables wider than the phone: {measured['wide']}"


def screenshot_name(role: str, kind: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-") or "home"
    return f"{role}-{slug}"


@pytest.mark.parametrize("role,email", [("visitor", None), ("player", "speler1@demo.club")])
def test_every_public_and_member_page_fits_a_phone(page, demo, screenshot, sign_in, subtests,
                                                   role, email):
    pages = pages_of_role(email)
    # The pages every role must reach: a sanity check on the walk itself.
    for kind in ("/", "/standings/", "/evenings/D/", "/players/N/", "/calendar/", "/rules/"):
        assert kind in pages, f"the walk as {role} did not reach {kind}: {sorted(pages)}"
    if email:
        assert "/signup/" in pages
        sign_in(email)
    for kind, url in sorted(pages.items()):
        with subtests.test(msg=f"{role} {url}"):
            fits_phone(page, url, screenshot, screenshot_name(role, kind))
