"""The invitation e-mail: a link to allauth's set-password page for a new member.

The link is allauth's own password-reset link (``account_reset_password_from_key``), made
with its token generator: it works once (setting the password changes the hash the token
is made from) and expires after ``PASSWORD_RESET_TIMEOUT``; the leader can send a new one.
The mail is written in the club's language (Dutch), whatever language the leader uses, and
queued in the outbox in the transaction that adds the member (``core.mail``): it goes once,
and a mail server that is down delays it instead of losing it.
"""

from __future__ import annotations

import logging
import uuid

from allauth.account.forms import EmailAwarePasswordResetTokenGenerator, default_token_generator
from allauth.account.utils import user_pk_to_url_str
from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import transaction
from django.urls import reverse

from core import mail
from core.models import Mail
from members.clubs.addresses import (
    club_base_url,
    club_footer,
    club_sender,
    club_subject,
    on_site,
    site_name,
)
from members.clubs.context import current_club
from members.models import Club, User

log = logging.getLogger(__name__)


def set_password_url(member: User, site_url: str, tokens: PasswordResetTokenGenerator | None = None) -> str:
    token = (tokens or default_token_generator).make_token(member)
    key = f"{user_pk_to_url_str(member)}-{token}"
    path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
    return _absolute(site_url, path.replace("UID-KEY", key))


def _absolute(site_url: str, path: str) -> str:
    """On the address the leader's request came from (the club's prefix included:
    ``competition.roster.views._site_url``), the same from the request and from a worker."""
    return on_site(site_url, path)


def queue(*, member: User, site_url: str) -> bool:
    """In the caller's transaction: the invitation into the outbox (``core.mail``), sent
    after commit; False when the member has a password already."""
    if member.has_usable_password() or not member.email:
        return False
    context = {
        "member": member,
        "club": site_name(),
        "url": set_password_url(member, site_url),
        "home": _absolute(site_url, reverse("competition:home")),
        "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
    }
    club = current_club()
    subject, body = mail.render("members/invitation", context)
    queued = mail.queue(key=f"invitation:{member.pk}:{uuid.uuid4().hex}",
                        subject=club_subject(club, subject), body=body + club_footer(club),
                        to=[member.email], member=member, sender=club_sender(club))
    if queued:
        log.info("invitation queued for member %s", member.pk)
    return queued is not None


class _OwnAddressTokens(EmailAwarePasswordResetTokenGenerator):
    """allauth's token for a new member whose one address is his own (``queue_many``):
    the same hash, without the query per member that reads his addresses back."""

    def _make_hash_value(self, user, timestamp) -> str:  # type: ignore[no-untyped-def]
        return PasswordResetTokenGenerator._make_hash_value(self, user, timestamp) + user.email


def queue_many(*, members: list[User], site_url: str) -> int:
    """``queue`` for many new members at once (the member list's import): the club's
    subject, footer and sender worked out once, the outbox rows written in one insert and
    sent after commit by one task. Returns how many were queued."""
    members = [m for m in members if m.email and not m.has_usable_password()]
    rows = []
    club = current_club()
    footer, sender = club_footer(club), club_sender(club)
    home = _absolute(site_url, reverse("competition:home"))
    days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)
    tokens = _OwnAddressTokens()
    for member in members:
        to = mail.deliverable([member.email])
        if not to:
            continue
        subject, body = mail.render("members/invitation", {
            "member": member, "club": site_name(), "url": set_password_url(member, site_url, tokens),
            "home": home, "days": days,
        })
        rows.append(Mail(key=f"invitation:{member.pk}:{uuid.uuid4().hex}",
                         subject=club_subject(club, subject)[:300], body=body + footer,
                         to=to, member=member, from_email=sender[0] or "",
                         reply_to=list(sender[1])))
    if rows:
        Mail.objects.bulk_create(rows)
        mail.sent_after_commit([row.pk for row in rows])
        log.info("%s invitations queued", len(rows))
    return len(rows)


def queue_first_leader(*, member: User, club: Club) -> bool:
    """In the transaction that creates ``club`` (``members.platform.services.club_create``), in the
    club's context: the invitation of its first leader, who becomes its administrator,
    with the first steps and every link under the club's own address; queued as the new
    club's mail. False when he has a password already (an account of another club)."""
    if member.has_usable_password() or not member.email:
        return False
    base = club_base_url(club)
    context = {
        "member": member,
        "club": club.shown_name,
        "url": set_password_url(member, base),
        "home": _absolute(base, reverse("competition:home")),
        "settings_url": _absolute(base, reverse("competition:club_settings")),
        "leader_url": _absolute(base, reverse("competition:leader")),
        "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
    }
    subject, body = mail.render("members/first_leader_invitation", context)
    queued = mail.queue(key=f"invitation:{member.pk}:{uuid.uuid4().hex}",
                        subject=club_subject(club, subject), body=body + club_footer(club),
                        to=[member.email], member=member, sender=club_sender(club))
    if queued:
        log.info("first leader's invitation queued for member %s of club %s", member.pk, club.pk)
    return queued is not None


def send(*, member_id: int, site_url: str) -> bool:
    """An invitation task queued before the outbox (``members.tasks.send_invitation``):
    queue it and send it now; False when the member is gone or has a password already."""
    member = User.objects.filter(pk=member_id).first()
    if member is None:
        return False
    with transaction.atomic():
        queued = queue(member=member, site_url=site_url)
    mail.deliver()
    return queued
