"""The member's words for what the season's pure rules refuse: the engines name the
refusal with a code (``competition.season.engine.signup.Refusal``,
``competition.season.engine.calendar.CalendarRefusal``); here it is said in the club's
language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from competition.scoring.params import ParameterError, ParamRefusal
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
        Refusal.EVENING_UNDER_WAY: _(
            "The evening is under way; only the competition leader changes it now."
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


def parameter_refusal_texts() -> dict[ParamRefusal, str]:
    """Every refusal of the scoring parameters in the active language."""
    return {
        ParamRefusal.UNKNOWN_SYSTEM: _("Unknown system “%(system)s” (known: %(known)s)."),
        ParamRefusal.NOT_A_MAPPING: _("The parameters must be a list of names and values."),
        ParamRefusal.UNKNOWN_PARAMETER: _(
            "The system “%(system)s” has no parameter “%(key)s”."
        ),
        ParamRefusal.BAD_METHOD: _("The method must be one of %(known)s, not %(value)s."),
        ParamRefusal.TOP_NOT_POSITIVE: _("The top value must be greater than 0."),
        ParamRefusal.STEP_NEGATIVE: _("The step must not be negative."),
        ParamRefusal.BAD_LIMIT: _(
            "The limit of absences with notice must be a whole number of at least 0, or "
            "empty for no limit."
        ),
        ParamRefusal.BAD_RULE: _(
            "“%(key)s” must score a factor of the opponent's or one's own value, or fixed points."
        ),
        ParamRefusal.BAD_RULE_KEYS: _(
            "“%(key)s” must score either fixed points or a factor of a value (it has %(keys)s)."
        ),
        ParamRefusal.BAD_BASIS: _(
            "“%(key)s” must score a factor of the opponent's or one's own value, not %(value)s."
        ),
        ParamRefusal.NO_OPPONENT: _(
            "“%(key)s” cannot score the opponent's value: there is no opponent."
        ),
        ParamRefusal.NOT_BOOLEAN: _("“%(key)s” must be yes or no, not %(value)s."),
        ParamRefusal.NOT_A_NUMBER: _(
            "“%(key)s” must be a number or a fraction like 2/3, not %(value)s."
        ),
    }


def parameter_refusal(exc: ParameterError) -> str:
    """One translated sentence for refused parameters."""
    return parameter_refusal_texts()[exc.code] % exc.params
