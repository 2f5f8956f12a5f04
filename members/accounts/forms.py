"""The person's own forms: the sign-up form's extra field, the member's name, which the
standings show (allauth mixes ``SignupForm`` into its own sign-up form,
``ACCOUNT_SIGNUP_FORM_CLASS``); his details on "My details"; his new e-mail address."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.validators import single_line
from members.models import PublicName


class SignupForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=120, validators=[single_line],
        help_text=_("As it appears in the standings, e.g. Anna de Vries."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Enter your name."))
        if "@" in name:
            raise forms.ValidationError(_("Enter your name, not an e-mail address."))
        return name

    def signup(self, request, user) -> None:  # allauth's hook; the adapter stored the name
        return None


class ProfileForm(forms.Form):
    """A member's own details on "My details"."""

    phone = forms.CharField(
        label=_("Phone"), max_length=20, required=False,
        help_text=_("Shown only to the club's signed-in members, to arrange a postponed game."),
        widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel"}),
    )
    public_as = forms.ChoiceField(
        label=_("On public pages"), choices=PublicName.choices, widget=forms.RadioSelect,
        help_text=_("The public pages (standings, pairings, results, the calendar) show "
                    "your name or only your initials; the competition leader's pages show "
                    "your name."),
    )
    pairing_mail = forms.BooleanField(label=_("E-mail me my pairing"), required=False)
    notice_mail = forms.BooleanField(
        label=_("E-mail me notices"), required=False,
        help_text=_("A change in my pairing, an opponent who signs off, a decision on my requests."),
    )


class EmailChangeForm(forms.Form):
    """His own new e-mail address, with his password re-entered."""

    email = forms.EmailField(label=_("New e-mail address"),
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password = forms.CharField(
        label=_("Your password"), strip=False,
        help_text=_("To be sure it is you who asks."),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
