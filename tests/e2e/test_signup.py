"""Signing off for several evenings in one action (docs/rules.md 3)."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_player_signs_off_for_two_evenings_in_one_action(page, demo, sign_in):
    sign_in("speler1@demo.club")
    page.goto("/signup/")
    rows = page.locator("main table tbody tr")
    assert rows.count() >= 3
    for i in (0, 1):
        rows.nth(i).locator("input[type=checkbox][name=evenings]").check()
    page.locator("select[name=status]").select_option("absent_with_notice")
    page.locator("main form button[type=submit]").click()

    expect(page.locator("ul.messages li.success")).to_have_count(1)
    statuses = rows.locator("td[data-status]")
    expect(statuses.nth(0)).to_have_attribute("data-status", "absent_with_notice")
    expect(statuses.nth(1)).to_have_attribute("data-status", "absent_with_notice")
    # The other evenings keep the fixed player's default.
    expect(statuses.nth(2)).to_have_attribute("data-status", "present")
    expect(rows.nth(0).locator("input[type=checkbox]")).not_to_be_checked()
