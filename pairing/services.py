"""Pairing an evening: close sign-ups, pair, publish, notify; and the leader's edits.

Every function locks the evening row first, so two beat processes, a retried task or two
workers at once pair an evening exactly once (the second finds it published).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.models import (
    Attendance,
    Bye,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Player,
    Registration,
    Result,
)
from competition.services import (
    bye_set,
    enqueue,
    game_create,
    renumber,
    schedule_recalculation,
)
from competition.signup import default_status
from competition.standings import compute, load_season_data

from .engine import types as pt
from .engine.keizer import bye_violation, pair_evening, place_newcomers, violations

FORFEITS = {Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT}


def _require(actor: Any, perm: str) -> None:
    if actor is not None and not actor.has_perm(perm):
        raise PermissionDenied(_("You are not allowed to do this."))


# --- Reading what the engine needs --------------------------------------------------------


def present_players(evening: Evening) -> list[Player]:
    """Fixed players not signed off and flexible players signed up (RULES.md 5)."""
    regs = dict(evening.registrations.values_list("player_id", "status"))
    players = Player.objects.filter(season_id=evening.season_id).select_related("member")
    return [
        p for p in players
        if regs.get(p.pk, default_status(p.is_fixed)) == Attendance.PRESENT
    ]


def standings_order(evening: Evening) -> list[int]:
    """The current standings before this evening, as the pairing order.

    Keizer: the standings of the evening's half after the last counted evening before it
    (first summer evening: the final winter standings; first winter evening: the starting
    order). Ladder: by ladder points without bonuses. Players not yet in it are left out;
    the caller places them by rating.
    """
    data = load_season_data(evening.season)
    earlier = tuple(e for e in data.evenings if e.date < evening.date)
    data = type(data)(**{**data.__dict__, "evenings": earlier})
    results = compute(data) if earlier else {}
    half = evening.half.kind  # type: ignore[union-attr]
    if half == "season":
        result = results.get("season")
        if result is None:
            return [p.id for p in sorted(data.players, key=lambda p: p.start)]
        rows = sorted(result.standings, key=lambda r: (-r.pairing_points, r.start))
        return [r.player_id for r in rows]
    if half in results:
        return [r.player_id for r in results[half].standings]
    if half == "summer" and "winter" in results:
        return [r.player_id for r in results["winter"].standings]
    return [p.id for p in sorted(data.players, key=lambda p: p.start)]


def _history(evening: Evening):
    """This season's meetings, colours and byes before the evening, its playing-evening
    index and the competition's rules: what the rules and colours are checked against.

    Only playing evenings count: playoff, rapid or blitz games are not meetings of the
    competition (and have no half)."""
    season = evening.season
    playing = list(
        Evening.objects.filter(season=season, kind=EveningKind.PLAYING)
        .order_by("date")
        .values_list("pk", "date")
    )
    index = {pk: i + 1 for i, (pk, _d) in enumerate(playing)}
    games = list(
        Game.objects.filter(
            evening__season=season, evening__kind=EveningKind.PLAYING,
            evening__date__lt=evening.date,
        )
        .select_related("evening__half")
        .order_by("evening__date", "board")
    )
    colours: dict[int, list[str]] = defaultdict(list)
    meetings: list[pt.Meeting] = []
    for g in games:
        if g.result in FORFEITS:
            continue
        colours[g.white_id].append("W")
        colours[g.black_id].append("B")
        meetings.append(
            pt.Meeting(g.white_id, g.black_id, index[g.evening_id], g.evening.half.kind)
        )
    byes: dict[int, int] = defaultdict(int)
    for player_id in Bye.objects.filter(
        evening__season=season, evening__kind=EveningKind.PLAYING,
        evening__date__lt=evening.date,
    ).values_list("player_id", flat=True):
        byes[player_id] += 1
    competition = season.competition
    rules = pt.PairingRules(
        max_meetings_per_season=competition.max_meetings_per_season,
        max_meetings_per_half=competition.max_meetings_per_half,
        min_evenings_between=competition.min_evenings_between,
        bye_policy=competition.bye_policy,
    )
    return meetings, colours, byes, rules, index[evening.pk]


def pairing_input(evening: Evening, present: list[Player]):
    """The engine's input: present players in order, this season's meetings and colours."""
    meetings, colours, byes, rules, index = _history(evening)
    by_id = {p.pk: p for p in present}
    order = [pid for pid in standings_order(evening) if pid in by_id]
    newcomers = [pid for pid in by_id if pid not in set(order)]
    if newcomers:
        ratings = {pid: by_id[pid].rating for pid in by_id}
        order = place_newcomers(order, ratings, sorted(newcomers, key=lambda pid: by_id[pid].start))
    players = [
        pt.PresentPlayer(pid, tuple(colours[pid]), byes[pid], by_id[pid].rating) for pid in order
    ]
    return players, meetings, rules, index


# --- Pairing and publishing ---------------------------------------------------------------


def _pairing_snapshot(evening: Evening) -> dict[str, Any]:
    games = [
        {"board": b, "white": w, "black": bl, "tempo": t}
        for b, w, bl, t in evening.games.order_by("board").values_list(
            "board", "white_id", "black_id", "tempo"
        )
    ]
    bye = Bye.objects.filter(evening=evening).values_list("player_id", flat=True).first()
    return {"games": games, "bye": bye}


def _notify_after_commit(evening: Evening) -> None:
    from .tasks import send_pairing_notices

    transaction.on_commit(lambda: enqueue(send_pairing_notices, evening.pk))


@transaction.atomic
def evening_pair_and_publish(
    *, evening_id: int, actor: Any = None, now: dt.datetime | None = None, force: bool = False
) -> dict[str, Any] | None:
    """Close sign-ups, pair and publish one evening. Returns the pairing (as stored), or
    None when there was nothing to do (already published, or not a playing evening).

    Without ``actor`` this is the deadline job; with it, the leader pairing by hand.
    ``force`` re-pairs a published evening that has no result yet (late changes).
    """
    _require(actor, "competition.manage_pairings")
    evening = (
        Evening.objects.select_for_update(of=("self",))
        .select_related("season__competition", "half")
        .get(pk=evening_id)
    )
    if evening.kind != EveningKind.PLAYING:
        return None
    if evening.status == EveningStatus.PUBLISHED and not force:
        return None
    if evening.games.exclude(result=Result.PENDING).exists():
        raise ValidationError(_("Results have been entered already; edit the pairing instead."))
    before = _pairing_snapshot(evening) if evening.status == EveningStatus.PUBLISHED else None
    evening.games.all().delete()
    Bye.objects.filter(evening=evening).delete()

    present = present_players(evening)
    players, meetings, rules, index = pairing_input(evening, present)
    seed = f"{evening.season.slug}:{evening.date.isoformat()}"
    result = pair_evening(
        players, meetings, rules, evening_index=index, half=evening.half.kind, seed=seed
    )
    by_id = {p.pk: p for p in present}
    for g in result.games:
        game_create(evening=evening, board=g.board, white=by_id[g.white], black=by_id[g.black])
    if result.bye is not None:
        bye_set(evening=evening, player=by_id[result.bye], drawn_from=result.bye_drawn_from)
    evening.status = EveningStatus.PUBLISHED
    evening.pairing_seed = seed
    evening.published_at = now or timezone.now()
    evening.version += 1
    evening.save(update_fields=["status", "pairing_seed", "published_at", "version"])
    after = {
        **_pairing_snapshot(evening),
        "bye_drawn_from": list(result.bye_drawn_from),
        "relaxed": [
            {"white": r.white, "black": r.black, "rule": r.rule} for r in result.relaxed
        ],
    }
    audit.record(
        actor=actor,
        action="pairing.publish" if before is None else "pairing.repair",
        evening=evening,
        before=before,
        after=after,
    )
    _notify_after_commit(evening)
    _recalculate_after_commit(evening)
    return after


def _recalculate_after_commit(evening: Evening) -> None:
    schedule_recalculation(evening.half_id)


def due_evenings(now: dt.datetime | None = None) -> list[int]:
    """Playing evenings whose deadline has passed, that are not yet published and have
    not begun. However late the job runs (a worker that was down), it still pairs them;
    an evening that has already begun is left to the leader: the pairing e-mails would
    arrive after the games."""
    now = now or timezone.now()
    return list(
        Evening.objects.filter(kind=EveningKind.PLAYING, deadline__lte=now, starts_at__gt=now)
        .exclude(status=EveningStatus.PUBLISHED)
        .order_by("date")
        .values_list("pk", flat=True)
    )


def published_not_begun(now: dt.datetime | None = None) -> list[int]:
    """Published playing evenings still to come: their pairing e-mails may be resent."""
    now = now or timezone.now()
    return list(
        Evening.objects.filter(
            kind=EveningKind.PLAYING, status=EveningStatus.PUBLISHED, starts_at__gt=now
        ).values_list("pk", flat=True)
    )


# --- The leader's edits of a published pairing ----------------------------------------------


def _locked_published(evening_id: int) -> Evening:
    evening = Evening.objects.select_for_update(of=("self",)).select_related("season").get(pk=evening_id)
    if evening.status != EveningStatus.PUBLISHED:
        raise ValidationError(_("This evening has not been paired yet."))
    return evening


def _season_player(evening: Evening, player_id: int) -> Player:
    player = Player.objects.filter(pk=player_id, season_id=evening.season_id).first()
    if player is None:
        raise ValidationError(_("That player does not take part in this season."))
    return player


def _set_attendance(actor: Any, evening: Evening, player: Player, status: str) -> None:
    """The registration that goes with a pairing edit. A removed player keeps an absence
    the leader recorded already (with notice, force majeure, club duty)."""
    reg = Registration.objects.select_for_update().filter(evening=evening, player=player).first()
    if reg is None:
        reg = Registration(evening=evening, player=player)
    elif status != Attendance.PRESENT and reg.status != Attendance.PRESENT:
        return
    else:
        reg.version += 1
    reg.status = status
    if status == Attendance.PRESENT:
        reg.force_majeure = False
    reg.changed_by = actor if getattr(actor, "is_authenticated", False) else None
    reg.save()


def _renumber(evening: Evening) -> None:
    """Boards 1..n again after a removal (two steps: the board numbers are unique)."""
    renumber(list(evening.games.order_by("board")), "board")


def _edit_done(actor: Any, evening: Evening, action: str, before: dict, detail: dict) -> None:
    evening.version += 1
    evening.save(update_fields=["version"])
    audit.record(
        actor=actor,
        action=action,
        evening=evening,
        before=before,
        after={**_pairing_snapshot(evening), **detail},
    )
    _notify_after_commit(evening)
    _recalculate_after_commit(evening)


@transaction.atomic
def pairing_swap_colours(*, actor: Any, game_id: int) -> Game:
    _require(actor, "competition.manage_pairings")
    game = Game.objects.select_related("evening").get(pk=game_id)
    evening = _locked_published(game.evening_id)
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.result not in (Result.PENDING, Result.POSTPONED):
        raise ValidationError(_("The game has a result; correct the result instead."))
    before = _pairing_snapshot(evening)
    game.white_id, game.black_id = game.black_id, game.white_id
    game.version += 1
    game.save(update_fields=["white", "black", "version"])
    _edit_done(actor, evening, "pairing.swap_colours", before, {"board": game.board})
    return game


@transaction.atomic
def pairing_remove_player(*, actor: Any, evening_id: int, player_id: int) -> None:
    """A late withdrawal: the player leaves the pairing and is absent without notice,
    unless the leader recorded another absence for him already (force majeure, club
    duty): that one stands. His opponent takes the bye, or, if somebody has the bye
    already, plays him."""
    _require(actor, "competition.manage_pairings")
    evening = _locked_published(evening_id)
    player = _season_player(evening, player_id)
    before = _pairing_snapshot(evening)
    bye = Bye.objects.filter(evening=evening).select_related("player").first()
    game = evening.games.filter(white=player).first() or evening.games.filter(black=player).first()
    if bye and bye.player_id == player.pk:
        bye.delete()
    elif game is not None:
        if game.result not in (Result.PENDING,):
            raise ValidationError(_("The game has a result already."))
        opponent = game.black if game.white_id == player.pk else game.white
        game.delete()
        _renumber(evening)
        if bye is None:
            bye_set(evening=evening, player=opponent)
        else:
            waiting = bye.player
            bye.delete()
            game_create(
                evening=evening, board=evening.games.count() + 1, white=opponent, black=waiting
            )
    else:
        raise ValidationError(_("%(p)s is not in this pairing.") % {"p": player})
    _set_attendance(actor, evening, player, Attendance.ABSENT_WITHOUT_NOTICE)
    _edit_done(actor, evening, "pairing.remove_player", before, {"removed": player.pk})


@transaction.atomic
def pairing_add_player(*, actor: Any, evening_id: int, player_id: int) -> None:
    """A late arrival: he plays whoever has the bye, or takes the bye himself."""
    _require(actor, "competition.manage_pairings")
    evening = _locked_published(evening_id)
    player = _season_player(evening, player_id)
    before = _pairing_snapshot(evening)
    if evening.games.filter(white=player).exists() or evening.games.filter(black=player).exists():
        raise ValidationError(_("%(p)s is already paired.") % {"p": player})
    bye = Bye.objects.filter(evening=evening).select_related("player").first()
    if bye is None:
        bye_set(evening=evening, player=player)
    else:
        if bye.player_id == player.pk:
            raise ValidationError(_("%(p)s is already paired.") % {"p": player})
        waiting = bye.player
        bye.delete()
        game_create(evening=evening, board=evening.games.count() + 1, white=player, black=waiting)
    _set_attendance(actor, evening, player, Attendance.PRESENT)
    _edit_done(actor, evening, "pairing.add_player", before, {"added": player.pk})


@transaction.atomic
def pairing_swap_opponents(*, actor: Any, game_a: int, game_b: int) -> None:
    """Exchange the black players of two games (the leader's manual correction)."""
    _require(actor, "competition.manage_pairings")
    if game_a == game_b:
        raise ValidationError(_("Choose two different games."))
    a = Game.objects.select_related("evening").get(pk=game_a)
    evening = _locked_published(a.evening_id)
    games = {
        g.pk: g
        for g in Game.objects.select_for_update().filter(pk__in=(game_a, game_b), evening=evening)
    }
    if len(games) != 2:
        raise ValidationError(_("Both games must belong to this evening."))
    a, b = games[game_a], games[game_b]
    if a.result or b.result:
        raise ValidationError(_("A game with a result cannot be changed."))
    before = _pairing_snapshot(evening)
    black_a, black_b = a.black, b.black
    boards = (a.board, b.board)
    a.delete()
    b.delete()
    game_create(evening=evening, board=boards[0], white=a.white, black=black_b)
    game_create(evening=evening, board=boards[1], white=b.white, black=black_a)
    _edit_done(actor, evening, "pairing.swap_opponents", before, {"boards": list(boards)})


def pairing_check(evening: Evening) -> list[pt.Relaxation]:
    """Which rules the evening's current pairing breaks (shown to the leader): the meeting
    rules game by game, then a bye given to a player who had more byes than another
    player in the pairing. Reads the season's earlier games and byes only: no standings
    are computed."""
    if evening.kind != EveningKind.PLAYING:
        return []
    games = list(evening.games.order_by("board"))
    meetings, _colours, byes, rules, index = _history(evening)
    paired = tuple(pt.PairedGame(g.board, g.white_id, g.black_id) for g in games)
    found = list(violations(paired, meetings, rules, index, evening.half.kind))
    bye = Bye.objects.filter(evening=evening).values_list("player_id", flat=True).first()
    if bye is not None:
        tonight = [pid for g in games for pid in (g.white_id, g.black_id)] + [bye]
        players = [pt.PresentPlayer(pid, byes=byes[pid]) for pid in tonight]
        repeated = bye_violation(players, bye)
        if repeated is not None:
            found.append(repeated)
    return found
