"""The notice board's overviews of a half (issue 15): the cross table, the results by
evening, the pairing sheet of an evening and the postponed games still to play. Their
content in Dutch, their colours and legends, their addresses, and a query count that does
not grow with the number of players or evenings."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from competition.models import Evening, Game, Result, Tempo
from competition.season import services
from competition.season.standings import recalculate_season
from pairing.services import tempo_decide, tempo_request
from tests import factories as f
from tests.integration.test_page_queries import build_club, wipe
from tests.transactions import rolled_back

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]

TODAY = dt.date(2026, 11, 30)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def club(django_db_setup, django_db_blocker):
    """A club of 10 (five evenings played with every kind of result, the sixth paired),
    with an approved tempo exception on the sixth evening; built once per module."""
    with django_db_blocker.unblock(), rolled_back():
        season, _member = build_club(10)
        upcoming = season.evenings.filter(status="published").order_by("date").last()
        game = upcoming.games.order_by("board").first()
        tempo_request(actor=game.white.member, game=game, opponent_agrees=True,
                      now=upcoming.starts_at - dt.timedelta(days=1))
        game.refresh_from_db()
        tempo_decide(actor=f.leader(), game=game, approve=True)
        # The other boards of that evening: a forfeit and a postponed game.
        arbiter = f.arbiter()
        for board, result in ((2, Result.BLACK_FORFEIT_WIN), (3, Result.POSTPONED)):
            services.result_set(actor=arbiter, game=upcoming.games.get(board=board), result=result)
        recalculate_season(season.pk, TODAY)
        yield season


@pytest.fixture
def nl() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="nl")


def row_html(html: str, player_id: int, table_id: str) -> str:
    """The row of a player in the wide table ``table_id``."""
    table = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    return re.search(rf'<tr data-player="{player_id}">(.*?)</tr>', table, re.S).group(1)


def card_html(html: str, player_id: int) -> str:
    """A player's card in the phone's list."""
    phone = html.split('class="phone-only"', 1)[1]
    return re.search(rf'<section class="card xt-card" data-player="{player_id}">(.*?)</section>',
                     phone, re.S).group(1)


def played_game(season, result: str) -> Game:
    return (Game.objects.filter(evening__season=season, result=result)
            .select_related("evening", "white__member", "black__member").order_by("evening__date", "board")
            .first())


# --- The cross table ---------------------------------------------------------------------


def test_cross_table_shows_a_game_from_both_sides_with_its_colour_in_dutch(club, nl):
    game = played_game(club, Result.WHITE_WINS)
    html = nl.get(f"/standings/{club.slug}/winter/crosstable/").content.decode()
    assert "<h1>Kruistabel · winterhelft" in html
    white, black = row_html(html, game.white_id, "crosstable"), row_html(html, game.black_id, "crosstable")
    assert '<span class="res res-win"' in white and '1<span class="clr clr-w">w</span>' in white
    assert '<span class="res res-loss"' in black and '0<span class="clr clr-b">z</span>' in black


def test_cross_table_marks_forfeits_and_postponed_games(club, nl):
    forfeit = played_game(club, Result.BLACK_FORFEIT_WIN)
    postponed = played_game(club, Result.POSTPONED)
    html = nl.get(f"/standings/{club.slug}/winter/crosstable/").content.decode()
    assert '−<span class="clr clr-w">w</span>' in row_html(html, forfeit.white_id, "crosstable")
    assert '+<span class="clr clr-b">z</span>' in row_html(html, forfeit.black_id, "crosstable")
    assert 'res-postponed' in row_html(html, postponed.white_id, "crosstable")
    assert 'U<span class="clr clr-w">w</span>' in row_html(html, postponed.white_id, "crosstable")


def test_cross_table_is_in_standings_order_with_the_diagonal_shaded(club, nl):
    html = nl.get(f"/standings/{club.slug}/winter/crosstable/").content.decode()
    snapshot = club.halves.get(kind="winter").snapshots.order_by("-evening__date").first()
    order = list(snapshot.rows.order_by("rank").values_list("player_id", flat=True))
    table = html.split('id="crosstable"', 1)[1].split("</table>", 1)[0]
    assert [int(p) for p in re.findall(r'<tr data-player="(\d+)">', table)] == order
    assert table.count('class="xt-self"') == len(order)
    for place, player in enumerate(order, start=1):  # the shaded cell is the own column
        cells = re.findall(r"<td class=\"(xt-self|xt-cell)\"", row_html(html, player, "crosstable"))
        assert cells.index("xt-self") == place - 1


def test_cross_table_on_a_phone_is_a_card_per_player_with_his_opponents(club, nl):
    game = played_game(club, Result.DRAW)
    html = nl.get(f"/standings/{club.slug}/winter/crosstable/").content.decode()
    card = card_html(html, game.white_id)
    assert game.black.member.name in card
    assert '½<span class="clr clr-w">w</span>' in card
    assert game.evening.date.strftime("%-d") in card


def test_cross_table_legend_in_dutch(club, nl):
    html = nl.get(f"/standings/{club.slug}/winter/crosstable/").content.decode()
    legend = html.split("data-legend", 1)[1].split("</dl>", 1)[0]
    for words in ("gewonnen, remise, verloren", "reglementaire winst, reglementair verlies",
                  "uitgesteld, nog te spelen", "met wit, met zwart"):
        assert words in legend


def test_cross_table_totals_use_a_decimal_comma(club, nl):
    html = nl.get(f"/standings/{club.slug}/winter/crosstable/").content.decode()
    snapshot = club.halves.get(kind="winter").snapshots.order_by("-evening__date").first()
    top = snapshot.rows.get(rank=1)
    assert f"{top.score:.2f}".replace(".", ",") in row_html(html, top.player_id, "crosstable")


# --- The results by evening ----------------------------------------------------------------


def latest_rows(season):
    snapshot = season.halves.get(kind="winter").snapshots.order_by("-evening__date").first()
    return list(snapshot.rows.order_by("rank"))


def test_matrix_shows_what_happened_each_evening_and_the_points(club, nl):
    html = nl.get(f"/standings/{club.slug}/winter/evenings/").content.decode()
    assert "<h1>Uitslagen per avond · winterhelft" in html
    for row in latest_rows(club):
        cells = re.findall(r'<td class="mx-cell">(.*?)</td>', row_html(html, row.player_id, "matrix"), re.S)
        lines = [line for line in row.lines() if line["date"]]
        assert len(cells) == 6  # the six evenings with results
        for line, cell in zip(sorted(lines, key=lambda x: x["date"]), [c for c in cells if "res-" in c],
                              strict=True):
            assert f"res-{line['outcome']}" in cell
            assert line["points"].replace(".", ",") in cell


def test_matrix_codes_are_dutch_and_explained(club, nl):
    html = nl.get(f"/standings/{club.slug}/winter/evenings/").content.decode()
    legend = html.split("data-legend", 1)[1].split("</dl>", 1)[0]
    for code, words in (("W", "winst"), ("R", "remise"), ("V", "verlies"), ("AM", "afwezig met bericht"),
                        ("AZ", "afwezig zonder bericht"), ("CV", "clubverplichting"),
                        ("U", "uitgesteld")):
        assert f"<dt>{code}</dt><dd>{words}</dd>" in legend
    assert 'res-absent_with_notice">AM' in html and 'res-club_duty">CV' in html


def test_matrix_columns_are_the_rounds_of_the_half_linking_to_the_evening(club, nl):
    html = nl.get(f"/standings/{club.slug}/winter/evenings/").content.decode()
    evenings = list(club.evenings.filter(kind="playing", half__kind="winter").order_by("date")[:6])
    for number, evening in enumerate(evenings, start=1):
        assert f'<a href="/evenings/{evening.date.isoformat()}/">{number}</a>' in html


def test_matrix_on_a_phone_lists_each_evening_in_words(club, nl):
    row = latest_rows(club)[0]
    html = nl.get(f"/standings/{club.slug}/winter/evenings/").content.decode()
    card = card_html(html, row.player_id)
    outcomes = {"win": "winst", "draw": "remise", "loss": "verlies", "bye": "vrij (bye)",
                "absent_with_notice": "afwezig met bericht", "club_duty": "clubverplichting",
                "absent_without_notice": "afwezig zonder bericht", "postponed": "uitgesteld",
                "forfeit_win": "reglementaire winst", "forfeit_loss": "reglementair verlies"}
    for line in row.lines():
        assert outcomes[line["outcome"]] in card


def test_overviews_of_an_unknown_half_or_season_are_404(club, nl):
    assert nl.get(f"/standings/{club.slug}/spring/crosstable/").status_code == 404
    assert nl.get("/standings/no-such-season/winter/evenings/").status_code == 404


def test_a_half_without_evenings_says_so(club, nl):
    html = nl.get(f"/standings/{club.slug}/summer/crosstable/").content.decode()
    assert "Er is in deze helft nog geen avond gespeeld." in html
    html = nl.get(f"/standings/{club.slug}/summer/evenings/").content.decode()
    assert "Er is in deze helft nog geen avond gespeeld." in html


def test_the_wide_overviews_print_on_a4_landscape(club, nl):
    css = (ROOT / "static/css/print.css").read_text()
    assert re.search(r"@page landscape \{ size: A4 landscape;", css)
    assert "body:has(.print-landscape) { page: landscape; }" in css
    for path in (f"/standings/{club.slug}/winter/crosstable/", f"/standings/{club.slug}/winter/evenings/"):
        html = nl.get(path).content.decode()
        assert '<div class="print-landscape">' in html
        assert '<a href="?print=1" data-print>Afdrukken</a>' in html
        assert 'src="/static/js/print.js"' in html and "<script>" not in html


# --- The pairing sheet ------------------------------------------------------------------


def test_pairing_sheet_has_club_round_date_boards_colours_tempo_and_bye(club, nl):
    evening = club.evenings.filter(status="published").order_by("date").last()
    html = nl.get(f"/evenings/{evening.date.isoformat()}/sheet/").content.decode()
    assert settings.CLUB_NAME in html
    assert "Ronde 6 · vrijdag 16 oktober 2026" in html
    table = html.split('id="sheet"', 1)[1].split("</table>", 1)[0]
    assert "<th>Wit</th><th>Zwart</th>" in table
    games = list(evening.games.select_related("white__member", "black__member").order_by("board"))
    rows = re.findall(r"<tr><td class=\"num\"><strong>(\d+)</strong></td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>",
                      table, re.S)
    assert [(int(b), ) for b, _w, _z in rows] == [(g.board, ) for g in games]
    for (_b, white, black), game in zip(rows, games, strict=True):
        assert game.white.member.name in white and game.black.member.name in black
        assert ("<strong>*</strong>" in white) == (game.tempo == Tempo.APPROVED)
    assert "Goedgekeurde tempo-uitzondering: 40 zetten in 90 minuten, daarna 15 minuten" in html
    bye = getattr(evening, "bye", None)
    if bye:
        assert f"Vrij (bye): <strong>{bye.player.member.name}</strong>" in html


def test_pairing_sheet_round_number_counts_the_playing_evenings_of_the_half(club, nl):
    evenings = list(club.evenings.filter(kind="playing", half__kind="winter").order_by("date")[:3])
    for number, evening in enumerate(evenings, start=1):
        html = nl.get(f"/evenings/{evening.date.isoformat()}/sheet/").content.decode()
        assert f"Ronde {number} · " in html


def test_pairing_sheet_before_publication_says_when_it_comes(club, nl):
    evening = club.evenings.filter(kind="playing", status="open").order_by("date").first()
    html = nl.get(f"/evenings/{evening.date.isoformat()}/sheet/").content.decode()
    assert "De indeling wordt gepubliceerd na de deadline voor aan- en afmelden" in html
    assert 'id="sheet"' not in html


def test_pairing_sheet_of_no_evening_is_404(club, nl):
    assert nl.get("/evenings/2026-11-31/sheet/").status_code == 404
    assert nl.get("/evenings/2026-11-29/sheet/").status_code == 404


# --- Postponed games ----------------------------------------------------------------------


def test_postponed_games_are_listed_with_their_date_and_age(club, nl):
    html = nl.get(f"/postponed/?season={club.slug}").content.decode()
    assert "<h1>Uitgestelde partijen" in html
    games = list(Game.objects.filter(evening__season=club, result=Result.POSTPONED)
                 .select_related("evening").order_by("evening__date", "board"))
    assert games
    listed = [int(pk) for pk in re.findall(r'<tr data-game="(\d+)">', html)]
    assert listed == [g.pk for g in games]
    first = games[0]
    assert f"{(TODAY - first.evening.date).days} dagen" in html


def test_a_postponed_game_played_leaves_the_list(club, nl):
    game = played_game(club, Result.POSTPONED)
    services.result_set(actor=f.arbiter(), game=game, result=Result.DRAW)
    html = nl.get(f"/postponed/?season={club.slug}").content.decode()
    assert f'data-game="{game.pk}"' not in html


# --- Links ------------------------------------------------------------------------------


def test_standings_evenings_and_evening_pages_link_to_the_overviews(club, nl):
    cross = f"/standings/{club.slug}/winter/crosstable/"
    matrix = f"/standings/{club.slug}/winter/evenings/"
    postponed = f"/postponed/?season={club.slug}"
    evening = club.evenings.filter(status="published").order_by("date").first()
    sheet = f"/evenings/{evening.date.isoformat()}/sheet/"
    standings = nl.get(f"/standings/{club.slug}/winter/").content.decode()
    evenings = nl.get(f"/evenings/?season={club.slug}").content.decode()
    evening_page = nl.get(f"/evenings/{evening.date.isoformat()}/").content.decode()
    for html in (standings, evenings, evening_page):
        assert f'href="{cross}"' in html and f'href="{matrix}"' in html
        assert f'href="{postponed}"'.replace("&", "&amp;") in html or f'href="{postponed}"' in html
    assert f'href="{sheet}"' in evenings and f'href="{sheet}"' in evening_page


# --- Query counts -------------------------------------------------------------------------


def overview_pages(season) -> dict[str, str]:
    evening = Evening.objects.filter(season=season, status="published").order_by("date")[2]
    return {
        "cross table": f"/standings/{season.slug}/winter/crosstable/",
        "results by evening": f"/standings/{season.slug}/winter/evenings/",
        "pairing sheet": f"/evenings/{evening.date.isoformat()}/sheet/",
        "postponed": f"/postponed/?season={season.slug}",
    }


def count_queries(client, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(ctx.captured_queries)


@pytest.mark.django_db(transaction=False)
def test_overview_query_counts_do_not_grow_with_the_club(django_db_blocker, subtests,
                                                        django_assert_max_num_queries):
    client = Client()
    season, _member = build_club(10)
    small = {name: count_queries(client, path) for name, path in overview_pages(season).items()}
    wipe()
    season, _member = build_club(100)
    for name, path in overview_pages(season).items():
        with subtests.test(msg=name):
            client.get(path)
            with django_assert_max_num_queries(small[name]):
                assert client.get(path).status_code == 200
    assert all(n <= 12 for n in small.values()), small
