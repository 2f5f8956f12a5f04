"""Smoke (issue 2): the site answers in a real browser and a member can sign in."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_visitor_opens_the_home_page_and_the_sign_in_page(page, demo, settings):
    page.goto("/")
    expect(page.locator("h1")).to_have_text(settings.CLUB_NAME)
    expect(page.locator("#st-title + .table-wrap tbody tr")).to_have_count(8)
    expect(page.locator("#me-title")).to_have_count(0)

    page.locator("header nav a[href^='/accounts/login/']").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/(\?next=.*)?$"))
    expect(page.locator("input[name=login]")).to_be_visible()
    expect(page.locator("input[name=password]")).to_be_visible()


def test_player_signs_in_with_email_and_password_and_sees_his_own_status(page, demo, sign_in):
    sign_in("speler1@demo.club")
    me = page.locator("section[aria-labelledby=me-title]")
    expect(me).to_be_visible()
    # The next four playing evenings, each with his status (a fixed player: present).
    statuses = me.locator("ul > li")
    expect(statuses).to_have_count(4)
    for i in range(4):
        expect(statuses.nth(i).locator("strong")).not_to_be_empty()
    expect(me.locator("a[href='/signup/']")).to_be_visible()
    # Signed in: the header offers signing out instead of signing in.
    expect(page.locator("header a[href^='/accounts/login/']")).to_have_count(0)
