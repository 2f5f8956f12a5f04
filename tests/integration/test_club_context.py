"""The one club context (core/tenancy/context.py) and its refusals: work outside every club that
needs a club raises, instead of being done in the installation's first club."""

from __future__ import annotations

import datetime as dt

import pytest
from django_scopes import ScopeError

from competition.models import Season
from competition.season import links, services
from competition.season.seasonio import season_import
from core.tenancy.context import (
    NoClub,
    Tenant,
    club_context,
    current_club,
    current_tenant,
    in_all_clubs,
    platform_context,
)
from members.clubs.memo import home_club
from members.clubs.roles import set_club_role
from members.models import User
from tests import factories as f
from tests.generate import random_season

pytestmark = pytest.mark.django_db


def test_a_database_test_that_names_no_club_starts_outside_every_club():
    """No ambient club (tests/conftest.py): a test that touches the database and names no
    club is in none, as a shell or a task without its club header is; a club-scoped query
    there raises, it is never the installation's club's."""
    assert current_club() is None and current_tenant() is None and not in_all_clubs()
    with pytest.raises(ScopeError):
        Season.objects.count()


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_that_names_no_club_starts_outside_every_club_too():
    assert current_club() is None and not in_all_clubs()
    with pytest.raises(ScopeError):
        Season.objects.count()


@pytest.mark.usefixtures("in_home_club")
def test_in_home_club_puts_the_test_in_the_installations_club_a():
    """The fixture a test names to run in club A, as a request to A's address does: A's
    rows, not the decoy club B's (tests/decoy.py) beside it."""
    club = home_club()
    assert current_club() == club and current_tenant() == Tenant.of(club)
    with platform_context():
        a_seasons = Season.objects.filter(club=club).count()
        assert Season.objects.exclude(club=club).exists()  # B's season
    assert Season.objects.count() == a_seasons



def test_the_context_holds_the_clubs_id_address_time_zone_and_language():
    club = home_club()
    club.time_zone, club.language = "America/New_York", "nl"
    with club_context(club):
        assert current_tenant() == Tenant(club.pk, club.slug, "America/New_York", "nl")
        assert current_tenant().key == f"club-{club.pk}" and not in_all_clubs()
        with club_context(None):
            assert current_tenant() is None and not in_all_clubs()
        with platform_context():
            assert current_tenant() is None and in_all_clubs()
        assert current_tenant().club is club


def test_outside_every_club_a_club_scoped_query_raises_and_the_platform_sees_every_club():
    with club_context(None):
        with pytest.raises(ScopeError):
            Season.objects.count()
    with platform_context():
        assert Season.objects.values("club").distinct().count() >= 1


def test_the_scoping_is_off_only_where_our_club_context_turned_it_off():
    """The scoped managers read our own record of ``scopes_disabled()`` (the platform's
    context), never django-scopes' private state: django-scopes' ``scopes_disabled()``
    entered by hand, beside the club context, opens no club's rows."""
    from django_scopes import scopes_disabled

    from core.tenancy.context import scoping_off

    with club_context(None):
        assert not scoping_off()
        with scopes_disabled(), pytest.raises(ScopeError):
            Season.objects.count()
    with platform_context():
        assert scoping_off()
        with club_context(None):  # a club's (or no club's) work inside the platform's
            assert not scoping_off()
            with pytest.raises(ScopeError):
                Season.objects.count()


@pytest.mark.usefixtures("in_home_club")
def test_a_service_that_creates_club_rows_has_no_fallback_to_the_first_club():
    """Before: the current club, else the installation's first club, so work outside
    every club (a shell, a forgotten task) wrote into the installation's first club."""
    admin = f.admin()
    with pytest.raises(TypeError, match="club"):
        services.season_set_up(actor=admin, name="zonder club", opening=dt.date(2026, 9, 4),
                               last_day=dt.date(2027, 7, 1), system="pion")
    member = f.member(role=None)
    with pytest.raises(TypeError, match="club"):
        set_club_role(member, "player")
    with club_context(None):
        with pytest.raises(NoClub):
            season_import(actor=None, system=True, data=random_season(3, players=4, evenings=2),
                          name="zonder club")
        with pytest.raises(NoClub):
            links.absolute("/")
        with pytest.raises(ScopeError):  # before: every club's members
            list(User.objects.members())
    with platform_context():
        assert not Season.objects.filter(name="zonder club").exists()
        assert User.objects.members().filter(pk=admin.pk).exists()
