"""The first hour of a new club in the browser (issue 31): the first leader opens his
invitation, chooses a password, is signed in on his club's home with the first season's
checklist, and saves his club's settings; both pages fit a 360 px phone. Screenshots land
in tests/e2e/screenshots/first-hour-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .test_first_season import fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_first_leader_sets_his_password_and_works_through_his_checklist(
        page, live_server, settings, screenshot, django_capture_on_commit_callbacks):
    from django.core import mail

    from members.models import User
    from members.platform import club_create
    from tests.decoy import ensure_decoy

    ensure_decoy()
    settings.RANGLIJST_SINGLE_CLUB = False
    settings.SITE_URL = live_server.url
    operator = User.objects.create_superuser(email="operator@example.org", password="pw-schaak-123",
                                             name="Op")
    with django_capture_on_commit_callbacks(execute=True):
        club_create(actor=operator, name="SC De Toren", slug="sc-de-toren",
                    leader_email="tom@toren.example", leader_name="Tom Toren",
                    venue="Buurthuis De Toren, Markt 3")
    link = re.search(r"https?://\S+/password/reset/key/\S+", mail.outbox[0].body)[0]

    page.set_viewport_size(PHONE)
    page.goto(link)
    page.locator("input[name=password1]").fill("Zet-1-wachtwoord!")
    page.locator("input[name=password2]").fill("Zet-1-wachtwoord!")
    page.locator("main form button[name=action][type=submit]").click()
    page.wait_for_url(re.compile(r"/sc-de-toren/$"))
    steps = page.locator("[data-first-steps] li")
    expect(steps).to_have_count(4)
    expect(page.locator("[data-first-steps] li[data-done='1']")).to_have_count(0)
    fits(page, "first-hour-checklist", screenshot)

    page.locator("[data-step=settings] a").click()
    page.wait_for_url(re.compile(r"/sc-de-toren/settings/$"))
    page.locator("input[name=deadline_time]").fill("18:30")
    fits(page, "first-hour-settings", screenshot)
    page.locator("[data-club-settings] button[type=submit]").click()
    expect(page.get_by_text("De instellingen van de club zijn opgeslagen.")).to_be_visible()
    page.goto("/sc-de-toren/")
    expect(page.locator("[data-step=settings][data-done='1']")).to_have_count(1)
    fits(page, "first-hour-checklist-ticked", screenshot)
