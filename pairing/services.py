"""Writes of the Keizer evening: close sign-ups, pair, publish, the leader's corrections
and the tempo exception. Each is one transaction that checks permission, locks the
evening row first, writes, audits, and leaves its e-mails in the outbox
(``pairing.notices``) to be sent after commit.

Locking the evening first means two beat processes, a retried task or two workers at
once pair an evening exactly once (the second finds it published).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import (
    Attendance,
    Bye,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Player,
    Registration,
    Tempo,
)
from competition.season.services import (
    bye_set,
    game_create,
    games_create,
    registration_set,
    schedule_recalculation,
)
from core.pagecache import pages_changed
from core.permissions import Perm, require
from members.models import Actor, person

from . import notices
from .engine.corrections import CorrectionRefused, swap_blacks, swap_colours
from .engine.keizer import pair_evening
from .engine.types import PairedGame
from .selectors import (
    current_pairing,
    half_kind,
    last_correction,
    leader_emails,
    pairing_input,
    pairing_snapshot,
    present_players,
    requesting_player,
)

# --- Pairing and publishing ---------------------------------------------------------------


@transaction.atomic
def evening_pair_and_publish(
    *, evening_id: int, actor: Actor | None, system: bool = False,
    now: dt.datetime | None = None, force: bool = False,
) -> dict[str, Any] | None:
    """Close sign-ups, pair and publish one evening. Returns the pairing (as stored), or
    None when there was nothing to do (already published, or not a playing evening).

    The deadline job calls it with ``actor=None, system=True``; the leader pairing by
    hand is checked for permission.
    ``force`` re-pairs a published evening that has no result yet (late changes).
    """
    require(actor, Perm.MANAGE_PAIRINGS, system=system)
    evening = (
        Evening.objects.select_for_update(of=("self",))
        .select_related("season__competition", "half")
        .get(pk=evening_id)
    )
    require(actor, Perm.MANAGE_PAIRINGS, system=system, of=evening)  # in the evening's club
    if evening.kind != EveningKind.PLAYING:
        return None
    if evening.status == EveningStatus.PUBLISHED and not force:
        return None
    if evening.games.with_result().exists():
        raise ValidationError(_("Results have been entered already; edit the pairing instead."))
    before = pairing_snapshot(evening) if evening.status == EveningStatus.PUBLISHED else None
    evening.games.all().delete()
    Bye.objects.filter(evening=evening).delete()

    present = present_players(evening)
    players, meetings, rules, index = pairing_input(evening, present)
    seed = f"{evening.season.slug}:{evening.date.isoformat()}"
    result = pair_evening(
        players, meetings, rules, evening_index=index, half=half_kind(evening), seed=seed
    )
    by_id = {p.pk: p for p in present}
    games = games_create(evening=evening, games=[
        (g.board, by_id[g.white], by_id[g.black]) for g in result.games])
    bye = None
    if result.bye is not None:
        bye = bye_set(evening=evening, player=by_id[result.bye], drawn_from=result.bye_drawn_from)
    evening.status = EveningStatus.PUBLISHED
    evening.pairing_seed = seed
    evening.published_at = now or timezone.now()
    evening.version += 1
    evening.save(update_fields=["status", "pairing_seed", "published_at", "version"])
    after = {
        **pairing_snapshot(evening, written=(games, bye)),
        "bye_drawn_from": list(result.bye_drawn_from),
        "relaxed": [
            {"white": r.white, "black": r.black, "rule": r.rule} for r in result.relaxed
        ],
    }
    audit.record(
        actor=actor,
        action=Action.PAIRING_PUBLISH if before is None else Action.PAIRING_REPAIR,
        evening=evening,
        before=before,
        after=after,
    )
    pages_changed()
    notices.pairing_changed(evening, written=(games, bye))
    _recalculate_after_commit(evening)
    return after


def _recalculate_after_commit(evening: Evening) -> None:
    schedule_recalculation(evening.half_id)


# --- Sign-ups on players' behalf, several at once -----------------------------------------------


@transaction.atomic
def registrations_set_bulk(
    *, actor: Actor, evening_id: int, player_ids: list[int], status: str,
    force_majeure: bool = False,
) -> list[Registration]:
    """One status for several players of one evening (the leader's evening page): each
    is set as ``registration_set`` does (audited per player), all or none."""
    require(actor, Perm.MANAGE_REGISTRATIONS)
    evening = Evening.objects.get(pk=evening_id)
    wanted = set(player_ids)
    if not wanted:
        raise ValidationError(_("Choose at least one player."))
    players = list(
        Player.objects.filter(season_id=evening.season_id, pk__in=wanted).order_by("start")
    )
    if len(players) != len(wanted):
        raise ValidationError(_("That player does not take part in this season."))
    saved: list[Registration] = []
    for player in players:
        saved += registration_set(
            actor=actor, player=player, evenings=[evening], status=status,
            force_majeure=force_majeure,
        )
    return saved


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


def _set_attendance(actor: Actor, evening: Evening, player: Player, status: str) -> None:
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
    reg.changed_by = person(actor)
    reg.save()


def _free_board(evening: Evening) -> int:
    """The lowest board without a game: a withdrawal leaves its board empty (no other
    game moves, so nobody else needs an e-mail), and a late arrival fills it."""
    taken = set(evening.games.values_list("board", flat=True))
    board = 1
    while board in taken:
        board += 1
    return board


def _edit_done(actor: Actor, evening: Evening, action: Action, before: dict[str, Any],
               detail: dict[str, Any], player: Player | None = None) -> None:
    evening.version += 1
    evening.save(update_fields=["version"])
    audit.record(
        actor=actor,
        action=action,
        evening=evening,
        player=player,
        before=before,
        after={**pairing_snapshot(evening), **detail},
    )
    pages_changed()
    notices.pairing_changed(evening, hold=True)
    _recalculate_after_commit(evening)


def _check_version(evening: Evening, version: int | None) -> None:
    """The leader confirmed a preview of the pairing at ``version``: a change made since
    (by another leader, a sign-off handled) means he has not seen what he confirms."""
    if version is not None and version != evening.version:
        raise ValidationError(_("The pairing has changed since you looked at it; look again."))


def _apply_pairing(evening: Evening, proposed: tuple[PairedGame, ...]) -> list[int]:
    """Save the corrected pairing: only the boards whose players changed are rewritten; a
    board whose two players only swap colours keeps its game (and its tempo). Returns
    those boards."""
    current = {g.board: g for g in evening.games.select_for_update().select_related(
        "white", "black")}
    wanted = {g.board: g for g in proposed}
    changed = sorted(b for b, g in wanted.items()
                     if (current[b].white_id, current[b].black_id) != (g.white, g.black))
    if any(current[b].has_result for b in changed):
        raise ValidationError(_("A game with a result cannot be changed."))
    flipped = [b for b in changed
               if {current[b].white_id, current[b].black_id} == {wanted[b].white, wanted[b].black}]
    moved = [b for b in changed if b not in flipped]
    for b in flipped:
        game = current[b]
        game.white, game.black = game.black, game.white
        game.version += 1
        game.save(update_fields=["white", "black", "version"])
    players = {p.pk: p for b in moved for p in (current[b].white, current[b].black)}
    Game.objects.filter(pk__in=[current[b].pk for b in moved]).delete()
    for b in moved:
        game_create(evening=evening, board=b, white=players[wanted[b].white],
                    black=players[wanted[b].black])
    return changed


def _correct(actor: Actor, evening_id: int, version: int | None,
             make: Callable[[tuple[PairedGame, ...]], tuple[PairedGame, ...]],
             action: Action, detail: dict[str, Any]) -> list[int]:
    """One confirmed correction: the pairing ``make`` turns the current one into (the same
    function the preview showed), saved, audited and republished."""
    require(actor, Perm.MANAGE_PAIRINGS)
    evening = _locked_published(evening_id)
    require(actor, Perm.MANAGE_PAIRINGS, of=evening)
    _check_version(evening, version)
    games, _bye = current_pairing(evening)
    try:
        proposed = make(games)
    except CorrectionRefused as exc:
        raise ValidationError(_("Both games must belong to this evening.")) from exc
    before = pairing_snapshot(evening)
    changed = _apply_pairing(evening, proposed)
    _edit_done(actor, evening, action, before, detail)
    return changed


@transaction.atomic(durable=True)
def pairing_swap_colours(*, actor: Actor, game_id: int, version: int | None = None) -> Game:
    """Exchange white and black of one game (after the leader saw the preview)."""
    require(actor, Perm.MANAGE_PAIRINGS)
    game = Game.objects.get(pk=game_id)
    if game.has_result:
        raise ValidationError(_("The game has a result; correct the result instead."))
    board = game.board
    _correct(actor, game.evening_id, version, lambda games: swap_colours(games, board),
             Action.PAIRING_SWAP_COLOURS, {"board": board})
    return Game.objects.get(evening_id=game.evening_id, board=board)


@transaction.atomic(durable=True)
def pairing_swap_opponents(
    *, actor: Actor, game_a: int, game_b: int, version: int | None = None,
) -> None:
    """Exchange the black players of two games (the leader's manual correction, after he
    saw the preview)."""
    require(actor, Perm.MANAGE_PAIRINGS)
    if game_a == game_b:
        raise ValidationError(_("Choose two different games."))
    a = Game.objects.get(pk=game_a)
    boards = dict(Game.objects.filter(pk__in=(game_a, game_b), evening_id=a.evening_id)
                  .values_list("pk", "board"))
    if len(boards) != 2:
        raise ValidationError(_("Both games must belong to this evening."))
    pair = (boards[game_a], boards[game_b])
    _correct(actor, a.evening_id, version, lambda games: swap_blacks(games, *pair),
             Action.PAIRING_SWAP_OPPONENTS, {"boards": list(pair)})


@transaction.atomic(durable=True)
def pairing_correction_undo(*, actor: Actor, evening_id: int, now: dt.datetime | None = None) -> None:
    """Undo the evening's last correction (``selectors.last_correction``: a swap, nothing
    changed since, the evening not begun): the pairing as it was before it. The players
    it moved are told the net change only (their held e-mail is withdrawn when they are
    back where their last e-mail put them)."""
    require(actor, Perm.MANAGE_PAIRINGS)
    evening = _locked_published(evening_id)
    require(actor, Perm.MANAGE_PAIRINGS, of=evening)
    record = last_correction(evening, now)
    if record is None:
        raise ValidationError(_("There is no correction to undo: the evening has begun, or "
                                "the pairing changed otherwise since."))
    restored = tuple(PairedGame(g["board"], g["white"], g["black"])
                     for g in (record.before or {}).get("games", []))
    before = pairing_snapshot(evening)
    _apply_pairing(evening, restored)
    _edit_done(actor, evening, Action.PAIRING_UNDO, before, {"undid": record.pk})


@transaction.atomic(durable=True)
def pairing_remove_player(*, actor: Actor, evening_id: int, player_id: int) -> None:
    """A late withdrawal: the player leaves the pairing and is absent without notice,
    unless the leader recorded another absence for him already (force majeure, club
    duty): that one stands. His opponent takes the bye, or, if somebody has the bye
    already, plays him on the same board. No other board moves: the board is left empty
    when the opponent takes the bye."""
    require(actor, Perm.MANAGE_PAIRINGS)
    evening = _locked_published(evening_id)
    player = _season_player(evening, player_id)
    before = pairing_snapshot(evening)
    bye = Bye.objects.filter(evening=evening).select_related("player").first()
    game = evening.games.filter(white=player).first() or evening.games.filter(black=player).first()
    if bye and bye.player_id == player.pk:
        bye.delete()
    elif game is not None:
        if game.has_result:
            raise ValidationError(_("The game has a result already."))
        opponent = game.black if game.white_id == player.pk else game.white
        board = game.board
        game.delete()
        if bye is None:
            bye_set(evening=evening, player=opponent)
        else:
            waiting = bye.player
            bye.delete()
            game_create(evening=evening, board=board, white=opponent, black=waiting)
    else:
        raise ValidationError(_("%(p)s is not in this pairing.") % {"p": player})
    _set_attendance(actor, evening, player, Attendance.ABSENT_WITHOUT_NOTICE)
    _edit_done(actor, evening, Action.PAIRING_REMOVE_PLAYER, before,
               {"removed": player.pk, "name": player.member.name}, player=player)


@transaction.atomic(durable=True)
def pairing_add_player(*, actor: Actor, evening_id: int, player_id: int) -> None:
    """A late arrival: he plays whoever has the bye, or takes the bye himself."""
    require(actor, Perm.MANAGE_PAIRINGS)
    evening = _locked_published(evening_id)
    player = _season_player(evening, player_id)
    before = pairing_snapshot(evening)
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
        game_create(evening=evening, board=_free_board(evening), white=player, black=waiting)
    _set_attendance(actor, evening, player, Attendance.PRESENT)
    _edit_done(actor, evening, Action.PAIRING_ADD_PLAYER, before,
               {"added": player.pk, "name": player.member.name}, player=player)


@transaction.atomic
def withdrawals_notify(*, evening_id: int) -> int:
    """Tell the opponent and the leaders of every paired player who signed off himself
    after the pairing was published, once (the task after his sign-off, and the catch-up
    job, call it). Returns how many e-mails were queued."""
    require(None, Perm.MANAGE_PAIRINGS, system=True)
    evening = Evening.objects.select_for_update(of=("self",)).select_related("season").filter(pk=evening_id).first()
    if evening is None or evening.status != EveningStatus.PUBLISHED:
        return 0
    return notices.withdrawals(evening, leader_emails(evening.season.club_id))


# --- The tempo exception (docs/rules.md 5) ---------------------------------------------------------
# Two players may agree on 40 moves in 90 minutes, then 15 minutes; one of them asks, the
# competition leader approves or refuses before the evening, and both are told by e-mail.


def _locked_game(game: Game) -> Game:
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("evening", "white__member", "black__member")
        .get(pk=game.pk)
    )


def _tempo_request_check(actor: Actor, game: Game, now: dt.datetime) -> Any:
    """The requesting player, or the refusal ``tempo_request`` raises whatever is posted:
    the one check behind the service and ``can_request_tempo``."""
    player = requesting_player(actor, game)
    if player is None:
        raise PermissionDenied(_("Only the two players of a game can ask for another tempo."))
    if game.evening.status != EveningStatus.PUBLISHED:
        raise ValidationError(_("The pairing has not been published yet."))
    if now >= game.evening.starts_at:
        raise ValidationError(_("The evening has started; the tempo can no longer change."))
    if game.has_result:
        raise ValidationError(_("The game has a result already."))
    if game.tempo == Tempo.REQUESTED:
        raise ValidationError(_("The alternative tempo has been asked for already."))
    if game.tempo in (Tempo.APPROVED, Tempo.REFUSED):
        raise ValidationError(_("The competition leader has decided on this game's tempo already."))
    return player


def can_request_tempo(actor: Actor, game: Game, now: dt.datetime | None = None) -> bool:
    """Whether ``tempo_request`` takes this player's request now (with his opponent's
    consent): the tempo page offers its form only then."""
    try:
        _tempo_request_check(actor, game, now or timezone.now())
    except (PermissionDenied, ValidationError):
        return False
    return True


@transaction.atomic(durable=True)
def tempo_request(
    *, actor: Actor, game: Game, opponent_agrees: bool, now: dt.datetime | None = None
) -> Game:
    """One of the two players asks for the alternative tempo, with his opponent's consent,
    before the evening starts. The leader decides (``tempo_decide``)."""
    now = now or timezone.now()
    game = _locked_game(game)
    player = _tempo_request_check(actor, game, now)
    if not opponent_agrees:
        raise ValidationError(_("Your opponent must agree to the alternative tempo."))
    before = {"tempo": game.tempo}
    game.tempo = Tempo.REQUESTED
    game.tempo_requested_by = player
    game.tempo_decided_by = None
    game.version += 1
    game.save(update_fields=["tempo", "tempo_requested_by", "tempo_decided_by", "version",
                             "updated_at"])
    audit.record(
        actor=actor,
        action=Action.GAME_TEMPO_REQUEST,
        evening=game.evening,
        player=player,
        before=before,
        after={"tempo": game.tempo, "board": game.board, "opponent_agrees": True},
    )
    pages_changed()
    return game


@transaction.atomic(durable=True)
def tempo_decide(*, actor: Actor, game: Game, approve: bool) -> Game:
    """The leader approves or refuses a pending request; both players get an e-mail
    after commit."""
    require(actor, Perm.APPROVE_TEMPO, of=game)
    game = _locked_game(game)
    if game.tempo != Tempo.REQUESTED:
        raise ValidationError(_("There is no tempo request for this game."))
    if game.has_result:
        raise ValidationError(_("The game has a result already."))
    before = {"tempo": game.tempo}
    game.tempo = Tempo.APPROVED if approve else Tempo.REFUSED
    game.tempo_decided_by = person(actor)
    game.version += 1
    game.save(update_fields=["tempo", "tempo_decided_by", "version", "updated_at"])
    audit.record(
        actor=actor,
        action=Action.GAME_TEMPO_DECIDE,
        evening=game.evening,
        player=game.tempo_requested_by,
        before=before,
        after={"tempo": game.tempo, "board": game.board},
    )
    pages_changed()
    notices.tempo_decided(game)
    return game
