"""The pages are Dutch by default; the language links switch them to English."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_language_link_switches_the_labels_to_english(page, demo):
    page.goto("/standings/")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    nav = page.locator("header nav a[href='/standings/']")

    page.locator("nav.lang a[hreflang=en]").click()

    expect(page).to_have_url(re.compile(r"/standings/$"))  # back where we were
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(nav).to_have_text("Standings")
    expect(page.locator("main h1")).to_contain_text("Standings")
    page.goto("/")  # the choice is remembered
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_dutch_members_see_dutch_labels(page, demo):
    # The browser asks for Dutch (nl-NL), the club's language; docs/glossary.md has the words.
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("header nav a[href='/standings/']")).to_have_text(
        re.compile(r"^\s*(ranglijst|stand)\s*$", re.IGNORECASE)
    )
    for english in ("Evenings", "Calendar", "Rules", "Sign in"):
        expect(page.locator("header nav").first).not_to_contain_text(english)
