"""Club B built to be caught: the decoy club (tests/factories.py ``decoy_club``: the same
season name and dates and player names as club A, one member in both) with, besides,
strings and rows only B has, so that a page, download or e-mail of club A that shows
anything of B is seen.

``club_b(a_season)`` builds it in B's own club context and returns a ``ClubB``: its
marker strings (``MARKERS``: names no row of A carries), the objects each kind of URL
needs (a season of its own with dates A never plays on, an evening, games, a Swiss event
with a round played, a club duty request, a rating upload, an e-mail, a member of B
alone with a calendar address), and the ids of every club-scoped row of B per model
(``pks``), read after the build: B is built after A, so its ids are all above A's."""

from __future__ import annotations

import datetime as dt
import functools
import secrets
from dataclasses import dataclass, field

from django.apps import apps
from django.db import models

from competition.events import services as swiss
from competition.models import (
    ClubDutyRequest,
    Evening,
    Game,
    Player,
    RatingImport,
    Season,
    SwissEvent,
    SwissGame,
)
from competition.season import services
from core.models import Mail
from core.tenancy.scoping import club_path
from members.clubs.context import club_context
from members.models import Club, Membership, User
from pairing.services import evening_pair_and_publish
from tests import factories as f

# Names and words no row of club A carries: any of them on a page of A is B's.
UNIQUE_PLAYER = "Zacharias Loperman"
UNIQUE_LEADER = "Ludovica Loperleider"
UNIQUE_ADMIN = "Bartholomeus Loperbeheer"
UNIQUE_SEASON = "Loperjubileum 1998"
UNIQUE_EVENTS = ("Loperrapid Kampioenschap", "Loperblitz Bokaal")
CLUB_NAME = "Schaakclub De Loper"
SLUG = "de-loper"
MARKERS = (CLUB_NAME, f"/{SLUG}/", UNIQUE_PLAYER, UNIQUE_LEADER, UNIQUE_ADMIN, UNIQUE_SEASON,
           "loperjubileum-1998", *UNIQUE_EVENTS, "@de-loper.example")


@dataclass
class ClubB:
    club: Club
    season: Season  # the decoy's: A's name and dates
    own_season: Season  # B's alone: a name, a slug and dates A does not have
    admin: User
    leader: User
    shared: User
    alone: User  # a member of B only (with a calendar address)
    alone_token: str  # his calendar secret at B
    evening: Evening
    own_day: dt.date  # a playing evening of B's own season: A plays no evening that day
    game: Game
    event: SwissEvent
    swiss_game: SwissGame
    duty: ClubDutyRequest
    rating_import: RatingImport
    mail: Mail
    pks: dict[type[models.Model], set[int]] = field(default_factory=dict)
    own_days: set[str] = field(default_factory=set)  # B's own season's days, ISO


def club_b(a_season: Season, *, shared: User | None = None) -> ClubB:
    """Club B beside A's ``a_season`` (its first player, or ``shared``, in both clubs)."""
    decoy = f.decoy_club(a_season, shared=shared)
    club = decoy["club"]
    with club_context(club):
        admin, leader = decoy["admin"], decoy["leader"]
        User.objects.filter(pk=admin.pk).update(name=UNIQUE_ADMIN, email="beheer@de-loper.example")
        User.objects.filter(pk=leader.pk).update(name=UNIQUE_LEADER, email="leider@de-loper.example")
        admin.refresh_from_db()
        leader.refresh_from_db()
        season = decoy["season"]
        alone = f.member(name=UNIQUE_PLAYER, rating=2450, email="zacharias@de-loper.example", club=club)
        alone_token = secrets.token_urlsafe(32)
        Membership.objects.filter(user=alone, club=club).update(calendar_token=alone_token)
        alone.refresh_from_db()
        services.player_add(actor=admin, season=season, member=alone)
        evening = f.playing_evenings(season)[0]
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        game = Game.objects.filter(evening=evening, black__isnull=False).order_by("board").first()
        services.result_set(actor=admin, game=game, result="1-0", expected_version=game.version)
        own = services.season_set_up(actor=admin, name=UNIQUE_SEASON, opening=dt.date(1998, 9, 4),
                                     last_day=dt.date(1999, 7, 15), system="pion", club=club)
        services.player_add(actor=admin, season=own, member=alone)
        own_day = f.playing_evenings(own)[0].date
        swiss.event_create(actor=admin, season=season, kind="rapid", name=UNIQUE_EVENTS[0])
        blitz = swiss.event_create(actor=admin, season=season, kind="blitz", name=UNIQUE_EVENTS[1])
        for player in season.players.select_related("member").order_by("start")[:4]:
            swiss.entrant_add(actor=admin, event=blitz, member=player.member)
        swiss.entrant_add(actor=admin, event=blitz, member=alone)
        f.swiss_round_played(admin, blitz)
        swiss_game = SwissGame.objects.filter(round__event=blitz, black__isnull=False).first()
        later = f.playing_evenings(season)[3]
        asker = season.players.get(member=alone)
        duty = services.club_duty_request(actor=alone, player=asker, evening=later,
                                          note="Loper bardienst", now=evening.deadline)
        rating_import = RatingImport.objects.create(
            file_name="loper-ratings.txt", format="fide_txt", number_kind="fide", created_by=admin)
        mail = Mail.objects.create(key=f"invitation:{alone.pk}:loper", member=alone, club=club,
                                   to=[alone.email], subject=f"Welkom bij {CLUB_NAME}",
                                   body=f"Beste {UNIQUE_PLAYER}", state="failed")
        b = ClubB(club=club, season=season, own_season=own, admin=admin, leader=leader,
                  shared=decoy["shared"], alone=alone, alone_token=alone_token, evening=evening, own_day=own_day, game=game,
                  event=blitz, swiss_game=swiss_game, duty=duty, rating_import=rating_import, mail=mail)
        b.pks = club_rows(club)
        b.own_days = {e.date.isoformat() for e in own.evenings.all()}
    return b


def club_rows(club: Club) -> dict[type[models.Model], set[int]]:
    """The ids of every club-scoped row of ``club``, per model."""
    rows: dict[type[models.Model], set[int]] = {}
    with club_context(club):
        for model in apps.get_models():
            if club_path(model) is not None:
                rows[model] = set(model._default_manager.values_list("pk", flat=True))
    rows[Mail] = set(Mail.objects.filter(club=club).values_list("pk", flat=True))
    rows[User] = set(User.objects.filter(memberships__club=club).exclude(
        memberships__club__in=Club.objects.exclude(pk=club.pk)).values_list("pk", flat=True))
    return rows


def markers_in(text: str) -> list[str]:
    """B's marker strings found in ``text``."""
    return [marker for marker in MARKERS if marker in text]


# A URL keyword naming an object, and the object's model (tests/integration/
# test_club_sweep.py fills every one with B's; the crawl checks A's links never name one).
KIND_MODELS: dict[str, type[models.Model]] = {
    "evening_id": Evening, "player_id": Player, "game_id": Game, "swiss_game_id": SwissGame, "event_id": SwissEvent,
    "request_id": ClubDutyRequest, "import_id": RatingImport, "mail_id": Mail, "member_id": User,
}


def url_kind(route: str, name: str) -> str:
    """The kind of object a URL keyword names (its name, told apart where two apps share it)."""
    if name == "game_id" and route.startswith(("events/", "api/v1/events/")):
        return "swiss_game_id"
    return name


def b_objects_in(path: str, prefix: str, b: ClubB) -> list[str]:
    """The objects of B a link of club A's (``path`` under A's ``prefix``) points at."""
    if not path.startswith(prefix):
        return []
    found = []
    for kind, value in _objects_named("/" + path[len(prefix):].split("?", 1)[0]):
        model = KIND_MODELS.get(kind)
        if model is not None and _as_int(value) in b.pks.get(model, ()):
            found.append(f"{model.__name__} {value}")
        elif kind == "date" and str(value) in b.own_days:
            found.append(f"B's evening of {value}")
    return found


@functools.lru_cache(maxsize=20000)
def _objects_named(path: str) -> tuple[tuple[str, object], ...]:
    """(kind, value) of each object keyword of the URL ``path`` resolves to (a page links
    the same menu and players many times: each path is resolved once)."""
    from django.urls import Resolver404, resolve

    try:
        match = resolve(path)
    except Resolver404:
        return ()
    return tuple((url_kind(match.route, name), value) for name, value in match.kwargs.items())


def _as_int(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None
