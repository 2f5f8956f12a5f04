"""Issue 32, the evening's controls at 360 and 1280 px, in Dutch: a member's sign-up
checkboxes are a finger's size, not the browser's 13 px; the Swiss arbiter's page keeps a
board to its three results (the forfeits folded under "meer"), its title wraps by words
and nothing scrolls sideways. Screenshots: tests/e2e/screenshots/evening-*.png."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE
from .test_phone_layout import MEASURE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FINGER = 20  # px: the least a checkbox measures (1.4rem is 22.4 px)

# Per board: the result buttons in sight, and those folded away.
BOARDS = """() => [...document.querySelectorAll('main [id^=board-]')].map(board => ({
  shown: [...board.querySelectorAll('button[name=result]')].filter(b => b.checkVisibility()).length,
  folded: board.querySelectorAll('details[data-forfeits] button[name=result]').length,
}))"""
# A heading whose words do not fit its box (a word broken off or running out of it).
OVERFLOWING_TITLE = "() => [...document.querySelectorAll('main h1')].some(h => h.scrollWidth > h.clientWidth + 0.5)"


def test_the_sign_up_checkboxes_are_a_fingers_size(page, demo, sign_in, screenshot):
    sign_in("speler1@demo.club")
    page.goto("/signup/")
    screenshot("evening-signup")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        boxes = page.locator("main input[type=checkbox]")
        assert boxes.count() > 0
        for box in boxes.all():
            measured = box.bounding_box()
            assert measured["width"] >= FINGER and measured["height"] >= FINGER, measured
        assert page.evaluate(MEASURE)["scroll"] <= size["width"]


def test_the_swiss_arbiters_page_keeps_a_board_to_three_results(page, demo, sign_in, screenshot):
    from competition.events import services as swiss
    from competition.models import Player
    from competition.season.selectors import current_season
    from members.models import User

    season = current_season()
    arbiter = User.objects.get(email="arbiter@demo.club")
    event = swiss.event_create(actor=arbiter, season=season, kind="blitz",
                               name="Snelschaakkampioenschap van de vereniging",
                               date=season.evenings.filter(kind="playing").order_by("date").last().date)
    for player in Player.objects.filter(season=season).select_related("member").order_by("start")[:8]:
        swiss.entrant_add(actor=arbiter, event=event, member=player.member)
    swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
    sign_in("arbiter@demo.club")
    page.goto(f"/events/{event.pk}/arbiter/")
    screenshot("evening-swiss-arbiter")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        boards = page.evaluate(BOARDS)
        assert len(boards) == 4
        assert all(b["shown"] == 3 and b["folded"] == 3 for b in boards), boards
        assert not page.evaluate(OVERFLOWING_TITLE)
        assert page.evaluate(MEASURE)["scroll"] <= size["width"]
    assert "8 spelers" in page.locator("main").inner_text()
