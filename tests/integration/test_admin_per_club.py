"""The admin per club, model by model (issue 20; docs/architecture.md, "The admin"): club
A's administrator (staff, the administrator role in A, every admin permission) sees none
of club B's rows in any model the admin has (its list, search, filters, change, history
and delete pages, the autocomplete), only his club's members' accounts and addresses,
neither clubs nor role groups, and only A's audit trail; the operator (a superuser) sees
both clubs. Club B is a copy of club A made by the club backup (every model has rows in
both, the same names and dates), with a member and an audit record of its own. Each test
runs with the one club served at "/" and with every club at its prefix."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.filters import RelatedFieldListFilter
from django.contrib.auth.models import Permission
from django.urls import reverse

from competition.demo import build_demo
from competition.events import services as swiss
from competition.management.clubcopy import club_backup, club_restore
from competition.models import (
    AuditAction,
    AuditRecord,
    EligibilityOverride,
    PlayoffBracket,
    PlayoffDate,
)
from members.clubs.context import club_context, platform_context
from members.clubs.memo import home_club
from members.models import Membership, User
from tests import factories as f
from tests.architecture.test_club_models import CLUB_SCOPED
from tests.transactions import rolled_back

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 11, 30)
MARKER = "loper-geheim"
B_ONLY = "alleen@loper.example"
# The platform-wide models the admin has, each with its own test below.
PLATFORM = {"members.User", "members.Club", "auth.Group", "account.EmailAddress"}
REGISTERED = sorted(m._meta.label for m in admin.site._registry)
SCOPED_REGISTERED = [label for label in REGISTERED if label in CLUB_SCOPED]


def _model(label: str):
    return next(m for m in admin.site._registry if m._meta.label == label)


def _pks(club) -> dict[str, set[int]]:
    """Every club-scoped model's ids in ``club`` (read in its context)."""
    with club_context(club):
        return {label: set(_any_model(label)._default_manager.values_list("pk", flat=True))
                for label in CLUB_SCOPED}


def _any_model(label: str):
    return apps.get_model(label)


def _extras(season, actor) -> None:
    """The rows the demo has none of: an event with a round played, an eligibility
    override, playoffs with a date."""
    event = swiss.event_create(actor=actor, season=season, kind="rapid", name="Rapid")
    for player in season.players.select_related("member").order_by("start")[:4]:
        swiss.entrant_add(actor=actor, event=event, member=player.member)
    rnd = swiss.round_open(actor=actor, event=event)
    swiss.presence_set(actor=actor, round=rnd, entrant_ids=event.entrants.values_list("pk", flat=True))
    rnd = swiss.round_pair(actor=actor, round=rnd)
    for game in rnd.games.filter(black__isnull=False):
        swiss.game_result_set(actor=actor, game=game, white_points=2, black_points=0,
                              expected_version=game.version)
    half = season.halves.order_by("start_date").first()
    EligibilityOverride.objects.create(half=half, player=season.players.first(), eligible=True,
                                       reason="Genoeg gespeeld", decided_by=actor)
    bracket = PlayoffBracket.objects.create(season=season, seed="lot", groups=[], created_by=actor)
    PlayoffDate.objects.create(bracket=bracket, match="sf1", date=season.end_date)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), rolled_back():
        season = build_demo(today=TODAY)
        a = home_club()
        operator = User.objects.get(email="beheer@demo.club")
        assert operator.is_superuser
        _extras(season, operator)
        objects = json.loads(club_backup(a))
        for o in objects:
            if o["model"] == "members.club":
                o["fields"].update(slug="de-loper", name="Schaakclub De Loper", site_name="")
        b = club_restore(objects, link_existing=[o["fields"]["email"] for o in objects
                                                 if o["model"] == "members.user"]).club
        with club_context(b):
            only_b = f.member(name="Loper Alleen", email=B_ONLY, club=b)
            EmailAddress.objects.create(user=only_b, email=B_ONLY, verified=True, primary=True)
            AuditRecord.objects.create(action=AuditAction.MEMBER_CHANGE, after={"note": MARKER})
        every = Permission.objects.all()  # every admin permission: the scoping alone keeps B out
        admins = {}
        for club, email in ((a, "clubbeheer@pion.example"), (b, "clubbeheer@loper.example")):
            user = f.member(name="Clubbeheerder", email=email, role="administrator", club=club)
            user.is_staff = True
            user.save()
            user.user_permissions.add(*every)
            admins[club.slug] = user
        yield {"a": a, "b": b, "operator": operator, "admin_a": admins[a.slug],
               "admin_b": admins[b.slug], "only_b": only_b, "pks_a": _pks(a), "pks_b": _pks(b),
               "members_a": set(Membership.objects.filter(club=a).values_list("user_id", flat=True))}


@pytest.fixture(params=[True, False], ids=["one-club-at-root", "clubs-at-prefixes"])
def as_(request, world, client, settings):
    """Sign in as one of the world's people, the installation in either address mode."""
    settings.RANGLIJST_SINGLE_CLUB = request.param

    def sign_in(who: str):
        client.force_login(world[who])
        return client

    return sign_in


def _url(label: str, view: str, *args) -> str:
    app, model = label.lower().split(".")
    return reverse(f"admin:{app}_{model}_{view}", args=args)


def _listed(client, label: str, query: str = "") -> set[int]:
    response = client.get(_url(label, "changelist") + query)
    assert response.status_code == 200, (label, response.status_code)
    # The page's queryset, read here after the request: its club filter was set in the
    # request's context; the platform's view reads exactly those rows again (under the
    # row security, the test's own club would see only its own).
    with platform_context():
        return set(response.context["cl"].queryset.values_list("pk", flat=True)), response


def test_every_model_in_the_admin_is_proven_here(world):
    """A model added to the admin is club-scoped (tested per model below, with rows in
    both clubs) or one of the platform-wide ones tested by name."""
    for label in REGISTERED:
        if label in CLUB_SCOPED:
            assert world["pks_a"][label] and world["pks_b"][label], f"{label}: no rows in both clubs"
            assert not world["pks_a"][label] & world["pks_b"][label]
        else:
            assert label in PLATFORM, f"{label} is in the admin: say what a club's administrator sees of it"


@pytest.mark.parametrize("label", SCOPED_REGISTERED)
def test_a_clubs_administrator_sees_only_his_clubs_rows(world, as_, label):
    client = as_("admin_a")
    a, b = world["pks_a"][label], world["pks_b"][label]
    listed, response = _listed(client, label)
    assert listed == a  # all of A's, none of B's
    assert response.context["cl"].result_count == len(a)
    page = response.content.decode()
    for pk in b:
        assert f'href="{_url(label, "change", pk)}"' not in page
    mine, theirs = min(a), min(b)
    assert client.get(_url(label, "change", mine)).status_code == 200
    for view in ("change", "history", "delete"):
        response = client.get(_url(label, view, theirs))
        assert response.status_code in (302, 403, 404), (view, response.status_code)
        if response.status_code == 302:
            assert response["Location"] == reverse("admin:index")
            assert "doesn’t exist" in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("label", SCOPED_REGISTERED)
def test_search_and_filters_never_reveal_the_other_club(world, as_, label):
    client = as_("admin_a")
    a, b_all = world["pks_a"][label], world["pks_b"]
    model_admin = admin.site._registry[_model(label)]
    _, response = _listed(client, label)
    if model_admin.search_fields:
        found, _ = _listed(client, label, "?q=e")
        assert found and found <= a
    cl = response.context["cl"]
    for spec in cl.filter_specs:
        if isinstance(spec, RelatedFieldListFilter):  # the choices are A's rows
            related = spec.field.related_model._meta.label
            assert not {pk for pk, _ in spec.lookup_choices} & b_all.get(related, set()), related
        for choice in list(spec.choices(cl))[:6]:
            found, _ = _listed(client, label, choice["query_string"])
            assert found <= a, (label, choice["query_string"])
    for spec in cl.filter_specs:  # asked for a B row by its id: nothing
        if isinstance(spec, RelatedFieldListFilter):
            related = spec.field.related_model._meta.label
            if b_all.get(related):
                found, _ = _listed(client, label, f"?{spec.lookup_kwarg}={min(b_all[related])}")
                assert found == set()


@pytest.mark.parametrize("label", SCOPED_REGISTERED)
def test_the_operator_sees_both_clubs_rows(world, as_, label):
    client = as_("operator")
    listed, _ = _listed(client, label)
    assert world["pks_a"][label] | world["pks_b"][label] <= listed
    assert client.get(_url(label, "change", min(world["pks_b"][label]))).status_code == 200


def test_a_clubs_administrator_sees_only_his_clubs_audit_trail(world, as_):
    client = as_("admin_a")
    page = client.get(_url("competition.AuditRecord", "changelist")).content.decode()
    assert MARKER not in page
    found, _ = _listed(client, "competition.AuditRecord", f"?action={AuditAction.MEMBER_CHANGE}")
    assert found <= world["pks_a"]["competition.AuditRecord"]
    operator = as_("operator")
    assert MARKER in operator.get(_url("competition.AuditRecord", "changelist")).content.decode()


def test_the_admin_is_the_administrators_own_club_whatever_the_address(world, as_):
    """Club B's administrator, at the installation's address (which serves club A when
    one club is served at "/"), sees B's rows."""
    client = as_("admin_b")
    listed, _ = _listed(client, "competition.Season")
    assert listed == world["pks_b"]["competition.Season"]


# --- The platform-wide models --------------------------------------------------------


def test_a_clubs_administrator_sees_his_clubs_members_accounts_only(world, as_):
    client = as_("admin_a")
    listed, _ = _listed(client, "members.User")
    assert listed == world["members_a"]
    only_b = world["only_b"]
    assert only_b.pk not in listed
    assert _listed(client, "members.User", "?q=alleen")[0] == set()
    response = client.get(_url("members.User", "change", only_b.pk))
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    assert client.get(f"/admin/members/user/{only_b.pk}/password/").status_code == 404
    assert client.get(_url("members.User", "delete", only_b.pk)).status_code in (302, 403)
    assert client.get(_url("members.User", "add")).status_code == 403
    # The shared member (A's and B's) is there; deleting him is not his to do.
    shared = next(iter(world["members_a"] & set(Membership.objects.filter(
        club=world["b"]).values_list("user_id", flat=True))))
    assert client.get(_url("members.User", "change", shared)).status_code == 200
    assert client.get(_url("members.User", "delete", shared)).status_code == 403
    # He hands out none of the platform's rights, not even to himself; and an account's
    # address and password are its person's: the change form is read-only, his own too.
    own = client.get(_url("members.User", "change", world["admin_a"].pk)).content.decode()
    for field in ("is_superuser", "is_staff", "groups", "email", "name"):
        assert f'name="{field}"' not in own, field
    operator = as_("operator")
    assert only_b.pk in _listed(operator, "members.User")[0]
    assert 'name="is_superuser"' in operator.get(
        _url("members.User", "change", world["admin_a"].pk)).content.decode()


def test_a_clubs_administrator_sees_his_clubs_members_addresses_only(world, as_):
    client = as_("admin_a")
    listed, _ = _listed(client, "account.EmailAddress")
    users = set(EmailAddress.objects.filter(pk__in=listed).values_list("user_id", flat=True))
    assert listed and users <= world["members_a"]
    assert B_ONLY not in client.get(_url("account.EmailAddress", "changelist") + "?q=loper").content.decode()
    address = EmailAddress.objects.get(email=B_ONLY)
    assert client.get(_url("account.EmailAddress", "change", address.pk)).status_code == 302
    operator = as_("operator")
    assert address.pk in _listed(operator, "account.EmailAddress")[0]


@pytest.mark.parametrize("label", ["members.Club", "auth.Group"])
def test_clubs_and_role_groups_are_the_operators(world, as_, label):
    client = as_("admin_a")
    assert client.get(_url(label, "changelist")).status_code == 403
    assert client.get(_url(label, "change", world["b"].pk if label == "members.Club" else 1)).status_code in (302, 403)
    assert "members/club/" not in client.get(reverse("admin:index")).content.decode()
    operator = as_("operator")
    assert operator.get(_url(label, "changelist")).status_code == 200


def test_the_autocomplete_searches_his_clubs_members_only(world, as_):
    url = reverse("admin:autocomplete")
    query = {"app_label": "competition", "model_name": "player", "field_name": "member"}
    client = as_("admin_a")
    response = client.get(url, {**query, "term": "alleen"})
    assert response.status_code == 200 and response.json()["results"] == []
    ids = {int(r["id"]) for r in client.get(url, {**query, "term": ""}).json()["results"]}
    assert ids and ids <= world["members_a"]
    operator = as_("operator")
    found = operator.get(url, {**query, "term": "alleen"}).json()["results"]
    assert [int(r["id"]) for r in found] == [world["only_b"].pk]


def test_staff_who_administers_no_club_sees_no_clubs_rows(world, as_):
    staff = f.member(name="Alleen Staf", role="leader", club=world["a"])
    staff.is_staff = True
    staff.save()
    staff.user_permissions.add(*world["admin_a"].user_permissions.all())
    client = as_("admin_a")
    client.force_login(staff)
    assert client.get(_url("competition.Season", "changelist")).status_code == 403
    assert _listed(client, "members.User")[0] == set()
