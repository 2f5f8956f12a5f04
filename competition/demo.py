"""A realistic demo club: members, roles, a season under way with results and absences.

Everything goes through the same services the site uses (set-up, sign-ups, the deadline
job's pairing, result entry), so the demo is also a smoke test of the whole chain.
"""

from __future__ import annotations

import datetime as dt
import functools
import random

from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from competition.models import Attendance, Evening, EveningKind, PlayerKind, Prize, Result, Season
from competition.season import services
from competition.season.standings import recalculate_season
from core.tenancy.context import club_in_hand
from members.clubs import roles
from members.clubs.context import club_context
from members.models import Club, User

PASSWORD = "schaken123"
FIRST = ["Anna", "Bas", "Cor", "Daan", "Eva", "Floor", "Gert", "Henk Jan", "Ingrid", "Joost",
         "Kees", "Lotte", "Maarten", "Nienke", "Otto", "Piet", "Quinten", "Roos", "Sander",
         "Tineke", "Utrecht", "Vera", "Wim", "Xander", "Yvonne", "Zeger", "Klaas", "Marieke",
         "Ruud", "Sanne"]
LAST = ["de Vries", "Jansen", "van Dijk", "Bakker", "Visser", "Smit", "Meijer", "de Boer",
        "Mulder", "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker",
        "Brouwer", "de Wit", "Dijkstra", "Smits", "de Graaf", "van der Meer", "Kok", "Jacobs",
        "de Haan", "Vermeulen", "van den Berg", "van der Linden", "Kuipers", "Schouten"]
FIRST[20] = "Ursula"


def _user(email: str, name: str, rating: int | None, *groups: str, staff: bool = False,
          password: str = PASSWORD, club: Club | None = None) -> User:
    user = User.objects.create_user(email=email, password=None, name=name, rating=rating)
    user.password = _hashed_password(password)  # one slow hash for all demo accounts
    user.save(update_fields=["password"])
    if staff:
        user.is_staff = user.is_superuser = True
        user.save(update_fields=["is_staff", "is_superuser"])
    if groups:  # his role in the club: the highest named
        roles.set_club_role(user, max(groups, key=roles.ROLES.index), club=club or club_in_hand())
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user



@functools.cache
def _hashed_password(password: str) -> str:
    return make_password(password)


def season_start_year(today: dt.date) -> int:
    return today.year if today.month >= 8 else today.year - 1


def _result(rng: random.Random, white: int, black: int, *, postponed: bool = True) -> str:
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    roll = rng.random()
    if roll < 0.02:
        return Result.WHITE_FORFEIT_WIN
    if roll < 0.04 and postponed:
        return Result.POSTPONED
    draw = 0.25
    r = rng.random()
    if r < expected - draw / 2:
        return Result.WHITE_WINS
    if r < expected + draw / 2:
        return Result.DRAW
    return Result.BLACK_WINS


def _calendar(year: int, system: str = "pion") -> dict:
    """The set-up of the season that opens in September of ``year``."""
    opening = dt.date(year, 9, 4) + dt.timedelta(days=(4 - dt.date(year, 9, 4).weekday()) % 7)
    return {
        "name": f"{year}-{year + 1}",
        "opening": opening,
        "last_day": dt.date(year + 1, 7, 15),
        "system": system,
        "knsb_rounds": [dt.date(year, 10, 10), dt.date(year, 11, 7), dt.date(year, 12, 12),
                        dt.date(year + 1, 1, 30), dt.date(year + 1, 2, 27),
                        dt.date(year + 1, 3, 27)],
        "closed": [dt.date(year, 12, 25), dt.date(year + 1, 1, 1)],
    }


@transaction.atomic
def build_demo(*, today: dt.date | None = None, seed: int = 2026, password: str = PASSWORD,
               earlier_season: bool = True) -> Season:
    """The demo club, in the club of the work in hand; every account gets ``password`` (the published one only in
    development: ``load_demo`` passes a random one in production). With
    ``earlier_season`` the club has a history: last season, played to the end with its
    prizes confirmed, with most of this season's members and one who has left since."""
    rng = random.Random(seed)
    today = today or timezone.localdate()
    roles.ensure_groups()
    admin = _user("beheer@demo.club", "Bea Beheer", None, roles.ADMINISTRATOR, staff=True,
                  password=password)
    leader = _user("leider@demo.club", "Lars Leider", 1850, roles.LEADER, password=password)
    arbiter = _user("arbiter@demo.club", "Arend Arbiter", 1700, roles.ARBITER, password=password)

    year = season_start_year(today)
    season = services.season_set_up(actor=admin, club=club_in_hand(), **_calendar(year))
    members = []
    for i in range(30):
        rating = int(rng.gauss(1700, 220))
        user = _user(f"speler{i + 1}@demo.club", f"{FIRST[i]} {LAST[i]}", rating, roles.PLAYER,
                     password=password)
        members.append(user)
    _enter_and_play(season, members, admin, leader, arbiter, today, rng, flexible_every=4)
    if earlier_season:
        _last_season(year - 1, members, admin, leader, arbiter, password, random.Random(seed - 1))
    return season


# Newcomers of this season (no history) and the member who has left since last season.
NEWCOMERS = 4
LEFT = ("oudlid@demo.club", "Frits Oudshoorn", 1760)


def _last_season(year, members, admin, leader, arbiter, password, rng) -> Season:
    """Last season, played to the end (every board has a result): the club's history
    on the player pages and in the archive."""
    email, name, rating = LEFT
    former = [*members[:-NEWCOMERS], _user(email, name, rating, roles.PLAYER, password=password)]
    season = services.season_set_up(actor=admin, club=club_in_hand(), **_calendar(year))
    for i, member in enumerate(former):
        kind = PlayerKind.FIXED if i % 4 != 3 else PlayerKind.FLEXIBLE
        services.player_add(actor=admin, season=season, member=member, kind=kind)
    services.players_order_by_rating(actor=admin, season=season)
    players = list(season.players.select_related("member"))
    with services.recalculation_deferred():
        _play_past_evenings(season, players, leader, arbiter, season.end_date, rng, postponed=False)
    recalculate_season(season.pk, season.end_date)
    _prizes_as_confirmed(season, admin)
    return season


def _prizes_as_confirmed(season: Season, admin: User) -> None:
    """The season's prizes as the rules give them, stored as the administrator confirms
    them. Not through ``prizes_confirm``: that is a transaction of its own (durable),
    and the demo is built in one, often inside a test's."""
    from .prizes.selectors import proposed_prizes

    for half in season.halves.order_by("start_date"):
        Prize.objects.bulk_create(
            Prize(season=season, half=half, kind=p.kind, group=p.group,
                  member=p.player.member, confirmed_by=admin)
            for p in proposed_prizes(half).prizes
        )


def _enter_and_play(season, members, admin, leader, arbiter, today, rng, *, flexible_every) -> None:
    """The members enter the season (every ``flexible_every``-th one flexible), ordered by
    rating; the evenings before ``today`` are played and the standings computed once."""
    for i, member in enumerate(members):
        flexible = i % flexible_every == flexible_every - 1
        kind = PlayerKind.FLEXIBLE if flexible else PlayerKind.FIXED
        services.player_add(actor=admin, season=season, member=member, kind=kind)
    services.players_order_by_rating(actor=admin, season=season)
    players = list(season.players.select_related("member"))
    with services.recalculation_deferred():
        _play_past_evenings(season, players, leader, arbiter, today, rng)
    recalculate_season(season.pk, today)


def _play_past_evenings(season, players, leader, arbiter, today, rng, postponed=True) -> None:
    from pairing.services import evening_pair_and_publish

    past = list(
        Evening.objects.filter(season=season, kind=EveningKind.PLAYING, date__lt=today)
        .order_by("date")
    )
    for evening in past:
        before_deadline = evening.deadline - dt.timedelta(days=2)
        for p in players:
            roll = rng.random()
            if p.is_fixed and roll < 0.12:
                services.registration_set(actor=leader, player=p, evenings=[evening],
                                          status=Attendance.ABSENT_WITH_NOTICE, now=before_deadline)
            elif p.is_fixed and roll < 0.14:
                services.registration_set(actor=leader, player=p, evenings=[evening],
                                          status=Attendance.CLUB_DUTY, now=before_deadline)
            elif p.is_fixed and roll < 0.17:
                services.registration_set(actor=leader, player=p, evenings=[evening],
                                          status=Attendance.ABSENT_WITHOUT_NOTICE, now=before_deadline)
            elif not p.is_fixed and roll < 0.55:
                services.registration_set(actor=p.member, player=p, evenings=[evening],
                                          status=Attendance.PRESENT, now=before_deadline)
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        for game in evening.games.select_related("white", "black"):
            result = _result(rng, game.white.rating or 1500, game.black.rating or 1500,
                             postponed=postponed)
            note = "telefoon ging af" if result == Result.BLACK_WINS and rng.random() < 0.03 else ""
            services.result_set(actor=arbiter, game=game, result=result, note=note)


# The two other rulebooks' clubs (docs/rules.md 4): each at its own address, with its own
# members, leader, arbiter and administrator; the Pion club's first player is a member of
# the ladder club too (one account, two clubs, a role in each).
OTHER_CLUBS = (
    {"slug": "de-ladder", "name": "Schaakvereniging De Ladder", "system": "ladder",
     "domain": "ladder.demo.club", "venue": "Buurthuis De Sport, Kerkstraat 12, 3811 CV Amersfoort",
     "players": 24, "seed": 1001, "first": 1750},
    {"slug": "keizer-klassiek", "name": "Schaakclub Keizer Klassiek", "system": "classic",
     "domain": "klassiek.demo.club", "venue": "Zaal Het Paard, Markt 3, 2611 GP Delft",
     "players": 20, "seed": 1002, "first": 1650},
)
SHARED_MEMBER = "speler1@demo.club"


@transaction.atomic
def build_other_clubs(*, today: dt.date | None = None, password: str = PASSWORD) -> list[Season]:
    """The ladder club (rank difference 0,07, attendance bonus 0,3, 14 games for prizes,
    period groups) and the classic Keizer club (win = the opponent's value, loss 0, bye
    two thirds and absence a third of one's own value, at most three absences scored),
    each with a season under way, played through the same services as the Pion club's."""
    today = today or timezone.localdate()
    year = season_start_year(today)
    seasons = []
    for spec in OTHER_CLUBS:
        rng = random.Random(spec["seed"])
        club = Club.objects.create(name=spec["name"], slug=spec["slug"], venue=spec["venue"],
                                   default_system=spec["system"])
        with club_context(club):  # its own rows, its own roles
            domain = spec["domain"]
            admin = _user(f"beheer@{domain}", f"Beheerder {spec['name'].split()[-1]}", None,
                          roles.ADMINISTRATOR, password=password, club=club)
            leader = _user(f"leider@{domain}", f"Leider {spec['name'].split()[-1]}", 1800,
                           roles.LEADER, password=password, club=club)
            arbiter = _user(f"arbiter@{domain}", f"Arbiter {spec['name'].split()[-1]}", 1650,
                            roles.ARBITER, password=password, club=club)
            season = services.season_set_up(actor=admin, club=club, **_calendar(year, spec["system"]))
            members = []
            for i in range(spec["players"]):
                rating = int(rng.gauss(spec["first"], 200))
                first, last = FIRST[(i + spec["seed"]) % len(FIRST)], LAST[(i * 7 + spec["seed"]) % len(LAST)]
                members.append(_user(f"speler{i + 1}@{domain}", f"{first} {last}", rating,
                                     roles.PLAYER, password=password, club=club))
            if spec["system"] == "ladder":
                shared = User.objects.get(email=SHARED_MEMBER)
                roles.join_club(shared, club, roles.PLAYER)
                members.append(shared)
            _enter_and_play(season, members, admin, leader, arbiter, today, rng, flexible_every=5)
        seasons.append(season)
    return seasons
