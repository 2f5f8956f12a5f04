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
from collections.abc import Iterable
from dataclasses import dataclass

from competition.scoring.keizer import absence_with_notice_scores

PRESENT = "present"
ABSENT_WITH_NOTICE = "absent_with_notice"
ABSENT_WITHOUT_NOTICE = "absent_without_notice"
CLUB_DUTY = "club_duty"
STATUSES = (PRESENT, ABSENT_WITH_NOTICE, ABSENT_WITHOUT_NOTICE, CLUB_DUTY)


class SignupRefused(ValueError):
    """The change is not allowed; the message says why, for the member."""


@dataclass(frozen=True)
class SignupDecision:
    status: str
    late: bool  # the change came after the deadline


def default_status(fixed: bool) -> str:
    return PRESENT if fixed else ABSENT_WITHOUT_NOTICE


def decide_signup(
    *,
    fixed: bool,
    requested: str,
    now: dt.datetime,
    deadline: dt.datetime,
    by_leader: bool,
    force_majeure: bool = False,
) -> SignupDecision:
    """The status a request results in, or SignupRefused with the reason."""
    if requested not in STATUSES:
        raise SignupRefused(f"Unknown status '{requested}'.")
    late = now >= deadline
    if by_leader:
        if late and requested == ABSENT_WITH_NOTICE and not force_majeure:
            return SignupDecision(ABSENT_WITHOUT_NOTICE, late)
        return SignupDecision(requested, late)
    if not fixed:
        return _flexible_players_own_choice(requested, late)
    if requested == ABSENT_WITHOUT_NOTICE:
        raise SignupRefused("Choose 'absent with notice' to sign off.")
    if requested == CLUB_DUTY:
        raise SignupRefused(
            "Club duty is approved by the competition leader: choose 'request club duty'."
        )
    if not late:
        return SignupDecision(requested, late)
    if requested == ABSENT_WITH_NOTICE:
        # Signing off after the deadline is allowed but counts as without notice.
        return SignupDecision(ABSENT_WITHOUT_NOTICE, late)
    raise SignupRefused(
        "The sign-up deadline has passed; ask the competition leader to add you."
    )


def _flexible_players_own_choice(requested: str, late: bool) -> SignupDecision:
    """A flexible player signs up or he does not (docs/rules.md 3): he is absent without notice
    unless signed up. An absence with notice or club duty would score without playing,
    so only the leader records those for him (force majeure)."""
    if requested in (ABSENT_WITH_NOTICE, CLUB_DUTY):
        raise SignupRefused(
            "As a flexible player you sign up or you do not; only the competition leader "
            "can record an absence with notice or club duty for you."
        )
    if requested == PRESENT and late:
        raise SignupRefused(
            "The sign-up deadline has passed; ask the competition leader to add you."
        )
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
        raise SignupRefused(
            "The evening has started; ask the competition leader to record club duty."
        )
    if not fixed:
        return ABSENT_WITHOUT_NOTICE
    return decide_signup(
        fixed=True, requested=ABSENT_WITH_NOTICE, now=now, deadline=deadline, by_leader=False
    ).status


def club_duty_decided_status(*, approve: bool, pending: str) -> str:
    """The status once the leader decides: club duty when he approves; when he refuses,
    the status the request scored as while pending stands."""
    return CLUB_DUTY if approve else pending


def sign_up_open_after_publication(requested: str) -> bool:
    """Whether a player may still make this choice himself once the evening's pairing is
    published: signing off stays possible (it counts as late after the deadline, docs/rules.md
    3), but joining the pairing changes a game, which is the leader's job."""
    return requested in (ABSENT_WITH_NOTICE, ABSENT_WITHOUT_NOTICE)


def may_sign_up_himself(*, published: bool, now: dt.datetime, deadline: dt.datetime) -> bool:
    """Whether a player can still sign up himself for an evening (the home page offers the
    button only then; the service refuses otherwise)."""
    return now < deadline and (not published or sign_up_open_after_publication(PRESENT))


def absences_beyond_limit(dates: Iterable[dt.date], limit: int | None) -> tuple[dt.date, ...]:
    """Of a player's absences with notice in a season (their evenings' dates), the ones
    that score nothing: every one after the first ``limit``, in date order."""
    ordered = sorted(set(dates))
    return tuple(d for i, d in enumerate(ordered) if not absence_with_notice_scores(i, limit))
