"""Many clubs, one installation: club A (the installation's own) never sees, changes or
shares a cache key with club B, the decoy (tests/factories.py ``decoy_club``: the same
season name and dates, the same player names, one member in both clubs)."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import RequestFactory
from django_scopes import ScopeError

from competition.events import services as events
from competition.models import AuditRecord, Evening, EventKind, Game, Player, Season
from competition.prizes import services as prizes
from competition.ratings import services as ratings
from competition.season import services
from competition.season.selectors import current_season
from core import pagecache
from core.dates import club_today
from core.permissions import Perm, require
from members.clubs.context import club_context, current_club
from members.clubs.memo import home_club
from members.clubs.roles import club_role, role_label, set_club_role
from members.models import Club, Membership
from pairing.selectors import leader_emails
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def clubs(django_capture_on_commit_callbacks):
    """Club A's season (paired first evening) and the decoy club B's, paired too."""
    club_a = home_club()
    season_a = f.season(players=6, name="2026-2027")
    decoy = f.decoy_club(season_a)
    for club, season in ((club_a, season_a), (decoy["club"], decoy["season"])):
        with club_context(club):
            evening = f.playing_evenings(season)[0]
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                     now=evening.deadline)
    return {"a": club_a, "season_a": season_a, **decoy}


def in_b(clubs, fn):
    with club_context(clubs["club"]):
        return fn()


def test_a_scoped_model_read_outside_any_club_raises():
    with club_context(None):
        with pytest.raises(ScopeError):
            list(Season.objects.all())
        with pytest.raises(ScopeError):
            Evening.objects.filter(date=dt.date(2026, 9, 4)).exists()
        with pytest.raises(ScopeError):
            Game.objects.count()
    assert Season.objects.count() == 0  # back in the installation's club: it reads


def test_the_decoy_has_the_same_names_and_dates_but_is_another_club(clubs):
    a, b = clubs["season_a"], clubs["season"]
    assert (a.name, a.start_date, a.end_date) == (b.name, b.start_date, b.end_date)
    assert a.pk != b.pk and a.club_id != b.club_id
    assert sorted(Player.objects.values_list("member__name", flat=True)) == sorted(
        in_b(clubs, lambda: list(Player.objects.values_list("member__name", flat=True))))
    shared = clubs["shared"]
    assert set(shared.memberships.values_list("club_id", flat=True)) == {a.club_id, b.club_id}


def test_each_club_sees_only_its_own_rows(clubs):
    assert list(Season.objects.all()) == [clubs["season_a"]]
    assert in_b(clubs, lambda: list(Season.objects.all())) == [clubs["season"]]
    assert not Game.objects.filter(evening__season=clubs["season"]).exists()
    b_game = in_b(clubs, lambda: Game.objects.first())
    with pytest.raises(Game.DoesNotExist):
        Game.objects.get(pk=b_game.pk)


def test_current_season_is_the_current_clubs(clubs):
    today = clubs["season_a"].start_date
    assert current_season(today) == clubs["season_a"]
    assert in_b(clubs, lambda: current_season(today)) == clubs["season"]


def test_the_leaders_list_is_the_clubs_own(clubs):
    leader_a = f.leader()
    assert leader_a.email in leader_emails()
    assert clubs["leader"].email not in leader_emails()
    assert in_b(clubs, leader_emails) == [clubs["leader"].email]
    assert leader_emails(clubs["club"]) == [clubs["leader"].email]


def test_the_audit_trail_and_the_rating_uploads_are_the_clubs_own(clubs):
    a_records = set(AuditRecord.objects.values_list("club_id", flat=True))
    assert a_records == {clubs["a"].pk}
    b_records = in_b(clubs, lambda: set(AuditRecord.objects.values_list("season_id", flat=True)))
    assert b_records <= {clubs["season"].pk, None}
    assert in_b(clubs, lambda: AuditRecord.objects.filter(season=clubs["season_a"]).count()) == 0


def test_cache_versions_and_keys_are_per_club(clubs, settings, django_capture_on_commit_callbacks):
    settings.PAGE_CACHE_SECONDS = 60
    a_version = pagecache.data_version()
    a_evening = pagecache.evening_version("2026-09-04")
    with django_capture_on_commit_callbacks(execute=True):  # the writes commit
        in_b(clubs, pagecache.pages_changed)
    with django_capture_on_commit_callbacks(execute=True):
        in_b(clubs, lambda: pagecache.pages_changed(evening_day=dt.date(2026, 9, 4)))
    # A result in club B moves none of club A's versions ...
    assert pagecache.data_version() == a_version
    assert pagecache.evening_version("2026-09-04") == a_evening
    # ... and club A's own write does.
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.pages_changed()
    assert pagecache.data_version() != a_version
    request = RequestFactory().get("/stand/")
    assert pagecache.page_key(request, {}) != in_b(clubs, lambda: pagecache.page_key(request, {}))
    calls = []
    pagecache.versioned(("x",), lambda: calls.append("a") or "A")
    assert in_b(clubs, lambda: pagecache.versioned(("x",), lambda: calls.append("b") or "B")) == "B"
    assert calls == ["a", "b"]


def test_today_is_in_the_clubs_time_zone():
    east = Club.objects.create(name="Oost", slug="oost", time_zone="Pacific/Kiritimati")  # UTC+14
    west = Club.objects.create(name="West", slug="west", time_zone="Pacific/Pago_Pago")  # UTC-11
    with club_context(east):
        east_today = club_today()
    with club_context(west):
        west_today = club_today()
    assert east_today - west_today == dt.timedelta(days=1)


def test_a_member_of_two_clubs_has_a_role_in_each(clubs):
    shared = clubs["shared"]
    set_club_role(shared, "leader", clubs["club"])
    assert club_role(shared) == "player"
    assert not shared.has_perm(Perm.MANAGE_PAIRINGS)
    assert shared.has_perm(Perm.REGISTER_SELF)
    with club_context(clubs["club"]):
        assert club_role(shared) == "leader"
        assert shared.has_perm(Perm.MANAGE_PAIRINGS)
        assert str(role_label(shared)) == "competition leader"
    assert Membership.objects.filter(user=shared).count() == 2


def test_a_leader_of_club_b_has_no_role_in_club_a(clubs):
    leader_b = clubs["leader"]
    assert club_role(leader_b) is None
    assert not leader_b.has_perm(Perm.MANAGE_REGISTRATIONS)
    with pytest.raises(PermissionDenied):
        require(leader_b, Perm.MANAGE_REGISTRATIONS)


def test_the_platform_operator_may_act_in_every_club(clubs):
    operator = f.member(name="Operator", role=None)
    operator.is_superuser = True
    operator.save()
    require(operator, Perm.MANAGE_SEASON, of=clubs["season"])
    require(operator, Perm.MANAGE_SEASON, of=clubs["season_a"])


def test_staff_opens_the_admin_but_is_no_operator(clubs):
    """``is_staff`` lets a club's administrator open the admin; only a superuser (the
    platform's operator) may act in every club."""
    staff = f.member(name="Staff", role=None)
    staff.is_staff = True
    staff.save()
    with pytest.raises(PermissionDenied):
        require(staff, Perm.MANAGE_SEASON, of=clubs["season_a"])


# --- Every service family refuses club A's actor on club B's rows --------------------


def test_results_refuse_another_clubs_game(clubs):
    arbiter_a = f.arbiter()
    game_b = in_b(clubs, lambda: Game.objects.select_related("evening").first())
    with pytest.raises(PermissionDenied):
        services.result_set(actor=arbiter_a, game=game_b, result="1-0")
    with pytest.raises(PermissionDenied):  # nor in club B's own work: he has no role there
        in_b(clubs, lambda: services.result_set(actor=arbiter_a, game=game_b, result="1-0"))
    assert in_b(clubs, lambda: Game.objects.get(pk=game_b.pk).result) == ""


def test_registrations_refuse_another_clubs_player(clubs):
    leader_a = f.leader()
    player_b = in_b(clubs, lambda: clubs["season"].players.first())
    evening_b = in_b(clubs, lambda: f.playing_evenings(clubs["season"])[1])
    with pytest.raises(PermissionDenied):
        services.registration_set(actor=leader_a, player=player_b, evenings=[evening_b],
                                  status="absent")


def test_pairing_refuses_another_clubs_evening(clubs):
    leader_a = f.leader()
    evening_b = in_b(clubs, lambda: f.playing_evenings(clubs["season"])[1])
    with pytest.raises(PermissionDenied):
        in_b(clubs, lambda: evening_pair_and_publish(actor=leader_a, evening_id=evening_b.pk,
                                                     now=evening_b.deadline))
    with pytest.raises(Evening.DoesNotExist):  # in club A's work it does not even exist
        evening_pair_and_publish(actor=leader_a, evening_id=evening_b.pk, now=evening_b.deadline)


def test_season_setup_refuses_another_clubs_season(clubs):
    admin_a = f.admin()
    newcomer = f.member(name="Nieuw", club=clubs["club"])
    with pytest.raises(PermissionDenied):
        services.player_add(actor=admin_a, season=clubs["season"], member=newcomer)
    with pytest.raises(PermissionDenied):
        services.competition_set_parameters(
            actor=admin_a, competition=in_b(clubs, lambda: clubs["season"].competition),
            system="pion", overrides={})


def test_events_refuse_another_clubs_season(clubs):
    admin_a = f.admin()
    with pytest.raises(PermissionDenied):
        events.event_create(actor=admin_a, season=clubs["season"], kind=EventKind.RAPID,
                            name="Rapid 1")


def test_prizes_refuse_another_clubs_half(clubs):
    admin_a = f.admin()
    half_b = in_b(clubs, lambda: clubs["season"].halves.first())
    player_b = in_b(clubs, lambda: clubs["season"].players.first())
    with pytest.raises(PermissionDenied):
        prizes.eligibility_override_set(actor=admin_a, half=half_b, player=player_b,
                                        eligible=False, reason="test")


def test_ratings_refuse_another_clubs_season(clubs):
    admin_a = f.admin()
    with pytest.raises(PermissionDenied):
        ratings.season_start_from_ratings(actor=admin_a, season=clubs["season"])


# --- A player of a season is a member of its club -----------------------------------


def test_player_add_refuses_a_member_of_another_club(clubs):
    admin_a = f.admin()
    outsider = in_b(clubs, lambda: f.member(name="Alleen B", club=clubs["club"]))
    with pytest.raises(ValidationError, match="no member of the club"):
        services.player_add(actor=admin_a, season=clubs["season_a"], member=outsider)
    assert not Player.objects.filter(member=outsider).exists()


def test_adding_a_new_member_makes_him_a_member_of_the_club(clubs):
    from competition.roster import services as member_services
    player = member_services.member_add(
        actor=f.leader(), season=clubs["season_a"], name="Nieuw Lid", email="nieuw@example.org",
        rating=1500, site_url="http://testserver")
    assert club_role(player.member) == "player"
    assert current_club() == clubs["a"]
    assert in_b(clubs, lambda: club_role(player.member)) is None


# --- Work outside a request runs in a club ----------------------------------------------


def test_a_task_outside_any_club_runs_in_the_installations_club_and_leaves_it(monkeypatch, one_club):
    """A club's task (config/celery.py ``ClubTask``) queued in no club, on an installation of
    one club, runs in that club, and the worker is in no club again after it."""
    from config.celery import app
    from core import jobs

    seen = []

    @app.task(name="tests.clubs_season_count")
    def season_count() -> None:
        seen.append((current_club(), Season.objects.count()))  # it may read: a club is in scope

    monkeypatch.setitem(jobs.TASKS, "tests.clubs_season_count", None)
    with club_context(None):
        season_count.delay()
        assert seen == [(home_club(), 0)]
        assert current_club() is None
        with pytest.raises(ScopeError):
            Season.objects.count()


def test_a_command_runs_in_the_club_it_is_given():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="no club with the address 'nergens'"):
        call_command("export_season", "2026-2027", "--club", "nergens")


def test_a_request_is_in_the_installations_club(client):
    response = client.get("/")
    assert response.wsgi_request.club == home_club()
