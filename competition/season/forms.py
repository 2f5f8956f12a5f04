"""Forms: they turn input into service arguments and show the services' messages."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

from django import forms
from django.utils import dateformat, formats, timezone
from django.utils.translation import gettext_lazy as _

from competition.models import Attendance, EveningKind, Half, System
from competition.scoring.params import (
    NUMBER_TEXT,
    ParameterError,
    is_ladder,
    parse_parameters,
    preset,
)
from competition.scoring.types import OUTCOMES_WITH_OPPONENT
from competition.season.texts import parameter_refusal
from core.validators import single_line

OUTCOME_KEYS = (
    "win", "draw", "loss", "bye", "absent_with_notice", "absent_without_notice",
    "club_duty", "forfeit_win", "forfeit_loss",
)
OUTCOME_LABELS = {
    "win": _("Win"),
    "draw": _("Draw"),
    "loss": _("Loss"),
    "bye": _("Pairing bye"),
    "absent_with_notice": _("Absent with notice"),
    "absent_without_notice": _("Absent without notice"),
    "club_duty": _("Club duty"),
    "forfeit_win": _("Forfeit win"),
    "forfeit_loss": _("Forfeit loss"),
}
BASIS_CHOICES = [
    ("opponent", _("× opponent's value")),
    ("own", _("× own value")),
    ("fixed", _("fixed points")),
]
METHOD_CHOICES = [
    ("fixpoint", _("recalculate until the order is stable (fixpoint)")),
    ("lagging", _("score with the previous standings (Keizer 1956)")),
    ("frozen", _("score each evening once (frozen)")),
]


class DatePicker(forms.DateInput):
    """The browser's date picker: its value is always ISO (a Dutch "04-09-2027" would
    leave it empty, losing a proposed date); typed dates follow the language's formats."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, str) and value:
            try:  # a date typed the language's way, sent back with an error elsewhere
                value = forms.DateField().to_python(value)
            except forms.ValidationError:
                return value
        return super().format_value(value)


def _parse_dates(value: str) -> list[dt.date]:
    """Dates separated by commas or spaces, as the language writes them (4-9-2027 in
    Dutch) or ISO."""
    dates = []
    one = forms.DateField()
    for part in value.replace(",", " ").split():
        try:
            dates.append(one.to_python(part))
        except forms.ValidationError as exc:
            raise forms.ValidationError(
                _("'%(v)s' is not a date (for example %(example)s).")
                % {"v": part, "example": formats.date_format(dt.date(2027, 9, 4), "SHORT_DATE_FORMAT")}
            ) from exc
    return dates


class DateListField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 2})

    def to_python(self, value: Any) -> list[dt.date]:  # type: ignore[override]
        return _parse_dates(super().to_python(value) or "")


class SeasonSetUpForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40, initial="2026-2027", validators=[single_line])
    opening = forms.DateField(label=_("Season opening"), widget=DatePicker())
    last_day = forms.DateField(label=_("Last day"), widget=DatePicker())
    system = forms.ChoiceField(label=_("System"), choices=System.choices, initial=System.PION)
    knsb_rounds = DateListField(
        label=_("KNSB round dates"), required=False,
        help_text=_("The Friday before each becomes a rapid evening."),
    )
    closed = DateListField(label=_("Dates the venue is closed"), required=False)
    extra_rapid = DateListField(label=_("Other rapid evenings"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("opening") and data.get("last_day") and data["last_day"] <= data["opening"]:
            self.add_error("last_day", _("The season must end after its opening."))
        return data


class DeadlineForm(forms.Form):
    """The sign-up deadline setting, and whether the coming evenings' deadlines move."""

    days_before = forms.IntegerField(label=_("Deadline: days before the evening"), min_value=0,
                                     max_value=6)
    time = forms.TimeField(label=_("Deadline: time"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    move_evenings = forms.BooleanField(
        label=_("Also move the deadlines of the evenings not yet paired"), required=False, initial=True,
    )


class EveningForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=EveningKind.choices)
    half = forms.ModelChoiceField(label=_("Half"), queryset=Half.objects.none(), required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False, validators=[single_line])

    def __init__(self, *args: Any, season: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["half"].queryset = season.halves.all()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("kind") == EveningKind.PLAYING and not data.get("half"):
            self.add_error("half", _("A playing evening belongs to a half."))
        return data


def _decimal_separator() -> str:
    return str(formats.get_format("DECIMAL_SEPARATOR"))


class ParameterNumberField(forms.CharField):
    """A parameter's number as the club writes it: "0,5" or "0.5", "-2", "2/3"; shown with
    the language's decimal separator (0,3333 in Dutch). Cleans to the engine's text form."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", {}).setdefault(
            "invalid", _("Enter a number such as 0.5 or a fraction such as 2/3.")
        )
        super().__init__(*args, **kwargs)

    def prepare_value(self, value: Any) -> Any:
        if value is None or isinstance(value, str) and not NUMBER_TEXT.fullmatch(value):
            return value  # what the user typed, as he typed it
        return str(value).replace(".", _decimal_separator())

    def to_python(self, value: Any) -> str:
        text = (super().to_python(value) or "").strip().replace(" ", "")
        text = text.replace(",", ".")
        if not NUMBER_TEXT.fullmatch(text) or text.endswith("/0"):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return text


class ParametersForm(forms.Form):
    """Every scoring parameter of a competition as a field of its own."""

    def __init__(self, *args: Any, system: str, parameters: dict[str, Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.system = system
        current = {**preset(system), **(parameters or {})}
        if is_ladder(system):
            for key, label in (
                ("win", _("Base score of a win")),
                ("draw", _("Base score of a draw")),
                ("loss", _("Base score of a loss")),
                ("place_factor", _("Correction per place of difference")),
                ("bonus", _("Attendance bonus")),
            ):
                self.fields[key] = ParameterNumberField(label=label, initial=str(current[key]))
            self.fields["bonus_for_club_duty"] = forms.BooleanField(
                label=_("Bonus for club duty"), required=False, initial=current["bonus_for_club_duty"]
            )
            self.fields["bonus_for_bye"] = forms.BooleanField(
                label=_("Bonus for a pairing bye"), required=False, initial=current["bonus_for_bye"]
            )
            return
        self.fields["method"] = forms.ChoiceField(
            label=_("Recalculation"), choices=METHOD_CHOICES, initial=current["method"]
        )
        self.fields["top"] = ParameterNumberField(label=_("Top value"), initial=str(current["top"]))
        self.fields["step"] = ParameterNumberField(label=_("Step per place"), initial=str(current["step"]))
        self.fields["own_value_added"] = forms.BooleanField(
            label=_("Add the own value once"), required=False, initial=current["own_value_added"]
        )
        self.fields["absent_with_notice_limit"] = forms.IntegerField(
            label=_("Scored absences with notice per season (empty: no limit)"),
            required=False, min_value=0, initial=current["absent_with_notice_limit"],
        )
        for key in OUTCOME_KEYS:
            rule = current[key]
            basis = "fixed" if "fixed" in rule else rule["of"]
            amount = rule["fixed"] if "fixed" in rule else rule["factor"]
            self.fields[f"{key}__basis"] = forms.ChoiceField(
                label=OUTCOME_LABELS[key], choices=BASIS_CHOICES, initial=basis
            )
            self.fields[f"{key}__amount"] = ParameterNumberField(
                label=_("%(o)s: factor or points") % {"o": OUTCOME_LABELS[key]},
                initial=str(amount),
                help_text=_("A number such as 0.5 or a fraction such as 2/3."),
            )

    def overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        if is_ladder(self.system):
            return {k: data[k] for k in self.fields}
        result: dict[str, Any] = {
            key: data[key]
            for key in ("method", "top", "step", "own_value_added", "absent_with_notice_limit")
        }
        for key in OUTCOME_KEYS:
            basis, amount = data[f"{key}__basis"], data[f"{key}__amount"]
            result[key] = {"fixed": amount} if basis == "fixed" else {"of": basis, "factor": amount}
        return result

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not is_ladder(self.system):
            self._check_keizer(data)
        if not self.errors:
            try:
                parse_parameters(self.system, self.overrides())
            except ParameterError as exc:
                raise forms.ValidationError(
                    _("These parameters cannot be used together (%(detail)s).")
                    % {"detail": parameter_refusal(exc)}
                ) from exc
        return data

    def _check_keizer(self, data: dict[str, Any]) -> None:
        """The engine's checks, said in the member's language at the field concerned."""
        if data.get("top") is not None and Fraction(data["top"]) <= 0:
            self.add_error("top", _("The top value must be greater than 0."))
        if data.get("step") is not None and Fraction(data["step"]) < 0:
            self.add_error("step", _("The step per place must not be negative."))
        with_opponent = {o.value for o in OUTCOMES_WITH_OPPONENT}
        for key in OUTCOME_KEYS:
            if data.get(f"{key}__basis") == "opponent" and key not in with_opponent:
                self.add_error(f"{key}__basis", _(
                    "%(o)s has no opponent: choose the own value or fixed points."
                ) % {"o": OUTCOME_LABELS[key]})


# Not a status: the sign-up form's choice that asks the leader for club duty.
REQUEST_CLUB_DUTY = "request_club_duty"


class RegistrationForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"),
        choices=[
            (Attendance.PRESENT, Attendance.PRESENT.label),
            (Attendance.ABSENT_WITH_NOTICE, Attendance.ABSENT_WITH_NOTICE.label),
            (REQUEST_CLUB_DUTY, _("Request club duty")),
        ],
    )
    evenings = forms.MultipleChoiceField(label=_("Evenings"), widget=forms.CheckboxSelectMultiple)
    duty_note = forms.CharField(
        label=_("Club duty: which"), max_length=200, required=False, validators=[single_line],
        help_text=_("Only with a club duty request; for example: the second team, away."),
    )

    def __init__(self, *args: Any, evenings: Any, flexible: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["evenings"].choices = [(str(e.pk), e.date.isoformat()) for e in evenings]
        if flexible:
            # A flexible player signs up or not; excused absences are the leader's to record.
            self.fields["status"].choices = [
                (Attendance.PRESENT, _("Signed up")),
                (Attendance.ABSENT_WITHOUT_NOTICE, _("Not signed up")),
                (REQUEST_CLUB_DUTY, _("Request club duty")),
            ]


class AuditFilterForm(forms.Form):
    """The audit page's filters; a value that does not parse is reported and ignored."""

    evening = forms.TypedChoiceField(label=_("Evening"), required=False, coerce=int, empty_value=None)
    player = forms.TypedChoiceField(label=_("Player"), required=False, coerce=int, empty_value=None)
    action = forms.ChoiceField(label=_("Kind"), required=False)
    day = forms.DateField(label=_("Date"), required=False,
                          widget=DatePicker())

    def __init__(self, *args: Any, evenings: list, players: list, actions: list, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["evening"].choices = [("", _("all"))] + [
            (e.pk, f"{dateformat.format(e.date, _('D j M'))} {e.date.year}") for e in evenings
        ]
        self.fields["player"].choices = [("", _("all"))] + [(p.pk, p.member.name) for p in players]
        self.fields["action"].choices = [("", _("all"))] + actions

    def filters(self) -> dict[str, Any]:
        """The filters that parsed; the others are left out."""
        self.is_valid()
        clean = getattr(self, "cleaned_data", {})
        return {"evening_id": clean.get("evening"), "player_id": clean.get("player"),
                "action": clean.get("action") or None, "day": clean.get("day")}


class ClubDutyDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", _("Approve")), ("refuse", _("Refuse"))])


class EveningMoveForm(forms.Form):
    """The leader's move of one evening: a new date, start and (optionally) deadline; an
    empty deadline is the competition's rule (so many days before, at its time)."""

    date = forms.DateField(label=_("Date"), widget=DatePicker())
    start = forms.TimeField(label=_("Start"), widget=forms.TimeInput(attrs={"type": "time"},
                                                                    format="%H:%M"))
    deadline_date = forms.DateField(label=_("Sign-up deadline: day"), required=False,
                                    widget=DatePicker())
    deadline_time = forms.TimeField(label=_("Sign-up deadline: time"), required=False,
                                    widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
                                    help_text=_("Empty: as the competition's deadline rule says."))

    def deadline(self) -> dt.datetime | None:
        day, time = self.cleaned_data.get("deadline_date"), self.cleaned_data.get("deadline_time")
        if not day or not time:
            return None
        return timezone.make_aware(dt.datetime.combine(day, time))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if bool(data.get("deadline_date")) != bool(data.get("deadline_time")):
            self.add_error("deadline_time", _("Give the deadline's day and time, or neither."))
        return data


class EveningAddForm(EveningMoveForm):
    kind = forms.ChoiceField(label=_("Kind"), choices=[
        (EveningKind.PLAYING, EveningKind.PLAYING.label), (EveningKind.RAPID, EveningKind.RAPID.label),
        (EveningKind.PLAYOFF, EveningKind.PLAYOFF.label), (EveningKind.FREE, EveningKind.FREE.label)])
