"""The leader's member forms: they turn input into service arguments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.models import PlayerKind
from competition.roster.memberimport import FIELDS
from core.validators import single_line


class RatingField(forms.IntegerField):
    """A rating in ASCII digits: Django's IntegerField takes "٣" for 3 and "١٩٠٠" for
    1900 (Python's int() reads every script's digits); a rating list never writes them."""

    def to_python(self, value):  # type: ignore[no-untyped-def]
        text = str(value).strip() if value is not None else ""
        if text and not (text.isascii() and text.isdigit()):
            raise forms.ValidationError(_("Write the rating in the digits 0–9."), code="invalid")
        return super().to_python(text)


class MemberForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, validators=[single_line])
    email = forms.EmailField(label=_("E-mail address"))
    rating = RatingField(label=_("KNSB rating"), required=False, min_value=0, max_value=3500)
    knsb_number = forms.CharField(label=_("KNSB relation number"), max_length=12, required=False)
    kind = forms.ChoiceField(
        label=_("Kind"), choices=PlayerKind.choices, initial=PlayerKind.FLEXIBLE,
        help_text=_("A fixed player is assumed present every evening unless he signs off; a "
                    "flexible player plays the evenings he signs up for."),
    )


class PositionForm(forms.Form):
    position = forms.IntegerField(label=_("Starting position"), min_value=1)


class MemberFileForm(forms.Form):
    file = forms.FileField(
        label=_("Member list"), allow_empty_file=True,  # competition.roster.memberfile says it, as of every bad file
        help_text=_("The KNSB's member export of your club, a CSV file (columns separated by ; , "
                    "or tab, in UTF-8) or a spreadsheet (.xlsx), with a header row."),
    )


class MemberColumnsForm(forms.Form):
    """Which column of the member list holds what (the rating import's mapping form):
    the name (or first name, infix and last name) is required, the rest is optional."""

    def __init__(self, *args: Any, columns: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(c, c) for c in columns]
        for fld in FIELDS:
            self.fields[fld] = forms.ChoiceField(label=COLUMN_LABELS[fld], choices=choices,
                                                 required=False)

    def mapping(self) -> dict[str, str]:
        return {fld: self.cleaned_data.get(fld) or "" for fld in FIELDS}


COLUMN_LABELS = {
    "knsb_number": _("KNSB relation number"),
    "name": _("Name"),
    "first_name": _("First name"),
    "infix": _("Infix (van, de, ...)"),
    "last_name": _("Last name"),
    "email": _("E-mail address"),
    "rating": _("KNSB rating"),
}
