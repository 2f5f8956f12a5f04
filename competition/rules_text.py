"""The competition's parameters in words, in the reader's language (the rules page)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .forms import OUTCOME_KEYS, OUTCOME_LABELS
from .models import Competition
from .scoring.params import format_number, parse_parameters
from .scoring.types import LadderParams


def _rule(key: str, rule: Any) -> str:
    amount = format_number(rule.amount)
    label = OUTCOME_LABELS[key]
    if rule.basis == "fixed":
        return _("%(o)s: %(n)s points.") % {"o": label, "n": amount}
    if rule.basis == "opponent":
        return _("%(o)s: %(n)s × the opponent's value.") % {"o": label, "n": amount}
    return _("%(o)s: %(n)s × the player's own value.") % {"o": label, "n": amount}


def describe_competition(competition: Competition) -> list[tuple[str, str]]:
    params = parse_parameters(competition.system, competition.parameters)
    lines: list[tuple[str, str]] = [(_("System"), competition.get_system_display())]
    if isinstance(params, LadderParams):
        lines += [
            (_("Game"), _("A win has a base score of %(w)s, a draw %(d)s, a loss %(l)s.")
             % {"w": format_number(params.win), "d": format_number(params.draw),
                "l": format_number(params.loss)}),
            (_("Places"), _("The base score is corrected by %(f)s per place of difference in "
                            "starting position; the opponent loses what the player gains.")
             % {"f": format_number(params.place_factor)}),
            (_("Attendance bonus"), _("%(b)s for every game played%(duty)s.")
             % {"b": format_number(params.bonus),
                "duty": _(" and every club duty") if params.bonus_for_club_duty else ""}),
            (_("Pairing"), _("The pairing order is by ladder points without the bonuses.")),
        ]
    else:
        method = {
            "fixpoint": _("After every evening all games of the half are scored again with the "
                          "values of the current standings, until the order no longer changes. "
                          "An order that keeps changing in a cycle is settled by the average "
                          "total over the cycle."),
            "lagging": _("After every evening all games of the half are scored once with the "
                         "values of the previous standings (Keizer, 1956)."),
            "frozen": _("Each evening is scored once with the values of the standings before it "
                        "and never scored again."),
        }[params.method]
        lines += [
            (_("Recalculation"), method),
            (_("Values"), _("Number one has value %(top)s; every next place %(step)s less.")
             % {"top": format_number(params.top), "step": format_number(params.step)}),
        ]
        if params.own_value_added:
            lines.append((_("Own value"), _("Each player's own value is added once to his total.")))
        for key in OUTCOME_KEYS:
            lines.append((OUTCOME_LABELS[key], _rule(key, getattr(params, key))))
        limit = params.absent_with_notice_limit
        lines.append((
            _("Absences with notice"),
            _("Every absence with notice scores.") if limit is None else
            _("Only the first %(n)s absences with notice of the season score; later ones score "
              "nothing. Club duty does not count.") % {"n": limit},
        ))
    lines += [
        (_("Meetings"), _("Two players meet at most %(s)s times a season and %(h)s times a half, "
                          "with at least %(g)s playing evenings between two meetings.")
         % {"s": competition.max_meetings_per_season, "h": competition.max_meetings_per_half,
            "g": competition.min_evenings_between}),
        (_("Pairing bye"), competition.get_bye_policy_display()),
        (_("Sign-up deadline"), _("%(d)s day(s) before the evening at %(t)s.")
         % {"d": competition.deadline_days_before, "t": competition.deadline_time.strftime("%H:%M")}),
        (_("Games start"), competition.start_time.strftime("%H:%M")),
        (_("Tempo"), _("40 moves in 90 minutes, then 30 minutes, plus 30 seconds a move from the "
                       "start; on request and approval 40 moves in 90 minutes, then 15 minutes.")),
    ]
    return lines
