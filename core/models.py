"""The outbox: every application e-mail that is not a pairing notice (those keep their own
rows, ``pairing.PairingNotice``, which know what a player was told) is one ``Mail`` row,
written in the transaction of the change it tells of and sent after commit by
``core.mail`` (docs/architecture.md, "E-mail")."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class MailState(models.TextChoices):
    PENDING = "pending", _("to be sent")
    SENT = "sent", _("sent")
    SUPERSEDED = "superseded", _("replaced before it was sent")
    FAILED = "failed", _("could not be sent")


# A message refused on its own this many times is given up (state "failed").
MAX_ATTEMPTS = 5


class Mail(models.Model):
    # What the mail is about, unique: queueing the same mail twice (a task that runs twice)
    # writes one row, e.g. "club-duty:7:3" (request 7, its third version) or
    # "email_change_confirm:12"; an invitation is new each time the leader asks.
    key = models.CharField(max_length=200, unique=True)
    to = models.JSONField(default=list)
    cc = models.JSONField(default=list, blank=True)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    state = models.CharField(
        max_length=10, choices=MailState.choices, default=MailState.PENDING, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = _("e-mail")
        verbose_name_plural = _("e-mails")

    def __str__(self) -> str:
        return f"{self.key} ({self.state})"
