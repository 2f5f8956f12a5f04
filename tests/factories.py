"""Factories for database tests: small functions over the real services."""

from __future__ import annotations

import datetime as dt
import itertools

from competition.models import PlayerKind, Season
from competition.season import services
from core.tenancy.context import club_in_hand
from members.clubs.roles import set_club_role
from members.models import Club, User

_seq = itertools.count(1)


def member(*, name: str | None = None, rating: int | None = 1600, role: str | None = "player",
           email: str | None = None, password: str = "pw-schaak-123",
           club: Club | None = None) -> User:
    """An account with ``role`` in ``club`` (the club of the test in hand); ``role=None``: an account that is no member of any club."""
    n = next(_seq)
    user = User.objects.create_user(
        email=email or f"member{n}@example.org", password=password,
        name=name or f"Member {n}", rating=rating,
    )
    if role:
        set_club_role(user, role, club or club_in_hand())
    return user


def join(user: User, role: str = "player", club: Club | None = None) -> User:
    """Make an account made some other way a member of ``club`` (the club of the test
    in hand) with ``role``: only a member may play in its seasons."""
    set_club_role(user, role, club or club_in_hand())
    return user


def admin(club: Club | None = None) -> User:
    return member(name="Admin", role="administrator", rating=None, club=club)


def leader(club: Club | None = None) -> User:
    return member(name="Leader", role="leader", rating=None, club=club)


def arbiter(club: Club | None = None) -> User:
    return member(name="Arbiter", role="arbiter", rating=None, club=club)


def season(
    *,
    system: str = "pion",
    players: int = 8,
    flexible: int = 0,
    opening: dt.date = dt.date(2026, 9, 4),
    last_day: dt.date = dt.date(2027, 7, 15),
    actor: User | None = None,
    club: Club | None = None,
    name: str | None = None,
    **kwargs,
) -> Season:
    """A season of ``club`` (the club of the test in hand) with its
    calendar and ``players`` members (the last ``flexible`` of them flexible), ordered by
    rating (highest first)."""
    club = club or club_in_hand()
    actor = actor or admin(club)
    s = services.season_set_up(
        actor=actor, name=name or f"{opening.year}-{opening.year + 1} #{next(_seq)}",
        opening=opening, last_day=last_day, system=system, club=club, **kwargs,
    )
    for i in range(players):
        m = member(name=f"Player {i + 1:03d}", rating=max(2400 - 7 * i, 1000), club=club)
        kind = PlayerKind.FLEXIBLE if i >= players - flexible else PlayerKind.FIXED
        services.player_add(actor=actor, season=s, member=m, kind=kind)
    services.players_order_by_rating(actor=actor, season=s)
    return s


def playing_evenings(s: Season, half: str | None = None):
    qs = s.evenings.filter(kind="playing").order_by("date")
    if half:
        qs = qs.filter(half__kind=half)
    return list(qs)


def swiss_round_played(arbiter, event):
    """Open, pair and finish the event's next round; the lower start number wins each game."""
    from competition.events import services as swiss

    rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
    for game in rnd.games.select_related("white", "black").filter(black__isnull=False):
        won = game.white.number < game.black.number
        swiss.game_result_set(actor=arbiter, game=game, white_points=1 if won else 0,
                              black_points=0 if won else 1, expected_version=game.version)
    return swiss.round_finish(actor=arbiter, round=rnd)
def decoy_club(a_season: Season | None = None, *, shared: User | None = None) -> dict:
    """Club B beside the installation's own club A, made to be confused with it: a season
    of the same name and dates as ``a_season`` (A's current season when not given), with
    players of the same names, its own leader, and ``shared`` (by default a player of
    A's season) a member of both clubs. Returns ``{"club", "season", "leader", "shared"}``.
    Built in B's own club context; the caller's context is left as it was."""
    from members.clubs.context import club_context

    club_a = club_in_hand()
    if a_season is None:
        a_season = Season.objects.filter(club=club_a).order_by("-start_date").first()
    if shared is None and a_season is not None:
        first = a_season.players.select_related("member").order_by("start").first()
        shared = first.member if first is not None else None
    names = ([p.member.name for p in a_season.players.select_related("member").order_by("start")]
             if a_season else [f"Player {i:03d}" for i in range(1, 9)])
    club_b = Club.objects.create(name="Schaakclub De Loper", slug="de-loper",
                                 time_zone="Europe/Amsterdam")
    with club_context(club_b):
        leader_b = member(name="Leader", role="leader", rating=None, club=club_b)
        admin_b = admin(club_b)
        opening = a_season.start_date if a_season else dt.date(2026, 9, 4)
        last_day = a_season.end_date if a_season else dt.date(2027, 7, 15)
        name = a_season.name if a_season else "2026-2027"
        s = services.season_set_up(actor=admin_b, name=name, opening=opening,
                                   last_day=last_day, system="pion", club=club_b)
        for i, player_name in enumerate(names):
            if shared is not None and player_name == shared.name:
                continue
            m = member(name=player_name, rating=max(2400 - 7 * i, 1000), club=club_b)
            services.player_add(actor=admin_b, season=s, member=m, kind=PlayerKind.FIXED)
        if shared is not None:
            set_club_role(shared, "player", club_b)
            services.player_add(actor=admin_b, season=s, member=shared, kind=PlayerKind.FIXED)
        services.players_order_by_rating(actor=admin_b, season=s)
    return {"club": club_b, "season": s, "leader": leader_b, "admin": admin_b, "shared": shared}


def trf_season(names: list[str], evenings: int, first: dt.date = dt.date(2025, 9, 5),
               ratings: list[int] | None = None) -> str:
    """A TRF file of a season of weekly evenings (record 132 dates them), every evening a
    round of the circle method over ``names`` (an odd number: one pairing bye, "U"), the
    higher of each pair winning and every fifth game drawn: last season as Sevilla
    exports it."""
    from fractions import Fraction

    from competition.events.engine import trf

    players = list(range(1, len(names) + 1))
    circle = players + ([0] if len(players) % 2 else [])
    rounds: dict[int, list[trf.TrfRound]] = {p: [] for p in players}
    for r in range(evenings):
        turn = circle[:1] + circle[1:][r % (len(circle) - 1):] + circle[1:][:r % (len(circle) - 1)]
        for board in range(len(turn) // 2):
            a, b = turn[board], turn[-1 - board]
            if 0 in (a, b):
                rounds[a or b].append(trf.TrfRound(0, "-", "U"))
                continue
            white, black = (a, b) if (r + board) % 2 else (b, a)
            draw = (r + board) % 5 == 0
            win = "=" if draw else ("1" if white < black else "0")
            lose = "=" if draw else ("0" if win == "1" else "1")
            rounds[white].append(trf.TrfRound(black, "w", win))
            rounds[black].append(trf.TrfRound(white, "b", lose))
    records = tuple(
        trf.TrfPlayer(number=p, name=trf.fide_name(names[p - 1]),
                      rating=(ratings or [0] * len(names))[p - 1],
                      points=sum((x.points for x in rounds[p]), Fraction(0)),
                      rounds=tuple(rounds[p]))
        for p in players
    )
    dates = [first + dt.timedelta(weeks=n) for n in range(evenings)]
    headers = (("012", "Interne competitie"), ("042", trf.trf_date(first)),
               ("132", trf.round_dates(dates)))
    return trf.write(trf.TrfFile(headers, records))
