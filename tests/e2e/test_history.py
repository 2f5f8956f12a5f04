"""The club's history on a phone: a player's seasons and head-to-head, and the archive,
fit 360 px without sideways scrolling; the head-to-head keeps opponent, score and games
on the phone and shows the rest from a wider screen on. Screenshots of each page at
360 px and at desktop width land in tests/e2e/screenshots/."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE
from .test_phone_layout import MEASURE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The head-to-head's columns: the first three stay on a phone.
ESSENTIAL = ["Tegenstander", "Score", "Partijen"]
WIDER = ["W", "R", "V", "Reglementair", "Laatste partij"]


def visible_headers(page, table: str) -> list[str]:
    return page.locator(f"table[{table}] thead th").evaluate_all(
        "ths => ths.filter(th => getComputedStyle(th).display !== 'none')"
        ".map(th => th.textContent.trim())"
    )


def fits(page) -> None:
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], measured["past"]
    assert not measured["wide"], measured["wide"]


def test_the_player_page_history_fits_a_phone_and_keeps_the_essential_columns(
    page, demo, screenshot
):
    from competition.models import Player

    me = Player.objects.get(season=demo, member__email="speler1@demo.club")
    page.goto(f"/players/{me.pk}/")
    screenshot("history-player")
    page.set_viewport_size(PHONE)
    fits(page)
    assert visible_headers(page, "data-head-to-head") == ESSENTIAL
    assert visible_headers(page, "data-member-seasons") == ["Seizoen", "Plaats", "Punten", "Partijen"]
    assert page.locator("h2#head-to-head").inner_text() == "Onderling resultaat"
    page.set_viewport_size(DESKTOP)
    assert visible_headers(page, "data-head-to-head") == ESSENTIAL + WIDER


def test_the_archive_fits_a_phone_and_leads_to_a_seasons_final_standings(page, demo, screenshot):
    page.goto("/standings/")
    page.get_by_text("Eerdere seizoenen").click()
    page.get_by_role("link", name="Archief: eindstanden en prijswinnaars van alle seizoenen").click()
    page.wait_for_url("**/archive/")
    screenshot("history-archive")
    page.set_viewport_size(PHONE)
    fits(page)
    assert page.locator("h1").inner_text() == "Archief van eerdere seizoenen"
    assert page.get_by_role("heading", name="Prijswinnaars").count() == 1
    page.locator("section[data-season] h2 a").first.click()
    page.wait_for_url("**/archive/*/")
    screenshot("history-archive-season")
    page.set_viewport_size(PHONE)
    fits(page)
    assert page.locator("section[data-half] table").count() == 2
