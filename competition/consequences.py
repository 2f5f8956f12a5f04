"""What a change will do, said before it is made (issue 14): a late sign-off's points
and its effect on prize eligibility, read from the competition's parameters and the
eligibility the prize pages use."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import Attendance, Evening, EveningKind, Player, Registration
from .prizes import selectors as prize_selectors
from .signup import default_status

SIGN_OFFS = (Attendance.ABSENT_WITH_NOTICE, Attendance.ABSENT_WITHOUT_NOTICE)


@dataclass(frozen=True)
class LateSignOff:
    evening: Evening
    lines: tuple[str, ...]


def late_sign_offs(
    player: Player, evenings: Sequence[Evening], status: str, now: dt.datetime
) -> list[LateSignOff]:
    """The chosen evenings on which this change is a sign-off after the deadline by a
    player who counts as present now: it counts as absent without notice (RULES.md 3)."""
    if status not in SIGN_OFFS:
        return []
    regs = dict(
        Registration.objects.filter(player=player, evening__in=evenings)
        .values_list("evening_id", "status")
    )
    late = [
        e for e in evenings
        if now >= e.deadline
        and regs.get(e.pk, default_status(player.is_fixed)) == Attendance.PRESENT
    ]
    return [LateSignOff(e, tuple(_lines(player, e, extra=i))) for i, e in enumerate(late)]


def _points_line(player: Player) -> str:
    competition = player.season.competition
    if competition.is_ladder:
        return _("It scores nothing that evening: no game and no attendance bonus.")
    rule = (competition.parameters or {}).get("absent_without_notice", {"fixed": 0})
    if "fixed" in rule:
        return _("It scores %(points)s points for the evening.") % {"points": rule["fixed"]}
    return _("It scores %(factor)s × your value for the evening.") % {"factor": rule["factor"]}


def _lines(player: Player, evening: Evening, *, extra: int) -> list[str]:
    """``extra``: the late sign-offs of this same change before this one (same half)."""
    lines = [
        _("Signing off after the deadline (%(deadline)s) counts as absent without notice.")
        % {"deadline": date_format(timezone.localtime(evening.deadline), "D j M H:i")},
        _points_line(player),
    ]
    half = evening.half
    if half is None:
        return lines
    competition = player.season.competition
    found = prize_selectors.eligibility_detail(half, player)
    if competition.is_ladder:
        games = found.games if found else 0
        lines.append(_(
            "A season prize needs at least %(min)s games; you have played %(games)s."
        ) % {"min": competition.eligibility_min_games, "games": games})
        return lines
    total = Evening.objects.filter(half=half, kind=EveningKind.PLAYING).count()
    allowed = total - math.ceil(competition.eligibility_percentage * total / 100)
    absent = (found.absent_without_notice if found else 0) + extra + 1
    lines.append(ngettext(
        "With this one you are absent without notice %(n)s time this half; "
        "to compete for a prize you may be so at most %(max)s times "
        "(%(pct)s%% of the %(total)s playing evenings present).",
        "With this one you are absent without notice %(n)s times this half; "
        "to compete for a prize you may be so at most %(max)s times "
        "(%(pct)s%% of the %(total)s playing evenings present).",
        absent,
    ) % {"n": absent, "max": allowed, "pct": competition.eligibility_percentage,
         "total": total})
    if absent > allowed:
        lines.append(_("You would no longer compete for a prize this half."))
    return lines
