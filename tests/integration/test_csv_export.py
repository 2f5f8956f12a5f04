"""CSV exports cannot carry a spreadsheet formula (issue 12, finding 8, OWASP CSV
injection): a text cell beginning with = + - @, a tab or a carriage return is prefixed
with a single quote; numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from competition.season import services
from competition.season.standings import recalculate_season
from core.csvsafe import safe_cell
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

HOSTILE = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rReturn"]


def test_a_formula_in_a_member_name_is_neutralised_in_the_standings_csv(client):
    season = f.season(players=len(HOSTILE))
    for player, name in zip(season.players.order_by("start"), HOSTILE, strict=True):
        player.member.name = name
        player.member.save(update_fields=["name"])
    evening = f.playing_evenings(season)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    for game in evening.games.all():
        services.result_set(actor=f.arbiter(), game=game, result="1-0")
    recalculate_season(season.pk)
    response = client.get(reverse("competition:standings_half", args=[season.slug, "winter"]),
                          {"export": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header = rows[0]
    names = [row[header.index("name")] for row in rows[1:]]
    # Quoted as text; a tab or carriage return inside is a space (one line per record).
    assert sorted(names) == sorted("'" + name.replace("\t", " ").replace("\r", " ") for name in HOSTILE)


@pytest.mark.parametrize(("value", "written"), [
    ("=1+1", "'=1+1"), ("-x", "'-x"), ("Anna", "Anna"), ("", ""), (-2.3, -2.3), (5, 5),
])
def test_safe_cell_quotes_formula_text_and_leaves_numbers(value, written):
    assert safe_cell(value) == written
