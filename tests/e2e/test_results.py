"""The arbiter enters results on the evening page; the standings follow at once."""

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_today():
    # Mid winter half: eight evenings played, the ninth (20 November) still to be paired.
    return dt.date(2026, 11, 16)


@pytest.fixture
def paired_evening(demo, monkeypatch):
    """The next playing evening, paired and published by the deadline job; the clock then
    moves to that evening, an hour after its games began (results wait for the start)."""
    from competition.models import Evening, EveningKind
    from pairing.services import evening_pair_and_publish

    evening = (
        Evening.objects.filter(season=demo, kind=EveningKind.PLAYING, date__gt=dt.date(2026, 11, 16))
        .order_by("date")
        .first()
    )
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    evening.refresh_from_db()
    assert evening.games.count() >= 3
    from django.utils import timezone

    during = evening.starts_at + dt.timedelta(hours=1)
    monkeypatch.setattr(timezone, "now", lambda: during)
    return evening


def number(text: str) -> float:
    return float(text.strip().replace(",", "."))


def totals(page, player_ids):
    """Each player's total in the full standings (signed in: all rows are shown)."""
    page.goto("/standings/")
    after = page.locator("main p.small.muted").first.inner_text()
    got = {}
    for pid in player_ids:
        row = page.locator("main .table-wrap tbody tr").filter(
            has=page.locator(f"a[href='/players/{pid}/']")
        )
        got[pid] = number(row.locator("td").nth(2).inner_text())
    return after, got


def test_arbiter_enters_three_results_and_the_standings_change(page, demo, paired_evening, sign_in):
    games = list(paired_evening.games.order_by("board")[:3])
    entered = ["1-0", "0-1", "1/2-1/2"]
    winners = [games[0].white_id, games[1].black_id]
    losers = [games[0].black_id, games[1].white_id]
    sign_in("arbiter@demo.club")
    before_note, before = totals(page, winners + losers)

    page.goto(f"/evenings/{paired_evening.date.isoformat()}/")
    for game, result in zip(games, entered, strict=True):
        form = page.locator(f"form.results[action='/games/{game.pk}/result/']")
        form.locator(f"button[name=result][value='{result}']").click()  # one tap a board
        expect(page).to_have_url(re.compile(rf"#board-{game.board}$"))
        expect(page.locator(f"#board-{game.board} [data-result]")).to_have_attribute(
            "data-result", result
        )
        expect(
            page.locator(f"form.results[action='/games/{game.pk}/result/'] "
                         f"button[value='{result}']")
        ).to_have_attribute("aria-pressed", "true")
    # The fourth board is still open.
    expect(page.locator("#board-4 [data-result]")).to_have_attribute("data-result", "")

    after_note, after = totals(page, winners + losers)
    assert after_note != before_note, "the standings are now after the new evening"
    for pid in winners:
        assert after[pid] > before[pid]
    # A win scores the opponent's value, a loss a fixed small amount (pion preset).
    for w, lo in zip(winners, losers, strict=True):
        assert after[w] - before[w] > after[lo] - before[lo]
