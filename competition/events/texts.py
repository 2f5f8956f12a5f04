"""The member's words for what the TRF reader refuses: the engine names the refusal with a
code (``competition.events.engine.trf.TrfRefusal``, its parameters in ``TrfError.params``);
here it is said in the club's language. ``str(TrfError)`` stays the English text, for the
command line."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from .engine.trf import TrfError, TrfField, TrfRefusal
from .selectors import points_text


def trf_field_texts() -> dict[TrfField, str]:
    """The fields a refusal names, as a word in the middle of a sentence."""
    return {
        TrfField.START_NUMBER: _("start number"),
        TrfField.RATING: _("rating"),
        TrfField.NATIONAL_RATING: _("national rating"),
        TrfField.POINTS: _("points"),
        TrfField.RANK: _("rank"),
    }


def trf_refusal_texts() -> dict[TrfRefusal, str]:
    """Every refusal of the TRF reader in the active language (a test checks none is missing)."""
    return {
        TrfRefusal.FIELD_MISSING: _("no %(field)s."),
        TrfRefusal.FIELD_NOT_A_NUMBER: _("%(field)s “%(value)s” is not a number."),
        TrfRefusal.FIELD_TOO_HIGH: _("%(field)s %(value)s is above %(max)s."),
        TrfRefusal.POINTS_NOT_HALVES: _("points “%(value)s” is not a multiple of 0.5."),
        TrfRefusal.ROUND_LAYOUT: _(
            "round %(round)s is not in the form “oooo c r” (opponent, colour, result): “%(value)s”."
        ),
        TrfRefusal.OPPONENT_NOT_A_NUMBER: _(
            "round %(round)s: opponent “%(value)s” is not a start number."
        ),
        TrfRefusal.BAD_COLOUR: _(
            "round %(round)s: colour “%(value)s” is not w (white), b (black) or -."
        ),
        TrfRefusal.UNKNOWN_RESULT: _("round %(round)s: unknown result code “%(value)s”."),
        TrfRefusal.BYE_WITH_OPPONENT: _(
            "round %(round)s: a bye (“%(result)s”) cannot have an opponent (%(opponent)s)."
        ),
        TrfRefusal.RESULT_WITHOUT_OPPONENT: _(
            "round %(round)s: result “%(result)s” belongs to a game, but there is no opponent."
        ),
        TrfRefusal.GAME_WITHOUT_COLOUR: _(
            "round %(round)s: a played game needs the colour w (white) or b (black)."
        ),
        TrfRefusal.RECORD_TOO_SHORT: _("the player record is shorter than %(columns)s columns."),
        TrfRefusal.TOO_MANY_ROUNDS: _("more than %(max)s rounds."),
        TrfRefusal.CONTROL_CHARACTERS: _("control characters in the record (%(codes)s)."),
        TrfRefusal.UNKNOWN_RECORD: _("unknown record code “%(value)s”."),
        TrfRefusal.NUMBER_TWICE: _("start number %(number)s is already on line %(first)s."),
        TrfRefusal.NATIONAL_WITHOUT_PLAYER: _(
            "%(federation)s record for start number %(number)s, who is not in the file."
        ),
        TrfRefusal.SECOND_PAIRING_BYE: _(
            "round %(round)s: a second bye from the pairing (U); %(other)s already has the one "
            "of this round."
        ),
        TrfRefusal.OPPONENT_NOT_IN_FILE: _(
            "round %(round)s: opponent %(opponent)s is not in the file."
        ),
        TrfRefusal.OPPONENT_DOES_NOT_LIST: _(
            "round %(round)s: opponent %(opponent)s does not have %(number)s as opponent."
        ),
        TrfRefusal.RESULTS_DISAGREE: _(
            "round %(round)s: result “%(result)s” of %(number)s does not match “%(theirs)s” "
            "of %(opponent)s."
        ),
        TrfRefusal.BOTH_WHITE: _("round %(round)s: %(number)s and %(opponent)s both have white."),
        TrfRefusal.BOTH_BLACK: _("round %(round)s: %(number)s and %(opponent)s both have black."),
        TrfRefusal.COLOURS_DISAGREE: _(
            "round %(round)s: %(number)s and %(opponent)s disagree on the colours."
        ),
        TrfRefusal.POINTS_DO_NOT_ADD_UP: _(
            "%(points)s points, but the results add up to %(total)s."
        ),
        TrfRefusal.ABSENT_NOT_A_NUMBER: _("XXZ: “%(value)s” is not a start number."),
        TrfRefusal.ABSENT_NOT_IN_FILE: _("XXZ: start number %(value)s is not in the file."),
        TrfRefusal.BAD_ROUND_COUNT: _("XXR: “%(value)s” is not a number of rounds."),
    }


def trf_refusal(exc: TrfError) -> str:
    """One translated sentence for a TRF file that cannot be read, naming the line."""
    params = dict(exc.params)
    if "field" in params:
        params["field"] = trf_field_texts()[params["field"]]
    for key in ("points", "total"):
        if key in params:
            params[key] = points_text(Fraction(params[key]))  # 3½, as the club writes points
    return _("line %(line)s: %(problem)s") % {
        "line": exc.line, "problem": trf_refusal_texts()[exc.code] % params,
    }
