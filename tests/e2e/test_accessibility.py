"""Every page passes axe-core with no serious or critical violation (contrast, labels,
landmarks, names of buttons and links, keyboard), in each of the five roles, in Dutch at
360 px (issue 23). The pages are found by walking the site as the role does
(tests/crawler.py), one page of each kind per role; axe-core (tests/e2e/vendor/axe.min.js,
MPL-2.0, from the npm registry) is injected into each and run in Chromium. A failure
lists each violation with its rule, its help text and the first elements it found."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from tests.crawler import crawl

from .conftest import PASSWORD, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
ROLES = [
    ("visitor", None),
    ("player", "speler1@demo.club"),
    ("arbiter", "arbiter@demo.club"),
    ("leader", "leider@demo.club"),
    ("administrator", "beheer@demo.club"),
]
SERIOUS = ("serious", "critical")
PER_ROLE = re.compile(r"^/$|^/evenings/D/$|^/players/N/$|^/events/")
RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


def kind_of(url: str) -> str:
    path = url.split("?")[0]
    path = re.sub(r"\d{4}-\d{2}-\d{2}", "D", path)
    return re.sub(r"/\d+(?=/|$)", "/N", path) + ("?all" if "all=1" in url else "")


def pages_of_role(email: str | None) -> dict[str, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE="nl")
    if email:
        from members.models import User

        client.force_login(User.objects.get(email=email))
    found: dict[str, str] = {}
    for page in crawl(client, ["/", "/accounts/login/", "/accounts/signup/", "/privacy/"],
                      max_pages=300):
        if page.status != 200 or not page.html or "export=" in page.url or "print=" in page.url:
            continue
        found.setdefault(kind_of(page.url), page.url)
    return found


def violations(page, path: str) -> list[dict]:
    response = page.goto(path)
    assert response.ok, f"{path}: HTTP {response.status}"
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN) if v["impact"] in SERIOUS]


@pytest.fixture
def page(browser, live_server):
    """A Dutch phone; the site's Content-Security-Policy forbids inline scripts, so this
    context alone lets the test inject axe-core (the site's own policy is unchanged)."""
    context = browser.new_context(viewport=PHONE, locale="nl-NL", base_url=live_server.url,
                                  bypass_csp=True)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def sign_in(page, email: str) -> None:
    page.goto("/accounts/login/")
    page.locator("input[name=login]").fill(email)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))


def test_every_page_passes_axe_core_in_each_role(page, demo, subtests):
    """One walk per role; a kind of page another role has checked already is checked
    again only where a role sees more on it (the home page, an evening with its result
    forms, a player's page, an event's pages)."""
    checked: set[str] = set()
    for role, email in ROLES:
        pages = pages_of_role(email)
        assert "/" in pages and "/standings/" in pages, (role, sorted(pages))
        page.context.clear_cookies()
        if email:
            sign_in(page, email)
        for kind, url in sorted(pages.items()):
            if kind in checked and not PER_ROLE.search(kind):
                continue
            checked.add(kind)
            with subtests.test(msg=f"{role} {url}"):
                found = violations(page, url)
                assert not found, f"{role} {url}: " + "; ".join(
                    f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(v['nodes'])}"
                    for v in found)
