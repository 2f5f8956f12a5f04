"""After a cycle the total shown is the average over the cycle's orders, on every page
that shows it: the stored standings of every evening, the CSV and the player's page."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse

from competition.models import Standing, StandingsSnapshot
from competition.scoring.display import round_points
from competition.scoring.keizer import compute_keizer_season
from competition.season.engine.seasonfile import dump_season, load_season
from competition.season.seasonio import season_import
from tests.generate import random_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def _cycling_season():
    """A generated season whose winter half ends in a cycle."""
    for seed in range(100):
        data = load_season(dump_season(random_season(seed, 14, 8, "classic", chaotic=True)))
        halves = compute_keizer_season(data.params, data.players, data.evenings)
        if halves["winter"].cycle:
            return data, halves["winter"]
    raise AssertionError("no generated season ends its winter in a cycle")


@pytest.fixture
def cycled():
    data, winter = _cycling_season()
    season = season_import(actor=None, system=True, data=data, name="cycling")
    snapshot = (StandingsSnapshot.objects.filter(half__season=season, half__kind="winter")
                .order_by("-evening__date").first())
    return season, winter, snapshot


def test_every_stored_evening_reads_in_order_and_keeps_the_number_of_orders(cycled):
    season, winter, snapshot = cycled
    assert snapshot.cycle and snapshot.cycle_orders == winter.cycle_orders >= 2
    for stored in StandingsSnapshot.objects.filter(half__season=season):
        scores = [row.score for row in stored.rows.order_by("rank")]
        assert scores == sorted(scores, reverse=True)
        assert stored.cycle_orders == 0 or stored.cycle


def test_the_csv_shows_the_averaged_totals_in_order(client, cycled):
    season, winter, _ = cycled
    response = client.get(reverse("competition:standings_half", args=[season.slug, "winter"]),
                          {"export": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))[1:]
    points = [Decimal(row[2]) for row in rows]
    assert points == sorted(points, reverse=True)
    assert points == [round_points(row.total) for row in winter.standings]


def test_the_player_page_says_the_total_is_an_average_and_its_lines_sum_to_it(client, cycled):
    _, winter, snapshot = cycled
    row = Standing.objects.get(snapshot=snapshot, rank=1)
    page = client.get(reverse("competition:player", args=[row.player_id]), HTTP_ACCEPT_LANGUAGE="nl")
    html = page.content.decode()
    n = winter.cycle_orders
    assert f"De herberekening wisselde tussen {n} standen; je totaal is het gemiddelde." in html
    assert sum(Fraction(line["exact"]) for line in row.lines()) == Fraction(row.score_exact)
    assert Fraction(row.score_exact) == winter.standings[0].total


def test_without_a_cycle_the_player_page_says_nothing_of_averages(client):
    data = load_season(dump_season(random_season(3, 4, 2, "classic")))
    season = season_import(actor=None, system=True, data=data, name="calm")
    snapshot = StandingsSnapshot.objects.filter(half__season=season).order_by("-evening__date").first()
    assert not snapshot.cycle
    row = snapshot.rows.order_by("rank").first()
    html = client.get(reverse("competition:player", args=[row.player_id])).content.decode()
    assert "data-cycle-orders" not in html
