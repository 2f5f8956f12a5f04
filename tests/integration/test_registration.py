"""Who may come in (issue 23; issue 19 §6): public registration is off by default; when a
club opens it, a registration is a request the leader accepts or refuses, and until then
the account is no member: listed nowhere and shown nothing members see."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from competition.audit import text as audit_text
from competition.events import services as events
from competition.events.forms import EntrantsForm
from competition.models import AuditAction, AuditRecord, Player
from competition.ratings.services import member_refs
from competition.season import services as competition_services
from core.permissions import Perm
from members import registration
from members.models import User
from tests import factories as f

pytestmark = pytest.mark.django_db
SIGNUP = {"email": "yvonne@example.org", "password1": "Schaak-2026!x", "password2": "Schaak-2026!x",
          "name": "Yvonne de Haan"}


def _pending(name: str = "Yvonne de Haan") -> User:
    return User.objects.create_user(email="stranger@example.org", password="pw-schaak-123", name=name,
                                    registration_pending=True)


def test_registration_is_closed_by_default_in_dutch_and_creates_nobody(client):
    client.cookies.load({"django_language": "nl"})
    page = client.get(reverse("account_signup"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Registratie gesloten" in text and "wedstrijdleider" in text
    client.post(reverse("account_signup"), SIGNUP)
    assert not User.objects.filter(email=SIGNUP["email"]).exists()
    login = client.get(reverse("account_login")).content.decode()
    assert reverse("account_signup") not in login


@override_settings(OPEN_REGISTRATION=True)
def test_with_registration_open_a_registration_is_a_request_not_a_member(client):
    assert reverse("account_signup") in client.get(reverse("account_login")).content.decode()
    client.post(reverse("account_signup"), SIGNUP)
    user = User.objects.get(email=SIGNUP["email"])
    assert user.registration_pending and not user.is_member
    assert not User.objects.members().filter(pk=user.pk).exists()
    client.force_login(user)
    home = client.get(reverse("competition:home")).content.decode()
    assert "data-registration-pending" in home and 'data-nav="profile"' not in home


def test_a_pending_registration_is_listed_nowhere_under_a_players_name(client):
    season = f.season(players=4)
    leader = f.leader()
    real = season.players.order_by("start").first().member
    stranger = _pending(real.name)
    event = events.event_create(actor=leader, season=season, kind="blitz", name="Snelschaak",
                                date=dt.date(2027, 6, 11))
    offered = EntrantsForm(event=event).fields["members"].queryset
    assert stranger not in offered and real in offered
    assert stranger.pk not in {ref.id for ref in member_refs()}
    # the event's TRF import and lookalikes find the one real member, not two
    found = events._members_by_name([real.name])
    assert [u.pk for u in found.values()] == [real.pk]


def test_a_pending_registration_does_not_see_who_is_coming(client, monkeypatch):
    season = f.season(players=4)
    evening = f.playing_evenings(season)[0]
    now = evening.deadline - dt.timedelta(days=2)
    monkeypatch.setattr(timezone, "now", lambda: now)
    coming = season.players.order_by("start").first().member.name
    url = reverse("competition:evening", args=[evening.date.isoformat()])
    client.force_login(season.players.order_by("start").last().member)
    assert coming in client.get(url).content.decode()
    client.force_login(_pending("Someone Else"))
    page = client.get(url).content.decode()
    assert coming not in page


def test_the_leader_accepts_a_registration_from_his_to_do_list(client):
    season = f.season(players=3)
    leader = f.leader()
    stranger = _pending()
    client.force_login(leader)
    todo = client.get(reverse("competition:leader")).content.decode()
    assert f'data-registration="{stranger.pk}"' in todo
    response = client.post(reverse("members:registration_decide", args=[stranger.pk]),
                           {"decision": "accept"})
    assert response.status_code == 302
    stranger.refresh_from_db()
    assert stranger.is_member and stranger.has_perm(Perm.REGISTER_SELF)
    player = Player.objects.get(season=season, member=stranger)
    assert player.start == 4 and player.kind == "flexible"
    record = AuditRecord.objects.get(action=AuditAction.MEMBER_ACCEPT)
    assert "Yvonne de Haan" in audit_text.sentence(record, {})
    assert f'data-registration="{stranger.pk}"' not in client.get(reverse("competition:leader")).content.decode()


def test_refusing_asks_first_then_removes_the_account(client):
    f.season(players=3)
    leader = f.leader()
    stranger = _pending()
    client.force_login(leader)
    url = reverse("members:registration_decide", args=[stranger.pk])
    asked = client.post(url, {"decision": "refuse"})
    assert asked.status_code == 200 and User.objects.filter(pk=stranger.pk).exists()
    client.post(url, {"decision": "refuse", "confirm": "1"})
    assert not User.objects.filter(pk=stranger.pk).exists()
    record = AuditRecord.objects.get(action=AuditAction.MEMBER_REFUSE)
    assert "Yvonne de Haan" in audit_text.sentence(record, {})


def test_only_the_leader_decides_and_a_decided_registration_is_not_decided_again():
    season = f.season(players=3)
    player = season.players.first().member
    stranger = _pending()
    with pytest.raises(PermissionDenied):
        registration.registration_accept(actor=player, member_id=stranger.pk, season=season)
    with pytest.raises(PermissionDenied):
        registration.registration_accept(actor=stranger, member_id=stranger.pk, season=season)
    leader = f.leader()
    registration.registration_accept(actor=leader, member_id=stranger.pk, season=season)
    from django.core.exceptions import ValidationError
    with pytest.raises(ValidationError):
        registration.registration_refuse(actor=leader, member_id=stranger.pk)
    assert User.objects.filter(pk=stranger.pk).exists()


def test_the_pairing_email_is_not_sent_to_a_member_who_turned_it_off(django_capture_on_commit_callbacks):
    from django.core import mail

    from pairing.services import evening_pair_and_publish

    season = f.season(players=4)
    quiet = season.players.order_by("start").first().member
    User.objects.filter(pk=quiet.pk).update(pairing_mail=False)
    evening = f.playing_evenings(season)[0]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True, now=evening.deadline)
    recipients = {address for message in mail.outbox for address in message.to}
    assert quiet.email not in recipients
    assert len(recipients) == 3


def test_club_duty_decision_goes_only_to_the_leader_when_the_player_wants_no_notices(
        django_capture_on_commit_callbacks):
    from django.core import mail

    season = f.season(players=4)
    leader = f.leader()
    player = season.players.order_by("start").first()
    User.objects.filter(pk=player.member_id).update(notice_mail=False)
    evening = f.playing_evenings(season)[1]
    now = evening.deadline - dt.timedelta(days=3)
    duty = competition_services.club_duty_request(actor=player.member, player=player, evening=evening, now=now)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        competition_services.club_duty_decide(actor=leader, request=duty, approve=True)
    recipients = {address for message in mail.outbox for address in [*message.to, *message.cc]}
    assert player.member.email not in recipients and leader.email in recipients
