"""allauth adapter: public sign-up only when the club allows it (``OPEN_REGISTRATION``,
off by default), and then as a request the leader decides (``members.registration``). A
member's name is required at sign-up and stored on the user; it is asked for
(``members.forms.SignupForm``), never derived from the e-mail address."""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .registration import registration_open


class AccountAdapter(DefaultAccountAdapter):
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
        return user

