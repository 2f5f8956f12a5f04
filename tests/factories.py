"""Factories for database tests: small functions over the real services."""

from __future__ import annotations

import datetime as dt
import itertools

from django.contrib.auth.models import Group

from competition.models import PlayerKind, Season
from competition.season import services
from members.models import User
from members.roles import ensure_groups

_seq = itertools.count(1)


def member(*, name: str | None = None, rating: int | None = 1600, role: str | None = "player",
           email: str | None = None, password: str = "pw-schaak-123") -> User:
    n = next(_seq)
    user = User.objects.create_user(
        email=email or f"member{n}@example.org", password=password,
        name=name or f"Member {n}", rating=rating,
    )
    if role:
        ensure_groups()
        user.groups.add(Group.objects.get(name=role))
    return user


def admin() -> User:
    return member(name="Admin", role="administrator", rating=None)


def leader() -> User:
    return member(name="Leader", role="leader", rating=None)


def arbiter() -> User:
    return member(name="Arbiter", role="arbiter", rating=None)


def season(
    *,
    system: str = "pion",
    players: int = 8,
    flexible: int = 0,
    opening: dt.date = dt.date(2026, 9, 4),
    last_day: dt.date = dt.date(2027, 7, 15),
    actor: User | None = None,
    **kwargs,
) -> Season:
    """A season with its calendar and ``players`` members (the last ``flexible`` of them
    flexible), ordered by rating (highest first)."""
    actor = actor or admin()
    s = services.season_set_up(
        actor=actor, name=f"{opening.year}-{opening.year + 1} #{next(_seq)}",
        opening=opening, last_day=last_day, system=system, **kwargs,
    )
    for i in range(players):
        m = member(name=f"Player {i + 1:03d}", rating=max(2400 - 7 * i, 1000))
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
