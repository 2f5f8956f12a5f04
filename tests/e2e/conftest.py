"""Browser tests: Chromium (Playwright, sync API) against pytest-django's live server.

The live server runs in a thread of this process, so the club's clock can be set here:
the site believes it is DEMO_TODAY whatever day the suite runs (see ``club_clock``).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# The sync API runs an event loop in this thread; Django would refuse database access.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
# A Monday in the winter half: ten winter evenings played, the summer half still to come.
DEMO_TODAY = dt.date(2026, 11, 30)
PASSWORD = "schaken123"


@pytest.fixture(autouse=True)
def _quiet_task_log():
    """The eager tasks log a line each (the demo runs dozens); keep failures readable."""
    logger = logging.getLogger("celery.app.trace")
    level = logger.level
    logger.setLevel(logging.WARNING)
    yield
    logger.setLevel(level)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server):
    # Dutch members: the browser asks for Dutch, as theirs do.
    context = browser.new_context(viewport=DESKTOP, locale="nl-NL", base_url=live_server.url)
    context.set_default_timeout(10_000)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def club_clock(monkeypatch) -> Callable[[dt.date], None]:
    """Set the site's today for this test (from noon on, never backwards: tests/clock.py).

    Pages, services and the eager Celery tasks all ask ``django.utils.timezone.now``; the
    live server shares this process, so shifting it makes a fixed demo date hold on any
    day the suite runs.
    """
    from django.utils import timezone

    from tests.clock import on_day

    def set_today(day: dt.date) -> None:
        monkeypatch.setattr(timezone, "now", on_day(day))

    return set_today


@pytest.fixture
def demo_today() -> dt.date:
    """Override in a module (or parametrize) to build the demo on another day."""
    return DEMO_TODAY


@pytest.fixture
def demo(transactional_db, in_home_club, club_clock, demo_today):
    """The demo club (30 players, a season under way) on ``demo_today``, in club A, the
    test's club (``in_home_club``): built the first time this process asks for that day,
    restored from a copy after that (tests/demo_snapshot.py); the flush after the test
    empties it as before."""
    from tests.demo_snapshot import demo_season

    club_clock(demo_today)
    return demo_season(demo_today)


@pytest.fixture
def sign_in(page) -> Callable[[str], None]:
    """Sign in through the allauth form with e-mail and password, as a member does."""

    def do(email: str, password: str = PASSWORD) -> None:
        page.goto("/accounts/login/")
        page.locator("input[name=login]").fill(email)
        page.locator("input[name=password]").fill(password)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/$"))

    return do


@pytest.fixture
def screenshot(page, request) -> Iterator[Callable[[str], list[Path]]]:
    """``screenshot(name)``: full-page PNGs of the current page at desktop and 360 px
    phone width, in tests/e2e/screenshots/ (git-ignored; CI keeps it as an artifact)."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(name: str) -> list[Path]:
        paths = []
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            path = SCREENSHOTS / f"{name}-{label}.png"
            page.screenshot(path=str(path), full_page=True)
            paths.append(path)
        page.set_viewport_size(DESKTOP)
        return paths

    yield take



def open_menu(page) -> None:
    """On a narrow screen the site's menu is behind its "Menu" button (static/js/menu.js):
    tap it, as a member does, before following an item."""
    toggle = page.locator("header .menu-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
