"""allauth adapter: public sign-up only when the club allows it (``Club.open_registration``,
off by default), and then as a request its leader decides (``members.accounts.registration``). A
member's name is required at sign-up and stored on the user; it is asked for
(``members.accounts.forms.SignupForm``), never derived from the e-mail address.

Account e-mails speak for the club: without the Sites framework allauth names the site
after the request's host ("Hallo van 127.0.0.1:18100!"); here the site is the club of the
request (members/clubs/middleware.py) at its address, or on a page of no club the
installation's ``CLUB_NAME`` at ``SITE_URL``; the sender is the club's (``club_sender``)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _

from members.accounts.registration import record_registration, registration_open
from members.clubs.addresses import club_base_url, club_footer, club_sender, site_name
from members.clubs.context import current_club


@dataclass(frozen=True)
class ClubSite:
    """What allauth's templates read of a site: ``name`` and ``domain``."""

    name: str
    domain: str


def club_site() -> ClubSite:
    club = current_club()
    base = club_base_url(club) if club is not None else settings.SITE_URL
    return ClubSite(name=site_name(club), domain=urlsplit(base).netloc)


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        super().send_mail(template_prefix, email, {**context, "current_site": club_site()})

    def render_mail(self, template_prefix: str, email: str, context: dict, headers: dict | None = None):
        message = super().render_mail(template_prefix, email, context, headers=headers)
        club = current_club()
        message.from_email, message.reply_to = club_sender(club)
        message.body += club_footer(club)
        return message

    def get_login_redirect_url(self, request) -> str:
        """Signed in (also by setting his password from an invitation) under a club's
        address: to that club's home page, not to the list of all clubs."""
        if current_club() is not None:
            return reverse("competition:home")
        return super().get_login_redirect_url(request)

    def format_email_subject(self, subject: str) -> str:
        return f"[{site_name()}] {subject}"

    def populate_username(self, request, user) -> None:  # no usernames: e-mail only
        return None

    def is_open_for_signup(self, request) -> bool:
        return registration_open()

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=False)
        user.registration_pending = True  # a request: no member until the leader accepts
        name = (form.cleaned_data.get("name") or "").strip()
        if not name:
            raise ValidationError(_("Enter your name."))
        user.name = name
        if commit:
            user.save()
            record_registration(user)  # it asks to join the club of this address
        return user

