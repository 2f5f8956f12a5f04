"""A club moves in within one evening (issue 31), in Chromium as its leader, on a 360 px
phone: the members from a file (preview, confirm), last season from Sevilla's TRF file
(every name and its member in a preview, confirm, the season in the archive), and an
evening of the calendar moved (its consequences said first). Each step is printed with the
leader's clicks; screenshots in tests/e2e/screenshots/move-in-*.png. One live server, one
demo club."""

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
    "8100003;Smit, Piet;1700;piet@example.org\n"
)


def _fits(page) -> None:
    """No sideways scrolling, and no table wider than its box (no column scrolled away)."""
    page.set_viewport_size(PHONE)
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], measured["past"]
    assert not measured["wide"], measured["wide"]


def test_the_leader_moves_his_club_in_within_one_evening(page, demo, sign_in, screenshot, tmp_path):
    from competition.models import Evening, Game, Season
    from tests import factories as f

    clicks = 0

    def step(text: str) -> None:
        print(f"[move-in] {text} (clicks so far: {clicks})")

    page.set_viewport_size(PHONE)
    sign_in("leider@demo.club")
    step("signed in as the leader")

    # 1. The members from the KNSB's export.
    page.goto(f"/leader/members/{demo.slug}/import/")
    upload = tmp_path / "leden.csv"
    upload.write_text(MEMBER_LIST, encoding="utf-8")
    page.locator("input[name=file]").set_input_files(str(upload))
    page.locator("main form button[type=submit]").click()
    clicks += 2
    page.wait_for_selector("table[data-preview]")
    assert page.locator("tr[data-status=new]").count() == 3
    screenshot("move-in-members-preview")
    _fits(page)
    step("member list read: 3 new members in the preview")
    page.locator("button[name=save][value='1']").click()
    clicks += 1
    page.wait_for_load_state()
    assert "3" in page.locator("main").inner_text()
    step("3 members added, their invitations queued")

    # 2. Last season from Sevilla's TRF file.
    members = [p.member.name for p in demo.players.select_related("member").order_by("start")[:6]]
    trf = tmp_path / "vorig-seizoen.trf"
    trf.write_text(f.trf_season([*members, "Oud Lid"], evenings=8, first=dt.date(2025, 9, 5)),
                   encoding="utf-8")
    page.goto("/leader/")
    page.locator("a[data-history-import-link]").click()
    page.locator("input[name=file]").set_input_files(str(trf))
    page.locator("main form button[type=submit]").click()
    clicks += 3
    page.wait_for_selector("table[data-matches]")
    assert page.locator("tr[data-status=matched]").count() == 6
    assert page.locator("tr[data-status=unmatched]").count() == 1
    assert "8 avonden" in page.locator("p[data-counts]").inner_text()
    screenshot("move-in-history-preview")
    _fits(page)
    step("TRF read: 6 names found among the members, 1 kept as a former player")
    page.locator("button[name=save][value='1']").click()
    clicks += 1
    page.wait_for_url(re.compile(r"/archive/[\w-]+/$"))
    season = Season.objects.get(name="2025")
    assert Game.objects.filter(evening__season=season).count() == 8 * 3
    assert "2025" in page.locator("h1").inner_text()
    screenshot("move-in-history-archive")
    _fits(page)
    step("last season in the archive, with its standings")

    # 3. The calendar: an evening moves a day earlier.
    evening = next_evening(demo)
    page.goto(f"/leader/evenings/{evening.pk}/move/")
    new_date = evening.date - dt.timedelta(days=1)
    page.locator("form[data-move] input[name=date]").fill(new_date.isoformat())
    page.locator("form[data-move] button[type=submit]").click()
    clicks += 2
    page.wait_for_selector("h1:has-text('verplaatsen')")
    assert "Hun aanmelding blijft staan" in page.locator("main").inner_text() or \
        "krijgen een e-mail" in page.locator("main").inner_text()
    screenshot("move-in-evening-move-confirmation")
    _fits(page)
    assert Evening.objects.get(pk=evening.pk).date == evening.date  # not yet
    page.get_by_role("button", name="Avond verplaatsen").click()
    clicks += 1
    page.wait_for_url(re.compile(r"#calendar$"))
    assert Evening.objects.get(pk=evening.pk).date == new_date
    step("an evening moved a day earlier, the players concerned told")
    step("done")
