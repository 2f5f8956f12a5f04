"""The leader runs the season from his own pages, in Chromium (issue 14): he adds a
newcomer on his member pages → the invitation e-mail → the newcomer sets his password,
signs in and signs up for the next evening → the deadline job pairs him. On the way, the
leader's pages are photographed at 360 px and must fit the phone (tests/e2e/screenshots/).
Also: choosing a blitz's entrants on a phone, with the filter over the checkbox list."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .test_phone_layout import fits_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEWCOMER = {"name": "Nina Nieuwkomer", "email": "nina@nieuw.example", "rating": "1640"}
NEW_PASSWORD = "Zet-1-wachtwoord!"


def next_evening(demo):
    from competition.models import Evening

    return (
        Evening.objects.filter(season=demo, kind="playing", status="open", date__gte=dt.date(2026, 11, 30))
        .order_by("date").first()
    )


def test_a_newcomer_added_by_the_leader_is_invited_signs_up_and_is_paired_by_the_deadline_job(
    browser, live_server, page, demo, sign_in, screenshot, monkeypatch, subtests, settings,
):
    from django.core import mail
    from django.utils import timezone

    from competition.models import Bye, Game, Player, Registration
    from competition.season import services
    from pairing.tasks import close_due_evenings

    # The club's language, which the invitation is written in (the tests run in English).
    club = demo.club
    club.language = "nl"
    club.save(update_fields=["language"])
    evening = next_evening(demo)
    now = timezone.now()
    asker = demo.players.filter(kind="flexible").select_related("member").order_by("start").first()
    services.club_duty_request(actor=asker.member, player=asker, evening=evening, now=now)

    # The leader: his to-do names the club duty request; he adds the newcomer.
    sign_in("leider@demo.club")
    with subtests.test(msg="leader-home"):
        fits_phone(page, "/leader/", screenshot, "leader-home-todo")
        todo = page.locator("#todo-club-duty").inner_text()
        assert asker.member.name in todo
    with subtests.test(msg="leader-members"):
        fits_phone(page, f"/leader/members/{demo.slug}/", screenshot, "leader-members")
    with subtests.test(msg="leader-member-form"):
        fits_phone(page, f"/leader/members/{demo.slug}/add/", screenshot, "leader-member-form")
    page.locator("input[name=name]").fill(NEWCOMER["name"])
    page.locator("input[name=email]").fill(NEWCOMER["email"])
    page.locator("input[name=rating]").fill(NEWCOMER["rating"])
    page.locator("select[name=kind]").select_option("flexible")
    page.get_by_role("button", name="Toevoegen en uitnodigen").click()
    page.wait_for_selector("ul.messages li.success")
    newcomer = Player.objects.select_related("member").get(season=demo, member__email=NEWCOMER["email"])
    assert newcomer.kind == "flexible" and not newcomer.member.has_usable_password()

    # The invitation: one e-mail to him, in Dutch, with an absolute link to this site.
    [invitation] = [m for m in mail.outbox if m.to == [NEWCOMER["email"]]]
    assert "Welkom" in invitation.subject
    link = re.search(re.escape(live_server.url) + r"/accounts/password/reset/key/\S+", invitation.body)
    assert link, invitation.body

    # The newcomer, in his own browser: sets his password, signs in, signs up.
    context = browser.new_context(viewport=PHONE, locale="nl-NL", base_url=live_server.url)
    context.set_default_timeout(10_000)
    mine = context.new_page()
    mine.goto(link[0])
    mine.locator("input[name=password1]").fill(NEW_PASSWORD)
    mine.locator("input[name=password2]").fill(NEW_PASSWORD)
    mine.get_by_role("button", name="Wachtwoord wijzigen").click()
    # Setting his password signs him in and brings him to the club's home (issue 31).
    mine.wait_for_url(re.compile(r"/$"))
    newcomer.member.refresh_from_db()
    assert newcomer.member.has_usable_password()
    expect(mine.locator("header form[action$='/logout/'] button")).to_have_count(1)
    mine.goto("/signup/")
    mine.locator(f"#ev-{evening.pk}").check()
    mine.locator("select[name=status]").select_option("present")
    mine.locator("main form button[type=submit]").click()
    mine.wait_for_selector("ul.messages li.success")
    assert Registration.objects.get(player=newcomer, evening=evening).status == "present"
    assert mine.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()

    # The leader sees him coming, on the evening page, the audit trail and the preview.
    with subtests.test(msg="leader-evening"):
        fits_phone(page, f"/pairing/evenings/{evening.pk}/", screenshot, "leader-evening")
        assert NEWCOMER["name"] in page.locator("main").inner_text()
    with subtests.test(msg="leader-audit"):
        fits_phone(page, "/leader/audit/", screenshot, "leader-audit")
        trail = page.locator("main").inner_text()
        assert f"Lars Leider voegde {NEWCOMER['name']} toe als flexibele speler" in trail
    with subtests.test(msg="leader-preview"):
        fits_phone(page, f"/pairing/evenings/{evening.pk}/preview/", screenshot, "leader-preview")
        assert NEWCOMER["name"] in page.locator("main").inner_text()

    # The deadline passes: the job pairs and publishes the evening, the newcomer with it.
    late = evening.deadline + dt.timedelta(minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: late)
    assert evening.pk in close_due_evenings()
    evening.refresh_from_db()
    assert evening.status == "published"
    paired = Game.objects.filter(evening=evening, white=newcomer).exists() or Game.objects.filter(
        evening=evening, black=newcomer).exists() or Bye.objects.filter(evening=evening, player=newcomer).exists()
    assert paired
    assert any(m.to == [NEWCOMER["email"]] and m is not invitation for m in mail.outbox)


def test_the_leader_chooses_a_blitzs_entrants_on_a_phone_with_the_filter(page, demo, sign_in, screenshot):
    from django.contrib.auth import get_user_model

    from competition.events import services as swiss
    from competition.models import SwissEvent

    leader = get_user_model().objects.get(email="leider@demo.club")
    event = swiss.event_create(actor=leader, season=demo, kind="blitz", name="Snelschaak december",
                               date=dt.date(2026, 12, 18))
    chosen = demo.players.select_related("member").order_by("start").first().member
    sign_in("leider@demo.club")
    fits_phone(page, f"/events/{event.pk}/entrants/", screenshot, "leader-event-entrants")
    rows = page.locator("#member-choices label.choice")
    total = rows.count()
    assert total > 20
    search = page.locator("#member-filter")
    assert search.is_visible()  # the script shows the filter box
    search.fill(chosen.name.upper())
    visible = page.locator("#member-choices label.choice:visible")
    assert visible.count() < total and chosen.name in visible.all_inner_texts()[0]
    visible.filter(has_text=chosen.name).locator("input[type=checkbox]").check()
    search.fill("zzz-niemand")
    # Nobody else matches; the ticked member stays in sight.
    assert page.locator("#member-choices label.choice:visible").all_inner_texts() == [
        page.locator(f"#member-choices label.choice:has-text('{chosen.name}')").inner_text()
    ]
    search.press("Enter")  # does not send the form
    assert not SwissEvent.objects.get(pk=event.pk).entrants.exists()
    page.locator("input[name=guest_name]").fill("Gijs de Gast")
    page.get_by_role("button", name="Inschrijven").click()
    page.wait_for_selector("ul.messages li.success")
    names = sorted(e.name for e in SwissEvent.objects.get(pk=event.pk).entrants.select_related("member"))
    assert names == sorted([chosen.name, "Gijs de Gast"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
