"""The tempo exception (RULES.md 5): two players may agree on 40 moves in 90 minutes, then
15 minutes; one of them asks, the competition leader approves or refuses before the
evening, and both players are told by e-mail.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.models import EveningStatus, Game, Player, Result, Tempo
from competition.services import enqueue


def _locked(game: Game) -> Game:
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("evening", "white__member", "black__member")
        .get(pk=game.pk)
    )


def requesting_player(actor: Any, game: Game) -> Player | None:
    """The player of the game the actor is, if he is one of the two."""
    if not getattr(actor, "is_authenticated", False):
        return None
    for player in (game.white, game.black):
        if player.member_id == actor.pk:
            return player
    return None


@transaction.atomic
def tempo_request(
    *, actor: Any, game: Game, opponent_agrees: bool, now: dt.datetime | None = None
) -> Game:
    """One of the two players asks for the alternative tempo, with his opponent's consent,
    before the evening starts. The leader decides (``tempo_decide``)."""
    now = now or timezone.now()
    game = _locked(game)
    player = requesting_player(actor, game)
    if player is None:
        raise PermissionDenied(_("Only the two players of a game can ask for another tempo."))
    if game.evening.status != EveningStatus.PUBLISHED:
        raise ValidationError(_("The pairing has not been published yet."))
    if now >= game.evening.starts_at:
        raise ValidationError(_("The evening has started; the tempo can no longer change."))
    if game.result != Result.PENDING:
        raise ValidationError(_("The game has a result already."))
    if game.tempo == Tempo.REQUESTED:
        raise ValidationError(_("The alternative tempo has been asked for already."))
    if game.tempo in (Tempo.APPROVED, Tempo.REFUSED):
        raise ValidationError(_("The competition leader has decided on this game's tempo already."))
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
        action="game.tempo_request",
        evening=game.evening,
        player=player,
        before=before,
        after={"tempo": game.tempo, "board": game.board, "opponent_agrees": True},
    )
    return game


@transaction.atomic
def tempo_decide(*, actor: Any, game: Game, approve: bool) -> Game:
    """The leader approves or refuses a pending request; both players get an e-mail
    after commit."""
    if actor is None or not actor.has_perm("competition.approve_tempo"):
        raise PermissionDenied(_("You are not allowed to do this."))
    game = _locked(game)
    if game.tempo != Tempo.REQUESTED:
        raise ValidationError(_("There is no tempo request for this game."))
    if game.result != Result.PENDING:
        raise ValidationError(_("The game has a result already."))
    before = {"tempo": game.tempo}
    game.tempo = Tempo.APPROVED if approve else Tempo.REFUSED
    game.tempo_decided_by = actor
    game.version += 1
    game.save(update_fields=["tempo", "tempo_decided_by", "version", "updated_at"])
    audit.record(
        actor=actor,
        action="game.tempo_decide",
        evening=game.evening,
        player=game.tempo_requested_by,
        before=before,
        after={"tempo": game.tempo, "board": game.board},
    )
    from .tasks import send_tempo_decision

    game_id = game.pk
    transaction.on_commit(lambda: enqueue(send_tempo_decision, game_id))
    return game
