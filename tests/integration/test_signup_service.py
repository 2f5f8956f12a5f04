"""Signing up and off (docs/rules.md 3) through competition.season.services.registration_set."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from competition.models import AuditRecord, Registration
from competition.season import services
from core.dates import short_day
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
HOUR = dt.timedelta(hours=1)


@pytest.fixture
def season():
    return f.season(players=4, flexible=2)


def fixed_and_flexible(season):
    players = list(season.players.order_by("start"))
    return players[0], players[-1]


def test_player_signs_up_for_one_evening_and_for_several_at_once(season):
    _fixed, flex = fixed_and_flexible(season)
    evenings = f.playing_evenings(season)[:4]
    now = evenings[0].deadline - 2 * HOUR

    one = services.registration_set(actor=flex.member, player=flex, evenings=evenings[:1],
                                    status="present", now=now)
    several = services.registration_set(actor=flex.member, player=flex, evenings=evenings[1:],
                                        status="present", now=now)

    assert [r.evening for r in one] == evenings[:1]
    assert [r.evening for r in several] == evenings[1:]
    assert set(Registration.objects.filter(player=flex).values_list("status", flat=True)) == {
        "present"
    }
    assert Registration.objects.filter(player=flex).count() == 4
    assert all(r.changed_by == flex.member for r in one + several)


def test_fixed_players_sign_off_before_the_deadline_is_absent_with_notice(season):
    fixed, _flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    (reg,) = services.registration_set(actor=fixed.member, player=fixed, evenings=[evening],
                                       status="absent_with_notice", now=evening.deadline - HOUR)
    assert reg.status == "absent_with_notice"


def test_fixed_players_late_sign_off_becomes_absent_without_notice(season):
    fixed, _flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    (reg,) = services.registration_set(actor=fixed.member, player=fixed, evenings=[evening],
                                       status="absent_with_notice", now=evening.deadline + HOUR)
    assert reg.status == "absent_without_notice" and not reg.force_majeure
    record = AuditRecord.objects.get(action="registration.set", player=fixed)
    assert record.after == {"status": "absent_without_notice", "force_majeure": False,
                            "late": True}


def test_deadline_is_the_exact_moment_the_sign_off_turns_late(season):
    fixed, _flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    (reg,) = services.registration_set(actor=fixed.member, player=fixed, evenings=[evening],
                                       status="absent_with_notice", now=evening.deadline)
    assert reg.status == "absent_without_notice"


def test_flexible_players_late_sign_up_is_refused_with_the_message_and_nothing_saved(season):
    _fixed, flex = fixed_and_flexible(season)
    first, second = f.playing_evenings(season)[:2]
    # Signing up for two evenings at once, of which the first is past its deadline:
    # the whole action is refused, the second evening is not saved either.
    with pytest.raises(ValidationError) as refused:
        services.registration_set(actor=flex.member, player=flex, evenings=[first, second],
                                  status="present", now=first.deadline + HOUR)
    assert refused.value.messages == [
        f"{short_day(first.date)}: The sign-up deadline has passed; "
        "ask the competition leader to add you."
    ]
    assert not Registration.objects.filter(player=flex).exists()
    assert not AuditRecord.objects.filter(action="registration.set").exists()


def test_leader_signs_off_on_a_players_behalf_after_the_deadline_with_force_majeure(season):
    fixed, _flex = fixed_and_flexible(season)
    leader = f.leader()
    evening = f.playing_evenings(season)[0]
    (reg,) = services.registration_set(actor=leader, player=fixed, evenings=[evening],
                                       status="absent_with_notice", force_majeure=True,
                                       now=evening.deadline + HOUR)
    assert reg.status == "absent_with_notice" and reg.force_majeure
    assert reg.changed_by == leader
    record = AuditRecord.objects.get(action="registration.set", player=fixed)
    assert record.actor == leader and record.after["force_majeure"] is True


def test_leaders_late_sign_off_without_force_majeure_is_absent_without_notice(season):
    fixed, _flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    (reg,) = services.registration_set(actor=f.leader(), player=fixed, evenings=[evening],
                                       status="absent_with_notice", now=evening.deadline + HOUR)
    assert reg.status == "absent_without_notice" and not reg.force_majeure


def test_leader_adds_a_flexible_player_after_the_deadline(season):
    _fixed, flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    (reg,) = services.registration_set(actor=f.leader(), player=flex, evenings=[evening],
                                       status="present", now=evening.deadline + HOUR)
    assert reg.status == "present"


def test_player_cannot_change_another_players_status(season):
    fixed, flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    with pytest.raises(PermissionDenied):
        services.registration_set(actor=flex.member, player=fixed, evenings=[evening],
                                  status="absent_with_notice", now=evening.deadline - HOUR)
    for visitor in (None, AnonymousUser()):
        with pytest.raises(PermissionDenied):
            services.registration_set(actor=visitor, player=fixed, evenings=[evening],
                                      status="absent_with_notice", now=evening.deadline - HOUR)
    assert not Registration.objects.exists()
    assert not AuditRecord.objects.filter(action="registration.set").exists()


def test_player_cannot_record_force_majeure_for_himself(season):
    fixed, _flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    (reg,) = services.registration_set(actor=fixed.member, player=fixed, evenings=[evening],
                                       status="absent_with_notice", force_majeure=True,
                                       now=evening.deadline + HOUR)
    assert reg.status == "absent_without_notice" and not reg.force_majeure


def test_every_change_is_audited_with_who_before_and_after(season):
    _fixed, flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    early = evening.deadline - 3 * HOUR
    services.registration_set(actor=flex.member, player=flex, evenings=[evening],
                              status="present", now=early)
    services.registration_set(actor=flex.member, player=flex, evenings=[evening],
                              status="absent_without_notice", now=early)

    records = list(AuditRecord.objects.filter(action="registration.set", player=flex)
                   .order_by("id"))
    assert [(r.before, r.after["status"]) for r in records] == [
        (None, "present"),
        ({"status": "present", "force_majeure": False}, "absent_without_notice"),
    ]
    assert {r.actor for r in records} == {flex.member}
    assert {r.evening for r in records} == {evening}
    assert Registration.objects.get(player=flex).version == 2


def test_once_the_pairing_is_published_a_player_can_sign_off_late_but_not_sign_up():
    from pairing.services import evening_pair_and_publish

    s = f.season(players=4, flexible=1)
    evening = f.playing_evenings(s)[-1]  # a future evening, paired early by the leader
    evening_pair_and_publish(evening_id=evening.pk, actor=f.leader())
    flexible = s.players.get(kind="flexible")
    with pytest.raises(ValidationError, match="published"):
        services.registration_set(actor=flexible.member, player=flexible, evenings=[evening],
                                  status="present")
    assert not Registration.objects.filter(evening=evening, player=flexible).exists()
    fixed = s.players.filter(kind="fixed").order_by("start").first()
    services.registration_set(actor=fixed.member, player=fixed, evenings=[evening],
                              status="absent_with_notice",
                              now=evening.deadline + dt.timedelta(minutes=1))
    assert Registration.objects.get(evening=evening, player=fixed).status == (
        "absent_without_notice"
    )


@pytest.mark.parametrize("status", ["absent_with_notice", "club_duty"])
def test_flexible_player_cannot_excuse_himself_and_nothing_is_saved(season, status):
    _fixed, flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    with translation.override("en"), pytest.raises(ValidationError) as exc:
        services.registration_set(actor=flex.member, player=flex, evenings=[evening],
                                  status=status, now=evening.deadline - HOUR)
    assert "only the competition leader can record an absence with notice or club duty" in (
        " ".join(exc.value.messages)
    )
    assert not Registration.objects.filter(player=flex).exists()
    assert not AuditRecord.objects.filter(player=flex, action="registration.set").exists()


def test_flexible_player_withdraws_his_sign_up_even_after_the_pairing(season):
    _fixed, flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    services.registration_set(actor=flex.member, player=flex, evenings=[evening],
                              status="present", now=evening.deadline - HOUR)
    evening.status = "published"
    evening.save(update_fields=["status"])
    (reg,) = services.registration_set(actor=flex.member, player=flex, evenings=[evening],
                                       status="absent_without_notice", now=evening.deadline + HOUR)
    assert reg.status == "absent_without_notice"


def test_leader_records_absence_with_notice_for_a_flexible_player_audited(season):
    _fixed, flex = fixed_and_flexible(season)
    evening = f.playing_evenings(season)[0]
    leader = f.leader()
    (reg,) = services.registration_set(actor=leader, player=flex, evenings=[evening],
                                       status="absent_with_notice", force_majeure=True,
                                       now=evening.deadline + HOUR)
    assert reg.status == "absent_with_notice" and reg.force_majeure
    record = AuditRecord.objects.get(action="registration.set", player=flex)
    assert record.actor == leader and record.after["status"] == "absent_with_notice"


def test_sign_up_page_offers_a_flexible_player_only_signed_up_or_not(season, client):
    from django.urls import reverse

    fixed, flex = fixed_and_flexible(season)
    client.force_login(flex.member)
    page = client.get(reverse("competition:signup"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    choices = page.split('name="status"')[1].split("</select>")[0]
    assert 'value="present"' in choices and 'value="absent_without_notice"' in choices
    assert "absent_with_notice\"" not in choices and 'value="club_duty"' not in choices
    # Club duty is only ever requested, for the leader to approve.
    assert 'value="request_club_duty"' in choices
    client.force_login(fixed.member)
    page = client.get(reverse("competition:signup"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    choices = page.split('name="status"')[1].split("</select>")[0]
    assert 'value="absent_with_notice"' in choices
    assert 'value="club_duty"' not in choices and 'value="request_club_duty"' in choices
