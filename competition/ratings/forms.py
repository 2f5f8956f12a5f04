"""Forms of the rating pages: the upload, the CSV column mapping, the export."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from competition.models import Half, RatingKind, Season
from competition.season.forms import DatePicker

from .engine.lists import CSV_FIELDS, CSV_REQUIRED
from .engine.matching import FIDE, KNSB

NUMBER_CHOICES = [(KNSB, _("KNSB relation numbers")), (FIDE, _("FIDE ids"))]
FIELD_LABELS = {
    "number": _("Number"),
    "name": _("Name"),
    "rating": _("Rating"),
    "birth_year": _("Birth year"),
    "federation": _("Federation"),
}


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Rating list"),
        help_text=_("FIDE's rating list (text or XML, zipped or not) or a CSV file with a header row."),
    )
    number_kind = forms.ChoiceField(
        label=_("Numbers in a CSV file"), choices=NUMBER_CHOICES, initial=KNSB,
        help_text=_("FIDE's own lists always carry FIDE ids."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        limit = settings.RATINGS_UPLOAD_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                _("The file is %(size)s MB; at most %(limit)s MB can be uploaded.")
                % {"size": upload.size // 2**20 + 1, "limit": limit // 2**20}
            )
        return upload


class MappingForm(forms.Form):
    """Which column of the CSV holds what; number, name and rating are required."""

    number_kind = forms.ChoiceField(label=_("The numbers are"), choices=NUMBER_CHOICES)
    rating_kind = forms.ChoiceField(
        label=_("The ratings are"), choices=RatingKind.choices, initial=RatingKind.KNSB,
        required=False,
        help_text=_("A KNSB list writes the members' KNSB rating, a FIDE list their FIDE rating."),
    )

    def __init__(self, *args: Any, columns: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(c, c) for c in columns]
        for fld in CSV_FIELDS:
            self.fields[fld] = forms.ChoiceField(
                label=FIELD_LABELS[fld], choices=choices, required=fld in CSV_REQUIRED
            )

    def mapping(self) -> dict[str, str]:
        return {fld: self.cleaned_data.get(fld) or "" for fld in CSV_FIELDS}


class ExportForm(forms.Form):
    half = forms.ModelChoiceField(label=_("Half"), queryset=Half.objects.none(), required=False,
                                  empty_label=_("all evenings in the dates below"))
    start = forms.DateField(label=_("From"), required=False,
                            widget=DatePicker())
    end = forms.DateField(label=_("Up to and including"), required=False,
                          widget=DatePicker())
    id_kind = forms.ChoiceField(
        label=_("File for"), choices=[(FIDE, _("FIDE (FIDE ratings and ids)")),
                                      (KNSB, _("KNSB (KNSB ratings and relation numbers added)"))],
        required=False,
        help_text=_("Empty: as the club's settings below say."),
    )

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["half"].queryset = season.halves.order_by("start_date")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            raise forms.ValidationError(_("The last date is before the first."))
        return data


class CompetitionRatingsForm(forms.Form):
    """Which rating orders the competition's start. Which one its TRF export carries is
    set with the export (``TrfSettingsForm``), where the rating officer looks for it."""

    start_rating = forms.ChoiceField(label=_("Starting order by"), choices=RatingKind.choices)

class TrfSettingsForm(forms.Form):
    """What the club's TRF files for rating say of the club (records 022 and 102)."""

    city = forms.CharField(label=_("City of the venue"), max_length=60, required=False)
    arbiter = forms.CharField(
        label=_("Chief arbiter"), max_length=80, required=False,
        help_text=_("As FIDE lists him or her: Lastname, Firstname."),
    )
    rating = forms.ChoiceField(
        label=_("Rating in the TRF export"),
        choices=[(FIDE, _("FIDE rating")), (KNSB, _("KNSB rating"))],
    )
