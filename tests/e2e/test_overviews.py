"""The overviews in Chromium (issue 15): the cross table and the results by evening of a
half, the pairing sheet, the postponed games, a Swiss event's cross table and a player's
card. At 360 px none scrolls sideways (the wide matrices become a card per player), from
a desktop width on the full matrix shows, and on paper the matrices take A4 landscape.
Screenshots at 360 px and desktop width land in tests/e2e/screenshots/."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .test_phone_layout import fits_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

A4_LONG, A4_SHORT = 842, 595  # points


def blitz(season, players: int = 9, rounds: int = 3):
    """A blitz of ``players`` members of the demo club with ``rounds`` rounds played."""
    from competition.events import services as swiss
    from members.models import User

    leader = User.objects.get(email="leider@demo.club")
    arbiter = User.objects.filter(groups__name="arbiter").first() or leader
    event = swiss.event_create(actor=leader, season=season, kind="blitz", name="Snelschaak",
                               date=dt.date(2027, 6, 11))
    for member in User.objects.filter(players__season=season).order_by("-rating")[:players]:
        swiss.entrant_add(actor=leader, event=event, member=member)
    for n in range(rounds):
        rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
        for game in rnd.games.filter(black__isnull=False).order_by("board"):
            white, black = [(1, 0), ("0.5", "0.5"), (0, 1)][(game.board + n) % 3]
            swiss.game_result_set(actor=arbiter, game=game, white_points=white, black_points=black,
                                  expected_version=game.version)
        swiss.round_finish(actor=arbiter, round=rnd)
    return event


def overview_paths(season, event) -> dict[str, str]:
    evening = season.evenings.filter(status="published").order_by("-date").first()
    first = event.entrants.order_by("number").first()
    return {
        "overview-crosstable": f"/standings/{season.slug}/winter/crosstable/",
        "overview-matrix": f"/standings/{season.slug}/winter/evenings/",
        "overview-sheet": f"/evenings/{evening.date.isoformat()}/sheet/",
        "overview-postponed": f"/postponed/?season={season.slug}",
        "overview-event-crosstable": f"/events/{event.pk}/crosstable/",
        "overview-event-card": f"/events/{event.pk}/players/{first.number}/",
    }


def test_overviews_fit_a_phone_and_show_the_matrix_on_a_desktop(page, demo, screenshot, subtests):
    event = blitz(demo)
    for name, path in overview_paths(demo, event).items():
        with subtests.test(msg=name):
            fits_phone(page, path, screenshot, name)
            wide = page.locator("main .wide-only")
            if wide.count():
                # The phone reads cards; the desktop the full matrix.
                expect(wide.first).to_be_hidden()
                expect(page.locator("main .phone-only").first).to_be_visible()
                page.set_viewport_size(DESKTOP)
                expect(wide.first).to_be_visible()
                expect(page.locator("main .phone-only").first).to_be_hidden()
                page.set_viewport_size(PHONE)


def test_the_matrices_print_on_a4_landscape_in_full(page, demo):
    for path in (f"/standings/{demo.slug}/winter/crosstable/", f"/standings/{demo.slug}/winter/evenings/"):
        page.set_viewport_size(PHONE)  # even from a phone, paper gets the full matrix
        page.goto(path)
        page.emulate_media(media="print")
        expect(page.locator("main table.xt")).to_be_visible()
        expect(page.locator("main .phone-only")).to_be_hidden()
        pdf = page.pdf(prefer_css_page_size=True)
        boxes = {tuple(round(float(x)) for x in box.split()[2:4])
                 for box in re.findall(rb"/MediaBox \[([^\]]+)\]", pdf)
                 for box in [box.decode()]}
        assert boxes == {(A4_LONG, A4_SHORT)}, f"{path}: pages of {boxes}"
        page.emulate_media(media="screen")


def test_the_print_link_opens_the_print_dialog_without_inline_script(page, demo):
    page.goto(f"/standings/{demo.slug}/winter/crosstable/")
    page.evaluate("window.print = () => { document.body.dataset.printed = '1'; }")
    # The link reloads the page with ?print=1; print.js then calls print on load.
    page.add_init_script("window.print = () => { document.body.dataset.printed = '1'; }")
    page.locator("main a[data-print]").first.click()
    expect(page).to_have_url(re.compile(r"\?print=1$"))
    expect(page.locator("body")).to_have_attribute("data-printed", "1")
