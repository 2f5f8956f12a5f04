"""Hand-made examples of pairing a Keizer/ladder evening (docs/rules.md section 5)."""

from __future__ import annotations

import json

import pytest

from pairing.engine.keizer import (
    assign_colours,
    bye_groups,
    pair_evening,
    place_newcomers,
    result_from_dict,
    result_to_dict,
    violations,
)
from pairing.engine.keizer_simulation import simulate_season
from pairing.engine.types import (
    CLASSIC_RULES,
    PION_RULES,
    Meeting,
    PairedGame,
    PairingResult,
    PairingRules,
    PresentPlayer,
    Relaxation,
)

ONLY_GAP = PairingRules(max_meetings_per_season=9, max_meetings_per_half=9, min_evenings_between=5)


def players(*ids: int, **byes: int) -> list[PresentPlayer]:
    return [PresentPlayer(pid, byes=byes.get(f"p{pid}", 0)) for pid in ids]


def pairs(result: PairingResult) -> list[tuple[int, int]]:
    return [tuple(sorted((g.white, g.black))) for g in result.games]  # type: ignore[misc]


def pair(present, meetings=(), rules=PION_RULES, evening=12, half="summer", seed="2025-01-10"):
    return pair_evening(present, meetings, rules, evening_index=evening, half=half, seed=seed)


def met(a: int, b: int, evening: int = 1, half: str = "winter") -> Meeting:
    return Meeting(a, b, evening, half)  # type: ignore[arg-type]


# --- Who plays whom ---------------------------------------------------------------------


def test_top_player_plays_the_second():
    assert pairs(pair(players(1, 2, 3, 4))) == [(1, 2), (3, 4)]


def test_top_player_plays_the_third_when_he_met_the_second():
    result = pair(players(1, 2, 3, 4), [met(1, 2, 10, "summer")], evening=12)
    assert pairs(result) == [(1, 3), (2, 4)]
    assert result.relaxed == ()


def test_lookahead_never_strands_the_last_two_who_already_met():
    # Greedy top-down would give 1-2 and leave 3-4, who met this half.
    result = pair(players(1, 2, 3, 4), [met(3, 4, 10, "summer")])
    assert pairs(result) == [(1, 3), (2, 4)]
    assert result.relaxed == ()


def test_lookahead_keeps_the_closest_choice_for_the_highest_player():
    # 5-6 met: 1-2 stays, 3 takes 5 rather than 4 so that 4-6 remains possible.
    result = pair(players(1, 2, 3, 4, 5, 6), [met(5, 6, 10, "summer")])
    assert pairs(result) == [(1, 2), (3, 5), (4, 6)]


def test_pion_allows_a_second_meeting_in_the_other_half():
    result = pair(players(1, 2), [met(1, 2, 1, "winter")], evening=12, half="summer")
    assert pairs(result) == [(1, 2)] and result.relaxed == ()


def test_pion_forbids_a_third_meeting_in_the_season():
    history = [met(1, 2, 1, "winter"), met(1, 2, 11, "summer")]
    assert pairs(pair(players(1, 2, 3, 4), history, evening=30)) == [(1, 3), (2, 4)]


def test_pion_forbids_a_second_meeting_in_the_same_half():
    history = [met(1, 2, 1, "winter")]
    assert pairs(pair(players(1, 2, 3, 4), history, evening=9, half="winter")) == [(1, 3), (2, 4)]


def test_classic_forbids_any_rematch_in_the_season():
    history = [met(1, 2, 1, "winter")]
    result = pair(players(1, 2, 3, 4), history, CLASSIC_RULES, evening=30, half="summer")
    assert pairs(result) == [(1, 3), (2, 4)]


@pytest.mark.parametrize(("evening", "allowed"), [(9, True), (8, False), (10, True), (4, False)])
def test_gap_of_five_evenings_strictly_between_meetings(evening, allowed):
    # Met on evening 3: evenings 4..8 are too soon, 9 is the first allowed.
    result = pair(players(1, 2, 3, 4), [met(1, 2, 3)], ONLY_GAP, evening=evening)
    assert ((1, 2) in pairs(result)) is allowed


def test_classic_has_no_gap_rule():
    rules = PairingRules(max_meetings_per_season=2, max_meetings_per_half=2, min_evenings_between=0)
    assert (1, 2) in pairs(pair(players(1, 2), [met(1, 2, 11)], rules, evening=12))


def test_meetings_of_absent_players_are_ignored():
    assert pairs(pair(players(1, 2), [met(1, 9, 11, "summer"), met(7, 8, 11, "summer")])) == [
        (1, 2)
    ]


# --- Relaxation when no valid pairing exists ---------------------------------------------


def test_two_players_who_met_too_recently_are_paired_and_the_gap_is_reported():
    result = pair(players(1, 2), [met(1, 2, 10)], ONLY_GAP, evening=12)
    assert pairs(result) == [(1, 2)]
    assert [r.rule for r in result.relaxed] == ["min_evenings_between"]


def test_relaxation_breaks_the_weakest_rule_even_if_that_takes_more_games():
    # 1-2 would break the half rule, 1-4 the season rule; 1-3 and 2-4 only the gap.
    history = [
        met(1, 2, 1, "winter"),
        met(1, 4, 2, "winter"),
        met(1, 4, 10, "winter"),
        met(1, 3, 13, "summer"),
        met(2, 4, 13, "summer"),
    ]
    result = pair(players(1, 2, 3, 4), history, evening=16, half="winter")
    assert pairs(result) == [(1, 3), (2, 4)]
    assert sorted(r.rule for r in result.relaxed) == ["min_evenings_between"] * 2


def test_relaxation_prefers_the_half_rule_over_the_season_rule():
    history = [met(1, 2, 11, "summer"), met(1, 3, 1, "winter"), met(1, 3, 12, "summer")]
    history += [met(1, 4, 1, "winter"), met(1, 4, 13, "summer")]
    result = pair(players(1, 2, 3, 4), history, evening=30, half="summer")
    assert pairs(result) == [(1, 2), (3, 4)]
    assert [r.rule for r in result.relaxed] == ["max_meetings_per_half"]


def test_relaxation_reports_every_rule_the_pair_breaks():
    history = [met(1, 2, 1, "summer"), met(1, 2, 10, "summer")]
    result = pair(players(1, 2), history, evening=12, half="summer")
    assert result.relaxed == (
        Relaxation(result.games[0].white, result.games[0].black, "min_evenings_between"),
        Relaxation(result.games[0].white, result.games[0].black, "max_meetings_per_half"),
        Relaxation(result.games[0].white, result.games[0].black, "max_meetings_per_season"),
    )


def test_relaxation_relaxes_only_one_game_when_one_suffices():
    # Six players; 5-6 have met, and so have 5 and 6 with everybody except each other.
    history = [met(5, 6, 11, "summer")]
    history += [met(p, q, 11, "summer") for p in (1, 2, 3, 4) for q in (5, 6)]
    result = pair(players(1, 2, 3, 4, 5, 6), history, evening=12)
    assert pairs(result) == [(1, 2), (3, 4), (5, 6)]
    assert {r.rule for r in result.relaxed} == {"min_evenings_between", "max_meetings_per_half"}
    assert len(result.relaxed) == 2


def test_classic_rematches_when_everybody_met_everybody():
    history = [met(a, b, 1) for a, b in [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]]
    result = pair(players(1, 2, 3, 4), history, CLASSIC_RULES, evening=30)
    assert pairs(result) == [(1, 2), (3, 4)]
    assert {r.rule for r in result.relaxed} == {"max_meetings_per_season"}


# --- The pairing bye ---------------------------------------------------------------------


def test_random_bye_is_reproducible_with_the_same_seed():
    present = players(*range(1, 12))
    first = pair(present, seed="2025-01-10")
    assert pair(present, seed="2025-01-10") == first
    assert first.bye_drawn_from == tuple(range(1, 12))


def test_random_bye_varies_with_the_seed():
    present = players(*range(1, 12))
    byes = {pair(present, seed=f"2025-01-{day}").bye for day in range(1, 60)}
    assert len(byes) >= 6


def test_random_bye_goes_to_a_player_with_the_fewest_byes():
    present = players(1, 2, 3, 4, 5, p1=1, p2=0, p3=1, p4=0, p5=2)
    for seed in range(40):
        result = pair(present, seed=seed)
        assert result.bye in (2, 4)
        assert result.bye_drawn_from == (2, 4)


def test_classic_bye_goes_to_the_lowest_placed_without_a_bye():
    assert pair(players(1, 2, 3, 4, 5), rules=CLASSIC_RULES).bye == 5
    result = pair(players(1, 2, 3, 4, 5, p5=1, p4=1), rules=CLASSIC_RULES)
    assert result.bye == 3
    assert result.bye_drawn_from == ()


def test_bye_skips_a_candidate_that_would_leave_the_rest_unpairable():
    # 5 is the classic candidate, but then 1 has nobody left to play: 4 gets the bye.
    history = [met(1, 2, 1), met(3, 4, 1), met(1, 3, 2), met(1, 4, 3)]
    result = pair(players(1, 2, 3, 4, 5), history, CLASSIC_RULES, evening=12)
    assert result.relaxed == ()
    assert result.bye == 4
    assert pairs(result) == [(1, 5), (2, 3)]


def test_random_bye_skips_an_unpairable_drawn_candidate_but_stays_in_the_group():
    # 2 met everybody this half; 7 had a bye already and is not in the draw.
    history = [met(2, q, 11, "summer") for q in (1, 3, 4, 5, 6, 7)]
    present = players(1, 2, 3, 4, 5, 6, 7, p7=1)
    for seed in range(20):
        result = pair(present, history, seed=seed)
        assert result.bye == 2 and result.relaxed == ()
        assert result.bye_drawn_from == (1, 2, 3, 4, 5, 6)


def test_bye_groups_order_fewest_byes_first():
    present = players(1, 2, 3, 4, p1=1, p3=1)
    assert bye_groups(present, "lowest", 0) == [[3, 1], [2, 0]]
    groups = bye_groups(present, "random", "x")
    assert sorted(groups[0]) == [1, 3] and sorted(groups[1]) == [0, 2]


def test_single_player_gets_the_bye():
    result = pair(players(7))
    assert result.games == () and result.bye == 7


def test_bye_to_a_player_who_had_one_is_reported_when_a_meeting_rule_forces_it():
    # 1 never had a bye, but 2 and 3 met last week: 1 must play, and the bye goes to
    # a player who already had one; the pairing says so as it does for meeting rules.
    present = [PresentPlayer(1), PresentPlayer(2, byes=1), PresentPlayer(3, byes=1)]
    result = pair(present, [met(2, 3, 11, "summer")], rules=CLASSIC_RULES)
    assert result.bye == 3
    assert result.relaxed == (Relaxation(3, None, "fewest_byes"),)


def test_bye_to_a_player_with_the_fewest_byes_is_not_reported():
    present = [PresentPlayer(1, byes=1), PresentPlayer(2, byes=1), PresentPlayer(3, byes=1)]
    result = pair(present, rules=CLASSIC_RULES)
    assert result.bye == 3 and result.relaxed == ()


def test_even_number_has_no_bye():
    result = pair(players(1, 2, 3, 4))
    assert result.bye is None and result.bye_drawn_from == ()


# --- Colours -----------------------------------------------------------------------------


def colours(pid: int, history: str) -> PresentPlayer:
    return PresentPlayer(pid, tuple(history))  # type: ignore[arg-type]


def whites(higher: PresentPlayer, lower: PresentPlayer) -> int:
    return assign_colours(higher, lower)[0].id


def test_colour_white_to_the_player_with_more_blacks():
    assert whites(colours(1, "WWB"), colours(2, "BBW")) == 2
    assert whites(colours(1, "BW"), colours(2, "WW")) == 1


def test_colour_white_to_the_one_with_black_last_when_balanced():
    assert whites(colours(1, "BW"), colours(2, "WB")) == 2
    assert whites(colours(1, "WB"), colours(2, "BW")) == 1


def test_colour_white_to_the_higher_placed_when_all_else_is_equal():
    assert whites(colours(1, "WB"), colours(2, "WB")) == 1
    assert whites(colours(1, ""), colours(2, "")) == 1
    assert whites(colours(1, "BW"), colours(2, "")) == 1


def test_colour_more_blacks_gets_white_even_if_it_is_his_third_white_in_a_row():
    # docs/rules.md 5, first criterion: -1 meets +1 and they go to 0 and 0, not to -2 and +2.
    assert whites(colours(1, "BBBWW"), colours(2, "WWWBB")) == 1
    # And he gets white even though the other then plays black a third time in a row.
    assert whites(colours(1, "WWWBB"), colours(2, "WB")) == 2


def test_colour_black_last_gets_white_before_the_leaders_rule():
    # Equal balance: the one who had black last gets white, even if placed lower.
    assert whites(colours(1, "BWBW"), colours(2, "WBWB")) == 2


def test_colour_no_third_same_colour_in_a_row_decides_what_balance_and_last_colour_leave():
    # Both +1 with white last: the higher placed would get a third white; the lower has
    # only one white in a row, so he takes white.
    assert whites(colours(1, "BWW"), colours(2, "WBW")) == 2
    # Both 0 with black last: the lower would get a third black, so he gets white.
    assert whites(colours(1, "BWWB"), colours(2, "WWBB")) == 2


def test_colour_third_same_colour_allowed_when_both_orders_give_one():
    assert whites(colours(1, "BWW"), colours(2, "WW")) == 1
    assert whites(colours(1, "WBB"), colours(2, "WBB")) == 1


def test_colours_in_a_whole_pairing_follow_the_rules():
    present = [colours(1, "WW"), colours(2, "BB"), colours(3, "WB"), colours(4, "BW")]
    result = pair(present, seed=0)
    assert [(g.white, g.black) for g in result.games] == [(2, 1), (3, 4)]


# --- Boards, validation and the JSON form -------------------------------------------------


def test_boards_follow_the_higher_placed_player_of_each_game():
    history = [met(1, 2, 10, "summer"), met(2, 3, 10, "summer")]
    result = pair(players(1, 2, 3, 4, 5, 6), history)
    assert [g.board for g in result.games] == [1, 2, 3]
    assert pairs(result) == [(1, 3), (2, 4), (5, 6)]


def test_violations_of_a_manual_edit():
    history = [met(1, 2, 10, "summer")]
    edited = [PairedGame(1, 2, 1), PairedGame(2, 3, 4)]
    assert violations(edited, history, PION_RULES, 12, "summer") == [
        Relaxation(2, 1, "min_evenings_between"),
        Relaxation(2, 1, "max_meetings_per_half"),
    ]


def test_violations_rejects_a_player_paired_twice():
    with pytest.raises(ValueError):
        violations([PairedGame(1, 1, 2), PairedGame(2, 2, 3)], [], PION_RULES, 1, "winter")


def test_duplicate_present_player_is_refused():
    with pytest.raises(ValueError):
        pair(players(1, 2, 1))


def test_result_to_dict_is_json_and_round_trips():
    result = pair(players(1, 2, 3), [met(1, 2, 11, "summer")], ONLY_GAP, seed="s")
    data = result_to_dict(result)
    assert json.loads(json.dumps(data)) == data
    assert set(data) >= {"games", "bye", "relaxed"}
    assert data["games"][0].keys() == {"board", "white", "black"}
    assert result_from_dict(data) == result


def test_a_full_season_of_120_players_pairs_without_breaking_a_rule():
    # The time it takes is a benchmark figure (bench/bench_pairing.py), not a test.
    present, history = simulate_season(players=120, evenings=40, seed=7, rules=PION_RULES)
    result = pair(present, history, evening=40, half="summer")
    assert result.relaxed == ()
    assert len(result.games) == 60


# --- A flexible player's first evening ---------------------------------------------------

STANDINGS = [1, 2, 3]
RATINGS: dict[int, int | None] = {1: 2000, 2: 1800, 3: 1600}


def test_newcomer_goes_directly_below_the_closest_rating():
    assert place_newcomers(STANDINGS, {**RATINGS, 9: 1790}, [9]) == [1, 2, 9, 3]
    assert place_newcomers(STANDINGS, {**RATINGS, 9: 1810}, [9]) == [1, 2, 9, 3]


def test_newcomer_equally_close_to_two_goes_below_the_higher_placed():
    assert place_newcomers(STANDINGS, {**RATINGS, 9: 1700}, [9]) == [1, 2, 9, 3]


def test_newcomer_stronger_than_everybody_goes_below_the_leader():
    assert place_newcomers(STANDINGS, {**RATINGS, 9: 2300}, [9]) == [1, 9, 2, 3]


def test_newcomer_weaker_than_everybody_goes_to_the_bottom():
    assert place_newcomers(STANDINGS, {**RATINGS, 9: 1200}, [9]) == [1, 2, 3, 9]


def test_newcomers_below_the_same_player_are_ordered_by_rating():
    ratings = {**RATINGS, 8: 1750, 9: 1790}
    assert place_newcomers(STANDINGS, ratings, [8, 9]) == [1, 2, 9, 8, 3]


def test_newcomer_without_rating_goes_to_the_bottom_and_unrated_players_are_skipped():
    ratings = {1: 2000, 2: None, 3: 1600, 9: None, 8: 1850}
    assert place_newcomers(STANDINGS, ratings, [9, 8]) == [1, 8, 2, 3, 9]


def test_newcomer_already_in_the_standings_is_refused():
    with pytest.raises(ValueError):
        place_newcomers(STANDINGS, RATINGS, [2])
