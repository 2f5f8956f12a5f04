"""Issues 19 §2 and 28: nobody but the person takes his sign-in.

Before: the leader's member form set any member's address, marked verified, and a
password reset to it handed him the account (up to the administrator's); later a new
address waited for "its owner's" confirmation, but the owner was whoever held the mailbox
the leader typed, and the rank check read the role in the current club only, so club B's
leader took over club A's administrator who also plays in B, and B's administrator made
staff set his password in the admin. Now a leader never changes the address or password
of an account that has signed in, nor of a member of another club too; before the first
sign-in (an invitation not yet accepted) the leader of the one club the account belongs to
corrects the address and the invitation goes to it. The person changes his own address
on "My details", his password first, confirmed from the new address, with an undo link
to the old one. The admin's user and password forms are the operator's alone."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.exceptions import ValidationError

from competition.roster import services
from competition.season.services import player_add
from members.accounts import profile
from members.models import User
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
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
    assert "has signed in already" in client.get(_edit_url(player)).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_edit_url(player), _form(player, LEADERS_OWN))  # the field is not his
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
    from members.clubs.roles import account_rank, may_manage_account

    player, leader, admin = f.member(), f.leader(), f.admin()
    staff = f.member(role=None)
    staff.is_staff = True
    staff.save()
    root = User.objects.create_superuser(email="root@example.org", password="x", name="Root")
    invited = f.member(name="Uitgenodigd")
    invited.set_unusable_password()
    invited.save()
    assert [account_rank(u) for u in (player, leader, admin, staff, root)] == [0, 2, 3, 4, 5]
    assert may_manage_account(leader, invited) and may_manage_account(leader, leader)
    assert not may_manage_account(leader, player)  # he has signed in: his alone
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
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/me/email/", {"email": LEADERS_OWN, "password": "pw-schaak-123"})
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
        profile.email_change_request(actor=player.member, member=player.member, email="nieuw@example.org",
                                     password="pw-schaak-123", site_url="http://testserver/")
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
    # Not even his own: he changes his password on his own page, the old one asked first.
    assert client.get(f"/admin/members/user/{staff.pk}/password/").status_code == 403


# --- Issue 28: across two clubs (the decoy club B of tests/decoy.py) and within one -----


@pytest.fixture
def two_clubs(settings):
    """Every club at its prefix; club B is the decoy, with its member shared with A."""
    settings.RANGLIJST_SINGLE_CLUB = False
    from members.clubs.context import club_context
    from members.clubs.memo import home_club
    from members.models import Membership
    from tests.decoy import SHARED_EMAIL, decoy

    b = decoy()
    shared = User.objects.get(email=SHARED_EMAIL)
    with club_context(b):
        b_player = shared.players.select_related("season").get(season__club=b)
    b_leader = User.objects.filter(memberships__club=b, memberships__role="leader").first()
    b_admin = User.objects.filter(memberships__club=b, memberships__role="administrator").first()
    assert {m.club_id for m in Membership.objects.filter(user=shared)} == {home_club().pk, b.pk}
    return {"a": home_club(), "b": b, "shared": shared, "b_player": b_player,
            "b_leader": b_leader, "b_admin": b_admin, "b_season": b_player.season}


def _club_edit_url(club, player) -> str:
    return f"/{club.slug}/leader/members/{player.season.slug}/players/{player.pk}/"


def _a_sees(member: User, club) -> dict:
    member = User.objects.get(pk=member.pk)
    from members.clubs.roles import club_role

    return {"name": member.name, "email": member.email, "knsb": member.knsb_number,
            "rating": member.rating, "role": club_role(member, club)}


def test_club_b_leader_cannot_take_over_club_a_administrator_who_plays_in_b(
    client, two_clubs, django_capture_on_commit_callbacks,
):
    """The critical probe: A's administrator also plays in B; B's leader posts his member
    form with an address of his own. Nothing changes, nothing is sent, no reset reaches
    him; A's administrator still signs in at A, with his role."""
    from members.clubs.context import club_context

    b = two_clubs["b"]
    a_admin = f.admin(two_clubs["a"])
    EmailAddress.objects.create(user=a_admin, email=a_admin.email, verified=True, primary=True)
    f.join(a_admin, "player", b)
    with club_context(b):
        player = player_add(actor=two_clubs["b_admin"], season=two_clubs["b_season"], member=a_admin,
                            kind="flexible")
    before = _a_sees(a_admin, two_clubs["a"])
    client.force_login(two_clubs["b_leader"])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_club_edit_url(b, player), {**_form(player, LEADERS_OWN), "name": "Overgenomen"})
    assert _a_sees(a_admin, two_clubs["a"]) == before and before["role"] == "administrator"
    assert not EmailAddress.objects.filter(email=LEADERS_OWN).exists() and not mail.outbox
    client.logout()
    _ask_reset(client, LEADERS_OWN)
    assert not _reset_links(LEADERS_OWN)
    assert client.login(email=a_admin.email, password="pw-schaak-123")
    assert client.get(f"/{two_clubs['a'].slug}/leader/members/roles/").status_code == 200


def test_the_rank_check_is_not_per_current_club(two_clubs):
    """Even an account that never signed in is not B's leader's to reach when it is a
    member of A too, where it is the administrator (in B it is only a player)."""
    from members.clubs.context import club_context
    from members.clubs.roles import may_manage_account

    a_admin = f.admin(two_clubs["a"])
    a_admin.set_unusable_password()
    a_admin.save()
    f.join(a_admin, "player", two_clubs["b"])
    with club_context(two_clubs["b"]):
        assert not may_manage_account(two_clubs["b_leader"], a_admin)
        player = player_add(actor=two_clubs["b_admin"], season=two_clubs["b_season"], member=a_admin,
                            kind="flexible")
        with pytest.raises(ValidationError):
            services.member_update(actor=two_clubs["b_leader"], player=player, name=a_admin.name,
                                   email="x@example.org", rating=None, knsb_number="", kind="flexible",
                                   site_url="http://testserver/lokvogel/")
    assert User.objects.get(pk=a_admin.pk).email == a_admin.email


def test_club_b_leader_leaves_a_shared_members_own_fields_as_they_are(client, two_clubs):
    """B's leader's member form shows the shared member's name, address, rating and
    number, not editable, and says why in Dutch; a post of other values changes only the
    club's part. A's view of him is unchanged and he still signs in."""
    b, shared, player = two_clubs["b"], two_clubs["shared"], two_clubs["b_player"]
    before = _a_sees(shared, two_clubs["a"])
    client.force_login(two_clubs["b_leader"])
    page = client.get(_club_edit_url(b, player), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "ook lid van een andere club" in page and 'name="name"' in page and "disabled" in page
    client.post(_club_edit_url(b, player), {"name": "Nieuwe Naam", "email": LEADERS_OWN, "rating": "2100",
                                            "knsb_number": "8123456", "kind": player.kind})
    assert _a_sees(shared, two_clubs["a"]) == before
    with pytest.raises(ValidationError, match="also a member of another club"):
        from members.clubs.context import club_context

        with club_context(b):
            services.member_update(actor=two_clubs["b_leader"], player=player, name="Nieuwe Naam",
                                   email=shared.email, rating=shared.rating, knsb_number="",
                                   kind=player.kind, site_url="http://testserver/lokvogel/")
    assert User.objects.get(pk=shared.pk).name == before["name"]
    client.logout()
    assert client.login(email=shared.email, password="pw-schaak-123")


def test_within_one_club_the_leader_cannot_change_a_signed_in_players_address(
    client, django_capture_on_commit_callbacks,
):
    season = f.season(players=2)
    player = season.players.first()
    member = player.member
    client.force_login(f.leader())
    page = client.get(_edit_url(player)).content.decode()
    assert "has signed in already" in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_edit_url(player), _form(player, LEADERS_OWN))
    member.refresh_from_db()
    assert member.email != LEADERS_OWN and not EmailAddress.objects.filter(email=LEADERS_OWN).exists()
    assert not mail.outbox
    with pytest.raises(ValidationError, match="signed in already"):
        services.member_update(actor=f.leader(), player=player, name=member.name, email=LEADERS_OWN,
                               rating=member.rating, knsb_number="", kind=player.kind,
                               site_url="http://testserver/")


def test_the_leader_corrects_the_address_of_an_invitation_not_yet_accepted(
    client, django_capture_on_commit_callbacks,
):
    """The one club's leader corrects a mistyped address; the invitation goes again, to
    the corrected address only, and its link still sets the password and verifies it."""
    season = f.season(players=2)
    with django_capture_on_commit_callbacks(execute=True):
        player = services.member_add(actor=f.leader(), season=season, name="Nina", email="nina@exmple.org",
                                     site_url="http://testserver/")
    mail.outbox.clear()
    client.force_login(f.leader())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_edit_url(player), _form(player, "nina@example.org"))
    assert response.status_code == 302
    player.member.refresh_from_db()
    assert player.member.email == "nina@example.org"
    assert list(EmailAddress.objects.filter(user=player.member).values_list("email", "verified")) == [
        ("nina@example.org", False)]
    [invitation] = mail.outbox
    assert invitation.to == ["nina@example.org"]
    client.logout()
    url = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", invitation.body)[1]
    response = client.get(url, follow=True)
    client.post(response.redirect_chain[-1][0], {"password1": "Zet-1-wachtwoord!", "password2": "Zet-1-wachtwoord!"})
    assert client.login(email="nina@example.org", password="Zet-1-wachtwoord!")


def test_an_invitation_of_two_clubs_is_not_corrected_by_either(two_clubs):
    from members.clubs.context import club_context

    invited = f.member(name="Twee Clubs", club=two_clubs["a"])
    invited.set_unusable_password()
    invited.save()
    f.join(invited, "player", two_clubs["b"])
    with club_context(two_clubs["b"]):
        player = player_add(actor=two_clubs["b_admin"], season=two_clubs["b_season"], member=invited,
                            kind="flexible")
        with pytest.raises(ValidationError, match="also a member of another club"):
            services.member_update(actor=two_clubs["b_leader"], player=player, name=invited.name,
                                   email="elders@example.org", rating=invited.rating, knsb_number="",
                                   kind="flexible", site_url="http://testserver/lokvogel/")
    assert User.objects.get(pk=invited.pk).email == invited.email


def _staff(admin: User) -> User:
    admin.is_staff = True
    admin.save()
    admin.user_permissions.add(*Permission.objects.filter(codename__in=["change_user", "view_user"]))
    return admin


def _admin_change(client, target: User, email: str):
    return client.post(f"/admin/members/user/{target.pk}/change/", {
        "email": email, "name": target.name, "rating": target.rating or "", "knsb_number": "",
        "phone": "", "public_as": "name", "pairing_mail": "on", "notice_mail": "on", "is_active": "on",
        "last_login_0": "", "last_login_1": "", "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00",
    })


@pytest.mark.parametrize("whom", ["shared", "b_only"])
def test_a_club_administrator_made_staff_sets_no_address_in_the_admin(client, two_clubs, whom):
    """B's administrator, staff with ``members.change_user`` as docs/operations.md once
    said: the admin's change form of the shared member (across two clubs) and of a member
    of B alone (within one club) is read-only for him; a post changes nothing."""
    target = two_clubs["shared"] if whom == "shared" else f.member(name="Alleen B", club=two_clubs["b"])
    before = _a_sees(target, two_clubs["a"])
    client.force_login(_staff(two_clubs["b_admin"]))
    assert client.get(f"/admin/members/user/{target.pk}/change/").status_code == 200  # he sees it
    assert _admin_change(client, target, LEADERS_OWN).status_code == 403
    assert _a_sees(target, two_clubs["a"]) == before
    assert not EmailAddress.objects.filter(email=LEADERS_OWN).exists()


@pytest.mark.parametrize("whom", ["shared", "b_only"])
def test_a_club_administrator_made_staff_sets_no_password_in_the_admin(client, two_clubs, whom):
    target = two_clubs["shared"] if whom == "shared" else f.member(name="Alleen B", club=two_clubs["b"])
    client.force_login(_staff(two_clubs["b_admin"]))
    response = client.post(f"/admin/members/user/{target.pk}/password/",
                           {"password1": "Overgenomen-1!", "password2": "Overgenomen-1!", "usable_password": "true"})
    assert response.status_code == 403
    assert User.objects.get(pk=target.pk).check_password("pw-schaak-123")
    client.logout()
    assert not client.login(email=target.email, password="Overgenomen-1!")


def test_the_operator_still_changes_an_account_in_the_admin(client, two_clubs):
    """In an emergency: the superuser's change form works."""
    root = User.objects.create_superuser(email="root@example.org", password="Root-geheim-1", name="Root")
    client.force_login(root)
    target = two_clubs["shared"]
    response = client.post(f"/admin/members/user/{target.pk}/password/",
                           {"password1": "Nieuw-door-beheer-1!", "password2": "Nieuw-door-beheer-1!",
                            "usable_password": "true"})
    assert response.status_code == 302
    assert User.objects.get(pk=target.pk).check_password("Nieuw-door-beheer-1!")


def test_his_own_address_change_asks_his_password_first(client, django_capture_on_commit_callbacks):
    """A wrong password: a clear message, no pending address, no mail."""
    member = f.member()
    client.force_login(member)
    page = client.get("/me/email/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "wachtwoord" in page.lower()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/me/email/", {"email": "nieuw@example.org", "password": "fout"},
                               HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 200 and "Dat is niet je wachtwoord" in response.content.decode()
    assert not EmailAddress.objects.filter(email="nieuw@example.org").exists() and not mail.outbox
    # allauth's own e-mail page (no password asked) is not served.
    assert client.post("/accounts/email/", {"action_add": "", "email": "nieuw@example.org"}).status_code == 302
    assert not EmailAddress.objects.filter(email="nieuw@example.org").exists()


def test_his_own_change_to_an_address_in_use_is_answered_the_same(client, django_capture_on_commit_callbacks):
    member, other = f.member(), f.member()
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/me/email/", {"email": other.email, "password": "pw-schaak-123"}, follow=True)
    assert "A confirmation goes to" in response.content.decode()
    assert not mail.outbox
    assert User.objects.get(pk=member.pk).email != other.email


def test_club_b_administrator_sets_no_fide_id_of_a_shared_member(two_clubs):
    """The roles page's FIDE id is the person's: B's administrator changes the shared
    member's role in B, not his FIDE id; A sees it unchanged."""
    from members.clubs.context import club_context

    shared = two_clubs["shared"]
    with club_context(two_clubs["b"]), pytest.raises(ValidationError, match="FIDE id is his own"):
        services.member_set_role(actor=two_clubs["b_admin"], member=shared, role="arbiter", fide_id="1503014")
    assert User.objects.get(pk=shared.pk).fide_id == shared.fide_id
    from members.clubs.roles import club_role

    assert club_role(User.objects.get(pk=shared.pk), two_clubs["b"]) == "player"  # nothing saved
    with club_context(two_clubs["b"]):
        services.member_set_role(actor=two_clubs["b_admin"], member=shared, role="arbiter",
                                 fide_id=shared.fide_id)
    assert club_role(User.objects.get(pk=shared.pk), two_clubs["b"]) == "arbiter"
    assert club_role(User.objects.get(pk=shared.pk), two_clubs["a"]) == "player"


def _reset_and_set(client, to: str, password: str) -> None:
    [link] = _reset_links(to)
    response = client.get(link, follow=True)
    client.post(response.redirect_chain[-1][0], {"password1": password, "password2": password})


def test_a_reset_signs_in_only_whoever_holds_the_accounts_own_mailbox(
    client, django_capture_on_commit_callbacks,
):
    """ACCOUNT_LOGIN_ON_PASSWORD_RESET (docs/operations.md, "Roles"): setting a password
    from a reset link (or an invitation's) signs the person in, since the link went to the
    account's own address, which nobody but the person sets once he has signed in. A
    leader who types his own address, or corrects an invitation to an address that has an
    account, gets no link that signs him in as anyone; the link goes to that address's
    own account and signs in its owner."""
    from tests.decoy import decoy

    season = f.season(players=2)
    member = season.players.select_related("member").first().member
    elsewhere = f.member(name="Elders Lid", club=decoy())
    leader = f.leader()
    client_leader = type(client)()
    client_leader.force_login(leader)
    player = season.players.get(member=member)
    with django_capture_on_commit_callbacks(execute=True):
        client_leader.post(_edit_url(player), _form(player, LEADERS_OWN))
        invited = services.member_add(actor=leader, season=season, name="Nina", email="nina@exmple.org",
                                      site_url="http://testserver/")
        client_leader.post(_edit_url(invited), _form(invited, elsewhere.email))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _ask_reset(client, LEADERS_OWN)
        _ask_reset(client, elsewhere.email)
    assert not _reset_links(LEADERS_OWN)
    _reset_and_set(client, elsewhere.email, "Eigen-wachtwoord-1!")
    assert client.get("/").wsgi_request.user == elsewhere  # its owner, never the invitation
    assert not User.objects.get(pk=invited.member_id).has_usable_password()
    client.logout()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _ask_reset(client, member.email)
    _reset_and_set(client, member.email, "Nieuw-wachtwoord-1!")
    assert client.get("/").wsgi_request.user == member  # signed in by the reset itself
