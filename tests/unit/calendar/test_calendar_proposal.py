"""docs/rules.md 2: the calendar proposal and the halves."""

import datetime as dt

import pytest

from competition.season.engine.calendar import (
    CLOSED,
    FREE,
    PLAYING,
    PLAYOFF,
    RAPID,
    RAPID_EVENING,
    evening_times,
    fridays,
    propose_calendar,
    rapid_fridays,
)

D = dt.date


def test_fridays_are_strictly_after_the_opening():
    assert fridays(D(2026, 9, 4), D(2026, 9, 25)) == [D(2026, 9, 11), D(2026, 9, 18), D(2026, 9, 25)]
    assert fridays(D(2026, 9, 2), D(2026, 9, 11)) == [D(2026, 9, 4), D(2026, 9, 11)]


def test_rapid_evening_is_the_friday_before_a_knsb_round():
    assert rapid_fridays([D(2026, 10, 3)]) == {D(2026, 10, 2)}  # Saturday round
    assert rapid_fridays([D(2026, 10, 9)]) == {D(2026, 10, 2)}  # a round on a Friday: week before


def test_winter_starts_on_first_friday_after_opening_that_is_not_rapid():
    p = propose_calendar(
        opening=D(2026, 9, 4), last_day=D(2027, 6, 30), knsb_rounds=[D(2026, 9, 12)]
    )
    assert p.evenings[0] == p.evenings[0].__class__(D(2026, 9, 11), RAPID, None, RAPID_EVENING)
    assert p.winter_start == D(2026, 9, 18)


def test_each_half_has_ten_playing_evenings_and_closed_and_rapid_fridays_do_not_count():
    p = propose_calendar(
        opening=D(2026, 9, 4),
        last_day=D(2027, 6, 30),
        knsb_rounds=[D(2026, 10, 10), D(2027, 2, 13)],
        closed=[D(2026, 12, 25)],
    )
    winter = p.playing("winter")
    summer = p.playing("summer")
    assert len(winter) == 10 and len(summer) == 10
    assert D(2026, 10, 9) not in {e.date for e in winter}
    kinds = {e.date: e.kind for e in p.evenings}
    assert kinds[D(2026, 10, 9)] == RAPID
    assert kinds[D(2026, 12, 25)] == CLOSED
    assert all(e.date < summer[0].date for e in winter)


def test_summer_does_not_start_on_the_first_friday_of_january():
    # first Friday of January 2027 is 1 January
    p2 = propose_calendar(opening=D(2026, 10, 16), last_day=D(2027, 7, 30))
    assert p2.playing("winter")[-1].date == D(2026, 12, 25)
    assert {e.date: e.kind for e in p2.evenings}[D(2027, 1, 1)] == FREE
    assert p2.summer_start == D(2027, 1, 8)


def test_summer_start_skips_a_rapid_friday():
    p = propose_calendar(
        opening=D(2026, 10, 16), last_day=D(2027, 7, 30), knsb_rounds=[D(2027, 1, 9)]
    )
    assert p.summer_start == D(2027, 1, 15)


def test_playoff_evenings_follow_the_summer_half():
    p = propose_calendar(opening=D(2026, 9, 4), last_day=D(2027, 6, 30))
    after = [e for e in p.evenings if e.date > p.playing("summer")[-1].date]
    assert [e.kind for e in after[:3]] == [PLAYOFF, PLAYOFF, PLAYOFF]


def test_ladder_has_one_period_over_all_free_fridays():
    p = propose_calendar(
        opening=D(2026, 9, 4), last_day=D(2027, 1, 29), knsb_rounds=[D(2026, 10, 10)],
        single_period=True,
    )
    assert {e.half for e in p.evenings if e.kind == PLAYING} == {"season"}
    assert len(p.playing("season")) == len(p.evenings) - 1


def test_deadline_is_thursday_1800_local_on_both_sides_of_dst_change():
    # 2026-10-25 summer time ends; Thursday 22 Oct is CEST, Thursday 29 Oct is CET.
    starts, deadline = evening_times(D(2026, 10, 23))
    assert deadline.isoformat() == "2026-10-22T18:00:00+02:00"
    assert starts.isoformat() == "2026-10-23T20:15:00+02:00"
    _, deadline = evening_times(D(2026, 10, 30))
    assert deadline.isoformat() == "2026-10-29T18:00:00+01:00"
    # 2027-03-28 summer time starts: Thursday 1 April is CEST again.
    _, deadline = evening_times(D(2027, 4, 2))
    assert deadline.isoformat() == "2027-04-01T18:00:00+02:00"
    assert deadline.astimezone(dt.UTC).hour == 16


def test_bad_calendar_input_is_refused():
    with pytest.raises(ValueError, match="end after"):
        propose_calendar(opening=D(2027, 1, 1), last_day=D(2026, 1, 1))
    with pytest.raises(ValueError, match="deadline"):
        evening_times(D(2026, 10, 23), deadline_days_before=0, deadline_time=dt.time(21, 0))
