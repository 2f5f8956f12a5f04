"""Forms of the Swiss event pages. They parse input; the services validate the rules."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from competition.models import (
    EventKind,
    PairingEdition,
    Season,
    SwissEvent,
    SwissRound,
    TiebreakRules,
)
from competition.season.forms import DatePicker
from core.validators import single_line

# One tap per board: (code, label). The code is "<white>-<black>", "F" marks a forfeit.
BLITZ_RESULTS: tuple[tuple[str, Any], ...] = (
    ("1-0", "1-0"),
    ("1/2-1/2", "½-½"),
    ("0-1", "0-1"),
    ("1-0F", _("1-0 forfeit")),
    ("0-1F", _("0-1 forfeit")),
    ("0-0F", _("0-0 both forfeit")),
)
RAPID_RESULTS: tuple[tuple[str, Any], ...] = (
    ("2-0", "2-0"),
    ("3/2-1/2", "1½-½"),
    ("1-1", "1-1"),
    ("1/2-3/2", "½-1½"),
    ("0-2", "0-2"),
    ("2-0F", _("2-0 forfeit")),
    ("0-2F", _("0-2 forfeit")),
    ("0-0F", _("0-0 both forfeit")),
)


def result_buttons(event: SwissEvent) -> tuple[tuple[str, Any], ...]:
    return RAPID_RESULTS if event.is_match_event else BLITZ_RESULTS


def result_from_code(event: SwissEvent, code: str) -> tuple[Fraction, Fraction, bool]:
    """'3/2-1/2' -> (3/2, 1/2, False); '1-0F' -> (1, 0, True). Only the event's buttons."""
    if code not in dict(result_buttons(event)):
        raise ValidationError(_("Unknown result '%(r)s'.") % {"r": code})
    forfeit = code.endswith("F")
    white, black = code.removesuffix("F").split("-")
    return Fraction(white), Fraction(black), forfeit


class EventForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"), choices=[c for c in EventKind.choices if c[0] != EventKind.BLITZ_PLAYOFF]
    )
    name = forms.CharField(label=_("Name"), max_length=80, validators=[single_line])
    half = forms.ModelChoiceField(label=_("Half"), queryset=None, required=False,
                                  help_text=_("Rapid: the half whose rapid champion it decides."))
    date = forms.DateField(label=_("Date"), required=False, widget=DatePicker(),
                           help_text=_("Blitz: the evening."))
    rounds = forms.IntegerField(
        label=_("Rounds"), min_value=1, max_value=30, required=False,
        help_text=_("Empty: 9 for the rapid; for the blitz proposed by the number of players."),
    )
    rules = forms.ChoiceField(
        label=_("Tie-break rules"), required=False,
        choices=[("", _("By the event's date (FIDE 2026 from 1 March 2026 on)")),
                 *TiebreakRules.choices],
        help_text=_("The edition of FIDE's tie-break regulations; empty: the one in force on "
                    "the event's date."),
    )
    pairing_edition = forms.ChoiceField(
        label=_("Pairing rules"), required=False,
        choices=[("", _("By the event's date (FIDE 2026 from 1 February 2026 on)")),
                 *[c for c in PairingEdition.choices if c[0]]],
        help_text=_("Blitz: the edition of the FIDE Dutch system the rounds are paired by; "
                    "empty: the one in force on the event's date."),
    )

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["half"].queryset = season.halves.order_by("start_date")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("kind") == EventKind.BLITZ and not data.get("date") and "date" not in self.errors:
            self.add_error("date", _("A blitz championship needs the date of its evening."))
        return data


class MemberChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} ({obj.rating})" if obj.rating else obj.name


class EntrantsForm(forms.Form):
    """Members ticked in a list (a text filter above it narrows the list on a phone), and
    a guest: a non-member present on the evening, by name with an optional rating."""

    members = MemberChoiceField(
        label=_("Members to enter"), queryset=None, required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    guest_name = forms.CharField(
        label=_("Guest's name"), max_length=80, required=False, validators=[single_line],
        help_text=_("A non-member playing this evening; no account needed."),
    )
    guest_rating = forms.IntegerField(
        label=_("Guest's rating"), min_value=1, max_value=3000, required=False,
        help_text=_("Empty when unknown: the guest then starts below the rated players."),
    )

    def __init__(self, *args: Any, event: SwissEvent, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].queryset = (
            get_user_model().objects.members()
            .exclude(entries__event=event).order_by("name")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        guest = (data.get("guest_name") or "").strip()
        if data.get("guest_rating") is not None and not guest:
            self.add_error("guest_name", _("A guest needs a name."))
        elif not data.get("members") and not guest and not self.errors:
            raise ValidationError(_("Tick the members to enter, or fill in a guest's name."))
        return data


class RoundsForm(forms.Form):
    rounds = forms.IntegerField(label=_("Number of rounds"), min_value=1, max_value=30)


class PresenceForm(forms.Form):
    present = forms.ModelMultipleChoiceField(
        label=_("Present"), queryset=None, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, round: SwissRound, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["present"].queryset = round.event.entrants.filter(withdrawn=False)


class TrfImportForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80, validators=[single_line])
    file = forms.FileField(label=_("TRF file"))
    guests = forms.BooleanField(
        label=_("Enter players who are not members as guests"), required=False,
        help_text=_("Otherwise a name that no member has stops the import."),
    )

    MAX_BYTES = 1_000_000  # a club's blitz file is a few kilobytes

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return upload

    def text(self) -> str:
        data = self.cleaned_data["file"].read()
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:  # older pairing programs write Latin-1
            return data.decode("latin-1")
