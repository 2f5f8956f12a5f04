"""The leader's member forms: they turn input into service arguments."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.models import PlayerKind


class MemberForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    email = forms.EmailField(label=_("E-mail address"))
    rating = forms.IntegerField(label=_("KNSB rating"), required=False, min_value=0, max_value=3500)
    knsb_number = forms.CharField(label=_("KNSB relation number"), max_length=12, required=False)
    kind = forms.ChoiceField(
        label=_("Kind"), choices=PlayerKind.choices, initial=PlayerKind.FLEXIBLE,
        help_text=_("A fixed player is assumed present every evening unless he signs off; a "
                    "flexible player plays the evenings he signs up for."),
    )


class PositionForm(forms.Form):
    position = forms.IntegerField(label=_("Starting position"), min_value=1)
