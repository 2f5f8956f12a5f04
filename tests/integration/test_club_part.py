"""The club's part of a person (issue 28; docs/architecture.md, "The person and the
membership"): phone, e-mail preferences, the public name and the calendar secret are
each club's. Set at the decoy club B, they do not apply at A; member-only details show
to signed-in members of the same club only; a member of B alone gets no "My details",
calendar address or "Leave" at A."""

from __future__ import annotations

import pytest
from django.urls import reverse

from members.accounts import profile
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.models import Membership, User, club_part
from tests import factories as f
from tests.decoy import SHARED_EMAIL, SLUG, decoy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
B_PHONE = "06 9876 5432"


@pytest.fixture(autouse=True)
def clubs_apart(settings):
    settings.RANGLIJST_SINGLE_CLUB = False


def at_a(path: str) -> str:
    return f"/{home_club().slug}{path}"


def _shared_player_of_a():
    season = f.season(players=3)
    shared = User.objects.get(email=SHARED_EMAIL)
    from competition.models import PlayerKind
    from competition.season import services

    player = services.player_add(actor=f.admin(), season=season, member=shared, kind=PlayerKind.FLEXIBLE)
    return season, shared, player


def _set_at_b(shared: User) -> None:
    with club_context(decoy()):
        profile.profile_update(actor=shared, member=shared, phone=B_PHONE, public_as="initials",
                               pairing_mail=False, notice_mail=False)


def test_details_set_at_club_b_do_not_apply_at_club_a(client):
    season, shared, player = _shared_player_of_a()
    a_before = club_part(shared.pk, home_club())
    _set_at_b(shared)
    assert club_part(shared.pk, decoy()).phone == B_PHONE
    assert club_part(shared.pk, home_club()) == a_before and a_before.public_as == "name"
    with club_context(home_club()):
        assert User.objects.get(pk=shared.pk).shown_name == "Gedeeld Lid"
        assert User.objects.get(pk=shared.pk).pairing_mail
    member_of_a = season.players.exclude(member=shared).select_related("member").first().member
    client.force_login(member_of_a)
    page = client.get(at_a(reverse("competition:player", args=[player.pk]))).content.decode()
    assert B_PHONE not in page
    client.force_login(shared)
    mine = client.get(at_a(reverse("me:details"))).content.decode()
    assert B_PHONE not in mine and "data-shared-part" in mine and decoy().name in mine


def test_the_phone_shows_to_signed_in_members_of_the_same_club_only(client):
    season, shared, player = _shared_player_of_a()
    with club_context(home_club()):
        profile.profile_update(actor=shared, member=shared, phone="06 1111 2222", public_as="name",
                               pairing_mail=True, notice_mail=True)
    url = at_a(reverse("competition:player", args=[player.pk]))
    member_of_a = season.players.exclude(member=shared).select_related("member").first().member
    client.force_login(member_of_a)
    assert "06 1111 2222" in client.get(url).content.decode()
    b_only = User.objects.filter(memberships__club=decoy()).exclude(memberships__club=home_club()).first()
    client.force_login(b_only)
    assert "06 1111 2222" not in client.get(url).content.decode()
    client.logout()
    assert "06 1111 2222" not in client.get(url).content.decode()


def test_a_member_of_another_club_gets_no_my_details_calendar_or_leave_here(client):
    f.season(players=3)
    b_only = User.objects.filter(memberships__club=decoy()).exclude(memberships__club=home_club()).first()
    client.force_login(b_only)
    home = client.get(at_a(reverse("competition:home"))).content.decode()
    assert 'data-nav="profile"' not in home
    assert client.get(at_a(reverse("me:details"))).status_code == 403
    assert client.post(at_a(reverse("me:leave")), {"confirm": "1"}).status_code == 403
    assert client.post(at_a(reverse("me:calendar_renew"))).status_code == 403
    assert User.objects.get(pk=b_only.pk).is_active
    at_b = client.get(f"/{SLUG}/").content.decode()
    assert 'data-nav="profile"' in at_b


def test_each_clubs_calendar_feed_has_its_own_secret(client):
    _shared_player_of_a()
    shared = User.objects.get(email=SHARED_EMAIL)
    with club_context(home_club()):
        token_a = profile.calendar_token(shared)
    with club_context(decoy()):
        token_b = profile.calendar_token(shared)
    assert token_a != token_b
    assert client.get(at_a(reverse("me:calendar", args=[token_a]))).status_code == 200
    assert client.get(at_a(reverse("me:calendar", args=[token_b]))).status_code == 404
    assert client.get(f"/{SLUG}/me/calendar/{token_a}.ics").status_code == 404
    with club_context(decoy()):
        profile.calendar_token_renew(actor=shared, member=shared)
    assert Membership.objects.get(user=shared, club=home_club()).calendar_token == token_a


def test_the_data_migration_copies_the_accounts_values_to_every_membership():
    """members.0012: each club shows what it showed before; the calendar secret stays with
    the oldest membership only."""
    import importlib

    from django.apps import apps as live_apps

    migration = importlib.import_module("members.migrations.0012_club_part_on_membership")

    class Legacy:  # the account as it was: its own phone, choice and secret
        phone, public_as, pairing_mail, notice_mail, calendar_token = "06 5555 6666", "initials", False, True, "x" * 43

    shared = User.objects.get(email=SHARED_EMAIL)

    class FakeUsers:
        @staticmethod
        def filter(**kw):
            class Q:
                def distinct(self):
                    return self

                def iterator(self):
                    legacy = Legacy()
                    legacy.pk = shared.pk
                    yield legacy
            return Q()

    class FakeUser:
        objects = FakeUsers

    class Apps:
        @staticmethod
        def get_model(app, name):
            return FakeUser if name == "User" else live_apps.get_model(app, name)

    Membership.objects.filter(user=shared).update(calendar_token="")
    migration.copy_to_memberships(Apps, None)
    rows = list(Membership.objects.filter(user=shared).order_by("joined", "pk")
                .values_list("phone", "public_as", "pairing_mail", "calendar_token"))
    assert len(rows) == 2
    assert rows[0] == ("06 5555 6666", "initials", False, "x" * 43)
    assert rows[1] == ("06 5555 6666", "initials", False, "")
