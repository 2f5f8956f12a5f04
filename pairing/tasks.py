"""The deadline job: close sign-ups, pair and publish every evening that is due."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from competition.models import Bye, Evening, EveningStatus

from .models import PairingNotice
from .services import due_evenings, evening_pair_and_publish

log = logging.getLogger(__name__)


@shared_task(acks_late=True)
def close_due_evenings() -> list[int]:
    """Beat entry (Thursday 18:00 and a frequent catch-up). Safe to run twice at once:
    each evening is paired under its row lock, and a published one is left alone."""
    paired = []
    for evening_id in due_evenings():
        try:
            if evening_pair_and_publish(evening_id=evening_id) is not None:
                paired.append(evening_id)
        except Exception:  # one evening's failure must not stop the others
            log.exception("pairing evening %s failed", evening_id)
    return paired


def _signature(evening: Evening, player_id: int, game, bye_player: int | None) -> str:
    if bye_player == player_id:
        return "bye"
    if game is None:
        return "none"
    return f"{game.board}:{game.white_id}-{game.black_id}:{game.tempo}"


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def send_pairing_notices(evening_id: int) -> int:
    """E-mail each paired player his board, colour, opponent and tempo, once per version
    of his game. Serialised on the evening row: doubled tasks send each e-mail once."""
    sent = 0
    with transaction.atomic():
        evening = Evening.objects.select_for_update().select_related("season").get(pk=evening_id)
        if evening.status != EveningStatus.PUBLISHED:
            return 0
        games = list(evening.games.select_related("white__member", "black__member"))
        bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
        done = set(
            PairingNotice.objects.filter(evening=evening).values_list("player_id", "signature")
        )
        targets = []
        for g in games:
            targets += [(g.white, g), (g.black, g)]
        if bye:
            targets.append((bye.player, None))
        for player, game in targets:
            signature = _signature(evening, player.pk, game, bye.player_id if bye else None)
            if (player.pk, signature) in done or not player.member.email:
                continue
            with translation.override(settings.LANGUAGE_CODE):
                context = {"evening": evening, "player": player, "game": game, "bye": game is None}
                subject = render_to_string("pairing/email_subject.txt", context).strip()
                body = render_to_string("pairing/email_body.txt", context)
            send_mail(subject, body, None, [player.member.email])
            PairingNotice.objects.create(evening=evening, player=player, signature=signature)
            sent += 1
    return sent
