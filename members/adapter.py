"""allauth adapter: a member's name is required at sign-up and stored on the user. It is
asked for (``members.forms.SignupForm``), never derived from the e-mail address."""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class AccountAdapter(DefaultAccountAdapter):
    def populate_username(self, request, user) -> None:  # no usernames: e-mail only
        return None

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=False)
        name = (form.cleaned_data.get("name") or "").strip()
        if not name:
            raise ValidationError(_("Enter your name."))
        user.name = name
        if commit:
            user.save()
        return user

