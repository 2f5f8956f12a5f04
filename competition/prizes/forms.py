"""Forms of the prize pages: they turn input into service arguments."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.models import Half, Player, PlayerKind
from competition.season.forms import DateListField, DatePicker
from core.validators import single_line

RESULT_LABELS = {
    "1-0": "1-0",
    "1/2-1/2": "½-½",
    "0-1": "0-1",
    "1-0F": _("1-0 forfeit"),
    "0-1F": _("0-1 forfeit"),
}
PLAYOFF_RESULTS = list(RESULT_LABELS.items())  # the engine's RESULTS, in button order


class _SeasonForm(forms.Form):
    """A form about one season: ``half`` and ``player`` must belong to it."""

    def __init__(self, *args: Any, season: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.season = season

    def _half(self, pk: int) -> Half:
        half = Half.objects.filter(season=self.season, pk=pk).first()
        if half is None:
            raise forms.ValidationError(_("Unknown half."))
        return half

    def _player(self, pk: int) -> Player:
        player = Player.objects.filter(season=self.season, pk=pk).select_related("member").first()
        if player is None:
            raise forms.ValidationError(_("Unknown player."))
        return player

    def clean_half(self) -> Half:
        return self._half(self.cleaned_data["half"])

    def clean_player(self) -> Player:
        return self._player(self.cleaned_data["player"])


class EligibilityOverrideForm(_SeasonForm):
    half = forms.IntegerField(widget=forms.HiddenInput)
    player = forms.IntegerField(label=_("Player"))
    eligible = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[("1", _("eligible")), ("0", _("not eligible"))],
        coerce=lambda v: v == "1",
    )
    reason = forms.CharField(label=_("Reason"), max_length=200, validators=[single_line])


class HalfPlayerForm(_SeasonForm):
    half = forms.IntegerField(widget=forms.HiddenInput)
    player = forms.IntegerField(widget=forms.HiddenInput)


class HalfForm(_SeasonForm):
    half = forms.IntegerField(widget=forms.HiddenInput)


class PlayerKindForm(_SeasonForm):
    player = forms.IntegerField(widget=forms.HiddenInput)
    kind = forms.ChoiceField(choices=PlayerKind.choices, widget=forms.HiddenInput)


class PlayoffResultForm(forms.Form):
    match = forms.CharField(max_length=20, widget=forms.HiddenInput)
    result = forms.ChoiceField(label=_("Result"), choices=PLAYOFF_RESULTS)


class PlayoffDateForm(forms.Form):
    match = forms.CharField(max_length=20, widget=forms.HiddenInput)
    date = forms.DateField(label=_("Agreed date"), widget=DatePicker())


class NextSeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40, validators=[single_line])
    opening = forms.DateField(label=_("Season opening"), widget=DatePicker())
    last_day = forms.DateField(label=_("Last day"), widget=DatePicker())
    knsb_rounds = DateListField(
        label=_("KNSB round dates"), required=False,
        help_text=_("The Friday before each becomes a rapid evening."),
    )
    closed = DateListField(label=_("Dates the venue is closed"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("opening") and data.get("last_day") and data["last_day"] <= data["opening"]:
            self.add_error("last_day", _("The season must end after its opening."))
        return data


class LeaderNextSeasonForm(NextSeasonForm):
    keep_fixed = forms.BooleanField(
        label=_("Fixed players stay fixed"), required=False, initial=True,
        help_text=_("Untick: every player starts as a flexible player and opts in again."))


def next_season_initial(start: dt.date, name: str) -> dict[str, Any]:
    """A year on: "2026-2027" becomes "2027-2028"."""
    parts = name.split("-")
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        name = f"{int(parts[0]) + 1}-{int(parts[1]) + 1}"
    else:
        name = ""
    opening = start + dt.timedelta(weeks=52)  # a year on, the same weekday
    return {"name": name, "opening": opening, "last_day": dt.date(opening.year + 1, 7, 15)}
