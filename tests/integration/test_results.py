"""Entering results: optimistic concurrency, audit, recalculation, the arbiter's page."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from competition.models import AuditRecord, Game, Standing
from competition.season import services
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def paired(django_capture_on_commit_callbacks):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    return s, evening, list(evening.games.order_by("board"))


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what services schedule after commit (the recalculation) at once."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


def test_result_is_saved_audited_and_recalculates_the_standings(paired, committed):
    s, evening, games = paired
    arbiter = f.arbiter()
    game = committed(services.result_set, actor=arbiter, game=games[0], result="1-0", note="")
    assert game.version == 2
    record = AuditRecord.objects.filter(action="game.result").latest("id")
    assert record.actor == arbiter
    assert record.before == {"result": "", "note": ""}
    assert record.after["result"] == "1-0"
    # The trail names the game's white player and its season (recorded by the player's id)
    assert (record.player_id, record.season_id, record.evening_id) == (games[0].white_id, s.pk, evening.pk)
    row = Standing.objects.get(snapshot__evening=evening, player=games[0].white)
    assert row.won == 1 and row.score > 0


def test_second_person_entering_a_stale_result_sees_the_conflict_and_current_value(paired):
    _, _, games = paired
    arbiter, leader = f.arbiter(), f.leader()
    game = games[0]
    services.result_set(actor=arbiter, game=game, result="1-0", expected_version=1)
    with pytest.raises(services.Conflict) as exc:
        services.result_set(actor=leader, game=game, result="0-1", expected_version=1)
    assert exc.value.current.result == "1-0"
    assert "1-0" in str(exc.value)
    assert Game.objects.get(pk=game.pk).result == "1-0"


def test_a_correction_is_recorded_with_old_and_new_value(paired):
    _, _, games = paired
    arbiter = f.arbiter()
    services.result_set(actor=arbiter, game=games[0], result="1-0")
    services.result_set(actor=arbiter, game=games[0], result="1/2-1/2", note="typo corrected")
    last = AuditRecord.objects.filter(action="game.result").latest("id")
    assert last.before["result"] == "1-0" and last.after["result"] == "1/2-1/2"


def test_a_player_may_not_enter_results_and_nothing_changes(paired):
    _, _, games = paired
    with pytest.raises(PermissionDenied):
        services.result_set(actor=f.member(), game=games[0], result="1-0")
    assert Game.objects.get(pk=games[0].pk).result == ""


def test_unknown_result_is_refused_with_a_message_and_nothing_saved(paired):
    _, _, games = paired
    with pytest.raises(ValidationError, match="Unknown result"):
        services.result_set(actor=f.arbiter(), game=games[0], result="2-0")
    assert Game.objects.get(pk=games[0].pk).version == 1


def test_postponed_game_scores_nothing_until_its_result_counts_for_its_own_evening(
    paired, committed
):
    s, evening, games = paired
    arbiter = f.arbiter()
    game = committed(services.result_set, actor=arbiter, game=games[0], result="postponed")
    row = Standing.objects.get(snapshot__evening=evening, player=game.white)
    assert row.games == 0 and row.score == 0
    committed(services.result_set, actor=arbiter, game=game, result="0-1")
    row = Standing.objects.get(snapshot__evening=evening, player=game.black)
    assert row.won == 1


def test_arbiter_enters_a_result_with_one_tap_on_the_evening_page(client, paired):
    _, evening, games = paired
    client.force_login(f.arbiter())
    page = client.get(reverse("competition:evening", args=[evening.date.isoformat()]))
    assert page.status_code == 200 and b'name="result"' in page.content
    url = reverse("competition:enter_result", args=[games[1].pk])
    response = client.post(url, {"result": "1/2-1/2", "version": "1", "note": ""})
    assert response.status_code == 302
    assert Game.objects.get(pk=games[1].pk).result == "1/2-1/2"


def test_stale_form_shows_the_conflict_message_on_the_page(client, paired):
    _, evening, games = paired
    services.result_set(actor=f.arbiter(), game=games[1], result="1-0")
    client.force_login(f.leader())
    url = reverse("competition:enter_result", args=[games[1].pk])
    response = client.post(url, {"result": "0-1", "version": "1"}, follow=True)
    assert Game.objects.get(pk=games[1].pk).result == "1-0"
    assert "1-0" in response.content.decode()


def test_visitor_cannot_post_results(client, paired):
    _, _, games = paired
    response = client.post(reverse("competition:enter_result", args=[games[0].pk]), {"result": "1-0"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Game.objects.get(pk=games[0].pk).result == ""


def test_the_trail_refuses_a_player_given_by_id_without_his_season_or_evening():
    """A player by id (what a result has of its white player) needs the season or the
    evening beside it: the trail never guesses his season, and records nothing."""
    from competition import audit

    before = AuditRecord.objects.count()
    with pytest.raises(TypeError, match="needs its season or evening"):
        audit.record(actor=None, action=audit.Action.GAME_RESULT, player=12345)
    assert AuditRecord.objects.count() == before


def test_entering_a_result_runs_the_same_few_queries_whatever_the_evenings_size(
    client, django_assert_max_num_queries
):
    """Saving a result from the evening page (a results night's request): the game read
    with its evening and season, so the right is checked in the game's club without a
    query more; the same number for 6 players as for 30, and nothing read per player."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (6, 30):
        s = f.season(players=players)
        evening = f.playing_evenings(s)[0]
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        first, game = evening.games.order_by("board")[:2]
        arbiter = f.arbiter()
        client.force_login(arbiter)
        # (the first request of a session reads what the next ones find cached)
        client.post(reverse("competition:enter_result", args=[first.pk]),
                    {"result": "0-1", "version": str(first.version), "note": ""})
        url = reverse("competition:enter_result", args=[game.pk])
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url, {"result": "1-0", "version": str(game.version), "note": ""})
        assert response.status_code == 302
        assert Game.objects.get(pk=game.pk).result == "1-0"
        counts.append(len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]))
        # the season is read joined to the game, never on its own for the right
        assert not [q["sql"] for q in queries.captured_queries
                    if q["sql"].startswith('SELECT "competition_season"')]
    assert counts[0] == counts[1], counts
