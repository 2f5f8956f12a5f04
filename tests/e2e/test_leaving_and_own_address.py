"""Issue 28 in Chromium, Dutch, at 360 px: the person's own address change (his password
first), leaving one club or deleting his account (each confirmation names every club
affected), and the leader's "Uit de club verwijderen" with the to-do line after it.
The demo's player is also a member of the decoy club (tests/decoy.py). Screenshots in
tests/e2e/screenshots/ (leaving-*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .test_phone_layout import MEASURE, fits_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PLAYER = "speler1@demo.club"


def _fits(page, screenshot, name: str) -> None:
    """The page the browser is on (a POST's answer) fits a phone."""
    screenshot(name)
    page.set_viewport_size(PHONE)
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], f"{name} is {measured['scroll']}px wide: {measured['past']}"


def _two_clubs():
    from members.models import User
    from tests import factories as f
    from tests.decoy import decoy

    member = User.objects.get(email=PLAYER)
    f.join(member, "player", decoy())
    return member, decoy()


def test_the_person_changes_his_address_with_his_password_first(page, demo, sign_in, screenshot):
    sign_in(PLAYER)
    fits_phone(page, "/me/email/", screenshot, "leaving-own-address")
    page.locator("input[name=email]").fill("nieuw.adres@example.org")
    page.locator("input[name=password]").fill("niet-mijn-wachtwoord")
    page.locator("main form button[type=submit]").click()
    expect(page.locator("main")).to_contain_text("Dat is niet je wachtwoord")
    page.locator("input[name=password]").fill("schaken123")
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Er gaat een bevestiging naar nieuw.adres@example.org")


def test_leaving_one_club_and_deleting_the_account_name_every_club(page, demo, sign_in, screenshot):
    from members.clubs.memo import home_club
    from members.models import Membership

    member, b = _two_clubs()
    sign_in(PLAYER)
    page.set_viewport_size(PHONE)
    page.goto("/me/")
    page.locator("button[data-leave]").click()
    main = page.locator("main")
    expect(main).to_contain_text(f"{home_club().shown_name} verlaten")
    expect(main).to_contain_text(f"Je blijft lid van {b.shown_name}")
    _fits(page, screenshot, "leaving-one-club")
    page.goto("/me/")
    page.locator("button[data-delete-account]").click()
    expect(main).to_contain_text("Je verlaat elke club waar je lid van bent")
    expect(main).to_contain_text(b.shown_name)
    expect(main).to_contain_text(home_club().shown_name)
    _fits(page, screenshot, "leaving-delete-account")
    assert Membership.objects.filter(user=member).count() == 2  # asked, not done


def test_the_leader_removes_a_member_from_the_club_and_the_todo_says_so(page, demo, sign_in, screenshot):
    from competition.models import Player

    player = Player.objects.select_related("member").get(season=demo, member__email=PLAYER)
    _two_clubs()
    sign_in("leider@demo.club")
    page.set_viewport_size(PHONE)
    page.goto(f"/leader/members/{demo.slug}/players/{player.pk}/")
    expect(page.locator("[data-person-note]")).to_contain_text("ook lid van een andere club")
    assert page.locator("input[name=email]").is_disabled()
    page.locator("button[data-remove]").click()
    expect(page.locator("main")).to_contain_text("Zijn account blijft")
    _fits(page, screenshot, "leaving-leader-removes")
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("is geen lid meer van de club")
    fits_phone(page, "/leader/", screenshot, "leaving-leader-todo")
    expect(page.locator("#todo-left")).to_contain_text(player.member.shown_name)
