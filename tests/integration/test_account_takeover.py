"""Issue 19 §2: a leader can no longer take over an account.

Before: the leader's member form set any member's address, marked verified, and a
password reset to it handed him the account (up to the administrator's). Now a new
address waits for its owner's confirmation, the old one is told and can undo, and a
leader never changes the address or password of an account at or above his role."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.exceptions import ValidationError

from competition.season.services import player_add
from members import services
from members.models import User
from tests import factories as f

pytestmark = pytest.mark.django_db
LEADERS_OWN = "leider.prive@example.org"


def _edit_url(player) -> str:
    return f"/leader/members/{player.season.slug}/players/{player.pk}/"


def _form(player, email: str) -> dict[str, str]:
    m = player.member
    return {"name": m.name, "email": email, "rating": m.rating or "", "knsb_number": m.knsb_number,
            "kind": player.kind}


def _reset_links(to: str) -> list[str]:
    return [link for message in mail.outbox if to in message.to
            for link in re.findall(r"http://testserver(/accounts/password/reset/key/\S+)", message.body)]


def _ask_reset(client, email: str) -> None:
    client.post("/accounts/password/reset/", {"email": email})


def test_a_leader_cannot_take_over_the_administrator_who_also_plays(client, django_capture_on_commit_callbacks):
    season = f.season(players=3)
    admin = User.objects.create_superuser(email="beheer@example.org", password="Beheer-geheim-1", name="Bea Beheer")
    EmailAddress.objects.create(user=admin, email=admin.email, verified=True, primary=True)
    f.join(admin)
    player = player_add(actor=f.admin(), season=season, member=admin, kind="flexible")
    leader = f.leader()
    client.force_login(leader)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_edit_url(player), _form(player, LEADERS_OWN))
    assert response.status_code == 200
    assert "higher role" in response.content.decode()
    admin.refresh_from_db()
    assert admin.email == "beheer@example.org"
    assert not EmailAddress.objects.filter(email=LEADERS_OWN).exists()
    assert not mail.outbox
    client.logout()
    _ask_reset(client, LEADERS_OWN)
    assert not _reset_links(LEADERS_OWN)
    assert not client.login(email="beheer@example.org", password="other")  # nothing changed hands
    assert User.objects.get(pk=admin.pk).check_password("Beheer-geheim-1")


@pytest.mark.parametrize("role", ["leader", "administrator"])
def test_a_leader_cannot_change_the_address_of_a_role_at_or_above_his(role):
    season = f.season(players=2)
    other = f.member(role=role, name="Hoger")
    player = player_add(actor=f.admin(), season=season, member=other, kind="flexible")
    with pytest.raises(ValidationError, match="higher role"):
        services.member_update(actor=f.leader(), player=player, name=other.name, email="x@example.org",
                               rating=None, knsb_number="", kind="flexible", site_url="http://testserver/")
    other.refresh_from_db()
    assert other.email != "x@example.org" and not EmailAddress.objects.filter(email="x@example.org").exists()


def test_staff_ranks_above_every_role_and_a_superuser_above_staff():
    from members.roles import account_rank, may_manage_account

    player, leader, admin = f.member(), f.leader(), f.admin()
    staff = f.member(role=None)
    staff.is_staff = True
    staff.save()
    root = User.objects.create_superuser(email="root@example.org", password="x", name="Root")
    assert [account_rank(u) for u in (player, leader, admin, staff, root)] == [0, 2, 3, 4, 5]
    assert may_manage_account(leader, player) and may_manage_account(leader, leader)
    assert not may_manage_account(leader, admin) and not may_manage_account(admin, staff)
    assert may_manage_account(root, staff) and not may_manage_account(None, player)


def test_a_changed_address_is_confirmed_by_its_owner_and_the_old_one_can_undo(
    client, django_capture_on_commit_callbacks,
):
    season = f.season(players=2)
    player = season.players.first()
    member = player.member
    old = member.email
    EmailAddress.objects.create(user=member, email=old, verified=True, primary=True)
    client.force_login(f.leader())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_edit_url(player), _form(player, LEADERS_OWN))
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.email == old  # not yet: the new address has to confirm
    assert not EmailAddress.objects.get(email=LEADERS_OWN).verified
    [confirm] = [m for m in mail.outbox if m.to == [LEADERS_OWN]]
    [notice] = [m for m in mail.outbox if m.to == [old]]
    assert LEADERS_OWN in notice.body and old in confirm.body
    confirm_url = re.search(r"http://testserver(/accounts/confirm-email/\S+)", confirm.body)[1]
    undo_url = re.search(r"http://testserver(/accounts/email/undo/\S+)", notice.body)[1]

    # A password reset to the unconfirmed address finds nobody.
    client.logout()
    _ask_reset(client, LEADERS_OWN)
    assert not _reset_links(LEADERS_OWN)

    # The new address confirms: now it is the member's only one, and a reset reaches it.
    assert client.post(confirm_url).status_code == 302
    member.refresh_from_db()
    assert member.email == LEADERS_OWN
    assert list(EmailAddress.objects.filter(user=member).values_list("email", "verified")) == [(LEADERS_OWN, True)]
    _ask_reset(client, LEADERS_OWN)
    [link] = _reset_links(LEADERS_OWN)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0]
    client.post(form_url, {"password1": "Overgenomen-1!", "password2": "Overgenomen-1!"})
    assert client.login(email=LEADERS_OWN, password="Overgenomen-1!")
    assert client.get("/").wsgi_request.user == member

    # The owner undoes it from his old mailbox: his address is back, the password cleared,
    # whoever signed in with the taken-over password is out.
    owner = type(client)()
    assert "Before you go ahead" in owner.get(undo_url).content.decode()
    response = owner.post(undo_url)
    assert "again" in response.content.decode()
    member.refresh_from_db()
    assert member.email == old and not member.has_usable_password()
    assert list(EmailAddress.objects.filter(user=member).values_list("email", "verified")) == [(old, True)]
    assert client.get("/").wsgi_request.user.is_anonymous


def test_undo_before_the_confirmation_cancels_the_new_address(client, django_capture_on_commit_callbacks):
    season = f.season(players=2)
    player = season.players.first()
    old = player.member.email
    with django_capture_on_commit_callbacks(execute=True):
        services.member_update(actor=f.leader(), player=player, name=player.member.name, email="nieuw@example.org",
                               rating=player.member.rating, knsb_number="", kind=player.kind,
                               site_url="http://testserver/")
    undo_url = re.search(r"http://testserver(/accounts/email/undo/\S+)", mail.outbox[-1].body)[1]
    confirm_url = re.search(r"http://testserver(/accounts/confirm-email/\S+)", mail.outbox[0].body)[1]
    assert "cancelled" in client.post(undo_url).content.decode()
    assert not EmailAddress.objects.filter(email="nieuw@example.org").exists()
    client.post(confirm_url)
    player.member.refresh_from_db()
    assert player.member.email == old and player.member.has_usable_password()
    assert "not valid" in client.post(undo_url.replace("/undo/", "/undo/x")).content.decode()


def test_a_forged_undo_link_changes_nothing(client):
    member = f.member()
    response = client.post("/accounts/email/undo/eyJtIjoxfQ:forged:sig/")
    assert response.status_code == 200 and "not valid" in response.content.decode()
    member.refresh_from_db()
    assert member.has_usable_password()


def test_the_invitation_verifies_the_address_only_when_the_password_is_set(
    client, django_capture_on_commit_callbacks,
):
    season = f.season(players=2)
    with django_capture_on_commit_callbacks(execute=True):
        player = services.member_add(actor=f.leader(), season=season, name="Nina", email="nina@example.org",
                                     site_url="http://testserver/")
    assert not EmailAddress.objects.get(user=player.member).verified
    url = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[0].body)[1]
    response = client.get(url, follow=True)
    client.post(response.redirect_chain[-1][0], {"password1": "Zet-1-wachtwoord!", "password2": "Zet-1-wachtwoord!"})
    assert EmailAddress.objects.get(user=player.member).verified


def test_the_django_admin_refuses_a_staff_member_the_superusers_password(client):
    root = User.objects.create_superuser(email="root@example.org", password="Root-geheim-1", name="Root")
    stranger = User.objects.create_superuser(email="elders@example.org", password="x", name="Elders")
    f.join(root)  # a member of the club: in its administrator's list of accounts
    staff = f.member(role="administrator", name="Staf")
    staff.is_staff = True
    staff.save()
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["change_user", "view_user"]))
    client.force_login(staff)
    response = client.post(f"/admin/members/user/{root.pk}/password/",
                           {"password1": "Overgenomen-1!", "password2": "Overgenomen-1!", "usable_password": "true"})
    assert response.status_code == 403
    root.refresh_from_db()
    assert root.check_password("Root-geheim-1")
    # An account of no member of his club is not even there for him.
    assert client.get(f"/admin/members/user/{stranger.pk}/password/").status_code == 404
    colleague = f.member(name="Collega")  # a member of the club, and staff: his equal
    colleague.is_staff = True
    colleague.save()
    assert client.get(f"/admin/members/user/{colleague.pk}/password/").status_code == 403  # equal rank
    assert client.get(f"/admin/members/user/{staff.pk}/password/").status_code == 200  # his own
