"""Consequences before they happen, in Chromium (issue 14): the late sign-off warning and
its confirmation, the dialog before publishing early, and the leader's evening page at
phone width (screenshots in tests/e2e/screenshots/)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from .test_phone_layout import fits_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def next_evening(demo):
    from competition.models import Evening

    return (
        Evening.objects.filter(season=demo, kind="playing", status="open", date__gte=dt.date(2026, 11, 30))
        .order_by("date").first()
    )


def test_a_late_sign_off_warns_first_and_is_saved_only_when_confirmed(
    page, demo, sign_in, screenshot, monkeypatch
):
    from django.utils import timezone

    from competition.models import Registration

    evening = next_evening(demo)
    me = demo.players.filter(kind="fixed").select_related("member").order_by("start").first()
    Registration.objects.filter(player=me, evening=evening).delete()  # present by default
    sign_in(me.member.email)
    late = evening.deadline + dt.timedelta(hours=1)
    monkeypatch.setattr(timezone, "now", lambda: late)

    page.goto("/signup/")
    page.locator(f"#ev-{evening.pk}").check()
    page.locator("select[name=status]").select_option("absent_with_notice")
    page.locator("main form button[type=submit]").click()
    page.wait_for_selector("h1:has-text('Afmelden na de sluitingstijd')")
    warning = page.locator(f"[data-late-evening='{evening.pk}']").inner_text()
    assert "telt als afwezig zonder bericht" in warning
    assert "Dat levert 0 punten op voor die avond." in warning
    assert re.search(r"hooguit \d+ keer", warning)
    assert not Registration.objects.filter(player=me, evening=evening).exists()
    screenshot("late-sign-off-warning")
    from .conftest import PHONE

    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_role("button", name="Toch afmelden").click()
    page.wait_for_url(re.compile(r"/signup/$"))
    assert Registration.objects.get(player=me, evening=evening).status == "absent_without_notice"
    assert "afwezig zonder bericht" in page.locator("ul.messages").inner_text()


def test_publishing_early_asks_in_a_dialog_first(page, demo, sign_in, screenshot):
    from competition.models import Evening

    evening = next_evening(demo)
    sign_in("leider@demo.club")
    page.goto(f"/pairing/evenings/{evening.pk}/")
    publish = page.get_by_role("button", name="Nu indelen en publiceren")

    publish.click()  # cancelled: nothing happens
    dialog = page.locator("dialog#confirm-dialog")
    assert dialog.is_visible()
    assert "spelers zijn aanwezig" in dialog.inner_text()
    assert "De sluitingstijd is nog niet voorbij" in dialog.inner_text()
    screenshot("publish-early-dialog")
    dialog.get_by_role("button", name="Annuleren").click()
    assert not dialog.is_visible()
    assert Evening.objects.get(pk=evening.pk).status == "open"

    publish.click()
    dialog.get_by_role("button", name="Ja, doorgaan").click()
    page.wait_for_selector("table.pairings tbody tr#board-1")
    assert Evening.objects.get(pk=evening.pk).status == "published"


def test_the_leaders_evening_pages_fit_a_phone(page, demo, sign_in, screenshot, subtests):
    evening = next_evening(demo)
    player = demo.players.order_by("start").first()
    sign_in("leider@demo.club")
    pages = {
        "leader-evening": f"/pairing/evenings/{evening.pk}/",
        "leader-player-evenings": f"/pairing/evenings/{evening.pk}/players/{player.pk}/",
    }
    for name, path in pages.items():
        with subtests.test(msg=name):
            fits_phone(page, path, screenshot, name)


def test_the_leader_changes_several_players_at_once_on_a_phone(page, demo, sign_in):
    from competition.models import Registration

    from .conftest import PHONE

    evening = next_evening(demo)
    chosen = list(demo.players.order_by("start")[:2])
    sign_in("leider@demo.club")
    page.set_viewport_size(PHONE)
    page.goto(f"/pairing/evenings/{evening.pk}/")
    for p in chosen:
        page.locator(f"#pick-{p.pk}").check()
    page.locator("#bulk-status").select_option("club_duty")
    page.get_by_role("button", name="Opslaan voor de gekozen spelers").click()
    page.wait_for_selector("ul.messages")
    statuses = set(
        Registration.objects.filter(evening=evening, player__in=chosen).values_list("status", flat=True)
    )
    assert statuses == {"club_duty"}


def test_the_leader_changes_the_deadline_setting_on_a_phone(page, demo, sign_in, screenshot):
    """On his season page at 360 px: the confirmation lists the open evenings' deadlines
    before → after, offers to move or keep them, and the page then says what moved."""
    from competition.models import Evening

    from .conftest import PHONE

    evening = next_evening(demo)
    sign_in("leider@demo.club")
    page.set_viewport_size(PHONE)
    page.goto(f"/leader/{demo.slug}/#deadline")
    page.locator("input[name=days_before]").fill("2")
    page.locator("input[name=time]").fill("20:00")
    page.locator("form:has(input[name=days_before]) button[type=submit]").click()
    page.wait_for_selector("h1:has-text('deadline')")
    text = page.locator("ul.consequences").inner_text()
    assert "2 dagen voor de avond om 20:00" in text and "→" in text
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot("deadline-setting-confirm")
    assert Evening.objects.get(pk=evening.pk).deadline == evening.deadline  # not yet
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Wijzigen en deze deadlines verschuiven").click()
    page.wait_for_selector("ul.messages")
    assert "deadlines verschoven" in page.locator("ul.messages").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot("deadline-setting-moved")
    assert Evening.objects.get(pk=evening.pk).deadline != evening.deadline
