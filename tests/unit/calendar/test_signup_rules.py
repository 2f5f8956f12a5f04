"""docs/rules.md 3: signing up and off, before and after the deadline."""

import datetime as dt

import pytest

from competition.season.engine.signup import (
    ABSENT_WITH_NOTICE,
    ABSENT_WITHOUT_NOTICE,
    CLUB_DUTY,
    PRESENT,
    SignupRefused,
    club_duty_decided_status,
    club_duty_pending_status,
    decide_signup,
    default_status,
)

DEADLINE = dt.datetime(2026, 10, 22, 16, 0, tzinfo=dt.UTC)
BEFORE = DEADLINE - dt.timedelta(minutes=1)
AFTER = DEADLINE + dt.timedelta(minutes=1)


def test_fixed_player_is_present_and_flexible_player_absent_without_notice_by_default():
    assert default_status(fixed=True) == PRESENT
    assert default_status(fixed=False) == ABSENT_WITHOUT_NOTICE


def test_fixed_players_sign_off_before_deadline_is_absent_with_notice():
    d = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=BEFORE,
                      deadline=DEADLINE, by_leader=False)
    assert d.status == ABSENT_WITH_NOTICE and not d.late


@pytest.mark.parametrize("requested", [ABSENT_WITH_NOTICE, CLUB_DUTY])
@pytest.mark.parametrize("now", [BEFORE, AFTER])
def test_flexible_player_cannot_excuse_himself(requested, now):
    with pytest.raises(SignupRefused, match="only the competition leader can record"):
        decide_signup(fixed=False, requested=requested, now=now, deadline=DEADLINE,
                      by_leader=False)


@pytest.mark.parametrize("now", [BEFORE, AFTER])
def test_flexible_player_withdraws_his_sign_up_as_not_signed_up(now):
    d = decide_signup(fixed=False, requested=ABSENT_WITHOUT_NOTICE, now=now,
                      deadline=DEADLINE, by_leader=False)
    assert d.status == ABSENT_WITHOUT_NOTICE and d.late == (now == AFTER)


@pytest.mark.parametrize("requested", [ABSENT_WITH_NOTICE, CLUB_DUTY])
def test_leader_records_an_excused_absence_for_a_flexible_player(requested):
    d = decide_signup(fixed=False, requested=requested, now=AFTER, deadline=DEADLINE,
                      by_leader=True, force_majeure=True)
    assert d.status == requested


def test_fixed_players_sign_off_after_deadline_counts_as_absent_without_notice():
    d = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=AFTER,
                      deadline=DEADLINE, by_leader=False)
    assert d.status == ABSENT_WITHOUT_NOTICE and d.late


def test_sign_off_exactly_at_the_deadline_is_late():
    d = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=DEADLINE,
                      deadline=DEADLINE, by_leader=False)
    assert d.status == ABSENT_WITHOUT_NOTICE


def test_leader_records_force_majeure_after_deadline():
    d = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=AFTER,
                      deadline=DEADLINE, by_leader=True, force_majeure=True)
    assert d.status == ABSENT_WITH_NOTICE
    d = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=AFTER,
                      deadline=DEADLINE, by_leader=True)
    assert d.status == ABSENT_WITHOUT_NOTICE


def test_flexible_player_cannot_sign_up_after_deadline_but_leader_can_add_him():
    with pytest.raises(SignupRefused, match="deadline has passed"):
        decide_signup(fixed=False, requested=PRESENT, now=AFTER, deadline=DEADLINE,
                      by_leader=False)
    d = decide_signup(fixed=False, requested=PRESENT, now=AFTER, deadline=DEADLINE,
                      by_leader=True)
    assert d.status == PRESENT


@pytest.mark.parametrize("now", [BEFORE, AFTER])
def test_fixed_player_cannot_choose_club_duty_himself_he_requests_it(now):
    with pytest.raises(SignupRefused, match="choose 'request club duty'"):
        decide_signup(fixed=True, requested=CLUB_DUTY, now=now, deadline=DEADLINE,
                      by_leader=False)


def test_leader_records_club_duty_for_a_fixed_player():
    d = decide_signup(fixed=True, requested=CLUB_DUTY, now=AFTER, deadline=DEADLINE,
                      by_leader=True)
    assert d.status == CLUB_DUTY


STARTS = DEADLINE + dt.timedelta(days=1, hours=2)


@pytest.mark.parametrize(("fixed", "now", "pending"), [
    (True, BEFORE, ABSENT_WITH_NOTICE),
    (True, DEADLINE, ABSENT_WITHOUT_NOTICE),  # a late sign-off, as any other
    (True, AFTER, ABSENT_WITHOUT_NOTICE),
    (False, BEFORE, ABSENT_WITHOUT_NOTICE),  # not signed up
    (False, AFTER, ABSENT_WITHOUT_NOTICE),
])
def test_pending_club_duty_request_scores_as_the_sign_off_it_implies(fixed, now, pending):
    assert club_duty_pending_status(fixed=fixed, now=now, deadline=DEADLINE,
                                    starts_at=STARTS) == pending


@pytest.mark.parametrize("fixed", [True, False])
def test_club_duty_cannot_be_requested_once_the_evening_started(fixed):
    with pytest.raises(SignupRefused, match="evening has started"):
        club_duty_pending_status(fixed=fixed, now=STARTS, deadline=DEADLINE, starts_at=STARTS)


@pytest.mark.parametrize("pending", [ABSENT_WITH_NOTICE, ABSENT_WITHOUT_NOTICE])
def test_approval_gives_club_duty_and_refusal_keeps_the_pending_status(pending):
    assert club_duty_decided_status(approve=True, pending=pending) == CLUB_DUTY
    assert club_duty_decided_status(approve=False, pending=pending) == pending


def test_unknown_or_self_imposed_absence_without_notice_is_refused():
    with pytest.raises(SignupRefused, match="Unknown status"):
        decide_signup(fixed=True, requested="asleep", now=BEFORE, deadline=DEADLINE,
                      by_leader=False)
    with pytest.raises(SignupRefused):
        decide_signup(fixed=True, requested=ABSENT_WITHOUT_NOTICE, now=BEFORE,
                      deadline=DEADLINE, by_leader=False)


def test_late_is_one_definition_the_deadline_itself_included():
    from competition.season.engine.signup import is_late, late_sign_off

    deadline = dt.datetime(2026, 10, 1, 18, 0, tzinfo=dt.UTC)
    minute = dt.timedelta(minutes=1)
    assert not is_late(deadline - minute, deadline)
    assert is_late(deadline, deadline) and is_late(deadline + minute, deadline)
    for now in (deadline - minute, deadline, deadline + minute):
        decision = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=now,
                                 deadline=deadline, by_leader=False)
        assert decision.late == is_late(now, deadline)
        assert late_sign_off(current=PRESENT, requested=ABSENT_WITH_NOTICE, now=now,
                             deadline=deadline) == (decision.status == ABSENT_WITHOUT_NOTICE)


def test_every_refusal_carries_its_code():
    from competition.season.engine.signup import Refusal

    with pytest.raises(SignupRefused) as refused:
        decide_signup(fixed=False, requested=ABSENT_WITH_NOTICE, now=dt.datetime(2026, 1, 1),
                      deadline=dt.datetime(2026, 1, 2), by_leader=False)
    assert refused.value.code is Refusal.FLEXIBLE_SIGNS_UP_OR_NOT
    assert str(refused.value) == Refusal.FLEXIBLE_SIGNS_UP_OR_NOT.value


@pytest.mark.parametrize("by_leader", [False, True])
def test_a_sign_off_given_in_time_keeps_its_notice_when_saved_again_late(by_leader):
    """Sending the same sign-off again after the deadline (a second tab, the form for
    several evenings) does not cost the player his notice; a present player who signs
    off late is still without notice."""
    again = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=AFTER, deadline=DEADLINE,
                          by_leader=by_leader, current=ABSENT_WITH_NOTICE)
    assert again.status == ABSENT_WITH_NOTICE and again.late
    late = decide_signup(fixed=True, requested=ABSENT_WITH_NOTICE, now=AFTER, deadline=DEADLINE,
                         by_leader=by_leader, current=PRESENT)
    assert late.status == ABSENT_WITHOUT_NOTICE


def test_once_the_games_started_a_player_changes_nothing_himself_the_leader_still_does():
    """Issue 32: a player whose game or bye is under way is not offered a sign-off."""
    from competition.season.engine.signup import Refusal, sign_off_status, under_way

    starts = DEADLINE + dt.timedelta(days=1, hours=2)
    for fixed in (True, False):
        with pytest.raises(SignupRefused) as refused:
            decide_signup(fixed=fixed, requested=sign_off_status(fixed), now=starts,
                          deadline=DEADLINE, by_leader=False, starts_at=starts)
        assert refused.value.code == Refusal.EVENING_UNDER_WAY
    # A minute before the games start a late sign-off is still his (without notice).
    early = decide_signup(fixed=True, requested="absent_with_notice", now=starts - dt.timedelta(minutes=1),
                          deadline=DEADLINE, by_leader=False, starts_at=starts)
    assert early.status == "absent_without_notice"
    assert decide_signup(fixed=True, requested="absent_with_notice", now=starts, deadline=DEADLINE,
                         by_leader=True, force_majeure=True, starts_at=starts).status == "absent_with_notice"
    assert under_way(starts, starts) and not under_way(starts - dt.timedelta(seconds=1), starts)
