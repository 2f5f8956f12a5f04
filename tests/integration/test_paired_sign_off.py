"""A paired player signing off after the pairing is published (issue 32): he is asked
first, with his board and opponent named and what follows; after it he is told what
happens; until the evening begins he can take it back, keeping his board, as long as the
leader has not changed his game (docs/rules.md 3)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from competition.models import Registration
from competition.season import services as competition_services
from pairing import services
from pairing.models import NoticeKind, PairingNotice
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def paired(django_capture_on_commit_callbacks):
    """A season still to come whose first evening the leader paired early: before the
    deadline, so a sign-off is in time and asked nothing else. Pairing e-mails sent."""
    s = f.season(players=4, opening=dt.date(2027, 9, 3), last_day=dt.date(2028, 7, 13))
    evening = f.playing_evenings(s)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_pair_and_publish(evening_id=evening.pk, actor=f.leader())
    mail.outbox.clear()
    evening.refresh_from_db()
    game = evening.games.get(board=2)
    return evening, game, game.white, game.black


def sign_off_post(client, player, evening, **extra):
    client.force_login(player.member)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client.post(reverse("competition:signup"), {
        "evenings": [evening.pk], "status": "absent_with_notice", **extra}, follow=bool(extra))


def test_signing_off_from_the_pairing_asks_first_naming_board_and_opponent(paired, client):
    evening, game, me, opponent = paired
    page = sign_off_post(client, me, evening)
    html = page.content.decode()
    assert page.status_code == 200 and f'data-paired-evening="{evening.pk}"' in html
    assert (f"You are paired on board 2 against {opponent.member.name}; are you sure?") in html
    assert f"{opponent.member.name} and the competition leader get an e-mail" in html
    assert "takes you out of the pairing" in html and "you keep board 2" in html
    # Nothing changed, nobody told.
    assert not Registration.objects.filter(evening=evening, player=me).exists()
    assert not PairingNotice.objects.filter(evening=evening, kind=NoticeKind.WITHDRAWAL).exists()


def test_the_confirmed_sign_off_says_what_follows_and_how_to_take_it_back(
        paired, client, django_capture_on_commit_callbacks):
    evening, game, me, opponent = paired
    with django_capture_on_commit_callbacks(execute=True):
        page = sign_off_post(client, me, evening, confirm="1")
    html = page.content.decode()
    assert Registration.objects.get(evening=evening, player=me).status == "absent_with_notice"
    assert f"{opponent.member.name} and the competition leader get an e-mail." in html
    assert "Sign up again before 20:15" in html and "you keep board 2" in html
    assert opponent.member.email in {m.to[0] for m in mail.outbox}


def test_taking_the_sign_off_back_keeps_the_board_and_tells_the_opponent(
        paired, django_capture_on_commit_callbacks):
    evening, game, me, opponent = paired
    before = evening.deadline - dt.timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        competition_services.registration_set(actor=me.member, player=me, evenings=[evening],
                                              status="absent_with_notice", now=before)
    assert any("has signed off" in m.subject for m in mail.outbox if m.to[0] == opponent.member.email)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        competition_services.registration_set(actor=me.member, player=me, evenings=[evening],
                                              status="present", now=before)
    assert Registration.objects.get(evening=evening, player=me).status == "present"
    assert evening.games.filter(board=2, white=me, black=opponent).exists()
    to_opponent = [m for m in mail.outbox if m.to[0] == opponent.member.email]
    assert len(to_opponent) == 1 and "plays on" in to_opponent[0].subject
    assert "after all" in to_opponent[0].subject


def test_no_taking_back_once_the_leader_took_him_out_or_the_evening_began(paired):
    evening, game, me, opponent = paired
    competition_services.registration_set(actor=me.member, player=me, evenings=[evening],
                                          status="absent_with_notice")
    with pytest.raises(ValidationError, match="published"):
        competition_services.registration_set(actor=me.member, player=me, evenings=[evening],
                                              status="present", now=evening.starts_at)
    services.pairing_remove_player(actor=f.leader(), evening_id=evening.pk, player_id=me.pk)
    with pytest.raises(ValidationError, match="published"):
        competition_services.registration_set(actor=me.member, player=me, evenings=[evening],
                                              status="present")


def test_the_question_in_dutch_names_board_and_opponent(paired, client):
    evening, game, me, opponent = paired
    client.force_login(me.member)
    page = client.post(reverse("competition:signup"), {
        "evenings": [evening.pk], "status": "absent_with_notice"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert (f"Je bent ingedeeld op bord 2 tegen {opponent.member.name}; zeker weten?"
            in page.content.decode())
