"""A club moves in (issue 31), in Chromium as the leader: the member list's preview and the
calendar's confirmation before an evening moves, each fitting a 360 px phone
(screenshots in tests/e2e/screenshots/)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from .conftest import PHONE
from .test_leader_consequences import next_evening
from .test_phone_layout import MEASURE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MEMBER_LIST = (
    "Relatienummer;Naam;Rating;E-mail\n"
    "8100001;Vries, Jan de;1850;jan.devries@example.org\n"
    "8100002;Bakker, Anna;1920;\n"
    "abc;Smit, Piet;0;piet@example\n"
)


def _fits(page) -> None:
    """No sideways scrolling, and no table wider than its box (no column scrolled away)."""
    page.set_viewport_size(PHONE)
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], measured["past"]
    assert not measured["wide"], measured["wide"]


def test_the_leader_sees_the_member_lists_preview_on_a_phone(page, demo, sign_in, screenshot, tmp_path):
    sign_in("leider@demo.club")
    page.goto(f"/leader/members/{demo.slug}/import/")
    upload = tmp_path / "leden.csv"
    upload.write_text(MEMBER_LIST, encoding="utf-8")
    page.locator("input[name=file]").set_input_files(str(upload))
    page.locator("main form button[type=submit]").click()
    page.wait_for_selector("table[data-preview]")
    assert page.locator("tr[data-status=new]").count() == 2
    assert "rij 4:" in page.locator("tr[data-status=error]").inner_text()
    screenshot("leader-member-import-preview")
    _fits(page)


def test_the_leader_confirms_a_moved_evening_on_a_phone(page, demo, sign_in, screenshot):
    from competition.models import Evening

    evening = next_evening(demo)
    sign_in("leider@demo.club")
    page.goto(f"/leader/evenings/{evening.pk}/move/")
    new_date = evening.date - dt.timedelta(days=1)
    page.locator("form[data-move] input[name=date]").fill(new_date.isoformat())
    page.locator("form[data-move] button[type=submit]").click()
    page.wait_for_selector("h1:has-text('verplaatsen')")
    assert "Hun aanmelding blijft staan" in page.locator("main").inner_text() or \
        "krijgen een e-mail" in page.locator("main").inner_text()
    screenshot("leader-evening-move-confirmation")
    _fits(page)
    assert Evening.objects.get(pk=evening.pk).date == evening.date  # not yet
    page.get_by_role("button", name="Avond verplaatsen").click()
    page.wait_for_url(re.compile(r"#calendar$"))
    assert Evening.objects.get(pk=evening.pk).date == new_date
