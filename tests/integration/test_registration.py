"""Who may come in (issue 23; issue 19 §6): public registration is off by default; when a
club opens it, a registration is a request the leader accepts or refuses, and until then
the account is no member: listed nowhere and shown nothing members see."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from competition.audit import text as audit_text
from competition.events import services as events
from competition.events.forms import EntrantsForm
from competition.models import AuditAction, AuditRecord, Player
from competition.ratings.services import member_refs
from competition.season import services as competition_services
from core.permissions import Perm
from members.accounts import registration
from members.clubs.memo import home_club
from members.models import Membership, User
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
SIGNUP = {"email": "yvonne@example.org", "password1": "Schaak-2026!x", "password2": "Schaak-2026!x",
          "name": "Yvonne de Haan"}


def _pending(name: str = "Yvonne de Haan", club=None, email: str = "stranger@example.org") -> User:
    """A registration made at ``club``'s address (club A's when not given)."""
    user = User.objects.create_user(email=email, password="pw-schaak-123", name=name,
                                    registration_pending=True)
    registration.record_registration(user, club or home_club())
    return user


def test_registration_is_closed_by_default_in_dutch_and_creates_nobody(client):
    client.cookies.load({"django_language": "nl"})
    page = client.get(reverse("account_signup"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Registratie gesloten" in text and "competitieleider" in text
    client.post(reverse("account_signup"), SIGNUP)
    assert not User.objects.filter(email=SIGNUP["email"]).exists()
    login = client.get(reverse("account_login")).content.decode()
    assert reverse("account_signup") not in login


def test_with_registration_open_a_registration_is_a_request_not_a_member(client, open_registration):
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
    Membership.objects.filter(user=quiet, club=home_club()).update(pairing_mail=False)
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
    Membership.objects.filter(user_id=player.member_id, club=home_club()).update(notice_mail=False)
    evening = f.playing_evenings(season)[1]
    now = evening.deadline - dt.timedelta(days=3)
    duty = competition_services.club_duty_request(actor=player.member, player=player, evening=evening, now=now)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        competition_services.club_duty_decide(actor=leader, request=duty, approve=True)
    recipients = {address for message in mail.outbox for address in [*message.to, *message.cc]}
    assert player.member.email not in recipients and leader.email in recipients


# --- Registrations per club (issue 28): each club's own setting, its own requests --------

def _b_view(member: User, club) -> dict:
    """What club B shows of ``member``: his role there and his players."""
    from members.clubs.context import club_context
    from members.clubs.roles import club_role

    with club_context(club):
        return {"role": club_role(member, club), "players": sorted(
            Player.objects.filter(member=member).values_list("season__name", "kind", "start"))}


def test_registration_is_each_clubs_own_setting_and_asks_the_club_of_its_address(client, open_registration,
                                                                                 settings):
    from members.models import JoinRequest
    from tests.decoy import SLUG, decoy

    settings.RANGLIJST_SINGLE_CLUB = False
    b = decoy()
    a = f"/{open_registration.slug}"
    assert open_registration.open_registration and not b.open_registration
    assert 'name="password1"' in client.get(f"{a}/accounts/signup/").content.decode()
    closed = client.get(f"/{SLUG}/accounts/signup/").content.decode()
    assert "data-nav" in closed or "<h1>" in closed
    assert "/accounts/signup/" not in client.get(f"/{SLUG}/accounts/login/").content.decode()
    assert 'name="password1"' not in closed
    client.post(f"/{SLUG}/accounts/signup/", SIGNUP)
    assert not User.objects.filter(email=SIGNUP["email"]).exists()
    client.post(f"{a}/accounts/signup/", SIGNUP)  # at A's address
    user = User.objects.get(email=SIGNUP["email"])
    assert list(JoinRequest.objects.filter(user=user).values_list("club", "kind")) == [
        (open_registration.pk, "registration")]


def test_a_registration_is_seen_and_decided_by_its_own_clubs_leader_alone(client, settings):
    from django.core.exceptions import ValidationError

    from members.clubs.context import club_context
    from tests.decoy import SLUG, decoy

    settings.RANGLIJST_SINGLE_CLUB = False
    f.season(players=3)
    b = decoy()
    stranger = _pending(club=home_club())
    leader_b = f.leader(b)
    client.force_login(leader_b)
    todo_b = client.get(f"/{SLUG}/leader/").content.decode()
    assert f'data-registration="{stranger.pk}"' not in todo_b and stranger.email not in todo_b
    for decision in ({"decision": "accept"}, {"decision": "refuse", "confirm": "1"}):
        answer = client.post(f"/{SLUG}/leader/members/registrations/{stranger.pk}/", decision)
        assert answer.status_code == 404
    with club_context(b):
        with pytest.raises(ValidationError):
            registration.registration_refuse(actor=leader_b, member_id=stranger.pk)
        with pytest.raises(ValidationError):
            registration.registration_accept(actor=leader_b, member_id=stranger.pk, season=None)
    stranger.refresh_from_db()
    assert stranger.registration_pending and not stranger.memberships.exists()
    client.force_login(f.leader())
    todo_a = client.get(f"/{home_club().slug}/leader/").content.decode()
    assert f'data-registration="{stranger.pk}"' in todo_a


def test_refusing_never_deletes_an_account_that_has_another_membership(client):
    """A member of club B who asked to join club A (a request of his own at A's address) is
    refused by A's leader: the request goes, his account and B's view of him stay."""
    from tests.decoy import SHARED_EMAIL, decoy

    f.season(players=3)
    b = decoy()
    b_member = (User.objects.filter(memberships__club=b, memberships__role="player")
                .exclude(email=SHARED_EMAIL).order_by("pk").first())
    registration.record_registration(b_member, home_club())
    before = _b_view(b_member, b)
    client.force_login(f.leader())
    url = reverse("members:registration_decide", args=[b_member.pk])
    asked = client.post(url, {"decision": "refuse"}).content.decode()
    assert "wordt verwijderd" not in asked and "is removed" not in asked
    client.post(url, {"decision": "refuse", "confirm": "1"})
    b_member.refresh_from_db()
    assert b_member.is_active and b_member.has_usable_password()
    assert _b_view(b_member, b) == before and before["role"] == "player" and before["players"]
    assert not b_member.join_requests.exists()


def test_refusing_keeps_an_account_that_had_a_membership():
    """An account that was a club's member once (accepted, then left) is no fresh
    registration: a refusal removes the request only."""
    from members.models import Membership

    f.season(players=3)
    former = User.objects.create_user(email="oud-lid@example.org", password="pw-schaak-123",
                                      name="Oud Lid")  # accepted once: not pending
    assert not Membership.objects.filter(user=former).exists()
    registration.record_registration(former, home_club())
    registration.registration_refuse(actor=f.leader(), member_id=former.pk)
    assert User.objects.filter(pk=former.pk).exists()


def test_accepting_in_club_a_leaves_club_bs_view_of_a_shared_person_unchanged():
    from tests.decoy import SHARED_EMAIL, decoy

    season = f.season(players=3)
    b = decoy()
    shared = User.objects.get(email=SHARED_EMAIL)
    shared.memberships.filter(club=home_club()).delete()  # a member of B alone, asking A
    registration.record_registration(shared, home_club())
    before = _b_view(shared, b)
    registration.registration_accept(actor=f.leader(), member_id=shared.pk, season=season)
    assert _b_view(shared, b) == before
    assert Player.objects.filter(season=season, member=shared).exists()
