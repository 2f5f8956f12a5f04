"""The invitation e-mail: a link to allauth's set-password page for a new member.

The link is allauth's own password-reset link (``account_reset_password_from_key``), made
with its token generator: it works once (setting the password changes the hash the token
is made from) and expires after ``PASSWORD_RESET_TIMEOUT``; the leader can send a new one.
The mail is written in the club's language (Dutch), whatever language the leader uses.
"""

from __future__ import annotations

import logging

from allauth.account.forms import default_token_generator
from allauth.account.utils import user_pk_to_url_str
from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from .addresses import club_sender, on_site, site_name
from .context import current_club
from .models import User

log = logging.getLogger(__name__)


def set_password_url(member: User, site_url: str) -> str:
    key = f"{user_pk_to_url_str(member)}-{default_token_generator.make_token(member)}"
    path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
    return _absolute(site_url, path.replace("UID-KEY", key))


def _absolute(site_url: str, path: str) -> str:
    """On the address the leader's request came from (the club's prefix included:
    ``members.views._site_url``), the same from the request and from a worker."""
    return on_site(site_url, path)


def send(*, member_id: int, site_url: str) -> bool:
    """Send the invitation; False when the member is gone or has a password already
    (a retry after he used the link sends nothing)."""
    member = User.objects.filter(pk=member_id).first()
    if member is None or member.has_usable_password():
        return False
    context = {
        "member": member,
        "club": site_name(),
        "url": set_password_url(member, site_url),
        "home": _absolute(site_url, reverse("competition:home")),
        "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
    }
    with translation.override(settings.LANGUAGE_CODE):
        subject = render_to_string("members/invitation_subject.txt", context).strip()
        body = render_to_string("members/invitation_body.txt", context)
    sender, reply_to = club_sender(current_club())
    EmailMessage(subject, body, sender, [member.email], reply_to=reply_to).send()
    log.info("invitation sent to member %s", member_id)
    return True
