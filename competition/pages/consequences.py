"""What a change will do, said before it is made (issue 14): a late sign-off's points
and its effect on prize eligibility, read from the competition's parameters and the
eligibility the prize pages use; a sign-off past the season's limit of absences with
notice, by the rule the standings score it with (competition.season.engine.signup)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import models
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.models import (
    Attendance,
    Bye,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Player,
    Registration,
    Result,
)
from competition.prizes import selectors as prize_selectors
from competition.scoring.eligibility import counted_games, most_absences_allowed
from competition.scoring.params import parse_parameters
from competition.season import selectors as season_selectors
from competition.season.engine.signup import (
    absences_beyond_limit,
    default_status,
    is_late,
    late_sign_off,
)

SIGN_OFFS = (Attendance.ABSENT_WITH_NOTICE, Attendance.ABSENT_WITHOUT_NOTICE)


@dataclass(frozen=True)
class LateSignOff:
    evening: Evening
    lines: tuple[str, ...]


def late_sign_offs(
    player: Player, evenings: Sequence[Evening], status: str, now: dt.datetime
) -> list[LateSignOff]:
    """The chosen evenings on which this change is a sign-off after the deadline by a
    player who counts as present now: it counts as absent without notice (docs/rules.md 3)."""
    if status not in SIGN_OFFS:
        return []
    regs = dict(
        Registration.objects.filter(player=player, evening__in=evenings)
        .values_list("evening_id", "status")
    )
    late = [
        e for e in evenings
        if late_sign_off(current=regs.get(e.pk, default_status(player.is_fixed)),
                         requested=status, now=now, deadline=e.deadline)
    ]
    return [LateSignOff(e, tuple(_lines(player, e, extra=i))) for i, e in enumerate(late)]


@dataclass(frozen=True)
class PairedSignOff:
    """A sign-off from a published pairing: the question, what follows, and the undo."""

    evening: Evening
    question: str
    lines: tuple[str, ...]
    done: str  # said once it is saved


def paired_sign_offs(
    player: Player, evenings: Sequence[Evening], status: str, now: dt.datetime
) -> list[PairedSignOff]:
    """The chosen evenings whose published pairing seats this player (a game without a
    result, or the bye): signing off takes a game from his opponent, so he is asked first,
    naming the board and the opponent (docs/rules.md 3)."""
    if status not in SIGN_OFFS:
        return []
    published = [e for e in evenings if e.status == EveningStatus.PUBLISHED and now < e.starts_at]
    if not published:
        return []
    games = {
        g.evening_id: g for g in Game.objects.filter(evening__in=published, result=Result.PENDING)
        .filter(models.Q(white=player) | models.Q(black=player))
        .select_related("white__member", "black__member")
    }
    byes = set(Bye.objects.filter(evening__in=published, player=player).values_list("evening_id", flat=True))
    found = []
    for e in published:
        game = games.get(e.pk)
        if game is None and e.pk not in byes:
            continue
        start = timezone.localtime(e.starts_at).strftime("%H:%M")
        if game is None:
            question = _("You have the pairing bye; are you sure?")
            lines = [_("The competition leader is told and gives the bye to somebody else or "
                       "leaves it; nobody else's game changes.")]
            undo = _("Changed your mind? Sign up again before %(time)s, as long as the "
                     "competition leader has not changed the pairing: you keep the bye.")
            name = ""
        else:
            opponent = game.black if game.white_id == player.pk else game.white
            name = opponent.member.name
            question = _("You are paired on board %(board)s against %(name)s; are you sure?") % {
                "board": game.board, "name": name}
            lines = [
                _("%(name)s and the competition leader get an e-mail that you signed off.")
                % {"name": name},
                _("The competition leader takes you out of the pairing: %(name)s then plays "
                  "whoever has the pairing bye, on board %(board)s, or gets the bye himself.")
                % {"name": name, "board": game.board},
            ]
            undo = _("Changed your mind? Sign up again before %(time)s, as long as the "
                     "competition leader has not changed the pairing: you keep board %(board)s.")
        lines.append(undo % {"time": start, "board": game.board if game else ""})
        day = date_format(e.date, "l j F")
        done = (_("You are signed off for %(date)s; %(name)s and the competition leader get an "
                  "e-mail.") % {"date": day, "name": name} if game else
                _("You are signed off for %(date)s; the competition leader gets an e-mail.")
                % {"date": day}) + " " + undo % {"time": start, "board": game.board if game else ""}
        found.append(PairedSignOff(e, question, tuple(lines), done))
    return found


def absence_limit(player: Player) -> int | None:
    """The season's limit of absences with notice that score (None: no limit; the ladder
    has none)."""
    return season_selectors.absence_limit(player.season)


def absences_with_notice(player: Player, *, exclude: Sequence[Evening] = ()) -> dict[dt.date, Evening]:
    """The player's absences with notice this season, past and coming, by date."""
    regs = (
        Registration.objects.filter(
            player=player, evening__season_id=player.season_id,
            evening__kind=EveningKind.PLAYING, status=Attendance.ABSENT_WITH_NOTICE,
        )
        .exclude(evening__in=[e.pk for e in exclude])
        .select_related("evening")
    )
    return {r.evening.date: r.evening for r in regs}


def absences_over_limit(
    player: Player, evenings: Sequence[Evening], status: str, now: dt.datetime
) -> list[LateSignOff]:
    """The absences with notice this change makes score nothing: the chosen evenings (and
    any later sign-off of his that moves past the limit) beyond the season's first
    ``limit`` absences with notice (docs/rules.md 4.1)."""
    limit = absence_limit(player)
    if limit is None or status != Attendance.ABSENT_WITH_NOTICE or not player.is_fixed:
        return []
    earlier = absences_with_notice(player, exclude=evenings)
    # After the deadline a sign-off counts as without notice instead (said by late_sign_offs).
    chosen = {e.date: e for e in evenings if not is_late(now, e.deadline)}
    before = set(absences_beyond_limit(earlier, limit))
    after = absences_beyond_limit({**earlier, **chosen}, limit)
    ordered = sorted({**earlier, **chosen})
    found = []
    for day in after:
        if day in before:
            continue
        evening = chosen.get(day) or earlier[day]
        number = ordered.index(day) + 1
        lines = [
            ngettext(
                "Only the first %(limit)s absence with notice of the season scores.",
                "Only the first %(limit)s absences with notice of the season score.", limit,
            ) % {"limit": limit},
            _("This is your absence with notice number %(n)s: it scores nothing.") % {"n": number}
            if day in chosen else
            _("Your sign-off for this evening becomes absence with notice number %(n)s: "
              "it will score nothing.") % {"n": number},
        ]
        found.append(LateSignOff(evening, tuple(lines)))
    return found


def _points_line(player: Player) -> str:
    """What an absence without notice scores, by the parameters the standings use (their
    defaults included)."""
    competition = player.season.competition
    params = parse_parameters(competition.system, competition.parameters)
    rule = getattr(params, "absent_without_notice", None)
    if competition.is_ladder or rule is None or isinstance(rule, int):
        return _("It scores nothing that evening: no game and no attendance bonus.")
    amount = rule.amount
    shown = str(amount) if amount.denominator == 1 else number_format(float(amount), 2)
    if rule.basis == "fixed":
        return _("It scores %(points)s points for the evening.") % {"points": shown}
    return _("It scores %(factor)s × your value for the evening.") % {"factor": str(amount)}


def _lines(player: Player, evening: Evening, *, extra: int) -> list[str]:
    """``extra``: the late sign-offs of this same change before this one (same half)."""
    lines = [
        _("Signing off after the deadline (%(deadline)s) counts as absent without notice.")
        % {"deadline": date_format(timezone.localtime(evening.deadline), _("D j M H:i"))},
        _points_line(player),
    ]
    half = evening.half
    if half is None:
        return lines
    competition = player.season.competition
    found = prize_selectors.eligibility_detail(half, player)
    rule = competition.eligibility_rule
    if competition.is_ladder:
        # The stored eligibility counts the exempted club-team matches as the rule does.
        games, exempted = (found.games, found.exempted) if found else counted_games(0, 0, rule.max_exempted)
        lines.append(ngettext(
            "A season prize needs at least %(min)s games, of which at most %(max)s "
            "club-team matches; you have %(n)s: %(games)s played and %(exempted)s "
            "club-team match.",
            "A season prize needs at least %(min)s games, of which at most %(max)s "
            "club-team matches; you have %(n)s: %(games)s played and %(exempted)s "
            "club-team matches.",
            exempted,
        ) % {"min": rule.min_games, "max": rule.max_exempted, "n": games + exempted,
             "games": games, "exempted": exempted})
        return lines
    total = Evening.objects.filter(half=half, kind=EveningKind.PLAYING).count()
    allowed = most_absences_allowed(total, rule.percentage)
    absent = (found.absent_without_notice if found else 0) + extra + 1
    if allowed >= total:  # the rules ask no attendance for a prize (0 %)
        lines.append(_("Absences without notice do not cost you a prize this half: "
                       "the rules ask no minimum attendance."))
        return lines
    lines.append(ngettext(
        "With this one you are absent without notice %(n)s time this half; "
        "to compete for a prize you may be so at most %(max)s times "
        "(%(pct)s%% of the %(total)s playing evenings present).",
        "With this one you are absent without notice %(n)s times this half; "
        "to compete for a prize you may be so at most %(max)s times "
        "(%(pct)s%% of the %(total)s playing evenings present).",
        absent,
    ) % {"n": absent, "max": allowed, "pct": rule.percentage,
         "total": total})
    if absent > allowed:
        lines.append(_("You would no longer compete for a prize this half."))
    return lines
