"""A club's first season on a phone and a desktop, in Dutch (issue 23): nothing silently
costs points, the pages fit. Screenshots land in tests/e2e/screenshots/first-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .test_phone_layout import MEASURE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Every button and field inside the screen: none cut in half, none off to the right.
CUT = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('main button, main input, main select, main .button, main textarea')]
    .filter(el => el.offsetParent !== null)
    .filter(el => { const r = el.getBoundingClientRect(); return r.right > width + 0.5 || r.left < -0.5; })
    .map(el => (el.textContent || el.name || el.tagName).trim().slice(0, 30));
}"""


def fits(page, name, screenshot):
    screenshot(name)
    page.set_viewport_size(PHONE)
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= PHONE["width"], f"{name}: {measured['scroll']}px: {measured['past']}"
    assert not measured["wide"], f"{name}: {measured['wide']}"
    assert page.evaluate(CUT) == [], f"{name}: cut off: {page.evaluate(CUT)}"


def phone_view(page, name, selector):
    """A 360 px shot of the screen around ``selector`` (a full page is too long to read)."""
    from .conftest import SCREENSHOTS

    page.set_viewport_size(PHONE)
    page.locator(selector).first.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"{name}-view.png"))


def test_the_leaders_pages_fit_a_phone(page, demo, sign_in, screenshot, subtests):
    from competition.models import Evening, Season
    from competition.season.selectors import current_season
    from pairing.services import evening_pair_and_publish

    season = current_season() or Season.objects.order_by("-start_date").first()
    coming = Evening.objects.filter(season=season, kind="playing").exclude(status="published").order_by("date").first()
    evening_pair_and_publish(actor=None, system=True, evening_id=coming.pk, now=coming.deadline)
    sign_in("leider@demo.club")
    for name, path in (("first-leader-home", "/leader/"),
                       ("first-leader-season", f"/leader/{season.slug}/"),
                       ("first-leader-evenings", "/pairing/evenings/"),
                       ("first-leader-evening", f"/pairing/evenings/{coming.pk}/")):
        with subtests.test(msg=name):
            page.set_viewport_size(PHONE)
            page.goto(path)
            fits(page, name, screenshot)
    page.goto(f"/pairing/evenings/{coming.pk}/")
    phone_view(page, "first-leader-evening-swap", "form[action*=swap] button")
    # A correction is shown before it is saved (issue 32): its preview fits a phone too.
    page.locator("form[action*=swap-colours] button").first.click()
    page.wait_for_selector("[data-correction-preview]")
    fits(page, "first-leader-correction-preview", screenshot)
    assert page.locator("[data-changed-player]").count() == 2
    page.goto(f"/leader/{season.slug}/")
    phone_view(page, "first-leader-season-calendar", "form[id^=ev-form] button")
    # The header takes two lines on a phone, not four.
    page.set_viewport_size(PHONE)
    page.goto("/leader/")
    assert page.locator("header.site").bounding_box()["height"] <= 90


def _season():
    from competition.models import Season
    from competition.season.selectors import current_season

    return current_season() or Season.objects.order_by("-start_date").first()


def test_full_standings_show_everybody_and_every_column_at_1280_and_on_paper(page, demo, screenshot):
    page.goto("/")
    page.locator("a[href='/standings/?all=1']").first.click()
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(30)
    screenshot("first-standings-all")
    page.set_viewport_size(DESKTOP)
    wrap = page.evaluate("""() => { const t = document.querySelector('table.standings');
        return [t.parentElement.scrollWidth, t.parentElement.clientWidth]; }""")
    assert wrap[0] <= wrap[1], f"a column is cut: {wrap}"
    assert page.locator("table.standings th.club_duty, table.standings th:has-text('Clubverplichting')").count() == 1
    page.set_viewport_size(PHONE)
    page.emulate_media(media="print")
    shown = page.evaluate("""() => [...document.querySelectorAll('table.standings thead th')]
        .filter(th => getComputedStyle(th).display !== 'none').map(th => th.textContent.trim())""")
    assert "W−Z" in shown or "W−B" in shown, shown  # the legend explains it, so paper keeps it
    page.emulate_media(media="screen")


def test_the_evening_page_on_a_phone_a_long_word_and_a_readable_forfeit(page, demo, sign_in, screenshot):
    from competition.models import Evening

    evening = Evening.objects.filter(season=_season(), status="published").order_by("-date").first()
    game = evening.games.order_by("board").first()
    game.result, game.note = "1-0F", "Tegenstanderverschijntnietopdeclubavondzonderbericht" * 2
    game.save(update_fields=["result", "note"])
    sign_in("arbiter@demo.club")
    page.set_viewport_size(PHONE)
    page.goto(f"/evenings/{evening.date.isoformat()}/")
    board = page.locator(f"#board-{game.board} + tr.result-row")
    board.locator("summary").click()
    pressed = board.locator("button[aria-pressed=true]")
    expect(pressed).to_be_visible()
    colours = pressed.evaluate("b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
    assert colours[0] == "rgb(255, 255, 255)" and colours[0] != colours[1], colours
    phone_view(page, "first-evening-forfeit", f"#board-{game.board}")
    fits(page, "first-evening-long-word", screenshot)


def test_a_sixth_sign_off_is_told_before_it_is_saved(page, demo, sign_in, screenshot):
    from competition.models import Attendance, Evening, Registration
    from competition.season import services
    from competition.season.selectors import upcoming_evenings

    season = _season()
    me = season.players.select_related("member").get(member__email="speler2@demo.club")
    assert me.is_fixed
    coming = list(upcoming_evenings(season))
    done = Registration.objects.filter(player=me, status=Attendance.ABSENT_WITH_NOTICE,
                                       evening__kind="playing").count()
    need = 5 - done
    assert need <= len(coming) - 1, "the demo player has room for the test's sign-offs"
    if need > 0:
        services.registration_set(actor=me.member, player=me, evenings=coming[:need],
                                  status=Attendance.ABSENT_WITH_NOTICE)
    sixth = coming[max(need, 0)]
    sign_in("speler2@demo.club")
    page.set_viewport_size(PHONE)
    page.goto("/signup/")
    expect(page.locator("#absences-used")).to_have_attribute("data-absences-used", "5")
    page.locator(f"#ev-{sixth.pk}").check()
    page.locator("select[name=status]").select_option("absent_with_notice")
    page.locator("main form button[type=submit]").click()
    warning = page.locator(f"[data-over-limit='{sixth.pk}']")
    expect(warning).to_contain_text("levert niets op")
    fits(page, "first-sixth-sign-off", screenshot)
    assert not Registration.objects.filter(player=me, evening=sixth).exists()
    page.locator("main form button[type=submit]").click()
    expect(page.locator("ul.messages li.success")).to_have_count(1)
    assert Registration.objects.get(player=me, evening=sixth).status == Attendance.ABSENT_WITH_NOTICE
    assert Evening.objects.filter(pk=sixth.pk).exists()


def test_changing_a_result_asks_shows_the_change_and_undoes_it(page, demo, sign_in, screenshot):
    from competition.models import Evening

    evening = Evening.objects.filter(season=_season(), status="published").order_by("-date").first()
    game = evening.games.exclude(result="").order_by("board").first()
    before = game.get_result_display()
    target = "0-1" if game.result != "0-1" else "1-0"
    sign_in("arbiter@demo.club")
    page.set_viewport_size(PHONE)
    page.goto(f"/evenings/{evening.date.isoformat()}/")
    page.locator(f"#board-{game.board} + tr.result-row button[value='{target}']").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"{before} → {target}")
    dialog.locator("button[value=yes]").click()
    expect(page.locator("ul.messages li.success")).to_contain_text(f"{before} → {target}")
    undo = page.locator(f"[data-undo='{game.pk}']")
    expect(undo).to_be_visible()
    phone_view(page, "first-result-changed", f"#board-{game.board}")
    undo.click()
    expect(page.locator("ul.messages li.success")).to_contain_text(f"{target} → {before}")
    game.refresh_from_db()
    assert game.get_result_display() == before


def test_the_place_charts_labels_are_readable_on_a_phone(page, demo):
    player = _season().players.order_by("start").first()
    page.set_viewport_size(PHONE)
    page.goto(f"/players/{player.pk}/")
    label = page.locator("svg.chart text[data-evening]:not(.alt)").first
    label.scroll_into_view_if_needed()
    height = label.bounding_box()["height"]
    phone_view(page, "first-player-chart", "svg.chart")
    assert height >= 10, f"the chart's date labels are {height:.1f} px high on a phone"
