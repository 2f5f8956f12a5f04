"""The head-to-head over seasons (competition/scoring/headtohead.py): who counts as an
opponent, what counts as a game, and the record's numbers."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from competition.scoring.headtohead import Board, Record, head_to_head

ME, ANNA, BAS = 100, 200, 300  # member ids
# Player ids per season: season 1 players 1-3, season 2 players 11-13.
MEMBERS = {1: ME, 2: ANNA, 3: BAS, 11: ME, 12: ANNA, 13: BAS}
D1, D2, D3 = dt.date(2025, 10, 3), dt.date(2026, 3, 6), dt.date(2026, 10, 2)


def record(records, opponent):
    return next(r for r in records if r.opponent == opponent)


def test_the_same_member_in_two_seasons_is_one_opponent():
    boards = [Board(D1, 1, 2, "1-0"), Board(D3, 12, 11, "1-0")]
    records = head_to_head(ME, boards, MEMBERS)
    assert [r.opponent for r in records] == [ANNA]
    assert (records[0].games, records[0].won, records[0].lost) == (2, 1, 1)


def test_colour_decides_whose_result_it_is():
    # Black wins: the member, playing black, won; playing white, he lost.
    assert record(head_to_head(ME, [Board(D1, 2, 1, "0-1")], MEMBERS), ANNA).won == 1
    assert record(head_to_head(ME, [Board(D1, 1, 2, "0-1")], MEMBERS), ANNA).lost == 1


def test_boards_of_other_members_are_not_his_record():
    records = head_to_head(ME, [Board(D1, 2, 3, "1-0"), Board(D1, 1, 3, "1/2-1/2")], MEMBERS)
    assert [r.opponent for r in records] == [BAS]


def test_a_member_never_counts_as_his_own_opponent_across_seasons():
    # Two player rows of the same member cannot meet within a season; should a board say
    # so (a merged account, an imported file), it is no meeting.
    assert head_to_head(ME, [Board(D1, 1, 11, "1-0")], MEMBERS) == ()


def test_score_is_one_for_a_win_a_half_for_a_draw_nothing_for_a_loss():
    boards = [Board(D1, 1, 2, "1-0"), Board(D2, 2, 1, "1/2-1/2"), Board(D3, 11, 12, "0-1"),
              Board(D3, 11, 12, "1/2-1/2")]
    r = record(head_to_head(ME, boards, MEMBERS), ANNA)
    assert (r.games, r.won, r.drawn, r.lost) == (4, 1, 2, 1)
    assert r.score == Fraction(2)


@pytest.mark.parametrize("result", ["1-0F", "0-1F", "0-0F"])
def test_a_forfeit_is_no_game_played_but_is_counted_apart(result):
    r = record(head_to_head(ME, [Board(D1, 1, 2, result)], MEMBERS), ANNA)
    assert (r.games, r.won, r.drawn, r.lost, r.score) == (0, 0, 0, 0, 0)
    assert r.forfeits == 1
    assert r.last_met is None  # nobody moved a piece: no meeting over the board


def test_a_forfeit_after_the_last_game_leaves_the_last_meeting_alone():
    r = record(head_to_head(ME, [Board(D1, 1, 2, "1-0"), Board(D3, 11, 12, "0-1F")], MEMBERS), ANNA)
    assert (r.games, r.forfeits, r.last_met) == (1, 1, D1)


@pytest.mark.parametrize("result", ["", "postponed"])
def test_a_board_without_a_result_counts_for_nothing(result):
    assert head_to_head(ME, [Board(D1, 1, 2, result)], MEMBERS) == ()


def test_a_bye_is_no_meeting():
    assert head_to_head(ME, [Board(D1, 1, None, "")], MEMBERS) == ()
    records = head_to_head(ME, [Board(D1, 1, None, "1-0"), Board(D2, 1, 2, "1-0")], MEMBERS)
    assert [(r.opponent, r.games) for r in records] == [(ANNA, 1)]


def test_the_last_meeting_is_the_latest_game_whatever_the_order_given():
    boards = [Board(D3, 11, 12, "1-0"), Board(D1, 1, 2, "0-1"), Board(D2, 2, 1, "1-0")]
    assert record(head_to_head(ME, boards, MEMBERS), ANNA).last_met == D3


def test_most_games_first_then_the_most_recent_meeting():
    boards = [Board(D1, 1, 2, "1-0"), Board(D2, 1, 2, "1-0"), Board(D3, 11, 13, "1-0")]
    assert [r.opponent for r in head_to_head(ME, boards, MEMBERS)] == [ANNA, BAS]
    boards = [Board(D1, 1, 2, "1-0"), Board(D3, 11, 13, "1-0")]
    assert [r.opponent for r in head_to_head(ME, boards, MEMBERS)] == [BAS, ANNA]


def test_a_record_is_a_frozen_value():
    r = Record(ANNA, won=1)
    with pytest.raises(AttributeError):
        r.won = 2  # type: ignore[misc]
