"""The member's words for what the season's pure rules refuse: the engines name the
refusal with a code (``competition.season.engine.signup.Refusal``,
``competition.season.engine.calendar.CalendarRefusal``); here it is said in the club's
language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from competition.season.engine.calendar import CalendarError, CalendarRefusal
from competition.season.engine.signup import Refusal, SignupRefused


def refusal_texts() -> dict[Refusal, str]:
    """Every refusal's sentence in the active language (a test checks none is missing)."""
    return {
        Refusal.UNKNOWN_STATUS: _("Unknown status “%(status)s”."),
        Refusal.SIGN_OFF_WITH_NOTICE: _("Choose 'absent with notice' to sign off."),
        Refusal.CLUB_DUTY_IS_REQUESTED: _(
            "Club duty is approved by the competition leader: choose 'request club duty'."
        ),
        Refusal.DEADLINE_PASSED: _(
            "The sign-up deadline has passed; ask the competition leader to add you."
        ),
        Refusal.FLEXIBLE_SIGNS_UP_OR_NOT: _(
            "As a flexible player you sign up or you do not; only the competition leader "
            "can record an absence with notice or club duty for you."
        ),
        Refusal.EVENING_STARTED: _(
            "The evening has started; ask the competition leader to record club duty."
        ),
    }


def signup_refusal(exc: SignupRefused) -> str:
    """One translated sentence for a refused sign-up."""
    return refusal_texts()[exc.code] % exc.params


def calendar_refusal_texts() -> dict[CalendarRefusal, str]:
    """Every calendar refusal's sentence in the active language."""
    return {
        CalendarRefusal.ENDS_BEFORE_OPENING: _("The season must end after its opening."),
        CalendarRefusal.HALF_WITHOUT_EVENINGS: _("A half needs at least one playing evening."),
        CalendarRefusal.DEADLINE_AFTER_START: _(
            "The sign-up deadline must be before the evening starts."
        ),
    }


def calendar_refusal(exc: CalendarError) -> str:
    """One translated sentence for a refused calendar."""
    return calendar_refusal_texts()[exc.code]
