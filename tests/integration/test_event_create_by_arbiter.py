"""Issue 32: the arbiter creates the blitz or rapid event he runs (of his own club) and
enters its players; a new event takes the tie-break rules in force on its date (FIDE's
2026 edition from 1 March 2026 on) unless the arbiter chooses the edition."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from competition.events import services
from competition.events.engine.tiebreaks import edition_on
from competition.models import SwissEvent
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def test_the_edition_follows_the_day():
    assert edition_on(dt.date(2026, 2, 28)) == "2024"
    assert edition_on(dt.date(2026, 3, 1)) == "2026"


def test_the_arbiter_creates_a_blitz_and_enters_its_players(client):
    season = f.season(players=4)
    arbiter = f.arbiter()
    client.force_login(arbiter)
    events = client.get(reverse("events:events"), {"season": season.slug}).content.decode()
    assert reverse("events:event_new") in events
    assert reverse("events:event_import") not in events  # importing stays the leader's
    day = season.evenings.order_by("date").first().date
    response = client.post(reverse("events:event_new"), {
        "season": season.slug, "kind": "blitz", "name": "Snelschaken", "date": day.isoformat()})
    event = SwissEvent.objects.get(name="Snelschaken")
    assert response.status_code == 302 and response.url == reverse("events:entrants", args=[event.pk])
    members = [p.member_id for p in season.players.all()]
    client.post(reverse("events:entrants", args=[event.pk]), {"members": members})
    assert event.entrants.count() == 4
    assert event.rules == "2026"  # dated after 1 March 2026


def test_a_player_may_not_create_an_event():
    season = f.season(players=2)
    with pytest.raises(PermissionDenied):
        services.event_create(actor=f.member(), season=season, kind="rapid", name="Rapid")


def test_the_rules_follow_the_events_date_unless_chosen():
    season = f.season(players=2, opening=dt.date(2025, 9, 5), last_day=dt.date(2026, 7, 10))
    leader = f.leader()
    halves = season.halves.order_by("start_date")
    evenings = season.evenings.order_by("date")
    winter = services.event_create(actor=leader, season=season, kind="blitz", name="Winter",
                                   date=evenings.filter(date__lt=dt.date(2026, 1, 1)).first().date)
    june = services.event_create(actor=leader, season=season, kind="blitz", name="Juni",
                                 date=evenings.filter(date__gte=dt.date(2026, 3, 1)).first().date)
    rapid = services.event_create(actor=leader, season=season, kind="rapid", name="Rapid",
                                  half=halves.first())
    chosen = services.event_create(actor=leader, season=season, kind="blitz", name="Gekozen",
                                   date=june.date, rules="2024")
    assert (winter.rules, june.rules, rapid.rules, chosen.rules) == ("2024", "2026", "2024", "2024")


def test_the_event_form_offers_the_choice(client):
    season = f.season(players=2)
    client.force_login(f.leader())
    html = client.get(reverse("events:event_new"), {"season": season.slug}).content.decode()
    assert 'name="rules"' in html and 'value="2026"' in html


def test_the_arbiter_chooses_the_pairing_edition_or_leaves_it_to_the_date(client):
    """A blitz is paired by the Dutch system's edition in force on its date (FIDE 2026
    from 1 February 2026 on) unless the arbiter chooses one on the event's form."""
    season = f.season(players=2)
    client.force_login(f.arbiter())
    html = client.get(reverse("events:event_new"), {"season": season.slug}).content.decode()
    assert 'name="pairing_edition"' in html and 'value="2017"' in html
    day = season.evenings.order_by("date").first().date.isoformat()
    client.post(reverse("events:event_new"), {"season": season.slug, "kind": "blitz",
                                              "name": "Oud", "date": day, "pairing_edition": "2017"})
    client.post(reverse("events:event_new"), {"season": season.slug, "kind": "blitz",
                                              "name": "Vandaag", "date": day})
    chosen, by_date = SwissEvent.objects.get(name="Oud"), SwissEvent.objects.get(name="Vandaag")
    assert (chosen.pairing_edition, services.pairing_edition(chosen)) == ("2017", "2017")
    assert (by_date.pairing_edition, services.pairing_edition(by_date)) == ("", "2026")


def test_unknown_pairing_rules_are_refused_and_nothing_is_saved():
    season = f.season(players=2)
    day = season.evenings.order_by("date").first().date
    with pytest.raises(ValidationError, match="Unknown pairing rules"):
        services.event_create(actor=f.leader(), season=season, kind="blitz", name="X",
                              date=day, pairing_edition="1992")
    assert not SwissEvent.objects.filter(name="X").exists()
