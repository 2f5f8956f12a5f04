"""The tempo exception (docs/rules.md 5): two players may agree on 40 moves in 90 minutes, then
15 minutes; one of them asks, the competition leader approves or refuses before the
evening, and both are told by e-mail."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from competition.models import AuditRecord, Game, Tempo
from pairing import services
from pairing import services as tempo
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
MINUTE = dt.timedelta(minutes=1)


@pytest.fixture
def game(django_capture_on_commit_callbacks) -> Game:
    """Board 1 of a published evening; the pairing e-mails sent and the outbox emptied."""
    s = f.season(players=6)
    evening = f.playing_evenings(s)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    mail.outbox.clear()
    return Game.objects.select_related("evening", "white__member", "black__member").get(
        evening=evening, board=1
    )


def before_start(game: Game) -> dt.datetime:
    return game.evening.starts_at - 2 * MINUTE


def request(game: Game, actor=None) -> Game:
    return tempo.tempo_request(actor=actor or game.black.member, game=game,
                               opponent_agrees=True, now=before_start(game))


def test_request_then_approve_emails_both_players(game, django_capture_on_commit_callbacks):
    requested = request(game)
    assert requested.tempo == Tempo.REQUESTED and requested.tempo_requested_by == game.black
    assert mail.outbox == []  # nobody is e-mailed before the leader decides
    leader = f.leader()
    with django_capture_on_commit_callbacks(execute=True):
        decided = tempo.tempo_decide(actor=leader, game=game, approve=True)

    assert decided.tempo == Tempo.APPROVED and decided.tempo_decided_by == leader
    assert sorted(to for m in mail.outbox for to in m.to) == sorted(
        [game.white.member.email, game.black.member.email]
    )
    assert all("approved" in m.subject for m in mail.outbox)
    assert all("40 moves in 90 min, then 15 min" in m.body for m in mail.outbox)
    actions = list(AuditRecord.objects.filter(evening=game.evening, action__startswith="game.tempo")
                   .order_by("id").values_list("action", "actor", "after__tempo"))
    assert actions == [
        ("game.tempo_request", game.black.member.pk, "requested"),
        ("game.tempo_decide", leader.pk, "approved"),
    ]


def test_request_then_refuse_emails_both_players_the_standard_tempo(
    game, django_capture_on_commit_callbacks
):
    request(game, actor=game.white.member)
    with django_capture_on_commit_callbacks(execute=True):
        decided = tempo.tempo_decide(actor=f.leader(), game=game, approve=False)
    assert decided.tempo == Tempo.REFUSED
    assert len(mail.outbox) == 2 and all("refused" in m.subject for m in mail.outbox)
    assert all("standard: 40 moves in 90 min, then 30 min" in m.body for m in mail.outbox)


def test_decision_email_is_not_repeated_by_a_later_republish(
    game, django_capture_on_commit_callbacks
):
    request(game)
    leader = f.leader()
    with django_capture_on_commit_callbacks(execute=True):
        tempo.tempo_decide(actor=leader, game=game, approve=True)
    mail.outbox.clear()
    other = game.evening.games.get(board=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_swap_colours(actor=leader, game_id=other.pk)
    assert {to for m in mail.outbox for to in m.to} == {
        other.white.member.email, other.black.member.email
    }


def test_only_the_two_players_may_request(game, client):
    outsider = game.evening.season.players.exclude(pk__in=[game.white_id, game.black_id]).first()
    for actor in (outsider.member, f.leader(), None):
        with pytest.raises(PermissionDenied):
            tempo.tempo_request(actor=actor, game=game, opponent_agrees=True,
                                now=before_start(game))
    client.force_login(outsider.member)
    url = reverse("pairing:tempo_request", args=[game.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"opponent_agrees": "on"}).status_code == 403
    game.refresh_from_db()
    assert game.tempo == Tempo.STANDARD and game.tempo_requested_by is None
    assert not AuditRecord.objects.filter(action__startswith="game.tempo").exists()


def test_request_needs_the_opponents_agreement(game):
    with pytest.raises(ValidationError, match="opponent must agree"):
        tempo.tempo_request(actor=game.white.member, game=game, opponent_agrees=False,
                            now=before_start(game))
    game.refresh_from_db()
    assert game.tempo == Tempo.STANDARD


def test_request_after_the_evening_started_is_refused(game):
    with pytest.raises(ValidationError, match="evening has started"):
        tempo.tempo_request(actor=game.white.member, game=game, opponent_agrees=True,
                            now=game.evening.starts_at)
    game.refresh_from_db()
    assert game.tempo == Tempo.STANDARD


def test_only_the_leader_decides(game, client):
    request(game)
    for actor in (game.white.member, game.black.member, f.arbiter(), None):
        with pytest.raises(PermissionDenied):
            tempo.tempo_decide(actor=actor, game=game, approve=True)
    client.force_login(game.white.member)
    url = reverse("pairing:tempo_decide", args=[game.pk])
    assert client.post(url, {"decision": "approve"}).status_code == 403
    game.refresh_from_db()
    assert game.tempo == Tempo.REQUESTED and game.tempo_decided_by is None
    assert mail.outbox == []


def test_a_decision_needs_a_pending_request(game):
    with pytest.raises(ValidationError, match="no tempo request"):
        tempo.tempo_decide(actor=f.leader(), game=game, approve=True)


def test_player_requests_and_leader_approves_through_the_pages(
    game, client, django_capture_on_commit_callbacks
):
    url = reverse("pairing:tempo_request", args=[game.pk])
    for visitor_url in (url, reverse("pairing:evening", args=[game.evening_id])):
        response = client.get(visitor_url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    client.force_login(game.white.member)
    assert 'name="opponent_agrees"' not in client.get(url).content.decode()  # it has begun
    # The real clock is past this 2026 evening: the pages run two minutes before it.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("django.utils.timezone.now", lambda: before_start(game))
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 200 and 'name="opponent_agrees"' in page.content.decode()
        refused = client.post(url, {}, HTTP_ACCEPT_LANGUAGE="en")
        assert "Your opponent must agree" in refused.content.decode()
        response = client.post(url, {"opponent_agrees": "on"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.tempo == Tempo.REQUESTED and game.tempo_requested_by == game.white

    client.force_login(f.leader())
    evening_page = client.get(reverse("pairing:evening", args=[game.evening_id]),
                              HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tempo requests" in evening_page and f"Asked by {game.white.member.name}" in evening_page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("pairing:tempo_decide", args=[game.pk]),
                               {"decision": "approve"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.tempo == Tempo.APPROVED
    assert len(mail.outbox) == 2
    public = client.get(reverse("competition:evening", args=[game.evening.date.isoformat()]),
                        HTTP_ACCEPT_LANGUAGE="en")
    assert "40 moves in 90 min, then 15 min" in public.content.decode()
