"""The competition's parameters in words, in the reader's language (the rules page)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from competition.models import Competition
from competition.scoring.params import format_number, parse_parameters
from competition.scoring.types import LadderParams
from competition.season.forms import OUTCOME_KEYS, OUTCOME_LABELS

# The fractions a club writes in its rules as one sign.
VULGAR = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼",
          Fraction(3, 4): "¾", Fraction(1, 5): "⅕", Fraction(1, 6): "⅙", Fraction(1, 8): "⅛"}


def _number(value: Fraction) -> str:
    """A parameter as a club writes it: "0,5" is "½", 2/3 "⅔", 1 2/3 "1⅔"; a decimal that
    rounds a third (pion's 0,3333) says so, since the scores use the decimal."""
    whole, part = divmod(value, 1)
    if part in VULGAR:
        return (str(whole) if whole else "") + VULGAR[part]
    text = format_number(value)
    if "/" in text:
        return text
    shown = number_format(Decimal(text))
    near = min(VULGAR, key=lambda f: abs(f - part))
    if part and whole == 0 and abs(near - part) < Fraction(1, 1000):
        return _("%(n)s (%(f)s, rounded)") % {"n": shown, "f": VULGAR[near]}
    return shown


def _rule(rule: Any) -> str:
    """The points of an outcome; the outcome itself is the term beside it."""
    amount = _number(rule.amount)
    if rule.basis == "fixed":
        return _("%(n)s points.") % {"n": amount}
    if rule.basis == "opponent":
        return _("%(n)s × the opponent's value.") % {"n": amount}
    return _("%(n)s × the player's own value.") % {"n": amount}


def _deadline(competition: Competition) -> str:
    """"donderdag 18:00": the weekday before the Friday evening, and the time."""
    friday = dt.date(2026, 9, 4)
    day = friday - dt.timedelta(days=competition.deadline_days_before)
    return _("%(day)s %(time)s") % {
        "day": date_format(day, "l"), "time": competition.deadline_time.strftime("%H:%M")
    }


def _eligibility(competition: Competition) -> str:
    """Who may win a prize (docs/rules.md 6), with the club's own numbers."""
    rule = competition.eligibility_rule
    if competition.is_ladder:
        return _("A season prize needs at least %(min)s games; at most %(max)s club-team "
                 "matches on a Friday count as games.") % {
                     "min": rule.min_games, "max": rule.max_exempted}
    if rule.percentage == 0:
        return _("Every player of the half may win a prize: the rules ask no minimum "
                 "attendance.")
    return _("A prize of a half needs presence on at least %(pct)s %% of its playing "
             "evenings (absent without notice on at most the rest; a forfeit loss counts as "
             "absent without notice).") % {"pct": rule.percentage}


def describe_competition(competition: Competition) -> list[tuple[str, str]]:
    params = parse_parameters(competition.system, competition.parameters)
    lines: list[tuple[str, str]] = [(_("System"), competition.get_system_display())]
    if isinstance(params, LadderParams):
        lines += [
            (_("Game"), _("A win has a base score of %(w)s, a draw %(d)s, a loss %(l)s.")
             % {"w": _number(params.win), "d": _number(params.draw),
                "l": _number(params.loss)}),
            (_("Places"), _("The base score is corrected by %(f)s per place of difference in "
                            "starting position; the opponent loses what the player gains.")
             % {"f": _number(params.place_factor)}),
            (_("Attendance bonus"), _("%(b)s for every game played%(duty)s.")
             % {"b": _number(params.bonus),
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
             % {"top": _number(params.top), "step": _number(params.step)}),
        ]
        if params.own_value_added:
            lines.append((_("Own value"), _("Each player's own value is added once to his total.")))
        for key in OUTCOME_KEYS:
            lines.append((OUTCOME_LABELS[key], _rule(getattr(params, key))))
        limit = params.absent_with_notice_limit
        lines.append((
            _("Limit on absences with notice"),
            _("Every absence with notice scores.") if limit is None else
            _("Only the first %(n)s absences with notice of the season score; later ones score "
              "nothing. Club duty does not count.") % {"n": limit},
        ))
    lines.append((_("Prizes"), _eligibility(competition)))
    lines += [
        (_("Meetings"), _("Two players meet at most %(s)s times a season and %(h)s times a half, "
                          "with at least %(g)s playing evenings between two meetings.")
         % {"s": competition.max_meetings_per_season, "h": competition.max_meetings_per_half,
            "g": competition.min_evenings_between}),
        (_("Who gets the pairing bye"), competition.get_bye_policy_display()),
        (_("Sign-up deadline"), _deadline(competition)),
        (_("Games start"), competition.start_time.strftime("%H:%M")),
        (_("Tempo"), _("40 moves in 90 minutes, then 30 minutes, plus 30 seconds a move from the "
                       "start; on request and approval 40 moves in 90 minutes, then 15 minutes.")),
    ]
    return lines
