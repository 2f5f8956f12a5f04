"""Signing up and off (docs/rules.md 3), pure: what a requested status becomes.

A fixed player is present unless he signs off; a flexible player is absent without notice
unless he signs up, and his own choices are only those two (signed up or not): an absence
with notice or club duty is recorded for him by the leader. After the deadline a fixed player's sign-off counts as absent without
notice (the leader may record force majeure), and a flexible player can no longer sign up
himself (the leader can add him).

Club duty scores outside the absence limit and counts for prize eligibility, so it is
never a player's own word: he *requests* it and the leader approves or refuses. Until the
leader approves, the request scores as the sign-off it implies: absent with notice for a
fixed player (without notice after the deadline), not signed up for a flexible player.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from competition.scoring.keizer import absence_with_notice_scores

PRESENT = "present"
ABSENT_WITH_NOTICE = "absent_with_notice"
ABSENT_WITHOUT_NOTICE = "absent_without_notice"
CLUB_DUTY = "club_duty"
STATUSES = (PRESENT, ABSENT_WITH_NOTICE, ABSENT_WITHOUT_NOTICE, CLUB_DUTY)


class Refusal(enum.Enum):
    """Why a change is refused: a code the shell turns into the member's language
    (``competition.season.texts.signup_refusal``); the value is the English text, for logs
    and tests."""

    UNKNOWN_STATUS = "Unknown status '{status}'."
    SIGN_OFF_WITH_NOTICE = "Choose 'absent with notice' to sign off."
    CLUB_DUTY_IS_REQUESTED = (
        "Club duty is approved by the competition leader: choose 'request club duty'."
    )
    DEADLINE_PASSED = "The sign-up deadline has passed; ask the competition leader to add you."
    FLEXIBLE_SIGNS_UP_OR_NOT = (
        "As a flexible player you sign up or you do not; only the competition leader "
        "can record an absence with notice or club duty for you."
    )
    EVENING_STARTED = "The evening has started; ask the competition leader to record club duty."
    EVENING_UNDER_WAY = "The evening is under way; only the competition leader changes it now."


class SignupRefused(ValueError):
    """The change is not allowed: ``code`` says why (``params`` fill it in); ``str()`` is
    the English text, never shown to a member."""

    def __init__(self, code: Refusal, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code.value.format(**params))


@dataclass(frozen=True)
class SignupDecision:
    status: str
    late: bool  # the change came after the deadline


def default_status(fixed: bool) -> str:
    return PRESENT if fixed else ABSENT_WITHOUT_NOTICE


def sign_off_status(fixed: bool) -> str:
    """The status a player's own sign-off asks for (docs/rules.md 3): absent with notice for
    a fixed player, not signed up (absent without notice) for a flexible one. A request
    for club duty asks for it too until the leader approves."""
    return ABSENT_WITH_NOTICE if fixed else ABSENT_WITHOUT_NOTICE


def is_late(now: dt.datetime, deadline: dt.datetime) -> bool:
    """The one definition of "after the deadline" (docs/rules.md 3): from the deadline on,
    the deadline itself included. The engine's decision, the warning before a sign-off,
    the audit's "late", the buttons on the home page and the sign-up page's "passed" all
    ask this."""
    return now >= deadline


def under_way(now: dt.datetime, starts_at: dt.datetime) -> bool:
    """The evening's games have started: a player's own sign-up or sign-off is refused
    from then on (``decide_signup``), whatever his game or bye."""
    return now >= starts_at


def late_sign_off(*, current: str, requested: str, now: dt.datetime, deadline: dt.datetime) -> bool:
    """Whether a player's own change is a sign-off after the deadline by a player who
    counts as present: it scores as absent without notice (docs/rules.md 3), so the
    sign-up page says what it costs before it is saved."""
    return (
        current == PRESENT
        and requested in (ABSENT_WITH_NOTICE, ABSENT_WITHOUT_NOTICE)
        and is_late(now, deadline)
    )


def decide_signup(
    *,
    fixed: bool,
    requested: str,
    now: dt.datetime,
    deadline: dt.datetime,
    by_leader: bool,
    force_majeure: bool = False,
    current: str | None = None,
    taking_back: bool = False,
    starts_at: dt.datetime | None = None,
) -> SignupDecision:
    """The status a request results in, or SignupRefused with the reason. ``current``
    is the player's status for the evening now: a sign-off given in time stays with
    notice when the same sign-off is saved again after the deadline (docs/rules.md 3:
    what counts is when he signed off, not when the form was last sent). Once the games
    have started (``starts_at``) a player changes nothing himself: his game or his bye is
    under way, and only the leader records what happened."""
    if requested not in STATUSES:
        raise SignupRefused(Refusal.UNKNOWN_STATUS, status=requested)
    if not by_leader and starts_at is not None and under_way(now, starts_at):
        raise SignupRefused(Refusal.EVENING_UNDER_WAY)
    late = is_late(now, deadline)
    if late and requested == ABSENT_WITH_NOTICE and current == ABSENT_WITH_NOTICE:
        return SignupDecision(ABSENT_WITH_NOTICE, late)
    if by_leader:
        if late and requested == ABSENT_WITH_NOTICE and not force_majeure:
            return SignupDecision(ABSENT_WITHOUT_NOTICE, late)
        return SignupDecision(requested, late)
    if taking_back and requested == PRESENT:
        # His sign-off taken back while his seat is still his (sign_up_open_after_publication).
        return SignupDecision(PRESENT, late)
    if not fixed:
        return _flexible_players_own_choice(requested, late)
    if requested == ABSENT_WITHOUT_NOTICE:
        raise SignupRefused(Refusal.SIGN_OFF_WITH_NOTICE)
    if requested == CLUB_DUTY:
        raise SignupRefused(Refusal.CLUB_DUTY_IS_REQUESTED)
    if not late:
        return SignupDecision(requested, late)
    if requested == ABSENT_WITH_NOTICE:
        # Signing off after the deadline is allowed but counts as without notice.
        return SignupDecision(ABSENT_WITHOUT_NOTICE, late)
    raise SignupRefused(Refusal.DEADLINE_PASSED)


def _flexible_players_own_choice(requested: str, late: bool) -> SignupDecision:
    """A flexible player signs up or he does not (docs/rules.md 3): he is absent without notice
    unless signed up. An absence with notice or club duty would score without playing,
    so only the leader records those for him (force majeure)."""
    if requested in (ABSENT_WITH_NOTICE, CLUB_DUTY):
        raise SignupRefused(Refusal.FLEXIBLE_SIGNS_UP_OR_NOT)
    if requested == PRESENT and late:
        raise SignupRefused(Refusal.DEADLINE_PASSED)
    return SignupDecision(requested, late)


def club_duty_pending_status(
    *, fixed: bool, now: dt.datetime, deadline: dt.datetime, starts_at: dt.datetime
) -> str:
    """What a player's own request for club duty scores as until the leader approves it
    (and after he refuses it): the sign-off it implies. A fixed player is absent with
    notice (without notice after the deadline, as any late sign-off); a flexible player
    is not signed up, which is absent without notice. Refused once the evening started:
    from then on only the leader records club duty."""
    if now >= starts_at:
        raise SignupRefused(Refusal.EVENING_STARTED)
    return decide_signup(
        fixed=fixed, requested=sign_off_status(fixed), now=now, deadline=deadline,
        by_leader=False,
    ).status


def club_duty_decided_status(*, approve: bool, pending: str) -> str:
    """The status once the leader decides: club duty when he approves; when he refuses,
    the status the request scored as while pending stands."""
    return CLUB_DUTY if approve else pending


def sign_up_open_after_publication(requested: str, taking_back: bool = False) -> bool:
    """Whether a player may still make this choice himself once the evening's pairing is
    published: signing off stays possible (it counts as late after the deadline, docs/rules.md
    3), but joining the pairing changes a game, which is the leader's job. ``taking_back``:
    he signed off but still has his seat (a game without result, or the bye: the leader
    has not changed his game) and the evening has not begun; signing up again then takes
    the sign-off back and changes no game."""
    return requested in (ABSENT_WITH_NOTICE, ABSENT_WITHOUT_NOTICE) or (
        taking_back and requested == PRESENT)


def absences_beyond_limit(dates: Iterable[dt.date], limit: int | None) -> tuple[dt.date, ...]:
    """Of a player's absences with notice in a season (their evenings' dates), the ones
    that score nothing: every one after the first ``limit``, in date order."""
    ordered = sorted(set(dates))
    return tuple(d for i, d in enumerate(ordered) if not absence_with_notice_scores(i, limit))
