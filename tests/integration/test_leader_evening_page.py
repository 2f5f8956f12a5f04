"""The leader's evening page as one compact table with bulk changes, and a player's
several evenings at once (issue 14)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditRecord, Registration
from pairing import services
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def leader_client(client, leader=None):
    client.force_login(leader or f.leader())
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def upcoming(s):
    today = timezone.localdate()
    return [e for e in f.playing_evenings(s) if e.date >= today]


def setup(players: int = 8):
    s = f.season(players=players, flexible=2)
    return s, upcoming(s)[0]


def test_the_players_are_one_table_with_one_form_not_a_card_each(client):
    s, evening = setup(8)
    page = leader_client(client).get(reverse("pairing:evening", args=[evening.pk])).content.decode()
    assert '<table class="compact players">' in page
    assert page.count('name="players"') == 8
    assert page.count(f'action="{reverse("pairing:registration_bulk", args=[evening.pk])}"') == 1
    assert '<section class="card" id="player-' not in page
    for p in s.players.all():
        assert reverse("pairing:player_evenings", args=[evening.pk, p.pk]) in page


def test_the_leader_gives_several_players_one_status_at_once(client):
    s, evening = setup(8)
    chosen = list(s.players.order_by("start")[:3])
    response = leader_client(client).post(
        reverse("pairing:registration_bulk", args=[evening.pk]),
        {"players": [p.pk for p in chosen], "status": "absent_with_notice"}, follow=True,
    )
    assert "3 players: absent with notice." in response.content.decode()
    regs = Registration.objects.filter(evening=evening)
    assert {r.player_id: r.status for r in regs} == {p.pk: "absent_with_notice" for p in chosen}
    assert AuditRecord.objects.filter(evening=evening, action="registration.set").count() == 3


def test_a_bulk_change_without_a_player_says_so_and_saves_nothing(client):
    _s, evening = setup(4)
    response = leader_client(client).post(
        reverse("pairing:registration_bulk", args=[evening.pk]),
        {"status": "present"}, follow=True,
    )
    assert "Choose at least one player." in response.content.decode()
    assert not Registration.objects.filter(evening=evening).exists()


def test_the_bulk_service_sets_all_or_none(client):
    s, evening = setup(4)
    other_season = f.season(players=1)
    stranger = other_season.players.get()
    mine = s.players.order_by("start").first()
    with pytest.raises(ValidationError, match="does not take part"):
        services.registrations_set_bulk(
            actor=f.leader(), evening_id=evening.pk, player_ids=[mine.pk, stranger.pk],
            status="absent_with_notice",
        )
    assert not Registration.objects.filter(evening=evening).exists()


def test_a_player_may_not_use_the_bulk_service():
    s, evening = setup(4)
    me = s.players.order_by("start").first()
    with pytest.raises(PermissionDenied):
        services.registrations_set_bulk(
            actor=me.member, evening_id=evening.pk, player_ids=[me.pk], status="present",
        )
    assert not Registration.objects.exists()


def test_the_leader_signs_a_player_off_for_several_evenings_at_once(client):
    s, evening = setup(4)
    player = s.players.order_by("start").first()
    evenings = upcoming(s)[:3]
    client = leader_client(client)
    url = reverse("pairing:player_evenings", args=[evening.pk, player.pk])
    page = client.get(url).content.decode()
    assert f'name="evenings" value="{evening.pk}" id="ev-{evening.pk}" checked' in page
    response = client.post(url, {"evenings": [e.pk for e in evenings],
                                 "status": "absent_with_notice"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#player-{player.pk}")
    saved = Registration.objects.filter(player=player)
    assert {r.evening_id for r in saved} == {e.pk for e in evenings}
    assert {r.status for r in saved} == {"absent_with_notice"}


def test_several_evenings_without_an_evening_says_so_and_saves_nothing(client):
    s, evening = setup(4)
    player = s.players.order_by("start").first()
    response = leader_client(client).post(
        reverse("pairing:player_evenings", args=[evening.pk, player.pk]),
        {"status": "absent_with_notice"},
    )
    assert response.status_code == 200
    assert "Choose at least one evening." in response.content.decode()
    assert not Registration.objects.exists()
