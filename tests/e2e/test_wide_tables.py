"""Issue 32: the demo's 30-player cross table needs about 1445 px. At 1280 px it scrolls
sideways inside its own box, with the names and the totals kept in sight (sticky); the
page itself never scrolls sideways, at 1280 px nor at 360 px. Screenshots of both widths
land in tests/e2e/screenshots/."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MEASURE = """() => {
  const wrap = document.querySelector('main .xt-wrap');
  const box = wrap.getBoundingClientRect();
  const rect = sel => { const el = wrap.querySelector(sel), r = el.getBoundingClientRect();
                        return {left: r.left, right: r.right,
                                clipped: el.scrollWidth > el.clientWidth + 0.5}; };
  const heads = wrap.querySelectorAll('thead th');
  const lastColumn = heads[heads.length - 3].getBoundingClientRect();
  return {page: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
          box: {left: box.left, right: box.right}, scrolls: wrap.scrollWidth > wrap.clientWidth,
          overflow: getComputedStyle(wrap).overflowX, name: rect('thead th.xt-name'),
          total: rect('thead th.xt-pts'), games: rect('thead th.xt-games'),
          lastColumn: {left: lastColumn.left, right: lastColumn.right}};
}"""


def _inside(inner: dict, box: dict) -> bool:
    return inner["left"] >= box["left"] - 0.5 and inner["right"] <= box["right"] + 0.5


def _kept(measured: dict) -> None:
    """Names and both totals in the box, the totals side by side, none cut off."""
    for kept in ("name", "total", "games"):
        assert _inside(measured[kept], measured["box"]), (kept, measured)
        assert not measured[kept]["clipped"], (kept, measured)
    assert measured["total"]["right"] <= measured["games"]["left"] + 1, measured
    assert measured["name"]["right"] <= measured["total"]["left"], measured


def test_the_30_player_cross_table_scrolls_in_its_box_with_names_and_totals_kept(page, demo, screenshot):
    assert demo.players.count() == 30
    page.set_viewport_size(DESKTOP)
    page.goto(f"/standings/{demo.slug}/winter/crosstable/")
    screenshot("wide-crosstable")
    page.set_viewport_size(DESKTOP)
    before = page.evaluate(MEASURE)
    assert before["page"] <= before["client"], before  # no page-level sideways scroll
    assert _inside(before["box"], {"left": 0, "right": DESKTOP["width"]}), before
    # The matrix is wider than its box: its box scrolls; names and totals are in sight.
    assert before["scrolls"] and before["overflow"] in ("auto", "scroll"), before
    _kept(before)
    # Scrolled to its end: column 30 shows, the names and the totals stayed.
    page.evaluate("() => { const w = document.querySelector('main .xt-wrap'); w.scrollLeft = w.scrollWidth; }")
    after = page.evaluate(MEASURE)
    assert _inside(after["lastColumn"], after["box"]), after
    assert after["lastColumn"]["right"] <= after["total"]["left"] + 0.5, after
    _kept(after)
    for kept in ("name", "total"):  # sticky: where they were (to a pixel's rounding)
        assert abs(after[kept]["left"] - before[kept]["left"]) <= 1, (kept, before, after)
    # On a phone: a card per player, and the page does not scroll sideways either.
    page.set_viewport_size(PHONE)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
