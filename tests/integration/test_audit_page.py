"""A readable audit trail: /leader/audit/ shows sentences in Dutch, one per change,
filterable by evening, player, kind and date, and paginated; a bad filter value is
reported and ignored, never a server error."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone, translation
from pytest_django.asserts import assertContains

from competition import audit
from competition.audit import text as audit_text
from competition.models import Attendance, AuditAction, AuditRecord
from competition.season import services
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def club():
    leader = f.leader()
    season = f.season(players=4, flexible=1)
    anna = season.players.order_by("start").first()
    anna.member.name = "Anna de Vries"
    anna.member.save()
    evening = next(e for e in f.playing_evenings(season) if e.date == dt.date(2026, 12, 4))
    return season, leader, anna, evening


def _nl(client):
    client.cookies["django_language"] = "nl"
    return client


def test_a_player_signing_off_reads_as_a_dutch_sentence(club):
    season, _leader, anna, evening = club
    services.registration_set(actor=anna.member, player=anna, evenings=[evening],
                              status=Attendance.ABSENT_WITH_NOTICE,
                              now=evening.deadline - dt.timedelta(days=2))
    record = AuditRecord.objects.select_related("player__member", "actor", "evening").get(
        action=AuditAction.REGISTRATION_SET)
    with translation.override("nl"):
        text = audit_text.sentence(record, {anna.pk: anna.member.name})
    assert text == "Anna de Vries meldde zich af voor vr 4 dec, met bericht"


def test_the_leader_acting_for_a_player_is_named_and_a_late_change_said(club):
    season, leader, anna, evening = club
    services.registration_set(actor=leader, player=anna, evenings=[evening],
                              status=Attendance.ABSENT_WITHOUT_NOTICE,
                              now=evening.deadline + dt.timedelta(hours=1))
    record = AuditRecord.objects.select_related("player__member", "actor", "evening").get(
        action=AuditAction.REGISTRATION_SET)
    with translation.override("nl"):
        text = audit_text.sentence(record, {anna.pk: anna.member.name})
    assert text.startswith("Leader meldde Anna de Vries af voor vr 4 dec, zonder bericht")
    assert "(na de deadline)" in text or "deadline" in text


@pytest.mark.parametrize("action", list(AuditAction))
def test_every_action_has_a_sentence_without_codes_even_with_nothing_recorded(club, action):
    season, leader, anna, evening = club
    record = AuditRecord(actor=leader, action=action, evening=evening, player=anna,
                         before=None, after=None)
    with translation.override("nl"):
        text = audit_text.sentence(record, {anna.pk: anna.member.name})
    assert text and action.value not in text
    assert "{" not in text and "%(" not in text


def test_the_page_shows_sentences_not_codes_or_dicts(client, club):
    season, leader, anna, evening = club
    services.registration_set(actor=anna.member, player=anna, evenings=[evening],
                              status=Attendance.ABSENT_WITH_NOTICE,
                              now=evening.deadline - dt.timedelta(days=2))
    _nl(client).force_login(leader)
    response = client.get("/leader/audit/")
    assertContains(response, "Anna de Vries meldde zich af voor vr 4 dec, met bericht")
    html = response.content.decode()
    listed = html[html.index('id="audit-list"'):]
    assert "registration.set" not in listed and "{&#x27;status" not in listed
    assert re.search(r"\b(ma|di|wo|do|vr|za|zo) \d+ [a-z]{3} \d\d:\d\d", listed)  # "ma 30 nov 18:01"


def _fill(season, leader, anna, evening, n: int) -> None:
    for i in range(n):
        audit.record(actor=leader, action=AuditAction.EVENING_UPDATE, evening=evening,
                     after={"note": str(i)})


def test_the_page_is_paginated_by_fifty(client, club):
    season, leader, anna, evening = club
    AuditRecord.objects.all().delete()
    _fill(season, leader, anna, evening, 60)
    client.force_login(leader)
    first = client.get("/leader/audit/")
    assert len(first.context["rows"]) == 50
    assertContains(first, "page=2")
    second = client.get("/leader/audit/?page=2")
    assert len(second.context["rows"]) == 10
    assert client.get("/leader/audit/?page=abc").context["page"].number == 1
    assert client.get("/leader/audit/?page=999").context["page"].number == 2


def test_filters_by_evening_player_kind_and_date(client, club):
    season, leader, anna, evening = club
    other = season.players.exclude(pk=anna.pk).first()
    later = f.playing_evenings(season)[5]
    before = evening.deadline - dt.timedelta(days=2)
    services.registration_set(actor=leader, player=anna, evenings=[evening, later],
                              status=Attendance.ABSENT_WITH_NOTICE, now=before)
    services.registration_set(actor=leader, player=other, evenings=[evening],
                              status=Attendance.ABSENT_WITH_NOTICE, now=before)
    audit.record(actor=leader, action=AuditAction.EVENING_UPDATE, evening=evening)
    client.force_login(leader)

    def ids(query: str) -> set[int]:
        response = client.get("/leader/audit/" + query)
        assert response.status_code == 200
        return {row["record"].pk for row in response.context["rows"]}

    signups = AuditRecord.objects.filter(action=AuditAction.REGISTRATION_SET)
    assert ids(f"?evening={evening.pk}") == set(
        AuditRecord.objects.filter(evening=evening).values_list("pk", flat=True))
    assert ids(f"?player={anna.pk}") == set(
        AuditRecord.objects.filter(player=anna).values_list("pk", flat=True))
    assert ids("?action=registration.set") == set(signups.values_list("pk", flat=True))
    assert ids(f"?player={anna.pk}&evening={later.pk}") == set(
        signups.filter(player=anna, evening=later).values_list("pk", flat=True))
    today = timezone.localdate()
    assert ids(f"?day={today.isoformat()}") == set(AuditRecord.objects.values_list("pk", flat=True))
    assert ids(f"?day={(today - dt.timedelta(days=1)).isoformat()}") == set()


@pytest.mark.parametrize("query", [
    "?evening=%C2%B2", "?evening=abc", "?player=-1", "?player=99999999999999999999",
    "?action=no.such", "?day=2026-13-45", "?page=x", "?evening=1&evening=x",
])
def test_a_bad_filter_value_is_reported_and_ignored(client, club, query):
    season, leader, anna, evening = club
    _nl(client).force_login(leader)
    everything = AuditRecord.objects.count()
    response = client.get("/leader/audit/" + query, follow=False)
    assert response.status_code == 200
    if "page" not in query:
        assertContains(response, "genegeerd")
    assert response.context["page"].paginator.count == everything


def test_a_nul_byte_in_a_filter_is_refused_before_the_page(client, club):
    season, leader, anna, evening = club
    client.force_login(leader)
    assert client.get("/leader/audit/?page=%00").status_code == 400  # config/middleware.py


def test_the_audit_page_is_the_leaders(client, club):
    season, leader, anna, evening = club
    client.force_login(anna.member)
    assert client.get("/leader/audit/").status_code == 403


@pytest.mark.django_db
def test_an_undefined_audit_action_is_refused_in_code():
    """The action column has no choices (a new action costs no migration): save() checks it."""
    with pytest.raises(ValueError):
        AuditRecord(action="season.nonsense").save()
    assert not AuditRecord.objects.filter(action="season.nonsense").exists()
