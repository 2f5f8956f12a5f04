"""The sign-up form's extra field: the member's name, which the standings show. allauth
mixes this class into its own sign-up form (``ACCOUNT_SIGNUP_FORM_CLASS``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class SignupForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=120,
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
