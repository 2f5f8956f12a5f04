"""A visitor reads the standings and a player's page (docs/rules.md 9 and 10)."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def number(text: str) -> float:
    """A number as the page shows it, in either locale ('434,99' or '434.99')."""
    return float(text.strip().replace("\u2212", "-").replace(",", "."))


def test_visitor_sees_eight_rows_and_all_thirty_on_request(page, demo):
    page.goto("/standings/")
    rows = page.locator("main .table-wrap table tbody tr")
    expect(rows).to_have_count(8)
    # The place, then (on a later evening) its change since the evening before: "3 ▲1".
    ranks = [int(t.split()[0]) for t in rows.locator("td:first-child").all_inner_texts()]
    assert ranks == list(range(1, 9))

    page.locator("main a[href='?all=1']").click()
    expect(page).to_have_url(re.compile(r"\?all=1$"))
    expect(rows).to_have_count(30)


def test_player_page_explains_the_total_and_charts_the_places(page, demo):
    page.goto("/standings/")
    first = page.locator("main .table-wrap table tbody tr").first.locator("a[href^='/players/']")
    name = first.inner_text()
    first.click()
    expect(page).to_have_url(re.compile(r"/players/\d+/$"))
    expect(page.locator("h1")).to_have_text(name)

    table = page.locator("table.explanation").first
    points = [number(t) for t in table.locator("tbody tr td:last-child").all_inner_texts()]
    footer_total = number(table.locator("tfoot th.num").inner_text())
    shown_total = number(page.locator("main p strong").first.inner_text())
    assert points, "the explanation lists the evenings"
    assert footer_total == shown_total
    # Each line and the total are rounded to cents separately (docs/rules.md 4.1).
    assert sum(points) == pytest.approx(shown_total, abs=0.005 * len(points) + 1e-9)

    chart = page.locator("main svg.chart")
    expect(chart).to_have_count(1)
    expect(chart.locator("> title")).not_to_be_empty()
    assert chart.get_attribute("role") == "img"
    # One point per evening after which he had a place.
    assert chart.locator("circle").count() == len(points)


def test_printed_standings_of_all_thirty_fit_one_a4_page(page, demo):
    """The notice board: the print layout of the full standings is one A4 page."""
    page.goto("/standings/?all=1")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    assert pages == 1
    assert page.locator("table.standings tbody tr").count() == 30
    assert not page.locator("header.site").is_visible()
