"""A Swiss event's cross table and player cards (issue 15): a row per player in standings
order with, per round, the opponent's place, the colour and the result; a card per player
with the running score and the tie-breaks; names linking to the card; in Dutch; a query
count that does not grow with the field."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from competition.events import selectors as sel
from competition.events import services as swiss
from competition.models import SwissGame
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

# Board 1 won by white, board 2 drawn, board 3 a forfeit won by black, the rest won by black.
RESULTS = {1: (1, 0, False), 2: (Decimal("0.5"), Decimal("0.5"), False), 3: (0, 1, True)}


def blitz(players: int, rounds: int = 3):
    leader, arbiter = f.leader(), f.arbiter()
    season = f.season(players=0)
    event = swiss.event_create(actor=leader, season=season, kind="blitz", name=f"Blitz {players}",
                               date=dt.date(2027, 6, 11))
    for i in range(players):
        swiss.entrant_add(actor=leader, event=event, member=f.member(name=f"Blitzer {i + 1:02d}",
                                                                     rating=2000 - 10 * i))
    for _ in range(rounds):
        rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
        for game in rnd.games.filter(black__isnull=False).order_by("board"):
            white, black, forfeit = RESULTS.get(game.board, (0, 1, False))
            swiss.game_result_set(actor=arbiter, game=game, white_points=white, black_points=black,
                                  forfeit=forfeit, expected_version=game.version)
        swiss.round_finish(actor=arbiter, round=rnd)
    return event


@pytest.fixture
def nl() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="nl")


@pytest.fixture
def event():
    return blitz(7)


def wide_row(html: str, number: int) -> str:
    table = html.split('id="crosstable"', 1)[1].split("</table>", 1)[0]
    return re.search(rf'<tr data-number="{number}">(.*?)</tr>', table, re.S).group(1)


def test_cross_table_rows_follow_the_standings_and_link_to_the_cards(event, nl):
    html = nl.get(reverse("events:crosstable", args=[event.pk])).content.decode()
    assert "<h1>Kruistabel · Blitz 7</h1>" in html
    rows = sel.event_standings(event)
    table = html.split('id="crosstable"', 1)[1].split("</table>", 1)[0]
    assert [int(n) for n in re.findall(r'<tr data-number="(\d+)">', table)] == [
        r.entrant.number for r in rows]
    for r in rows:
        assert (f'<a href="{reverse("events:card", args=[event.pk, r.entrant.number])}">'
                f'{r.entrant.member.name}</a>') in html


def test_cross_table_cell_is_opponent_place_result_and_colour(event, nl):
    html = nl.get(reverse("events:crosstable", args=[event.pk])).content.decode()
    order = [r.entrant.number for r in sel.event_standings(event)]
    place = {n: i for i, n in enumerate(order, start=1)}
    for game in SwissGame.objects.filter(round__event=event, round__number=1).select_related(
            "white", "black"):
        if game.black_id is None:  # the bye: "B 1"
            assert '<span class="res res-bye">B 1</span>' in wide_row(html, game.white.number)
            continue
        white_cells = re.findall(r'<td class="xt-cell">(.*?)</td>', wide_row(html, game.white.number), re.S)
        black_cells = re.findall(r'<td class="xt-cell">(.*?)</td>', wide_row(html, game.black.number), re.S)
        assert white_cells[0].startswith(f'<span class="small">{place[game.black.number]}</span>')
        assert black_cells[0].startswith(f'<span class="small">{place[game.white.number]}</span>')
        assert '<span class="clr clr-w">w</span>' in white_cells[0]
        assert '<span class="clr clr-b">z</span>' in black_cells[0]
        if game.board == 2:
            assert '<span class="res res-draw">½' in white_cells[0]
        if game.board == 3:
            assert '<span class="res res-forfeit_loss">−' in white_cells[0]
            assert '<span class="res res-forfeit_win">+' in black_cells[0]


def test_cross_table_legend_explains_de_and_the_letters_in_dutch(event, nl):
    html = nl.get(reverse("events:crosstable", args=[event.pk])).content.decode()
    legend = html.split("data-legend", 1)[1].split("</dl>", 1)[0]
    assert "lager is beter" in legend
    assert "met wit, met zwart gespeeld" in legend
    assert "reglementaire winst, reglementair verlies" in legend


def test_player_card_lists_rounds_with_colour_result_and_running_score(event, nl):
    rows = sel.event_standings(event)
    top = rows[0]
    html = nl.get(reverse("events:card", args=[event.pk, top.entrant.number])).content.decode()
    assert f"<h1>{top.entrant.member.name}</h1>" in html
    card = html.split('id="card"', 1)[1].split("</table>", 1)[0]
    lines = re.findall(r"<tr><td class=\"num\">.*?</tr>", card, re.S)
    assert len(lines) == 3
    running = Fraction(0)
    t = sel.event_tournament(event)
    for line, result in zip(lines, t.entrant(top.entrant.number).results, strict=True):
        running += result.points
        assert line.removesuffix("</tr>").endswith(f'<td class="num">{sel.points_text(running)}</td>')
        if result.opponent:
            assert reverse("events:card", args=[event.pk, result.opponent]) in line
            assert ('<td class="hide-sm">wit</td>' if result.colour == "w"
                    else '<td class="hide-sm">zwart</td>') in line
    summary = html.split('id="summary"', 1)[1].split("</dl>", 1)[0]
    assert f"<dt>Punten</dt><dd><strong>{top.points_text}</strong></dd>" in summary
    for code, value in top.tiebreaks:  # tie-breaks with a decimal comma, never ½ (issue 23)
        assert f"<dt>{code}</dt><dd>{sel.tiebreak_text(value)}</dd>" in summary


def test_de_is_shown_only_when_it_means_something(nl):
    event = blitz(4, rounds=1)  # two winners and two losers: level in pairs, DE decides
    rows = sel.event_standings(event)
    for r in rows:
        html = nl.get(reverse("events:card", args=[event.pk, r.entrant.number])).content.decode()
        summary = html.split('id="summary"', 1)[1].split("</dl>", 1)[0]
        assert ("<dt>DE</dt>" in summary) == (r.de is not None)
    empty = blitz(4, rounds=0)
    html = nl.get(reverse("events:card", args=[empty.pk, 1])).content.decode()
    assert "<dt>DE</dt>" not in html.split('id="summary"', 1)[1].split("</dl>", 1)[0]
    assert "Er is nog geen ronde afgelopen." in html


def test_cross_table_before_a_round_says_so(nl):
    event = blitz(4, rounds=0)
    html = nl.get(reverse("events:crosstable", args=[event.pk])).content.decode()
    assert "Er is nog geen ronde afgelopen." in html and 'id="crosstable"' not in html


def test_event_page_links_the_cross_table_and_each_card(event, nl):
    html = nl.get(reverse("events:event", args=[event.pk])).content.decode()
    assert f'href="{reverse("events:crosstable", args=[event.pk])}"' in html
    for entrant in event.entrants.all():
        assert f'href="{reverse("events:card", args=[event.pk, entrant.number])}"' in html


def test_card_of_an_unknown_number_is_404(event, nl):
    assert nl.get(reverse("events:card", args=[event.pk, 99])).status_code == 404
    assert nl.get(reverse("events:crosstable", args=[event.pk + 1000])).status_code == 404


def test_cross_table_on_a_phone_is_a_card_per_player(event, nl):
    html = nl.get(reverse("events:crosstable", args=[event.pk])).content.decode()
    phone = html.split('class="phone-only"', 1)[1]
    assert phone.count('class="card xt-card"') == 7
    assert phone.count("Ronde 1</span>") == 7


def count_queries(client, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_field_or_the_rounds(django_assert_max_num_queries):
    client = Client()
    small = blitz(6, rounds=2)
    counts = {name: count_queries(client, reverse(name, args=args))
              for name, args in (("events:crosstable", [small.pk]), ("events:card", [small.pk, 1]))}
    big = blitz(30, rounds=5)
    for name, args in (("events:crosstable", [big.pk]), ("events:card", [big.pk, 1])):
        client.get(reverse(name, args=args))
        with django_assert_max_num_queries(counts[name]):
            assert client.get(reverse(name, args=args)).status_code == 200


def test_points_are_written_with_halves_and_a_decimal_comma_in_dutch():
    from django.template import Context, Template
    from django.utils import translation

    template = Template("{% load competition_tags %}{{ a|halves }} {{ b|halves }} {{ c|halves }}")
    with translation.override("nl"):
        text = template.render(Context({"a": Fraction(7, 2), "b": Fraction(49, 4), "c": Decimal("0.5")}))
    assert text == "3½ 12,25 ½"
