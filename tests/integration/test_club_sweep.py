"""Every URL with an object in it, asked under club A's address with club B's object, is
a 404 (or a 405, where the view does not take the method): every pattern of the URLconf (config/urls.py and its includes) with a keyword
(a season's slug, an evening's id, a player, a game, an event, a round, a member, a
token ...) is filled with club B's object (tests/isolation.py) and asked by club A's
administrator (so a refusal is not his role's), with GET and with POST, under A's prefix
(``/<slug>/…``, RANGLIJST_SINGLE_CLUB off) and at ``/`` on a single-club installation.
A pattern with two objects is asked too with A's parent and B's child (A's season with
B's player) and the other way round. A POST (empty, and filled as the site's forms are)
changes nothing of B. A control asks the same URLs with A's own objects: found.

A new pattern whose keyword the sweep does not know fails the first test: give the
keyword B's object in ``KINDS`` (or, for the platform's own pages, a reason in
``PLATFORM``), so no new URL goes unswept."""

from __future__ import annotations

import hashlib
import re
import secrets

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from competition.models import Game, RatingImport, SwissGame
from competition.season import services
from core.models import Mail
from core.tenancy.scoping import club_path
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.models import Membership, User
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.isolation import club_b, url_kind
from tests.transactions import rolled_back

pytestmark = pytest.mark.django_db

# Where a keyword names no club's object: the platform's own pages (they are at the site's
# root, never under a club's prefix: members/clubs/addresses.py PLATFORM_PATHS), with the reason.
PLATFORM = {
    "admin/": "the Django admin: the platform's, for operators (test_admin_audit.py scopes it)",
    "accounts/": "an account is the platform's (one e-mail, one password, national)",
    "language/": "a language code, no object",
}
KEYWORD = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
# A keyword that only means something inside another object's (a half of the season,
# a round or start number of the event): it takes the value of the club the URL's main
# object is from, and is never the one swapped.
SUBORDINATE = {"half", "number"}


def _patterns(resolvers=None, prefix: str = "") -> list[str]:
    """Every route of the URLconf with its include()s' prefixes, in the order resolved."""
    routes = []
    for entry in resolvers if resolvers is not None else get_resolver().url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            routes += _patterns(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            routes.append(route)
    return routes


def _platform(route: str) -> bool:
    return route.startswith(tuple(PLATFORM))


def _object_routes() -> list[str]:
    return [r for r in _patterns() if KEYWORD.search(r) and not _platform(r)]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Club A (the installation's) with a paired evening, a result and a Swiss event, and
    club B (tests/isolation.py), built once for the module."""
    with django_db_blocker.unblock(), rolled_back():
        admin_a = f.admin()
        season_a = f.season(players=6, name="2026-2027", actor=admin_a)
        evening_a = f.playing_evenings(season_a)[0]
        evening_pair_and_publish(actor=None, system=True, evening_id=evening_a.pk, now=evening_a.deadline)
        from competition.events import services as swiss

        event_a = swiss.event_create(actor=admin_a, season=season_a, kind="blitz", name="Blitz A")
        for player in season_a.players.select_related("member").order_by("start")[:4]:
            swiss.entrant_add(actor=admin_a, event=event_a, member=player.member)
        f.swiss_round_played(admin_a, event_a)
        asker = season_a.players.select_related("member").order_by("start").last()
        duty = services.club_duty_request(actor=asker.member, player=asker,
                                          evening=f.playing_evenings(season_a)[3], now=evening_a.deadline)
        a_token = secrets.token_urlsafe(32)
        Membership.objects.filter(user_id=asker.member_id, club=home_club()).update(calendar_token=a_token)
        asker.member.refresh_from_db()
        a = {
            "season": season_a.slug, "half": "winter", "evening_id": evening_a.pk,
            "player_id": asker.pk,
            "game_id": Game.objects.filter(evening=evening_a, black__isnull=False).first().pk,
            "event_id": event_a.pk, "number": 1, "date": evening_a.date.isoformat(),
            "swiss_game_id": SwissGame.objects.filter(round__event=event_a, black__isnull=False).first().pk,
            "request_id": duty.pk, "member_id": asker.member_id, "token": a_token,
            "import_id": RatingImport.objects.create(file_name="a.txt", format="fide_txt",
                                                     number_kind="fide", created_by=admin_a).pk,
            "mail_id": Mail.objects.create(key=f"invitation:{asker.member_id}:a", member=asker.member,
                                           to=[asker.member.email], subject="s", body="b",
                                           state="failed").pk,
        }
        b = club_b(season_a)
        with club_context(b.club):
            player_b = b.own_season.players.get(member=b.alone).pk
        kinds_b = {
            "season": b.own_season.slug, "half": "winter", "evening_id": b.evening.pk,
            "player_id": player_b, "game_id": b.game.pk, "event_id": b.event.pk, "number": 1,
            "date": b.own_day.isoformat(), "swiss_game_id": b.swiss_game.pk,
            "request_id": b.duty.pk, "import_id": b.rating_import.pk, "member_id": b.alone.pk,
            "mail_id": b.mail.pk, "token": b.alone_token,
        }
        yield {"admin": admin_a, "club": home_club(), "a": a, "b": kinds_b, "club_b": b}


# What each keyword is filled with: club B's object of that kind (``world``'s "b").
KINDS = {"season", "half", "evening_id", "player_id", "game_id", "event_id", "number", "date",
         "swiss_game_id", "request_id", "import_id", "member_id", "mail_id", "token"}


def test_every_object_keyword_of_every_url_has_club_bs_object():
    unknown = sorted({
        f"{route} ({m['name']})" for route in _object_routes()
        for m in KEYWORD.finditer(route) if url_kind(route, m["name"]) not in KINDS
    })
    assert not unknown, ("URLs whose keyword the sweep cannot fill with club B's object "
                         "(add it to KINDS and world, or to PLATFORM with the reason):\n"
                         + "\n".join(unknown))
    assert len(_object_routes()) > 60  # the walk reached every include()


def _url(route: str, values: dict) -> str:
    return KEYWORD.sub(lambda m: str(values[url_kind(route, m["name"])]), route)


def _variants(route: str, a: dict, b: dict) -> list[tuple[str, str]]:
    """(url, what) for the route: every object B's, and where there are two, each of them
    B's with the other A's."""
    names = [url_kind(route, m["name"]) for m in KEYWORD.finditer(route)]
    variants = [(_url(route, b), "B's objects")]
    swappable = [n for n in names if n not in SUBORDINATE]
    if len(swappable) > 1:
        for swapped in swappable:
            values = {n: (b[n] if n == swapped else a[n]) for n in names if n in a}
            values.update({n: a.get(n, b[n]) for n in SUBORDINATE if n in names})
            if all(n in values for n in names):
                variants.append((_url(route, values), f"B's {swapped}, A's others"))
    return variants


# A POST as a form of the site fills it, so that a view that looks its object up only after
# the form is valid (or after "are you sure?") is asked that far too.
FILLED = {"confirm": "1", "rounds": "5", "result": "1-0", "white_points": "1", "black_points": "0",
          "approve": "1", "decision": "approve", "kind": "fixed", "role": "player", "position": "1",
          "status": "present", "note": "Loper", "player": "1", "game_a": "1", "game_b": "2",
          "number": "1", "name": "Loper", "email": "x@de-loper.example"}


def _fingerprint(club) -> str:
    """Every row of ``club``: its club-scoped rows, its e-mails and its memberships."""
    digest = hashlib.sha256()
    with club_context(club):
        for model in sorted(apps.get_models(), key=lambda m: m._meta.label):
            if club_path(model) is not None:
                digest.update(repr(list(model._default_manager.order_by("pk").values())).encode())
    digest.update(repr(list(Mail.objects.filter(club=club).order_by("pk").values())).encode())
    digest.update(repr(list(Membership.objects.filter(club=club).order_by("pk").values())).encode())
    members = User.objects.filter(memberships__club=club).order_by("pk")
    digest.update(repr(list(members.values("pk", "name", "email", "is_active"))).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("mode", ["prefix", "single"])
def test_every_url_under_club_a_with_club_bs_object_is_a_404(world, mode, settings):
    settings.RANGLIJST_SINGLE_CLUB = mode == "single"
    prefix = f"/{world['club'].slug}/" if mode == "prefix" else "/"
    client = Client(raise_request_exception=False)
    client.force_login(world["admin"])
    before = _fingerprint(world["club_b"].club)
    problems, asked = [], 0
    for route in _object_routes():
        for url, what in _variants(route, world["a"], world["b"]):
            for method, data in (("get", None), ("post", {}), ("post", FILLED)):
                response = getattr(client, method)(prefix + url, data)
                asked += 1
                if response.status_code not in (404, 405):  # 405: the view does not take this method
                    problems.append(f"{method.upper()} {prefix}{url} ({what}): {response.status_code}"
                                    + (f" → {response['Location']}" if response.has_header("Location") else ""))
    assert asked >= 3 * len(_object_routes())
    assert not problems, (f"{len(problems)} URLs under club A serve club B's object:\n"
                          + "\n".join(problems))
    assert _fingerprint(world["club_b"].club) == before, "a POST under club A changed club B"


def test_the_same_urls_with_club_a_objects_are_found(world, settings, client):
    """The control: with A's own objects the sweep's URLs answer (the 404s above are the
    club's, not a URL the sweep wrote wrong)."""
    settings.RANGLIJST_SINGLE_CLUB = False
    client.force_login(world["admin"])
    prefix = f"/{world['club'].slug}/"
    missing = []
    for route in _object_routes():
        response = client.get(prefix + _url(route, world["a"]))
        if response.status_code == 404 and route not in NOT_FOUND_FOR_A:
            missing.append(f"{prefix}{_url(route, world['a'])}")
    assert not missing, "URLs not found with club A's own objects:\n" + "\n".join(missing)
    assert len(NOT_FOUND_FOR_A) < 5


# Routes whose object in ``world`` is A's but in a state the view does not show (kept short).
NOT_FOUND_FOR_A: set[str] = set()
