"""Consequences before they happen (issue 14): a late sign-off says what it costs and asks
first; a sign-off after the pairing tells the opponent and the leader; the leader's
irreversible actions ask first and say what they will do. Without the confirmation the
view saves nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse

from competition.models import AuditRecord, Registration
from pairing import services
from pairing.models import NoticeKind, PairingNotice
from pairing.tasks import close_due_evenings
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
HOUR = dt.timedelta(hours=1)


def fixed_player(s):
    return s.players.filter(kind="fixed").select_related("member").order_by("start").first()


def signed_in(client, user):
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def sign_off(client, evening, **extra):
    return client.post(reverse("competition:signup"), {
        "evenings": [str(evening.pk)], "status": "absent_with_notice", **extra,
    })


# --- The late sign-off ------------------------------------------------------------------


def test_a_late_sign_off_says_what_it_costs_and_saves_nothing_until_confirmed(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    me = fixed_player(s)
    at(evening.deadline + HOUR)
    response = sign_off(signed_in(client, me.member), evening)
    page = response.content.decode()
    assert response.status_code == 200
    assert "counts as absent without notice" in page
    assert "It scores 0 points for the evening." in page
    # pion: 10 playing evenings in the winter half, 50% present: at most 5 absences.
    assert "absent without notice 1 time this half" in page
    assert "at most 5 times" in page
    assert not Registration.objects.filter(player=me).exists()
    assert not AuditRecord.objects.filter(player=me, action="registration.set").exists()


def test_a_confirmed_late_sign_off_is_saved_as_absent_without_notice(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    me = fixed_player(s)
    at(evening.deadline + HOUR)
    response = sign_off(signed_in(client, me.member), evening, confirm="1")
    assert response.status_code == 302
    assert Registration.objects.get(player=me, evening=evening).status == "absent_without_notice"


def test_a_sign_off_before_the_deadline_needs_no_confirmation(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    me = fixed_player(s)
    at(evening.deadline - HOUR)
    assert sign_off(signed_in(client, me.member), evening).status_code == 302
    assert Registration.objects.get(player=me, evening=evening).status == "absent_with_notice"


def test_the_late_sign_off_page_says_when_the_prize_is_lost(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    me = fixed_player(s)
    competition = s.competition
    competition.eligibility_percentage = 100  # no absence without notice allowed
    competition.save(update_fields=["eligibility_percentage"])
    at(evening.deadline + HOUR)
    page = sign_off(signed_in(client, me.member), evening).content.decode()
    assert "at most 0 times" in page
    assert "You would no longer compete for a prize this half." in page


def test_a_late_sign_off_with_no_attendance_rule_says_no_prize_is_at_stake(client, at):
    # Before: "at most 10 times (0% of the 10 playing evenings present)".
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    me = fixed_player(s)
    competition = s.competition
    competition.eligibility_percentage = 0
    competition.save(update_fields=["eligibility_percentage"])
    at(evening.deadline + HOUR)
    page = sign_off(signed_in(client, me.member), evening).content.decode()
    assert "the rules ask no minimum attendance" in page
    assert "0% of the" not in page and "at most" not in page


# --- A sign-off after the pairing is published ------------------------------------------


def test_a_sign_off_after_the_pairing_tells_the_opponent_and_the_leader_once(
    client, at, django_capture_on_commit_callbacks
):
    s = f.season(players=6)
    leader = f.leader()
    evening = f.playing_evenings(s)[3]
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_pair_and_publish(
            actor=None, system=True, evening_id=evening.pk, now=evening.deadline
        )
    mail.outbox.clear()
    game = evening.games.get(board=1)
    me, opponent = game.white, game.black
    at(evening.deadline + HOUR)
    with django_capture_on_commit_callbacks(execute=True):
        sign_off(signed_in(client, me.member), evening, confirm="1")
    by_recipient = {m.to[0]: m for m in mail.outbox}
    assert set(by_recipient) == {opponent.member.email, leader.email}
    assert me.member.name in by_recipient[opponent.member.email].body
    assert reverse("pairing:evening", args=[evening.pk]) in by_recipient[leader.email].body
    # The catch-up job, or a second run of the task, tells nobody again.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        close_due_evenings()  # as the platform: the decoy club's due evening is paired too
    assert not [m for m in mail.outbox if {opponent.member.email, leader.email} & {*m.to, *m.cc}]
    assert PairingNotice.objects.filter(evening=evening, kind=NoticeKind.WITHDRAWAL).count() == 2


def test_the_leader_recording_a_sign_off_himself_is_not_e_mailed_to_him(
    client, django_capture_on_commit_callbacks
):
    s = f.season(players=6)
    leader = f.leader()
    evening = f.playing_evenings(s)[3]
    services.evening_pair_and_publish(
        actor=None, system=True, evening_id=evening.pk, now=evening.deadline
    )
    player = evening.games.get(board=1).white
    from competition.season.services import registration_set

    with django_capture_on_commit_callbacks(execute=True):
        registration_set(actor=leader, player=player, evenings=[evening],
                         status="absent_with_notice", force_majeure=True)
    assert not PairingNotice.objects.filter(kind=NoticeKind.WITHDRAWAL).exists()


def test_the_home_page_stops_announcing_the_game_of_a_player_who_signed_off(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    services.evening_pair_and_publish(
        actor=None, system=True, evening_id=evening.pk, now=evening.deadline
    )
    me = evening.games.get(board=1).white
    at(evening.deadline + HOUR)
    client = signed_in(client, me.member)
    assert "Next game" in client.get(reverse("competition:home")).content.decode()
    sign_off(client, evening, confirm="1")
    assert "Next game" not in client.get(reverse("competition:home")).content.decode()


# --- The leader's confirmations ---------------------------------------------------------


def test_publishing_early_asks_first_and_says_how_many_are_e_mailed(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    at(evening.deadline - 5 * HOUR)
    client = signed_in(client, f.leader())
    url = reverse("pairing:publish", args=[evening.pk])
    response = client.post(url)
    page = response.content.decode()
    assert response.status_code == 200
    assert "6 players are present: they are paired and each gets an e-mail now." in page
    assert "The deadline has not passed" in page
    evening.refresh_from_db()
    assert evening.status != "published" and not evening.games.exists()
    assert not AuditRecord.objects.filter(evening=evening, action="pairing.publish").exists()
    assert client.post(url, {"confirm": "1"}).status_code == 302
    evening.refresh_from_db()
    assert evening.status == "published" and evening.games.count() == 3


def test_the_evening_page_puts_the_consequences_on_the_publish_form(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    at(evening.deadline - 5 * HOUR)
    page = signed_in(client, f.leader()).get(reverse("pairing:evening", args=[evening.pk]))
    assert 'data-confirm="The deadline has not passed' in page.content.decode()


def test_re_pairing_says_how_many_manual_corrections_are_lost(client):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    leader = f.leader()
    services.evening_pair_and_publish(
        actor=None, system=True, evening_id=evening.pk, now=evening.deadline
    )
    for board in (1, 2):
        services.pairing_swap_colours(actor=leader, game_id=evening.games.get(board=board).pk)
    evening.refresh_from_db()
    version = evening.version
    client = signed_in(client, leader)
    url = reverse("pairing:publish", args=[evening.pk])
    page = client.post(url, {"repair": "1"}).content.decode()
    assert "2 manual corrections since it was published will be lost" in page
    evening.refresh_from_db()
    assert evening.version == version
    assert client.post(url, {"repair": "1", "confirm": "1"}).status_code == 302
    evening.refresh_from_db()
    assert evening.version == version + 1
    # After the re-pairing, nothing is left to lose.
    assert "0 manual corrections" in client.post(url, {"repair": "1"}).content.decode()


def test_removing_a_player_asks_first_and_changes_nothing_without_the_confirmation(client):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    services.evening_pair_and_publish(
        actor=None, system=True, evening_id=evening.pk, now=evening.deadline
    )
    game = evening.games.get(board=2)
    client = signed_in(client, f.leader())
    url = reverse("pairing:remove_player", args=[evening.pk])
    page = client.post(url, {"player": game.white_id}).content.decode()
    assert f"{game.white.member.name} leaves the pairing" in page
    assert 'name="confirm" value="1"' in page and f'value="{game.white_id}"' in page
    assert evening.games.filter(pk=game.pk).exists()
    assert client.post(url, {"player": game.white_id, "confirm": "1"}).status_code == 302
    assert not evening.games.filter(pk=game.pk).exists()
