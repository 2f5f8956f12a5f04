"""The recalculation after a change: exact, complete, and no more work than needed."""

import pytest
from django.db.models import F

from competition.models import Game, Season, Standing, StandingsSnapshot, StandingsState
from competition.season import services, standings
from competition.season.standings import recalculate_season, standings_behind
from competition.season.tasks import recalculate_half
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_evenings(django_capture_on_commit_callbacks):
    s = f.season(players=6)
    arbiter = f.arbiter()
    first, second = f.playing_evenings(s)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        for evening in (first, second):
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
            for game in evening.games.all():
                services.result_set(actor=arbiter, game=game, result="1-0")
    return s, first, second, arbiter


def test_a_result_of_the_last_evening_leaves_the_earlier_snapshot_untouched(
    two_evenings, django_capture_on_commit_callbacks
):
    s, first, second, arbiter = two_evenings
    earlier = set(Standing.objects.filter(snapshot__evening=first).values_list("pk", flat=True))
    later = set(Standing.objects.filter(snapshot__evening=second).values_list("pk", flat=True))
    game = second.games.order_by("board").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=game, result="0-1")
    assert set(Standing.objects.filter(snapshot__evening=first).values_list("pk", flat=True)) == earlier
    assert set(Standing.objects.filter(snapshot__evening=second).values_list("pk", flat=True)) != later
    assert Standing.objects.get(snapshot__evening=second, player=game.black).won >= 1


def test_a_result_of_an_earlier_evening_rewrites_it_and_every_later_one(
    two_evenings, django_capture_on_commit_callbacks
):
    s, first, second, arbiter = two_evenings
    before = {e: set(Standing.objects.filter(snapshot__evening=e).values_list("pk", flat=True))
              for e in (first, second)}
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=first.games.order_by("board").first(),
                            result="0-1")
    for e in (first, second):
        assert set(Standing.objects.filter(snapshot__evening=e).values_list("pk", flat=True)) != before[e]


def test_stored_standings_equal_a_fresh_computation_after_skipped_rewrites(two_evenings):
    s, first, second, _ = two_evenings
    stored = sorted(Standing.objects.values_list("snapshot__evening", "player", "rank", "score"))
    StandingsSnapshot.objects.all().delete()
    recalculate_season(s.pk)
    assert sorted(Standing.objects.values_list("snapshot__evening", "player", "rank", "score")) == stored


def test_the_task_does_nothing_when_a_later_recalculation_already_ran(two_evenings):
    s, first, _, _ = two_evenings
    assert not standings_behind(s.pk)
    assert recalculate_half(first.half_id) == 0
    Season.objects.filter(pk=s.pk).update(inputs_version=F("inputs_version") + 1)
    assert standings_behind(s.pk)
    assert recalculate_half(first.half_id) == 2
    assert not standings_behind(s.pk)
    assert StandingsState.objects.get(season=s).inputs_version == (
        Season.objects.get(pk=s.pk).inputs_version)


def test_a_change_committed_while_a_recalculation_computes_makes_it_run_again(
    two_evenings, monkeypatch, django_capture_on_commit_callbacks
):
    """The recalculation records the inputs version it read before the inputs; a write
    that moved the version meanwhile makes it run once more after its commit (here inside
    the test's transaction: at its commit)."""
    s, _first, second, _arbiter = two_evenings
    game = second.games.order_by("board").first()
    original = standings.load_season_data
    passes: list[int] = []

    def meanwhile(season, today=None):
        passes.append(season.inputs_version)
        if len(passes) == 1:  # another arbiter's correction, committed during this pass
            Game.objects.filter(pk=game.pk).update(result="0-1")
            Season.objects.filter(pk=s.pk).update(inputs_version=F("inputs_version") + 1)
        return original(season, today)

    monkeypatch.setattr(standings, "load_season_data", meanwhile)
    with django_capture_on_commit_callbacks(execute=True):
        recalculate_season(s.pk)
    assert passes == [passes[0], passes[0] + 1]
    assert not standings_behind(s.pk) and standings.standings_current(s.pk)
