"""Issue 28 in Chromium, Dutch, at 360 px and 1280 px: joining a second club (club A's
leader adds, by e-mail address, a person who is a member of club B; the person sees the
invitation, accepts, and has both clubs under "Mijn clubs") and the per-club details on
"Mijn gegevens" (the club's part apart from the shared part, named as shared; his phone
number seen by members of the same club only). Clubs apart at their own addresses:
A (the demo) at ``/<a>/``, B (the decoy, tests/decoy.py) at ``/lokvogel/``. Screenshots in
tests/e2e/screenshots/ (joining-*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PASSWORD, PHONE
from .test_phone_layout import MEASURE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PLAYER = "speler1@demo.club"
BERT = "bert@lokvogel.example"


@pytest.fixture(autouse=True)
def clubs_apart(settings):
    settings.RANGLIJST_SINGLE_CLUB = False


def _fits(page, screenshot, name: str) -> None:
    """The page the browser is on fits a phone (and is kept at both widths)."""
    screenshot(name)
    page.set_viewport_size(PHONE)
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], f"{name} is {measured['scroll']}px wide: {measured['past']}"


def _b_member():
    from allauth.account.models import EmailAddress

    from tests import factories as f
    from tests.decoy import decoy

    bert = f.member(name="Bert Loper", email=BERT, club=decoy(), password=PASSWORD, rating=1720)
    EmailAddress.objects.create(user=bert, email=BERT, verified=True, primary=True)  # he signs in
    return bert


def _sign_in_as(page, email: str, club: str | None = None) -> None:
    """Signed in at a club he is a member of (``club``: the demo's when not given)."""
    from members.clubs.memo import home_club

    page.context.clear_cookies()
    page.goto(f"/{club or home_club().slug}/accounts/login/")
    page.locator("input[name=login]").fill(email)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("header form[action$='/logout/'] button")).to_have_count(1)


def test_a_member_of_another_club_is_invited_accepts_and_has_both_clubs(page, demo, screenshot):
    from django.core import mail

    from competition.models import Player
    from members.clubs.memo import home_club
    from members.models import Membership
    from tests.decoy import decoy

    a, b = home_club(), decoy()
    bert = _b_member()
    _sign_in_as(page, "leider@demo.club")
    page.set_viewport_size(PHONE)
    page.goto(f"/{a.slug}/leader/members/{demo.slug}/add/")
    page.locator("input[name=name]").fill("Bert Loper")
    page.locator("input[name=email]").fill(BERT)
    page.locator("select[name=kind]").select_option("flexible")
    page.get_by_role("button", name="Toevoegen en uitnodigen").click()
    # The same answer as for a new address: nothing says the address has an account.
    expect(page.locator(".messages")).to_contain_text(f"Bert Loper is toegevoegd; de uitnodiging gaat naar {BERT}")
    expect(page.locator("main")).not_to_contain_text(b.shown_name)
    page.goto(f"/{a.slug}/leader/members/{demo.slug}/")
    invited = page.locator("[data-invitation]")
    expect(invited).to_contain_text("Bert Loper")
    expect(invited).to_contain_text("uitgenodigd")
    invited.scroll_into_view_if_needed()
    _fits(page, screenshot, "joining-leader-invited")
    [invitation] = [m for m in mail.outbox if m.to == [BERT]]
    assert f"/{a.slug}/me/join/" in invitation.body and a.shown_name in invitation.subject

    _sign_in_as(page, BERT, b.slug)
    page.goto("/")  # his clubs: A invites him, with the way to his answer
    expect(page.locator("[data-clubs] li[data-invited]")).to_contain_text(a.shown_name)
    page.locator("[data-clubs] li[data-invited] a[data-join-link]").click()
    expect(page.locator("[data-join-invitation]")).to_contain_text("Wat lid worden betekent")
    _fits(page, screenshot, "joining-invitation")
    page.locator("button[name=answer][value=accept]").click()
    expect(page.locator(".messages")).to_contain_text(f"Welkom: je bent nu lid van {a.shown_name}")
    assert set(Membership.objects.filter(user=bert).values_list("club_id", flat=True)) == {a.pk, b.pk}
    assert Player.objects.filter(season=demo, member=bert, kind="flexible").exists()
    expect(page.locator("footer [data-my-clubs]")).to_contain_text(b.shown_name)

    page.goto("/")  # "Mijn clubs": his own first, marked
    mine = page.locator("[data-clubs] li[data-mine]")
    expect(mine).to_have_count(2)
    expect(mine.first).to_contain_text("mijn club")
    _fits(page, screenshot, "joining-my-clubs")


def test_my_details_show_the_clubs_part_apart_and_the_phone_only_to_the_same_club(page, demo, screenshot):
    from django.urls import reverse

    from competition.models import Player
    from members.clubs.memo import home_club
    from members.models import Membership, User
    from tests import factories as f
    from tests.decoy import decoy

    a, b = home_club(), decoy()
    member = User.objects.get(email=PLAYER)
    f.join(member, "player", b)
    _b_member()
    player_page = f"/{a.slug}" + reverse("competition:player", args=[
        Player.objects.get(season=demo, member=member).pk])

    _sign_in_as(page, PLAYER)
    page.set_viewport_size(PHONE)
    page.goto(f"/{a.slug}/me/")
    shared = page.locator("[data-shared-part]")
    expect(shared).to_contain_text("gedeeld met je andere clubs")
    expect(shared.locator("[data-my-clubs]")).to_contain_text(b.shown_name)
    expect(page.locator("[data-club-part] h2")).to_contain_text(a.shown_name)
    page.locator("[data-club-part] input[name=phone]").fill("06 1234 5678")
    page.locator("[data-club-part] button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Je gegevens zijn opgeslagen")
    _fits(page, screenshot, "joining-my-details")
    assert dict(Membership.objects.filter(user=member).values_list("club_id", "phone")) == {
        a.pk: "06 1234 5678", b.pk: ""}
    page.goto(f"/{b.slug}/me/")  # B's part of him: his phone is not set there
    expect(page.locator("[data-club-part] input[name=phone]")).to_have_value("")
    expect(page.locator("[data-club-part] h2")).to_contain_text(b.shown_name)

    _sign_in_as(page, "speler2@demo.club")  # a member of the same club sees it
    page.goto(player_page)
    expect(page.locator("[data-phone]")).to_contain_text("06 1234 5678")
    _fits(page, screenshot, "joining-phone-same-club")
    _sign_in_as(page, BERT, b.slug)  # a member of club B alone does not
    page.goto(player_page)
    expect(page.locator("main")).to_contain_text(member.name.split()[0])
    expect(page.locator("[data-phone]")).to_have_count(0)
