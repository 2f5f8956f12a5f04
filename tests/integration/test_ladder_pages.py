"""A ladder competition shows its own columns (docs/rules.md 4.2) on the standings page, in the
CSV export and on the player page."""

import csv
import io
import re

import pytest
from django.urls import reverse

from competition.models import Standing
from competition.season.seasonio import season_import
from competition.season.tables import short_number
from tests.generate import random_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder():
    return season_import(actor=None, system=True, data=random_season(11, players=12, evenings=6, system="ladder"),
                         name="ladder-2026")


def test_ladder_standings_show_pos_from_group_ladder_score_games_and_colours(client, ladder):
    page = client.get(reverse("competition:standings_half", args=[ladder.slug, "season"]),
                      {"all": "1"})
    html = page.content.decode()
    thead = html[html.index("<thead"):html.index("</thead>")]
    headers = [h.strip() for h in re.sub(r"<[^>]+>", "|", thead).split("|") if h.strip()]
    assert headers == ["pos", "Name", "from", "group", "ladder", "score", "games", "W/B"]
    assert ">Value<" not in html  # a Keizer column
    first = Standing.objects.filter(snapshot__half__season=ladder).order_by(
        "-snapshot__evening__date", "rank").first()
    # Game points without trailing zeros: "3.5 / 4", not "3.50 / 4".
    assert f"{first.points}" in html and f"{short_number(first.game_points)} / {first.games}" in html


def test_ladder_csv_has_the_ladder_columns(client, ladder):
    response = client.get(reverse("competition:standings_half", args=[ladder.slug, "season"]),
                          {"export": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["pos", "van", "name", "ranglijst", "score", "pairing_points",
                       "game_points", "games", "colour_balance"]
    assert len(rows) == 13


def test_ladder_player_page_explains_deltas_and_bonuses(client, ladder):
    row = Standing.objects.filter(snapshot__half__season=ladder).order_by(
        "-snapshot__evening__date", "rank").first()
    html = client.get(reverse("competition:player", args=[row.player_id])).content.decode()
    assert "Delta" in html and "Bonus" in html and "ladder points" in html
