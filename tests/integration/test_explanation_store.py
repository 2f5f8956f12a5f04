"""A row's explanation lines as stored: arrays of their fields (``KEIZER_LINE``,
``LADDER_LINE``), read back by ``Standing.lines`` as the objects they were; and the
migration that rewrote the rows stored before (docs/standings.md, "Explanation lines as
stored")."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from competition.models import Standing
from competition.models.season import KEIZER_LINE, LADDER_LINE, stored_line
from competition.scoring import keizer
from competition.scoring import types as t
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.season import services
from competition.season.standings import _row_values, points_text
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.generate import KEIZER_VARIANTS, random_season

lines_migration = importlib.import_module("competition.migrations.0037_explanation_lines_as_arrays")


@pytest.fixture(autouse=True)
def cold():
    keizer.SETTLED.clear()
    yield
    keizer.SETTLED.clear()


def named(line: t.Line | t.LadderLine) -> dict:
    """A line of the engine with its fields named, as a page reads it."""
    if isinstance(line, t.LadderLine):
        return {"date": line.date.isoformat(), "outcome": str(line.outcome), "opponent": line.opponent,
                "delta": points_text(line.delta), "bonus": points_text(line.bonus),
                "points": points_text(line.delta + line.bonus)}
    return {"date": line.date.isoformat() if line.date else None, "outcome": str(line.outcome),
            "opponent": line.opponent,
            "value": points_text(line.value) if line.value is not None else None,
            "points": points_text(line.points), "exact": str(line.points), "over_limit": line.over_limit}


@pytest.mark.parametrize(("system", "overrides"), [*KEIZER_VARIANTS, ("ladder", None)])
def test_a_stored_line_is_an_array_read_back_as_the_engines_line(system, overrides) -> None:
    for seed in range(3):
        season = random_season(seed, 8 + 3 * seed, 6 + seed, system, overrides, chaotic=seed % 2 == 1)
        args = (season.params, season.players, season.evenings)
        results = [compute_ladder(*args)] if system == "ladder" else compute_keizer_season(*args).values()
        for result in results:
            for row in result.standings:
                stored = _row_values(row, True)["explanation"]
                fields = LADDER_LINE if system == "ladder" else KEIZER_LINE
                assert all(isinstance(line, list) and len(line) == len(fields) for line in stored)
                assert [stored_line(line) for line in stored] == [named(line) for line in row.lines]


@pytest.mark.django_db
@pytest.mark.usefixtures("in_home_club")
def test_the_migration_rewrites_the_lines_stored_as_objects_and_back(django_capture_on_commit_callbacks):
    s = f.season(players=6)
    arbiter = f.arbiter()
    with django_capture_on_commit_callbacks(execute=True):
        for evening in f.playing_evenings(s)[:2]:  # the first one's rows then have no lines
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
            for game in evening.games.all():
                services.result_set(actor=arbiter, game=game, result="1/2-1/2")
    stored = {row.pk: row.explanation for row in Standing.objects.exclude(explanation=[])}
    assert stored and all(isinstance(line, list) for lines in stored.values() for line in lines)
    objects = {pk: [stored_line(line) for line in lines] for pk, lines in stored.items()}
    ladder = {"date": "2026-10-01", "outcome": "win", "opponent": 7, "delta": "1.50", "bonus": "0.25",
              "points": "1.75"}
    first = min(objects)
    objects[first] = [*objects[first], ladder]
    for pk, lines in objects.items():  # as the code before this form stored them
        Standing.objects.filter(pk=pk).update(explanation=lines)

    # The models as the migration sees them (plain managers, no club scope of their own).
    apps = MigrationLoader(connection).project_state(("competition", "0037_explanation_lines_as_arrays")).apps
    lines_migration.forward(apps, None)
    after = {row.pk: row.explanation for row in Standing.objects.exclude(explanation=[])}
    assert after == {**stored, first: [*stored[first], ["2026-10-01", "win", 7, "1.50", "0.25", "1.75"]]}
    assert Standing.objects.get(pk=first).lines()[-1] == ladder
    assert Standing.objects.filter(explanation=[]).exists()  # the history rows stay as they were

    lines_migration.backward(apps, None)
    assert {row.pk: row.explanation for row in Standing.objects.exclude(explanation=[])} == objects


def test_a_line_of_the_earlier_form_is_read_as_it_is() -> None:
    # As a club's copy made before migration 0037 brings it back (manage.py restore).
    line = {"date": "2026-10-01", "outcome": "win", "opponent": 7, "value": "12.00", "points": "12.00",
            "exact": "12", "over_limit": False}
    assert stored_line(line) == line
    assert stored_line(list(line.values())) == line
