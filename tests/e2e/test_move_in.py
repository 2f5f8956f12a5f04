"""A club moves in within one evening (issue 31), in Chromium on a 360 px phone, from an
empty club: the operator creates it, the first leader opens his invitation, chooses a
password and is signed in on his club's home with the first season's checklist; he saves
the settings, sets up the season and its calendar, brings in 40 members from the KNSB's
export (preview, confirm), last season from Sevilla's TRF file (every name and its member
in a preview, confirm, the season in the archive), moves an evening (its consequences said
first) and opens the first evening's pairing preview. Each step is printed with the
leader's clicks; screenshots in tests/e2e/screenshots/move-in-*.png. One live server."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .test_phone_layout import MEASURE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

P = "/sc-de-toren"  # the club's own address
MEMBERS = 40


def _member_list() -> str:
    """The KNSB's club member export: relation number, "Achternaam, Voornaam", rating,
    e-mail (one in five without)."""
    rows = ["Relatienummer;Naam;Rating;E-mail"]
    for i in range(1, MEMBERS + 1):
        address = "" if i % 5 == 0 else f"lid{i}@toren.example"
        rows.append(f"{8_100_000 + i};Lid{i:02d}, Jan;{2100 - 10 * i};{address}")
    return "\n".join(rows) + "\n"


def _fits(page, name: str, screenshot) -> None:
    """Screenshots, then no sideways scrolling and no table wider than its box at 360 px."""
    screenshot(name)
    page.set_viewport_size(PHONE)
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], measured["past"]
    assert not measured["wide"], measured["wide"]


def test_a_club_moves_in_within_one_evening(page, live_server, settings, screenshot, tmp_path,
                                             django_capture_on_commit_callbacks):
    from django.core import mail

    from competition.models import Evening, Game, Player, Season
    from members.clubs.context import club_context
    from members.models import User
    from members.platform.services import club_create
    from tests import factories as f
    from tests.decoy import ensure_decoy

    clicks = 0

    def step(text: str) -> None:
        print(f"[move-in] {text} (clicks so far: {clicks})")

    # 0. The operator creates the club; its first leader gets his invitation.
    ensure_decoy()
    settings.RANGLIJST_SINGLE_CLUB = False
    settings.SITE_URL = live_server.url
    operator = User.objects.create_superuser(email="operator@example.org", password="pw-schaak-123",
                                             name="Op")
    with django_capture_on_commit_callbacks(execute=True):
        club, _leader = club_create(actor=operator, name="SC De Toren", slug="sc-de-toren",
                                    leader_email="tom@toren.example", leader_name="Tom Toren",
                                    venue="Buurthuis De Toren, Markt 3")
    link = re.search(r"https?://\S+/password/reset/key/\S+", mail.outbox[0].body)[0]
    step("the operator created the club; the first leader's invitation is sent")

    # 1. The invitation: a password, signed in, the club's home with its checklist.
    page.set_viewport_size(PHONE)
    page.goto(link)
    page.locator("input[name=password1]").fill("Zet-1-wachtwoord!")
    page.locator("input[name=password2]").fill("Zet-1-wachtwoord!")
    page.locator("main form button[name=action][type=submit]").click()
    clicks += 3
    page.wait_for_url(re.compile(rf"{P}/$"))
    expect(page.locator("[data-first-steps] li")).to_have_count(4)
    expect(page.locator("[data-first-steps] li[data-done='1']")).to_have_count(0)
    _fits(page, "move-in-checklist", screenshot)
    step("password set, signed in on the club's home: the checklist, nothing done")

    # 2. The settings.
    page.locator("[data-step=settings] a").click()
    page.wait_for_url(re.compile(rf"{P}/settings/$"))
    page.locator("input[name=deadline_time]").fill("18:30")
    _fits(page, "move-in-settings", screenshot)
    page.locator("[data-club-settings] button[type=submit]").click()
    clicks += 3
    expect(page.get_by_text("De instellingen van de club zijn opgeslagen.")).to_be_visible()
    step("settings saved")

    # 3. The season and its calendar.
    page.goto(f"{P}/")
    expect(page.locator("[data-step=settings][data-done='1']")).to_have_count(1)
    page.locator("[data-step=calendar] a").click()
    opening = dt.date.today() + dt.timedelta(days=7)
    last_day = opening + dt.timedelta(days=200)
    form = page.locator("main form", has=page.locator("input[name=opening]"))
    form.locator("input[name=name]").fill(f"{opening.year}-{opening.year + 1}")
    form.locator("input[name=opening]").fill(opening.isoformat())
    form.locator("input[name=last_day]").fill(last_day.isoformat())
    form.locator("button[type=submit]").click()
    clicks += 5
    page.wait_for_url(re.compile(rf"{P}/leader/[\w-]+/$"))
    with club_context(club):
        season = Season.objects.get()
        evenings = list(season.evenings.filter(kind="playing").order_by("date"))
    assert evenings
    _fits(page, "move-in-season", screenshot)
    step(f"season {season.name} set up: {len(evenings)} playing evenings")

    # 4. The members from the KNSB's export.
    page.goto(f"{P}/leader/members/{season.slug}/import/")
    upload = tmp_path / "leden.csv"
    upload.write_text(_member_list(), encoding="utf-8")
    page.locator("input[name=file]").set_input_files(str(upload))
    page.locator("main form button[type=submit]").click()
    clicks += 2
    page.wait_for_selector("table[data-preview]")
    assert page.locator("tr[data-status=new]").count() == MEMBERS
    _fits(page, "move-in-members-preview", screenshot)
    step(f"member list read: {MEMBERS} new members in the preview")
    page.locator("button[name=save][value='1']").click()
    clicks += 1
    page.wait_for_load_state()
    with club_context(club):
        assert Player.objects.filter(season=season).count() == MEMBERS
        names = list(Player.objects.filter(season=season).order_by("start")
                     .values_list("member__name", flat=True)[:6])
    step(f"{MEMBERS} members added, their invitations queued")

    # 5. Last season from Sevilla's TRF file.
    trf = tmp_path / "vorig-seizoen.trf"
    trf.write_text(f.trf_season([*names, "Oud Lid"], evenings=8, first=dt.date(2025, 9, 5)),
                   encoding="utf-8")
    page.goto(f"{P}/leader/")
    page.locator("a[data-history-import-link]").click()
    page.locator("input[name=file]").set_input_files(str(trf))
    page.locator("main form button[type=submit]").click()
    clicks += 3
    page.wait_for_selector("table[data-matches]")
    assert page.locator("tr[data-status=matched]").count() == 6
    assert page.locator("tr[data-status=unmatched]").count() == 1
    assert "8 avonden" in page.locator("p[data-counts]").inner_text()
    _fits(page, "move-in-history-preview", screenshot)
    step("TRF read: 6 names found among the members, 1 kept as a former player")
    page.locator("button[name=save][value='1']").click()
    clicks += 1
    page.wait_for_url(re.compile(r"/archive/[\w-]+/$"))
    with club_context(club):
        assert Game.objects.filter(evening__season__name="2025").count() == 8 * 3
    assert "2025" in page.locator("h1").inner_text()
    _fits(page, "move-in-history-archive", screenshot)
    step("last season in the archive, with its standings")

    # 5b. This season's starting order from last season's final standings.
    page.goto(f"{P}/leader/members/{season.slug}/")
    page.locator("form[data-order-from-season] button").click()
    clicks += 1
    expect(page.locator("ul.messages")).to_contain_text("De startvolgorde volgt de eindstand van")
    with club_context(club):
        from competition.models import Standing

        last = Evening.objects.filter(season__name="2025").order_by("date").last()
        final = [s.player.member_id for s in Standing.objects.filter(snapshot__evening=last)
                 .order_by("rank").select_related("player")]
        order = list(season.players.order_by("start").values_list("member_id", flat=True))
    assert order[:6] == [m for m in final if m in order][:6]
    _fits(page, "move-in-order-from-last-season", screenshot)
    step("starting order taken from last season's final standings")

    # 6. The calendar: the second evening moves a day earlier.
    moved = evenings[1]
    page.goto(f"{P}/leader/evenings/{moved.pk}/move/")
    new_date = moved.date - dt.timedelta(days=1)
    page.locator("form[data-move] input[name=date]").fill(new_date.isoformat())
    page.locator("form[data-move] button[type=submit]").click()
    clicks += 2
    page.wait_for_selector("h1:has-text('verplaatsen')")
    _fits(page, "move-in-evening-move-confirmation", screenshot)
    with club_context(club):
        assert Evening.objects.get(pk=moved.pk).date == moved.date  # not yet
    page.get_by_role("button", name="Avond verplaatsen").click()
    clicks += 1
    page.wait_for_url(re.compile(r"#calendar$"))
    with club_context(club):
        assert Evening.objects.get(pk=moved.pk).date == new_date
    step("an evening moved a day earlier")

    # 7. Eight members sign up (on their own phones), and the first evening's pairing preview.
    from competition.season.services import registration_set

    with club_context(club):
        first = Evening.objects.get(pk=evenings[0].pk)
        for player in Player.objects.filter(season=season).select_related("member")[:8]:
            registration_set(actor=player.member, player=player, evenings=[first],
                             status="present")
    page.goto(f"{P}/pairing/evenings/{first.pk}/preview/")
    clicks += 1
    expect(page.locator("main")).to_contain_text("8 spelers aanwezig")
    expect(page.locator("main")).to_contain_text(names[0])
    _fits(page, "move-in-first-evening-preview", screenshot)
    step("the first evening's pairing preview")
    step("done")
