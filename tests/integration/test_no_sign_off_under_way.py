"""Issue 32: on an evening under way the home page offers no "Afmelden" to a player whose
game or bye is recorded, and says why; the service refuses his own change too."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from competition.season import services
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def test_a_player_with_a_bye_is_not_offered_a_sign_off_once_the_evening_started(
        client, at, django_capture_on_commit_callbacks):
    season = f.season(players=5)
    evening = f.playing_evenings(season)[0]
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    evening.refresh_from_db()
    bye = evening.bye.player
    client.force_login(bye.member)
    sign_off = f'name="evenings" value="{evening.pk}"'
    at(evening.starts_at - dt.timedelta(minutes=5))
    assert sign_off in client.get(reverse("competition:home")).content.decode()  # before: his
    at(evening.starts_at + dt.timedelta(minutes=30))
    html = client.get(reverse("competition:home")).content.decode()
    assert sign_off not in html
    assert f'data-under-way="{evening.pk}"' in html and "the evening is under way" in html
    with pytest.raises(ValidationError):
        services.registration_set(actor=bye.member, player=bye, evenings=[evening],
                                  status="absent_with_notice")
