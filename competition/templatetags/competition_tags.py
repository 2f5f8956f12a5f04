"""Template filters of the competition pages."""

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from competition.events.selectors import points_text, tiebreak_text

register = template.Library()

# What happened to a player on an evening, or his status for one, in the reader's language.
OUTCOMES = {
    "present": _("present"),
    "win": _("win"),
    "draw": _("draw"),
    "loss": _("loss"),
    "bye": _("pairing bye"),
    "absent_with_notice": _("absent with notice"),
    "absent_without_notice": _("absent without notice"),
    "club_duty": _("club duty"),
    "forfeit_win": _("forfeit win"),
    "forfeit_loss": _("forfeit loss"),
    "postponed": _("postponed"),
    "own_value": _("own value"),
}


@register.filter
def outcome(value: str) -> str:
    """'absent_with_notice' -> 'afwezig met bericht' (unknown codes are shown as they are)."""
    return OUTCOMES.get(value, value)


@register.filter
def status_of(value: str, fixed: bool) -> str:
    """A player's status for an evening, named one way everywhere: a flexible player who
    did not sign up is "not signed up" (which scores as absent without notice), as the
    sign-up form calls it."""
    if not fixed and value == "absent_without_notice":
        return str(_("not signed up"))
    return outcome(value)


@register.filter
def halves(value) -> str:
    """Points as the club writes them: 3½, ½, 0, and 12,25 with a decimal comma."""
    return points_text(value)


@register.filter
def tiebreak(value) -> str:
    """A tie-break with a decimal comma (6,5; 12,25), never ½."""
    return tiebreak_text(value)


# The letters of the cross tables and the results by evening (each explained in a legend).
COLOUR_LETTERS = {"w": pgettext_lazy("colour letter: white", "w"),
                  "b": pgettext_lazy("colour letter: black", "b")}
OUTCOME_CODES = {
    "win": pgettext_lazy("outcome code: win", "W"),
    "draw": pgettext_lazy("outcome code: draw", "D"),
    "loss": pgettext_lazy("outcome code: loss", "L"),
    "bye": pgettext_lazy("outcome code: pairing bye", "B"),
    "absent_with_notice": pgettext_lazy("outcome code: absent with notice", "AN"),
    "absent_without_notice": pgettext_lazy("outcome code: absent without notice", "A"),
    "club_duty": pgettext_lazy("outcome code: club duty", "CD"),
    "forfeit_win": "+",
    "forfeit_loss": "−",
    "postponed": pgettext_lazy("outcome code: postponed", "P"),
    "to_play": "…",
}


@register.filter
def colour_letter(value: str | None) -> str:
    """'w' -> 'w', 'b' -> 'z' in Dutch (wit, zwart)."""
    return COLOUR_LETTERS.get(value or "", "")


@register.filter
def outcome_code(value: str | None) -> str:
    """The short code of an outcome in a matrix cell ('absent_with_notice' -> 'AM')."""
    return OUTCOME_CODES.get(value or "", "")


@register.filter
def lookup(mapping, key):
    """``names|lookup:game.opponent``: a dictionary's value, '' when it has none."""
    return mapping.get(key, "") if mapping else ""
