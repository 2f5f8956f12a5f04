"""Issue 32: the Swiss arbiter's page keeps a board to its three results, the forfeits
folded under "meer" as the Keizer evening does (open when a forfeit is recorded); its
counts are said in the number they count ("0 of 1 round"); its title wraps by words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from competition.events import services as swiss
from competition.models import RoundStatus, SwissGame
from tests.integration.test_swiss_pages import blitz_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def _boards(html: str) -> list[str]:
    return re.findall(r'<div class="card" id="board-\d+">(.*?)</div>', html, re.S)


def test_each_board_shows_three_results_and_folds_the_forfeits(client):
    event, _leader, arbiter = blitz_event(4)
    client.force_login(arbiter)
    html = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    boards = _boards(html)
    assert boards
    for board in boards:
        outside = re.sub(r"<details.*?</details>", "", board, flags=re.S)
        assert len(re.findall(r'<button type="submit" name="result"', outside)) == 3
        folded = re.search(r"<details data-forfeits>(.*?)</details>", board, re.S).group(1)
        assert "<summary>more</summary>" in folded
        assert len(re.findall(r'name="result" value="[^"]*F"', folded)) == 3


def test_a_recorded_forfeit_shows_its_fold_open(client):
    event, _leader, arbiter = blitz_event(4)
    game = (SwissGame.objects.filter(round__event=event, round__status=RoundStatus.PAIRED,
                                     black__isnull=False).order_by("board").first())
    swiss.game_result_set(actor=arbiter, game=game, white_points=1, black_points=0, forfeit=True,
                          expected_version=game.version)
    client.force_login(arbiter)
    html = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    board = html[html.index(f'id="board-{game.board}"'):]
    assert "<details data-forfeits open>" in board[:board.index("</div>")]


def test_the_counts_agree_with_their_numbers(client):
    event, _leader, arbiter = blitz_event(2, finished_rounds=0, live=False)
    swiss.event_set_rounds(actor=arbiter, event=event, rounds=1)
    client.force_login(arbiter)
    html = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    assert "0 of 1 round finished" in html and "1 rounds" not in html


def test_titles_wrap_by_words_with_hyphens():
    css = (Path(settings.BASE_DIR) / "static/css/site.css").read_text()
    assert re.search(r"h1 \{[^}]*hyphens: auto", css)
