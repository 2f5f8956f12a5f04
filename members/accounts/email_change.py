"""A new e-mail address for a member, confirmed by its owner and undone by the old one.

The leader (or the member himself) asks for it (``services.member_update``): the new
address waits, unverified, beside the old one. This module queues two e-mails in that
transaction (``core.mail``'s outbox, sent after commit): to the new address allauth's own confirmation link (``account_confirm_email``;
confirming makes it the member's only address, ``ACCOUNT_CHANGE_EMAIL``), and to the old
address a notice with a link to undo. Until the new address is confirmed nothing about
signing in changes (a password reset to it finds nobody: ``competition.roster.forms``); after it is,
the undo link still puts the old address back and clears the password, so whoever took
the account over is signed out and the owner chooses a new password from his own
mailbox.
"""

from __future__ import annotations

import logging

from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from core import mail
from members.clubs.addresses import club_footer, club_sender, club_subject, on_site, site_name
from members.clubs.context import current_club
from members.models import User

log = logging.getLogger(__name__)

UNDO_SALT = "members.email_change.undo"  # the salt of the links already sent: unchanged by a move
UNDO_DAYS = 30


def undo_token(member_id: int, old: str, new: str) -> str:
    return signing.dumps({"m": member_id, "old": old, "new": new}, salt=UNDO_SALT, compress=True)


def read_undo_token(token: str) -> dict[str, object] | None:
    try:
        data = signing.loads(token, salt=UNDO_SALT, max_age=UNDO_DAYS * 86400)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not {"m", "old", "new"} <= data.keys():
        return None
    return data


def queue(*, member: User, old: str, new: str, site_url: str) -> bool:
    """In the caller's transaction, after the new address was stored unverified: the
    confirmation to ``new`` and the notice to ``old`` into the outbox (``core.mail``);
    False when the request is no longer open (confirmed, undone or replaced)."""
    pending = EmailAddress.objects.filter(user_id=member.pk, email=new, verified=False).first()
    if pending is None:
        return False
    club = current_club()

    def absolute(path: str) -> str:  # the request's address, its club prefix included
        return on_site(site_url, path)

    key = EmailConfirmationHMAC(pending).key
    context = {
        "member": member, "club": site_name(), "old": old, "new": new,
        "confirm_url": absolute(reverse("account_confirm_email", args=[key])),
        "undo_url": absolute(reverse("members_email_undo", args=[undo_token(member.pk, old, new)])),
        "days": UNDO_DAYS,
    }
    sender = club_sender(club)
    for template, to in (("email_change_confirm", new), ("email_change_notice", old)):
        subject, body = mail.render(f"members/{template}", context)
        mail.queue(key=f"{template}:{pending.pk}", subject=club_subject(club, subject),
                   body=body + club_footer(club), to=[to],
                   member=member, sender=sender)
    log.info("e-mail change of member %s: confirmation and notice queued", member.pk)
    return True


def send(*, member_id: int, old: str, new: str, site_url: str) -> bool:
    """A task queued before the outbox (``members.tasks.send_email_change``): queue the
    two e-mails and send them now."""
    member = User.objects.filter(pk=member_id).first()
    if member is None:
        return False
    with transaction.atomic():
        queued = queue(member=member, old=old, new=new, site_url=site_url)
    mail.deliver()
    return queued


@transaction.atomic(durable=True)
def undo(*, token: str) -> str:
    """Undo the change the token was made for. Returns what happened: ``"cancelled"``
    (the new address was not confirmed yet: it is dropped) or ``"restored"`` (it was: the
    old address is back as the only one and the password is cleared)."""
    data = read_undo_token(token)
    if data is None:
        raise ValidationError(_("This link is not valid (any more)."))
    member_id = data["m"]
    if not isinstance(member_id, int):
        raise ValidationError(_("This link is not valid (any more)."))
    member = User.objects.select_for_update().filter(pk=member_id).first()
    old, new = str(data["old"]), str(data["new"])
    if member is None:
        raise ValidationError(_("This link is not valid (any more)."))
    if member.email == old:
        dropped, _kinds = EmailAddress.objects.filter(user=member, email=new, verified=False).delete()
        if not dropped:
            raise ValidationError(_("There is nothing to undo: the address was not changed."))
        log.info("e-mail change of member %s cancelled from the old address", member.pk)
        return "cancelled"
    if member.email != new:
        raise ValidationError(_("The address has been changed again since; this link no longer applies."))
    if User.objects.filter(email__iexact=old).exclude(pk=member.pk).exists():
        raise ValidationError(_("The old address belongs to another member now; ask the administrator."))
    EmailAddress.objects.filter(user=member).delete()
    EmailAddress.objects.create(user=member, email=old, verified=True, primary=True)
    member.email = old
    member.set_unusable_password()  # ends every session of whoever took the account over
    member.save(update_fields=["email", "password"])
    log.warning("e-mail change of member %s undone after confirmation; password cleared", member.pk)
    return "restored"
