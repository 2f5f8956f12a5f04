"""Club duty is requested by the player and approved by the leader (issue 13 §2).

Club duty scores outside the limit of absences with notice and does not count against
prize eligibility, so it is never a player's own word: until the leader approves, the
request scores as absent with notice (fixed player) or not signed up (flexible player).
The standings are checked through the database path (``recalculate_season``).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from competition.models import (
    AuditRecord,
    ClubDutyRequest,
    Registration,
    Season,
    Standing,
)
from competition.prizes import selectors as prize_selectors
from competition.season import notices, services
from competition.season.standings import recalculate_season
from core import mail as core_mail
from core.models import Mail
from core.tasks import send_mails_pending
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.clock import on_day
from tests.mailfakes import patch_send

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
DAY = dt.timedelta(days=1)
HOUR = dt.timedelta(hours=1)


@pytest.fixture
def club():
    """A `pion` season of four fixed players and one flexible one, and a leader."""
    s = f.season(players=5, flexible=1)
    players = list(s.players.select_related("member").order_by("start"))
    return s, players[0], players[-1], f.leader()


def evenings(s: Season, n: int):
    return f.playing_evenings(s, "winter")[:n]


def ask(player, evening, note: str = ""):
    return services.club_duty_request(actor=player.member, player=player, evening=evening,
                                      note=note, now=evening.deadline - DAY)


def play(*played) -> None:
    """Pair each evening at its deadline and enter 1-0 on every board."""
    arbiter = f.arbiter()
    for evening in played:
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                 now=evening.deadline)
        for game in evening.games.all():
            services.result_set(actor=arbiter, game=game, result="1-0")


def standing(s: Season, player, evening) -> Standing:
    recalculate_season(s.pk, today=evening.date)
    return Standing.objects.get(snapshot__evening=evening, snapshot__half__kind="winter",
                                player=player)


def line_of(row: Standing, evening) -> dict:
    (line,) = [x for x in row.lines() if x["date"] == evening.date.isoformat()]
    return line


def status(player, evening) -> str | None:
    return Registration.objects.filter(player=player, evening=evening).values_list(
        "status", flat=True).first()


# --- A player's own club duty is a request ------------------------------------------------


def test_fixed_players_own_club_duty_is_a_pending_request_scoring_absent_with_notice(club):
    s, fixed, _flex, _leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening, note="second team, away")

    assert duty.state == "requested" and duty.note == "second team, away"
    assert duty.decided_by is None and duty.decided_at is None
    assert status(fixed, evening) == "absent_with_notice"
    record = AuditRecord.objects.get(action="club_duty.request", player=fixed)
    assert record.actor == fixed.member
    assert record.after["status"] == "absent_with_notice" and record.after["state"] == "requested"


def test_fixed_players_late_request_scores_absent_without_notice_until_approved(club):
    s, fixed, _flex, _leader = club
    (evening,) = evenings(s, 1)
    services.club_duty_request(actor=fixed.member, player=fixed, evening=evening,
                               now=evening.deadline + HOUR)
    assert status(fixed, evening) == "absent_without_notice"


def test_flexible_players_request_leaves_him_not_signed_up(club):
    s, _fixed, flex, _leader = club
    (evening,) = evenings(s, 1)
    services.registration_set(actor=flex.member, player=flex, evenings=[evening],
                              status="present", now=evening.deadline - 2 * DAY)
    ask(flex, evening)
    assert status(flex, evening) == "absent_without_notice"


@pytest.mark.parametrize("kind", ["fixed", "flexible"])
def test_player_cannot_choose_club_duty_himself_and_nothing_is_saved(club, kind):
    s, fixed, flex, _leader = club
    player = fixed if kind == "fixed" else flex
    (evening,) = evenings(s, 1)
    with pytest.raises(ValidationError) as exc:
        services.registration_set(actor=player.member, player=player, evenings=[evening],
                                  status="club_duty", now=evening.deadline - DAY)
    assert "club duty" in " ".join(exc.value.messages)
    assert status(player, evening) is None
    assert not AuditRecord.objects.filter(player=player, action="registration.set").exists()


def test_request_after_the_evening_started_is_refused_and_nothing_saved(club):
    s, fixed, _flex, _leader = club
    (evening,) = evenings(s, 1)
    with pytest.raises(ValidationError) as exc:
        services.club_duty_request(actor=fixed.member, player=fixed, evening=evening,
                                   now=evening.starts_at)
    assert "ask the competition leader to record club duty" in " ".join(exc.value.messages)
    assert not ClubDutyRequest.objects.exists() and status(fixed, evening) is None
    assert not AuditRecord.objects.filter(player=fixed, action="club_duty.request").exists()


def test_request_for_another_player_is_refused(club):
    s, fixed, flex, _leader = club
    (evening,) = evenings(s, 1)
    with pytest.raises(PermissionDenied):
        services.club_duty_request(actor=flex.member, player=fixed, evening=evening,
                                   now=evening.deadline - DAY)
    assert not ClubDutyRequest.objects.exists() and status(fixed, evening) is None


def test_a_second_request_while_one_is_pending_is_refused(club):
    s, fixed, _flex, _leader = club
    (evening,) = evenings(s, 1)
    ask(fixed, evening)
    with pytest.raises(ValidationError) as exc:
        ask(fixed, evening)
    assert "requested club duty already" in " ".join(exc.value.messages)
    assert AuditRecord.objects.filter(action="club_duty.request").count() == 1


def test_a_refused_request_cannot_be_made_again(club):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    services.club_duty_decide(actor=leader, request=ask(fixed, evening), approve=False)
    with pytest.raises(ValidationError) as exc:
        ask(fixed, evening)
    assert "has refused club duty" in " ".join(exc.value.messages)
    assert ClubDutyRequest.objects.get().state == "refused"


def test_changing_his_sign_up_withdraws_the_request_and_he_may_ask_again(club):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening)
    services.registration_set(actor=fixed.member, player=fixed, evenings=[evening],
                              status="present", now=evening.deadline - DAY)
    duty.refresh_from_db()
    assert duty.state == "withdrawn" and status(fixed, evening) == "present"
    record = AuditRecord.objects.filter(action="registration.set", player=fixed).get()
    assert record.after["club_duty_request"] == "withdrawn"
    with pytest.raises(ValidationError):
        services.club_duty_decide(actor=leader, request=duty, approve=True)
    assert ask(fixed, evening).state == "requested"
    assert ClubDutyRequest.objects.count() == 1


# --- The leader decides -----------------------------------------------------------------


def test_approval_scores_club_duty_outside_the_absence_limit(club):
    """Five absences with notice use up `pion`'s limit: a sixth scores 0, so the pending
    request on the sixth evening scores 0; approved, it scores as club duty."""
    s, fixed, _flex, leader = club
    six = evenings(s, 6)
    for evening in six[:5]:
        services.registration_set(actor=leader, player=fixed, evenings=[evening],
                                  status="absent_with_notice", now=evening.deadline - DAY)
    duty = ask(fixed, six[5])
    play(*six)

    pending = standing(s, fixed, six[5])
    assert (pending.absent_with_notice, pending.club_duty) == (6, 0)
    line = line_of(pending, six[5])
    assert line["outcome"] == "absent_with_notice" and line["over_limit"]
    assert Fraction(line["exact"]) == 0

    services.club_duty_decide(actor=leader, request=duty, approve=True)
    assert status(fixed, six[5]) == "club_duty"
    approved = standing(s, fixed, six[5])
    assert (approved.absent_with_notice, approved.club_duty) == (5, 1)
    line = line_of(approved, six[5])
    assert line["outcome"] == "club_duty" and not line["over_limit"]
    assert Fraction(line["exact"]) == Fraction(3333, 10000) * Fraction(line["value"])
    assert Fraction(approved.score_exact) == Fraction(pending.score_exact) + Fraction(line["exact"])


def test_refusal_leaves_a_fixed_player_absent_with_notice(club):
    s, fixed, _flex, leader = club
    two = evenings(s, 2)
    duty = ask(fixed, two[1])
    decided = services.club_duty_decide(actor=leader, request=duty, approve=False)
    play(*two)

    assert decided.state == "refused" and decided.decided_by == leader
    assert status(fixed, two[1]) == "absent_with_notice"
    row = standing(s, fixed, two[1])
    assert (row.absent_with_notice, row.club_duty) == (1, 0)
    record = AuditRecord.objects.get(action="club_duty.decide", player=fixed)
    assert record.actor == leader
    assert record.before == {"state": "requested", "status": "absent_with_notice"}
    assert record.after == {"state": "refused", "status": "absent_with_notice"}


@pytest.mark.parametrize("approve", [True, False])
def test_flexible_players_request_counts_against_eligibility_until_approved(club, approve):
    s, _fixed, flex, leader = club
    two = evenings(s, 2)
    services.registration_set(actor=flex.member, player=flex, evenings=[two[0]],
                              status="present", now=two[0].deadline - DAY)
    duty = ask(flex, two[1])
    play(*two)
    winter = s.halves.get(kind="winter")

    row = standing(s, flex, two[1])
    assert (row.absent_without_notice, row.club_duty) == (1, 0)
    assert prize_selectors.eligibility(winter, today=two[1].date)[flex.pk].absent_without_notice == 1

    services.club_duty_decide(actor=leader, request=duty, approve=approve)
    row = standing(s, flex, two[1])
    expected = (0, 1) if approve else (1, 0)
    assert (row.absent_without_notice, row.club_duty) == expected
    assert prize_selectors.eligibility(winter, today=two[1].date)[flex.pk].absent_without_notice == (
        expected[0]
    )
    assert status(flex, two[1]) == ("club_duty" if approve else "absent_without_notice")


@pytest.mark.parametrize("role", ["player", "arbiter"])
def test_only_the_leader_decides_and_nothing_is_saved_otherwise(club, role):
    s, fixed, flex, _leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening)
    actor = fixed.member if role == "player" else f.arbiter()
    before = AuditRecord.objects.count()
    with pytest.raises(PermissionDenied):
        services.club_duty_decide(actor=actor, request=duty, approve=True)
    duty.refresh_from_db()
    assert duty.state == "requested" and duty.decided_by is None
    assert status(fixed, evening) == "absent_with_notice"
    assert AuditRecord.objects.count() == before


def test_a_decision_needs_a_pending_request(club):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = services.club_duty_decide(actor=leader, request=ask(fixed, evening), approve=True)
    with pytest.raises(ValidationError) as exc:
        services.club_duty_decide(actor=leader, request=duty, approve=False)
    assert "no pending club duty request" in " ".join(exc.value.messages)
    assert status(fixed, evening) == "club_duty"


@pytest.mark.parametrize("approve", [True, False])
def test_decision_schedules_a_recalculation_and_the_email_after_commit(
    club, approve, monkeypatch, django_capture_on_commit_callbacks
):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening)
    version = Season.objects.get(pk=s.pk).inputs_version
    queued = []
    monkeypatch.setattr("core.jobs.enqueue", lambda task, *args: queued.append((task, *args)))
    with django_capture_on_commit_callbacks(execute=True):
        services.club_duty_decide(actor=leader, request=duty, approve=approve)
        assert queued == []  # nothing before commit
    assert Season.objects.get(pk=s.pk).inputs_version > version
    (outbox_row,) = Mail.objects.filter(key__startswith=f"club-duty:{duty.pk}:")
    assert sorted(queued) == [
        ("competition.tasks.recalculate_half", evening.half_id),
        ("core.tasks.send_mails", [outbox_row.pk]),
    ]


def test_leader_recording_club_duty_on_behalf_approves_a_pending_request_at_once(
    club, django_capture_on_commit_callbacks
):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening)
    with django_capture_on_commit_callbacks(execute=True):
        services.registration_set(actor=leader, player=fixed, evenings=[evening],
                                  status="club_duty", force_majeure=True,
                                  now=evening.deadline + HOUR)
    duty.refresh_from_db()
    assert duty.state == "approved" and duty.decided_by == leader
    assert status(fixed, evening) == "club_duty"
    record = AuditRecord.objects.get(action="registration.set", player=fixed)
    assert record.actor == leader and record.after["club_duty_request"] == "approved"
    assert [m.to for m in mail.outbox] == [[fixed.member.email]]


def test_leader_records_club_duty_without_a_request(club):
    s, _fixed, flex, leader = club
    (evening,) = evenings(s, 1)
    (reg,) = services.registration_set(actor=leader, player=flex, evenings=[evening],
                                       status="club_duty", force_majeure=True,
                                       now=evening.deadline + HOUR)
    assert reg.status == "club_duty" and not ClubDutyRequest.objects.exists()
    assert AuditRecord.objects.get(action="registration.set", player=flex).actor == leader


# --- Both are told, once ------------------------------------------------------------------


@pytest.mark.parametrize("approve", [True, False])
def test_player_and_leader_are_emailed_the_decision_once(
    club, approve, django_capture_on_commit_callbacks
):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening, note="refereeing")
    assert mail.outbox == []  # nobody is e-mailed before the leader decides
    with django_capture_on_commit_callbacks(execute=True):
        services.club_duty_decide(actor=leader, request=duty, approve=approve)

    (message,) = mail.outbox
    assert message.to == [fixed.member.email] and message.cc == [leader.email]
    assert ("approved" if approve else "refused") in message.subject
    assert "refereeing" in message.body
    if not approve:
        assert "absent with notice" in message.body
    assert core_mail.deliver() == 0  # a second run of the task sends nothing
    assert notices.club_duty_decision_deliver(duty.pk) is False  # nor a task from before
    assert len(mail.outbox) == 1


def test_a_lost_email_task_is_caught_up_by_the_beat_job(club, monkeypatch):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening)
    monkeypatch.setattr("core.jobs.enqueue", lambda *args: False)  # broker down
    services.club_duty_decide(actor=leader, request=duty, approve=True)
    assert mail.outbox == []
    later = timezone.now() + dt.timedelta(minutes=1)
    assert core_mail.pending_ids(later) != []
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert send_mails_pending() == 1
    assert send_mails_pending() == 0
    assert len(mail.outbox) == 1


def test_a_failing_mail_server_leaves_the_email_for_the_retry(club, monkeypatch):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    services.club_duty_decide(actor=leader, request=ask(fixed, evening), approve=True)

    def broken(subject, body, sender, to):
        raise OSError("mail server down")

    patch_send(monkeypatch, broken)
    with pytest.raises(OSError):
        core_mail.deliver()
    monkeypatch.undo()
    assert core_mail.deliver() == 1 and core_mail.deliver() == 0
    assert len(mail.outbox) == 1


# --- The pages ----------------------------------------------------------------------------


@pytest.fixture
def september(monkeypatch):
    """The site's today is 1 September 2026, before the factories' season opens."""
    monkeypatch.setattr(timezone, "now", on_day(dt.date(2026, 9, 1)))


def test_sign_up_page_requests_club_duty_and_shows_it_pending(club, client, september):
    s, fixed, _flex, _leader = club
    two = evenings(s, 2)
    client.force_login(fixed.member)
    page = client.get(reverse("competition:signup")).content.decode()
    assert "the competition leader approves it" in page

    response = client.post(reverse("competition:signup"), {
        "evenings": [str(e.pk) for e in two], "status": "request_club_duty",
        "duty_note": "first team",
    }, follow=True)
    page = response.content.decode()
    assert "Your request is sent to the competition leader" in page
    assert page.count('data-club-duty="requested"') == 2
    assert sorted(ClubDutyRequest.objects.values_list("evening_id", "state", "note")) == sorted(
        (e.pk, "requested", "first team") for e in two
    )
    assert {status(fixed, e) for e in two} == {"absent_with_notice"}


def test_sign_up_page_requests_all_chosen_evenings_or_none(club, client, september):
    s, fixed, _flex, leader = club
    two = evenings(s, 2)
    services.club_duty_decide(actor=leader, request=ask(fixed, two[1]), approve=False)
    client.force_login(fixed.member)
    response = client.post(reverse("competition:signup"), {
        "evenings": [str(e.pk) for e in two], "status": "request_club_duty",
    }, follow=True)
    assert "has refused club duty" in response.content.decode()
    assert not ClubDutyRequest.objects.filter(evening=two[0]).exists()
    assert status(fixed, two[0]) is None


def test_leader_pages_show_pending_requests_with_approve_and_refuse(club, client, september):
    s, fixed, flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening, note="second team")
    client.force_login(leader)
    evening_url = reverse("pairing:evening", args=[evening.pk])
    for url in (reverse("competition:leader"), evening_url):
        page = client.get(url).content.decode()
        assert f'data-club-duty-request="{duty.pk}"' in page, url
        assert "second team" in page
        assert reverse("competition:club_duty_decide", args=[duty.pk]) in page
        assert 'value="approve"' in page and 'value="refuse"' in page

    response = client.post(reverse("competition:club_duty_decide", args=[duty.pk]),
                           {"decision": "approve", "next": evening_url})
    assert response.status_code == 302 and response.url == evening_url
    duty.refresh_from_db()
    assert duty.state == "approved"
    for url in (reverse("competition:leader"), evening_url):
        assert "data-club-duty-request" not in client.get(url).content.decode()
    card = client.get(evening_url).content.decode().split(f'id="player-{fixed.pk}"')[1]
    card = card.split("</section>")[0]
    assert 'data-status="club_duty"' in card and "club duty approved" in card


def test_decision_page_refuses_an_unknown_decision_and_saves_nothing(club, client):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening)
    client.force_login(leader)
    client.post(reverse("competition:club_duty_decide", args=[duty.pk]), {"decision": "maybe"})
    duty.refresh_from_db()
    assert duty.state == "requested"
    assert not AuditRecord.objects.filter(action="club_duty.decide").exists()


def test_decision_page_ignores_an_outside_next(club, client):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    duty = ask(fixed, evening)
    client.force_login(leader)
    response = client.post(reverse("competition:club_duty_decide", args=[duty.pk]),
                           {"decision": "refuse", "next": "https://evil.example/"})
    assert response.url == reverse("competition:leader")


def test_pages_speak_dutch(club, client, september):
    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    ask(fixed, evening)
    client.force_login(fixed.member)
    with translation.override("nl"):
        page = client.get(reverse("competition:signup"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Clubverplichting aanvragen" in page and "wacht op de leider" in page
    client.force_login(leader)
    with translation.override("nl"):
        page = client.get(reverse("competition:leader"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Aanvragen voor clubverplichting" in page and "vraagt clubverplichting aan" in page


def test_a_player_still_in_the_pairing_cannot_be_given_club_duty_until_removed(club):
    """He asked after the pairing was published: the leader removes him first, or the
    standings would count a game and ignore the duty."""
    from pairing.services import pairing_remove_player

    s, fixed, _flex, leader = club
    (evening,) = evenings(s, 1)
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                             now=evening.deadline)
    duty = services.club_duty_request(actor=fixed.member, player=fixed, evening=evening,
                                      now=evening.deadline + HOUR)
    with pytest.raises(ValidationError) as exc:
        services.club_duty_decide(actor=leader, request=duty, approve=True)
    assert "remove him from it first" in " ".join(exc.value.messages)
    duty.refresh_from_db()
    assert duty.state == "requested"
    pairing_remove_player(actor=leader, evening_id=evening.pk, player_id=fixed.pk)
    assert services.club_duty_decide(actor=leader, request=duty, approve=True).state == "approved"
    assert status(fixed, evening) == "club_duty"


def test_club_duty_on_several_evenings_is_one_service_all_or_none(club):
    s, fixed, _flex, _leader = club
    first, second = evenings(s, 2)
    ask(fixed, second)  # already asked for the second: the whole request is refused
    with pytest.raises(ValidationError, match="requested club duty already"):
        services.club_duty_request_evenings(actor=fixed.member, player=fixed,
                                            evenings=[first, second], now=first.deadline - DAY)
    assert not ClubDutyRequest.objects.filter(player=fixed, evening=first).exists()
    assert status(fixed, first) is None
    with pytest.raises(ValidationError, match="Choose at least one evening"):
        services.club_duty_request_evenings(actor=fixed.member, player=fixed, evenings=[])
