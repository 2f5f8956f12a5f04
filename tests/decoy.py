"""The decoy club: a second club in every test database, made to be confused with the
installation's own (issue 20, "passes with one club" must not hide a leak).

Club B ("Schaakclub De Lokvogel", ``/lokvogel/``) has a season of the factories' default
name pattern's year, dates and system (2026-2027, 4 September 2026 to 15 July 2027,
Keizer "pion"), players named as the factories name theirs (``Player 001`` …), its own
leader and administrator, its first evening paired, published and played (games,
standings, pairing notices and their mails), and one member who also belongs to the
installation's club A. It is built once per test process, committed beside every test's
own data, and built again after a test that empties the database (a transactional test's
flush; tests/conftest.py). A test reads it with ``decoy()``.

A test that counts rows across clubs (platform work) or that runs a platform job (the
deadline dispatcher) sees B's rows too: that is the point."""

from __future__ import annotations

import datetime as dt

SLUG = "lokvogel"
NAME = "Schaakclub De Lokvogel"
SHARED_EMAIL = "gedeeld@lokvogel.example"
PLAYERS = 8


def decoy():
    """Club B, as the database holds it now."""
    from members.models import Club

    return Club.objects.get(slug=SLUG)


def ensure_decoy() -> bool:
    """Club B is in the database: built (and True) when it was not."""
    from members.models import Club

    if Club.objects.filter(slug=SLUG).exists():
        return False
    build_decoy()
    return True


def build_decoy():
    """Build club B through the services, in B's own club context; returns B's season."""
    from django.db import transaction

    from competition.models import PlayerKind
    from competition.season import services
    from members.clubs.context import club_context
    from members.clubs.memo import home_club
    from members.clubs.roles import set_club_role
    from members.models import Club, User
    from pairing.services import evening_pair_and_publish
    from tests import factories as f

    club_a = home_club()  # first: A keeps the lowest id, and is the installation's club
    club_b = Club.objects.create(name=NAME, slug=SLUG, time_zone="Europe/Amsterdam")
    # In B's context around the transaction: the work queued at its commit (the pairing
    # e-mails, the recalculation) is B's.
    with club_context(club_b), transaction.atomic():
        shared = User.objects.create_user(email=SHARED_EMAIL, password="pw-schaak-123",
                                          name="Gedeeld Lid", rating=1650)
        set_club_role(shared, "player", club_a)
        admin = f.admin(club_b)
        leader = f.leader(club_b)
        set_club_role(shared, "player", club_b)
        season = services.season_set_up(
            actor=admin, name="2026-2027", opening=dt.date(2026, 9, 4),
            last_day=dt.date(2027, 7, 15), system="pion", club=club_b,
        )
        for i in range(PLAYERS - 1):
            member = f.member(name=f"Player {i + 1:03d}", rating=max(2400 - 7 * i, 1000),
                              club=club_b)
            services.player_add(actor=admin, season=season, member=member,
                                kind=PlayerKind.FIXED)
        services.player_add(actor=admin, season=season, member=shared,
                            kind=PlayerKind.FIXED)
        services.players_order_by_rating(actor=admin, season=season)
        evening = f.playing_evenings(season)[0]
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                 now=evening.deadline)
        for game in evening.games.filter(black__isnull=False).order_by("board"):
            services.result_set(actor=leader, game=game, result="1-0", before_start=True)
    return season


def remove_decoy() -> None:
    """Club B gone (in the caller's transaction, so a test's rollback brings it back): an
    installation of one club, as it was before the decoy came. Its accounts go too, the
    one it shares with club A included."""
    from competition.models import Evening, Player, Season
    from members.clubs.context import club_context
    from members.models import Club, Membership, User

    club_b = Club.objects.filter(slug=SLUG).first()
    if club_b is None:
        return
    with club_context(club_b):
        # Games and halves protect players and seasons: delete from the evenings up.
        for model in (Evening, Player, Season):
            model.objects.all().delete()
        User.objects.filter(memberships__club=club_b).exclude(
            pk__in=Membership.objects.exclude(club=club_b).values("user_id")).delete()
    club_b.delete()
    User.objects.filter(email=SHARED_EMAIL).delete()
