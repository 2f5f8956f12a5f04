"""The site's menu shows every item a role needs, on a phone and on a desktop (issue 32):
on one row when it fits, else behind a "Menu" button that opens a list of full-width
rows. Before, the phone's menu was one row scrolled sideways, its last items off screen
(x = 597-966 px at 360 px), and at 1280 px the signed-in header took two or three rows."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, SCREENSHOTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The visitor, a player, the arbiter, the leader and the administrator (the most items).
ROLES = (None, "speler5@demo.club", "arbiter@demo.club", "leider@demo.club", "beheer@demo.club")
ONE_ROW = 60  # px: the club's name and a 44 px button, with the header's padding


def _items_in_sight(page, width):
    items = page.locator("#site-menu > li")
    assert items.count() >= 6
    for item in items.all():
        expect(item).to_be_visible()
        box = item.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, item.inner_text()
    return [item.inner_text().strip() for item in items.all()]


def _as(page, sign_in, email):
    page.context.clear_cookies()
    if email:
        sign_in(email)


def test_every_menu_item_is_in_sight_after_one_tap_on_a_phone(page, demo, sign_in):
    for email in ROLES:
        _as(page, sign_in, email)
        _phone_menu(page, email)


def _phone_menu(page, email):
    page.set_viewport_size(PHONE)
    page.goto("/")
    header = page.locator("header.site")
    assert header.bounding_box()["height"] <= ONE_ROW
    toggle = page.locator("header .menu-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#site-menu")).to_be_hidden()

    toggle.click()

    expect(toggle).to_have_attribute("aria-expanded", "true")
    names = _items_in_sight(page, PHONE["width"])
    expect(page.locator("nav.lang a[hreflang=en]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for item in page.locator("#site-menu > li").all():  # a tap target a finger hits
        assert item.bounding_box()["height"] >= 44
    if email == "speler5@demo.club":
        assert "Aan-/afmelden" in names and "Mijn gegevens" in names and "Uitloggen" in names
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"menu-open-{(email or 'visitor').split('@')[0]}-phone.png"))
    page.keyboard.press("Escape")
    expect(page.locator("#site-menu")).to_be_hidden()
    expect(toggle).to_be_focused()


def test_the_signed_in_header_is_one_row_at_1280(page, demo, sign_in):
    for email in ROLES:
        _as(page, sign_in, email)
        page.set_viewport_size(DESKTOP)
        page.goto("/")
        assert page.locator("header.site").bounding_box()["height"] <= ONE_ROW, email
        toggle = page.locator("header .menu-toggle")
        if toggle.is_visible():  # a role whose items do not fit: one tap away
            toggle.click()
        _items_in_sight(page, DESKTOP["width"])


def test_without_script_every_item_wraps_into_sight_on_a_phone(browser, live_server, demo):
    context = browser.new_context(viewport=PHONE, locale="nl-NL", base_url=live_server.url,
                                  java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto("/")
        expect(page.locator("header .menu-toggle")).to_be_hidden()
        _items_in_sight(page, PHONE["width"])
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
