"""Template filters of the competition pages."""

from django import template
from django.utils.translation import gettext_lazy as _

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
