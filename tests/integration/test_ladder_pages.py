"""A ladder competition shows its own columns (docs/rules.md 4.2) on the standings page, in the
CSV export and on the player page."""

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from competition.models import Standing
from competition.season.seasonio import season_import
from competition.season.tables import points_text
from tests.generate import random_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


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
    # Headers as a club writes them (issue 32), each explained in its title and the key.
    assert headers == ["Pos.", "Name", "From", "Group", "Ladder", "Score", "Games", "W−B"]
    titles = re.findall(r'<abbr title="([^"]+)">', thead)
    assert len(titles) == 7 and "starting position of the season" in titles
    legend = html[html.index("data-legend"):]
    legend = legend[:legend.index("</dl>")]
    for title in titles:
        assert title in legend
    assert "<dt>Ladder</dt>" in legend
    assert ">Value<" not in html  # a Keizer column
    first = Standing.objects.filter(snapshot__half__season=ladder).order_by(
        "-snapshot__evening__date", "rank").first()
    # Game points as the Keizer pages write them: "3½/4", not "3.5 / 4".
    assert f"{first.points}" in html and f"{points_text(first.game_points)}/{first.games}<" in html
    assert re.search(r"\d / \d", html[html.index("<tbody"):]) is None


def test_game_points_are_written_with_a_half():
    assert points_text(Decimal("6.5")) == "6½"
    assert points_text(Decimal("0.5")) == "½"
    assert points_text(Decimal("7.00")) == "7"


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
