"""The club administrator's settings form: a ModelForm of the club, so a field's choices
and validation on the model (the time zone's) hold here too."""

from __future__ import annotations

import zoneinfo

from django import forms
from django.conf import settings
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from competition.models import System
from members.models import Club

# What the club's administrator sets himself; the address, the host names, the sender and
# the reply-to address stay the operator's.
FIELDS = ("name", "venue", "time_zone", "language", "deadline_weekday", "deadline_time",
          "start_time", "default_system")

WEEKDAYS = [(0, _("Monday")), (1, _("Tuesday")), (2, _("Wednesday")), (3, _("Thursday")),
            (4, _("Friday")), (5, _("Saturday")), (6, _("Sunday"))]


class ClubSettingsForm(forms.ModelForm):
    default_system = forms.ChoiceField(label=capfirst(_("default rules")), choices=System.choices,
                                       help_text=_("Preselected when you set up a new season."))
    language = forms.ChoiceField(label=capfirst(_("language")), choices=settings.LANGUAGES,
                                 help_text=_("The language of the club's e-mails."))
    deadline_weekday = forms.TypedChoiceField(label=capfirst(_("sign-up deadline day")), choices=WEEKDAYS,
                                              coerce=int)

    class Meta:
        model = Club
        fields = FIELDS
        widgets = {"deadline_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
                   "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}
        help_texts = {"venue": _("Where the club plays: in the e-mails and the calendar.")}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The club needs a name."))
        return name

    def clean_time_zone(self) -> str:
        zone = self.cleaned_data["time_zone"].strip()
        if zone not in zoneinfo.available_timezones():
            raise forms.ValidationError(
                _("'%(zone)s' is no time zone; choose one such as Europe/Amsterdam.") % {"zone": zone})
        return zone
