"""The outbox: every application e-mail that is not a pairing notice (those keep their own
rows, ``pairing.PairingNotice``, which know what a player was told) is one ``Mail`` row,
written in the transaction of the change it tells of and sent after commit by
``core.mail`` (docs/architecture.md, "E-mail")."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.tenancy.context import current_club_id
from core.tenancy.scoping import ScopedManager


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
    # The member the mail is about (the invited member, the player of a club duty request,
    # the member changing his address): the leader's to-do list shows his failed mails.
    member = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    # The club whose mail it is (its leader's to-do list shows it when it fails); None for
    # the platform's own (an e-mail address change concerns the member alone).
    club = models.ForeignKey("members.Club", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+", default=current_club_id, verbose_name=_("club"))
    # From and Reply-To (the club's, at queueing); empty: the platform's default address.
    from_email = models.CharField(_("from"), max_length=300, blank=True)
    reply_to = models.JSONField(_("reply to"), default=list, blank=True)
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

    # A club's mails are that club's alone (an invitation holds a set-password link);
    # with no club in scope, only the platform's own (club NULL). The platform's work
    # (the sending, the operator) sees all: ``platform_context``. Row-level security
    # backs it: migration core.0005_mail_row_level_security.
    objects = ScopedManager(club="club", platform_rows=True)

    class Meta:
        verbose_name = _("e-mail")
        verbose_name_plural = _("e-mails")

    def __str__(self) -> str:
        return f"{self.key} ({self.state})"

    @property
    def kind(self) -> str:
        """What kind of mail: the key's first part ("invitation", "club-duty", ...)."""
        return self.key.split(":", 1)[0]
