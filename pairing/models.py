"""The outbox of the pairing e-mails: one row per player and version of what he must be
told (his game, or the leader's tempo decision). The row is written in the same
transaction as the change, and sent after commit by a task that holds no lock; a row is
marked sent as soon as its e-mail has gone, so a retry after a failure part-way sends
only what is missing, and a republished pairing e-mails only the players whose game
changed."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.models import MAX_ATTEMPTS as OUTBOX_MAX_ATTEMPTS
from core.tenancy.scoping import ScopedManager


class NoticeKind(models.TextChoices):
    PAIRING = "pairing", _("pairing")
    TEMPO = "tempo", _("tempo decision")
    WITHDRAWAL = "withdrawal", _("a paired player signed off")


# What a player was last told about his own game; a withdrawal notice is news about
# somebody else's, and does not replace it.
GAME_KINDS = (NoticeKind.PAIRING, NoticeKind.TEMPO)


class NoticeState(models.TextChoices):
    PENDING = "pending", _("to be sent")
    SENT = "sent", _("sent")
    SUPERSEDED = "superseded", _("replaced before it was sent")
    # This e-mail itself cannot be sent (a header the mail library refuses, an address the
    # server refuses), MAX_ATTEMPTS times: given up, and on the leader's to-do list.
    FAILED = "failed", _("could not be sent")


MAX_ATTEMPTS = OUTBOX_MAX_ATTEMPTS  # the outbox's (core.mail)


class PairingNotice(models.Model):
    evening = models.ForeignKey(
        "competition.Evening", on_delete=models.CASCADE, related_name="notices", verbose_name=_("evening")
    )
    player = models.ForeignKey(
        "competition.Player", on_delete=models.CASCADE, related_name="notices", verbose_name=_("player")
    )
    signature = models.CharField(_("signature"), max_length=200, help_text=_("colours, opponent, tempo"))
    kind = models.CharField(_("kind"), max_length=10, choices=NoticeKind.choices, default=NoticeKind.PAIRING)
    recipient = models.EmailField(
        _("recipient"), blank=True, help_text=_("another address than the player's: the leader's")
    )
    state = models.CharField(
        _("state"), max_length=10, choices=NoticeState.choices, default=NoticeState.PENDING, db_index=True
    )
    send_after = models.DateTimeField(
        _("send after"), null=True, blank=True,
        help_text=_("a correction's e-mail waits a moment, so an undo sends nothing"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0, help_text=_("failed sending attempts"))
    last_error = models.CharField(_("last error"), max_length=200, blank=True)

    objects = ScopedManager(club="evening__season__club")

    class Meta:
        verbose_name = _("pairing e-mail")
        verbose_name_plural = _("pairing e-mails")
        indexes = [models.Index(fields=["evening", "player"], name="notice_evening_player")]

    def __str__(self) -> str:
        return f"{self.evening_id}/{self.player_id}: {self.signature} ({self.state})"
