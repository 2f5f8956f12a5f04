"""The deadline job: close sign-ups, pair and publish every evening that is due."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from competition.models import Bye, Evening, EveningStatus, Game, Player, Tempo

from .models import PairingNotice
from .services import due_evenings, evening_pair_and_publish, published_not_begun

log = logging.getLogger(__name__)


@shared_task(acks_late=True)
def close_due_evenings() -> list[int]:
    """Beat entry, every minute (each evening has its own deadline). Safe to run twice at once:
    each evening is paired under its row lock, and a published one is left alone."""
    paired = []
    for evening_id in due_evenings():
        try:
            if evening_pair_and_publish(evening_id=evening_id) is not None:
                paired.append(evening_id)
        except Exception:  # one evening's failure must not stop the others
            log.exception("pairing evening %s failed", evening_id)
    # E-mails lost while the broker was down are sent now (each is sent once).
    for evening_id in published_not_begun():
        send_pairing_notices(evening_id)
    return paired


def _signature(player_id: int, game: Game | None, bye_player: int | None) -> str:
    """What the player has been told: opponent, colours and tempo (or the bye). The board
    number is left out: renumbering after a withdrawal does not e-mail the other boards."""
    if bye_player == player_id:
        return "bye"
    if game is None:
        return "none"
    return f"{game.white_id}-{game.black_id}:{game.tempo}"


def _latest_notices(evening: Evening) -> dict[int, str]:
    """Each player's last notified signature (ids grow; a resent one is re-created)."""
    latest: dict[int, str] = {}
    for player_id, signature in (
        PairingNotice.objects.filter(evening=evening).order_by("id")
        .values_list("player_id", "signature")
    ):
        latest[player_id] = signature
    return latest


def _record_notice(evening: Evening, player: Player, signature: str) -> None:
    # Unique per (evening, player, signature): a signature told before (A, B, back to A)
    # is re-created so that it becomes the latest again.
    PairingNotice.objects.filter(evening=evening, player=player, signature=signature).delete()
    PairingNotice.objects.create(evening=evening, player=player, signature=signature)


def _send(template: str, context: dict, to: str) -> None:
    with translation.override(settings.LANGUAGE_CODE):
        subject = render_to_string(f"pairing/{template}_subject.txt", context).strip()
        body = render_to_string(f"pairing/{template}_body.txt", context)
    send_mail(subject, body, None, [to])


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def send_pairing_notices(evening_id: int) -> int:
    """E-mail each paired player his board, colour, opponent and tempo whenever that
    differs from what he was last told. Serialised on the evening row: doubled tasks
    send each e-mail once."""
    sent = 0
    with transaction.atomic():
        evening = Evening.objects.select_for_update(of=("self",)).select_related("season").get(pk=evening_id)
        if evening.status != EveningStatus.PUBLISHED:
            return 0
        games = list(evening.games.select_related("white__member", "black__member"))
        bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
        latest = _latest_notices(evening)
        targets = []
        for g in games:
            targets += [(g.white, g), (g.black, g)]
        if bye:
            targets.append((bye.player, None))
        for player, game in targets:
            signature = _signature(player.pk, game, bye.player_id if bye else None)
            if latest.get(player.pk) == signature or not player.member.email:
                continue
            context = {"evening": evening, "player": player, "game": game, "bye": game is None}
            _send("email", context, player.member.email)
            _record_notice(evening, player, signature)
            sent += 1
    return sent


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def send_tempo_decision(game_id: int) -> int:
    """E-mail both players of a game the leader's decision on their tempo request, once.
    It is also their updated pairing notice, so a later republish does not repeat it."""
    sent = 0
    with transaction.atomic():
        game = Game.objects.select_related("evening").filter(pk=game_id).first()
        if game is None:
            return 0
        evening = Evening.objects.select_for_update().get(pk=game.evening_id)
        game = Game.objects.select_related("white__member", "black__member").get(pk=game_id)
        if game.tempo not in (Tempo.APPROVED, Tempo.REFUSED):
            return 0
        latest = _latest_notices(evening)
        for player in (game.white, game.black):
            signature = _signature(player.pk, game, None)
            if latest.get(player.pk) == signature or not player.member.email:
                continue
            context = {"evening": evening, "player": player, "game": game,
                       "approved": game.tempo == Tempo.APPROVED}
            _send("tempo_email", context, player.member.email)
            _record_notice(evening, player, signature)
            sent += 1
    return sent
