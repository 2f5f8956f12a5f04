"""A result needs the version the form showed (issue 12, finding 10) and cannot be
entered before the evening's games start, except by the leader, who says so and is
recorded (finding 12)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditRecord
from competition.season import services
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def game():
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    return evening.games.order_by("board").first()


@pytest.mark.parametrize("version", [None, "", "abc", "1.0", "²", "9" * 40])
def test_a_result_without_a_valid_version_is_refused_with_a_message(client, game, version):
    client.force_login(f.arbiter())
    data = {"result": "1-0"} if version is None else {"result": "1-0", "version": version}
    response = client.post(reverse("competition:enter_result", args=[game.pk]), data, follow=True)
    assert response.status_code == 200
    assert "reload the page" in response.content.decode()
    game.refresh_from_db()
    assert (game.result, game.version) == ("", 1)
    assert not AuditRecord.objects.filter(action="game.result").exists()


def test_a_result_with_the_shown_version_is_saved(client, game):
    client.force_login(f.arbiter())
    client.post(reverse("competition:enter_result", args=[game.pk]),
                {"result": "1-0", "version": "1"})
    game.refresh_from_db()
    assert (game.result, game.version) == ("1-0", 2)


@pytest.fixture
def future_game(game):
    evening = game.evening
    evening.starts_at = timezone.now() + dt.timedelta(days=3)
    evening.deadline = evening.starts_at - dt.timedelta(days=1)
    evening.save(update_fields=["starts_at", "deadline"])
    game.refresh_from_db()
    return game


def test_the_arbiter_cannot_enter_a_result_before_the_evening_starts(client, future_game):
    with pytest.raises(ValidationError, match="from the start of the evening"):
        services.result_set(actor=f.arbiter(), game=future_game, result="1-0")
    with pytest.raises(PermissionDenied):  # the override is the leader's
        services.result_set(actor=f.arbiter(), game=future_game, result="1-0", before_start=True)
    client.force_login(f.arbiter())
    response = client.post(reverse("competition:enter_result", args=[future_game.pk]),
                           {"result": "1-0", "version": "1", "before_start": "1"})
    assert response.status_code == 403
    future_game.refresh_from_db()
    assert (future_game.result, future_game.version) == ("", 1)


def test_the_leader_may_enter_a_result_early_saying_so_and_it_is_audited(client, future_game):
    leader = f.leader()
    with pytest.raises(ValidationError, match="from the start of the evening"):
        services.result_set(actor=leader, game=future_game, result="1-0")
    client.force_login(leader)
    page = client.get(reverse("competition:evening", args=[future_game.evening.date.isoformat()]))
    assert 'name="before_start"' in page.content.decode()
    client.post(reverse("competition:enter_result", args=[future_game.pk]),
                {"result": "1-0", "version": "1", "before_start": "1"})
    future_game.refresh_from_db()
    assert future_game.result == "1-0"
    record = AuditRecord.objects.get(action="game.result")
    assert record.actor == leader and record.after["before_start"] is True
