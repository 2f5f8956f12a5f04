"""The leader's calendar (issue 31): move an evening (date, start, deadline), add one,
cancel one. The consequences are said before (who had signed up, a published pairing
that is withdrawn, a rapid round that moves) and the players concerned are told after,
once, by the club's e-mail; bad input saves nothing; club B's evening of the same date is
left as it was."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from competition.models import (
    Attendance,
    AuditRecord,
    Evening,
    EveningKind,
    EveningStatus,
    EventKind,
    Game,
    PlayerKind,
    Registration,
    SwissEvent,
    SwissRound,
)
from competition.season import calendar_edits
from competition.season import services as season_services
from core.models import Mail
from members.clubs.context import club_context
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.decoy import decoy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

TODAY = dt.date(2026, 9, 1)  # before the season's first evening (4 September)


@pytest.fixture(autouse=True)
def _today(club_today):
    return None


@pytest.fixture
def season():
    return f.season(players=6, flexible=2)


@pytest.fixture
def leader():
    return f.leader()


def _evening(season, n: int = 1) -> Evening:
    return f.playing_evenings(season)[n]


def _sign_up(leader, season, evening, name="Player 006"):
    player = season.players.get(member__name=name)
    season_services.registration_set(actor=leader, player=player, evenings=[evening],
                                     status=Attendance.PRESENT)
    return player


def _state(season):
    return sorted(Evening.objects.filter(season=season)
                  .values_list("pk", "date", "starts_at", "deadline", "kind", "status")), \
        Mail.objects.count(), Game.objects.count(), Registration.objects.count()


# --- Moving -------------------------------------------------------------------------------


def test_moving_says_who_signed_up_and_tells_the_players_concerned_once(season, leader):
    evening = _evening(season)
    signed = _sign_up(leader, season, evening)
    new_date = evening.date - dt.timedelta(days=1)  # the Friday moves to Thursday
    change = calendar_edits.evening_change_check(action="move", season=season, evening=evening,
                                                 date=new_date)
    lines = change.consequences()
    assert any("Signed up: Player 006." in line for line in lines)
    fixed = set(season.players.filter(kind=PlayerKind.FIXED).values_list("member__email", flat=True))
    assert {p.member.email for p in change.concerned} == fixed | {signed.member.email}
    assert Mail.objects.count() == 0  # the check saves nothing

    calendar_edits.evening_move(actor=leader, evening=evening, date=new_date)
    evening.refresh_from_db()
    assert evening.date == new_date
    assert timezone.localtime(evening.starts_at).date() == new_date
    assert Registration.objects.filter(evening=evening, player=signed).exists()  # it stays
    mails = list(Mail.objects.filter(key__startswith=f"evening-change:{evening.pk}:"))
    assert sorted(m.to[0] for m in mails) == sorted(fixed | {signed.member.email})
    assert all(m.from_email or m.reply_to for m in mails)  # the club's
    assert "moves to" in mails[0].subject
    assert AuditRecord.objects.filter(evening=evening, action="evening.update").exists()


def test_moving_a_published_pairing_withdraws_it_and_says_so(leader, paired_club):
    season, evening = paired_club
    assert Game.objects.filter(evening=evening).exists()
    new_date = evening.date + dt.timedelta(days=6)  # Thursday of the week after
    change = calendar_edits.evening_change_check(action="move", season=season, evening=evening,
                                                 date=new_date)
    assert change.withdraws_pairing
    assert any("published pairing is withdrawn" in line for line in change.consequences())
    calendar_edits.evening_move(actor=leader, evening=evening, date=new_date)
    evening.refresh_from_db()
    assert not Game.objects.filter(evening=evening).exists()
    assert evening.published_at is None and evening.status == EveningStatus.OPEN
    paired = set(season.players.values_list("member__email", flat=True))
    assert {m.to[0] for m in Mail.objects.filter(key__startswith="evening-change:")} == paired


def test_a_rapid_round_moves_with_its_evening(season, leader):
    playing = _evening(season, 2)
    rapid = season_services.evening_update(actor=f.admin(), evening=playing, kind=EveningKind.RAPID,
                                           half=playing.half)
    event = SwissEvent.objects.create(season=season, kind=EventKind.RAPID, name="Rapid najaar",
                                      half=rapid.half)
    rnd = SwissRound.objects.create(event=event, number=3, evening=rapid, starts_at=rapid.starts_at)
    new_date = rapid.date + dt.timedelta(days=1)
    while season.evenings.filter(date=new_date).exists():
        new_date += dt.timedelta(days=1)
    change = calendar_edits.evening_change_check(action="move", season=season, evening=rapid,
                                                 date=new_date)
    assert "Round 3 of Rapid najaar moves with it." in change.consequences()
    calendar_edits.evening_move(actor=leader, evening=rapid, date=new_date)
    rnd.refresh_from_db()
    assert timezone.localtime(rnd.starts_at).date() == new_date


def test_the_start_and_deadline_can_be_chosen(season, leader):
    evening = _evening(season)
    deadline = timezone.make_aware(dt.datetime.combine(evening.date, dt.time(12, 0)))
    calendar_edits.evening_move(actor=leader, evening=evening, date=evening.date,
                                start=dt.time(19, 30), deadline=deadline)
    evening.refresh_from_db()
    assert timezone.localtime(evening.starts_at).time() == dt.time(19, 30)
    assert evening.deadline == deadline


# --- Adding and cancelling ------------------------------------------------------------------


def test_an_evening_is_added_in_the_half_of_its_date(season, leader):
    day = _evening(season).date + dt.timedelta(days=1)
    evening = calendar_edits.evening_add(actor=leader, season=season, date=day)
    assert evening.kind == EveningKind.PLAYING and evening.half.start_date <= day
    assert Mail.objects.count() == 0


def test_cancelling_withdraws_the_sign_ups_and_tells_who_was_concerned(season, leader):
    evening = _evening(season, 2)
    signed = _sign_up(leader, season, evening)
    change = calendar_edits.evening_change_check(action="cancel", season=season, evening=evening)
    assert any("is cancelled" in line for line in change.consequences())
    assert any("Their sign-up lapses." in line for line in change.consequences())
    calendar_edits.evening_cancel(actor=leader, evening=evening)
    evening.refresh_from_db()
    assert evening.kind == EveningKind.CLOSED and evening.half is None
    assert not Registration.objects.filter(evening=evening).exists()
    told = Mail.objects.filter(key__startswith=f"evening-change:{evening.pk}:")
    assert signed.member.email in [m.to[0] for m in told]
    assert "cancelled" in told[0].subject
    with pytest.raises(ValidationError, match="cancelled already"):
        calendar_edits.evening_cancel(actor=leader, evening=evening)
    assert told.count() == len(change.concerned)  # told once


# --- Bad input saves nothing ------------------------------------------------------------------


@pytest.mark.parametrize("what", ["before the season", "after the season", "on another evening",
                                  "deadline after start", "in the past"])
def test_a_bad_move_saves_nothing(season, leader, what):
    evening = _evening(season)
    other = _evening(season, 3)
    date, deadline = {
        "before the season": (season.start_date - dt.timedelta(days=1), None),
        "after the season": (season.end_date + dt.timedelta(days=1), None),
        "on another evening": (other.date, None),
        "deadline after start": (evening.date, timezone.make_aware(
            dt.datetime.combine(evening.date, dt.time(23, 0)))),
        "in the past": (TODAY - dt.timedelta(days=1), None),
    }[what]
    before = _state(season)
    with pytest.raises(ValidationError):
        calendar_edits.evening_move(actor=leader, evening=evening, date=date, deadline=deadline)
    with pytest.raises(ValidationError):
        calendar_edits.evening_add(actor=leader, season=season, date=date, deadline=deadline)
    assert _state(season) == before


def test_an_evening_with_results_is_neither_moved_nor_cancelled(leader, paired_club):
    season, evening = paired_club
    game = Game.objects.filter(evening=evening).first()
    Game.objects.filter(pk=game.pk).update(result="1-0")
    before = _state(season)
    with pytest.raises(ValidationError, match="results already"):
        calendar_edits.evening_move(actor=leader, evening=evening,
                                    date=evening.date + dt.timedelta(days=1))
    with pytest.raises(ValidationError, match="results already"):
        calendar_edits.evening_cancel(actor=leader, evening=evening)
    assert _state(season) == before


def test_a_player_cannot_change_the_calendar(season):
    player = season.players.select_related("member").first().member
    evening = _evening(season)
    with pytest.raises(PermissionDenied):
        calendar_edits.evening_move(actor=player, evening=evening,
                                    date=evening.date + dt.timedelta(days=1))
    with pytest.raises(PermissionDenied):
        calendar_edits.evening_cancel(actor=player, evening=evening)


def test_club_bs_evening_of_the_same_date_is_left_alone(season, leader):
    evening = _evening(season)
    club_b = decoy()
    with club_context(club_b):
        b_evenings = sorted(Evening.objects.filter(season__club=club_b)
                            .values_list("pk", "date", "starts_at", "kind"))
    calendar_edits.evening_cancel(actor=leader, evening=evening)
    with club_context(club_b):
        assert sorted(Evening.objects.filter(season__club=club_b)
                      .values_list("pk", "date", "starts_at", "kind")) == b_evenings
    b_addresses = set()
    with club_context(club_b):
        from members.models import Membership

        b_only = Membership.objects.filter(club=club_b).values_list("user__email", flat=True)
        b_addresses = set(b_only) - set(season.players.values_list("member__email", flat=True))
    assert not Mail.objects.filter(key__startswith="evening-change:").filter(
        to__in=[[a] for a in b_addresses]).exists()


# --- The leader's pages ------------------------------------------------------------------------


def test_the_leader_sees_the_consequences_in_dutch_before_and_the_move_after(season, leader, client):
    client.force_login(leader)
    evening = _evening(season)
    _sign_up(leader, season, evening)
    url = reverse("competition:leader_evening_move", args=[evening.pk])
    new_date = evening.date - dt.timedelta(days=1)
    data = {"action": "move", "date": new_date.isoformat(), "start": "20:00",
            "deadline_date": "", "deadline_time": ""}
    with override_settings(LANGUAGE_CODE="nl"):
        form = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
        assert "Avond verplaatsen" in form and "Avond afgelasten" in form
        page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
        assert "Aangemeld: Player 006." in page and 'name="confirm"' in page
        evening.refresh_from_db()
        assert evening.date != new_date  # nothing yet
        client.post(url, {**data, "confirm": "1"}, HTTP_ACCEPT_LANGUAGE="nl")
    evening.refresh_from_db()
    assert evening.date == new_date
    assert reverse("competition:leader_evening_move", args=[evening.pk]) in client.get(
        reverse("competition:leader_season", args=[season.slug])).content.decode()


def test_the_leader_adds_an_evening_from_his_page_and_a_bad_date_is_said(season, leader, client):
    client.force_login(leader)
    url = reverse("competition:leader_evening_add", args=[season.slug])
    taken = _evening(season).date
    with override_settings(LANGUAGE_CODE="nl"):
        page = client.post(url, {"date": taken.isoformat(), "start": "20:15", "kind": "playing",
                                 "confirm": "1"}, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Er is al een avond op" in page
    count = Evening.objects.filter(season=season).count()
    day = taken + dt.timedelta(days=1)
    client.post(url, {"date": day.isoformat(), "start": "20:15", "kind": "playing", "confirm": "1"})
    assert Evening.objects.filter(season=season).count() == count + 1


def test_the_move_page_keeps_its_queries_whatever_the_players(season, leader, client,
                                                              django_assert_max_num_queries):
    client.force_login(leader)
    evening = _evening(season)
    url = reverse("competition:leader_evening_move", args=[evening.pk])
    data = {"action": "move", "date": (evening.date - dt.timedelta(days=1)).isoformat(),
            "start": "20:00"}
    client.post(url, data)
    with django_assert_max_num_queries(30):
        client.post(url, data)
    for i in range(20):
        season_services.player_add(actor=f.admin(), season=season,
                                   member=f.member(name=f"Extra {i:02d}"), kind=PlayerKind.FIXED)
    with django_assert_max_num_queries(30):
        assert client.post(url, data).status_code == 200


def test_pairing_again_after_a_move_works(leader, paired_club):
    season, evening = paired_club
    new_date = evening.date + dt.timedelta(days=6)
    calendar_edits.evening_move(actor=leader, evening=evening, date=new_date)
    evening.refresh_from_db()
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    assert Game.objects.filter(evening=evening).exists()
