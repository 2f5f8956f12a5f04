"""Issue 23 in Chromium, Dutch, at 360 px: who may come in (registration closed by
default; when open, a request the leader accepts on his to-do), what members expect
(My details with phone, e-mails, initials and calendar; his page and password links; his
own board marked with places and points; ratings and place changes in the standings),
and the links (no "Aan-/afmelden" for a non-player; an access-denied page that names his
own role). Screenshots in tests/e2e/screenshots/ (members-*.png)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, open_menu
from .test_phone_layout import fits_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_registration_is_closed_by_default_and_says_so(page, demo, screenshot):
    page.set_viewport_size(PHONE)
    page.goto("/accounts/login/")
    expect(page.locator("main")).to_contain_text("De competitieleider voegt nieuwe leden toe")
    assert page.locator("main a[href='/accounts/signup/']").count() == 0
    fits_phone(page, "/accounts/signup/", screenshot, "members-signup-closed")
    expect(page.locator("h1")).to_have_text("Registratie gesloten")
    assert page.locator("input[name=password1]").count() == 0


def test_an_open_registration_waits_for_the_leader_who_accepts_it(page, demo, sign_in, screenshot,
                                                                    settings):
    from members.models import User

    club = demo.club  # the club opens its own registration (Club.open_registration)
    club.open_registration = True
    club.save(update_fields=["open_registration"])
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    page.set_viewport_size(PHONE)
    page.goto("/accounts/login/")
    page.locator("main a[href='/accounts/signup/']").click()
    page.locator("input[name=email]").fill("yvonne@nieuw.example")
    page.locator("input[name=name]").fill("Yvonne de Haan")
    page.locator("input[name=password1]").fill("Een-lang-wachtwoord-9")
    page.locator("input[name=password2]").fill("Een-lang-wachtwoord-9")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    stranger = User.objects.get(email="yvonne@nieuw.example")
    assert stranger.registration_pending
    # Signed in, but no member: no "Mijn gegevens", no sign-up, and member pages are closed.
    page.goto("/")
    assert page.locator("[data-nav=profile]").count() == 0
    assert page.locator("header a[href='/signup/']").count() == 0
    assert page.goto("/me/").status == 403
    page.context.clear_cookies()
    sign_in("leider@demo.club")
    fits_phone(page, "/leader/", screenshot, "members-leader-registration")
    item = page.locator(f"[data-registration='{stranger.pk}']")
    expect(item).to_contain_text("Yvonne de Haan")
    item.locator("button[value=accept]").click()
    expect(page.locator(".messages")).to_contain_text("is nu lid")
    stranger.refresh_from_db()
    assert stranger.is_member and stranger.players.filter(season=demo).exists()


def test_a_player_keeps_his_details_and_sees_his_board_and_the_standings(page, demo, sign_in,
                                                                         screenshot):
    from competition.models import Evening, Player
    from members.models import User
    from pairing.services import evening_pair_and_publish

    evening = Evening.objects.filter(season=demo, kind="playing", status="open").order_by("date").first()
    evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True, now=evening.deadline)
    member = User.objects.get(email="speler1@demo.club")
    player = Player.objects.get(season=demo, member=member)
    sign_in("speler1@demo.club")
    page.set_viewport_size(PHONE)
    page.goto("/")
    open_menu(page)
    page.locator("[data-nav=profile]").click()
    page.wait_for_url(re.compile(r"/me/$"))
    fits_phone(page, "/me/", screenshot, "members-my-details")
    expect(page.locator("[data-field=email]")).to_have_text("speler1@demo.club")
    assert page.locator("a[data-link=password]").count() == 1
    page.locator("input[name=phone]").fill("06 1234 5678")
    page.locator("input[name=public_as][value=initials]").check()
    page.locator("input[name=notice_mail]").uncheck()
    page.locator("main form.stack button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Je gegevens zijn opgeslagen")
    member.refresh_from_db()
    assert (member.phone, member.public_as, member.notice_mail) == ("06 1234 5678", "initials", False)
    # His page through the menu; his board on the evening with places, points, ratings.
    open_menu(page)
    page.locator("[data-nav=my-page]").click()
    page.wait_for_url(re.compile(rf"/players/{player.pk}/$"))
    expect(page.locator("h1")).to_have_text(member.shown_name)
    fits_phone(page, f"/evenings/{evening.date.isoformat()}/", screenshot, "members-evening-own-board")
    mine = page.locator("tr[data-mine]")
    if player.games_white.filter(evening=evening).exists() or player.games_black.filter(evening=evening).exists():
        expect(mine).to_have_count(1)
        expect(mine).to_contain_text("jouw bord")  # said to a screen reader, shown by colour
    assert page.locator("td .rating").count() > 0
    # A winter evening: each player's place and points going into it.
    played = Evening.objects.filter(season=demo, kind="playing", status="published",
                                    half__kind="winter").order_by("-date").first()
    page.goto(f"/evenings/{played.date.isoformat()}/")
    expect(page.locator("[data-standing]").first).to_contain_text("punten")
    fits_phone(page, "/standings/", screenshot, "members-standings-changes")
    assert page.locator("[data-change]").count() > 0
    expect(page.locator("table.standings")).to_contain_text(member.shown_name)


def test_a_non_player_is_not_offered_sign_up_and_access_denied_names_his_own_role(page, demo, sign_in,
                                                                                  screenshot):
    sign_in("arbiter@demo.club")
    page.set_viewport_size(PHONE)
    page.goto("/")
    assert page.locator("header a[href='/signup/']").count() == 0
    page.context.clear_cookies()
    sign_in("speler1@demo.club")
    response = page.goto("/pairing/evenings/")
    assert response.status == 403
    screenshot("members-access-denied")
    text = page.locator("main").inner_text()
    assert "(speler)" in text and "wedstrijdleider, de arbiter of de beheerder" not in text
