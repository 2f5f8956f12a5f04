"""The playoffs (docs/rules.md 6): groups of four, leftovers, semi-finals, deciders, finals."""

from __future__ import annotations

import pytest

from competition.prizes.engine.awards import playoff_groups
from competition.prizes.engine.playoffs import (
    Bracket,
    build_bracket,
    club_champion,
    match_winner,
    record_result,
    winners,
)


def pairs(bracket: Bracket) -> dict[str, set[int]]:
    return {m.id: {m.white, m.black} for m in bracket.matches}


def win(bracket: Bracket, match_id: str, player: int) -> Bracket:
    match = bracket.match(match_id)
    return record_result(bracket, match_id, "1-0" if match.white == player else "0-1")


def test_groups_of_four_in_summer_order_top_group_first() -> None:
    assert playoff_groups(list(range(1, 9))) == ((1, 2, 3, 4), (5, 6, 7, 8))


def test_a_group_of_three_stays_a_group() -> None:
    assert playoff_groups(list(range(1, 8))) == ((1, 2, 3, 4), (5, 6, 7))


@pytest.mark.parametrize(
    ("count", "groups"),
    [
        (5, ((1, 2, 3, 4, 5),)),
        (6, ((1, 2, 3, 4, 5, 6),)),
        (9, ((1, 2, 3, 4), (5, 6, 7, 8, 9))),
        (10, ((1, 2, 3, 4), (5, 6, 7, 8, 9, 10))),
    ],
)
def test_leftover_1_and_2_players_join_the_group_above(count: int, groups: tuple) -> None:
    assert playoff_groups(list(range(1, count + 1))) == groups


def test_fewer_than_three_playoff_players_form_one_group() -> None:
    assert playoff_groups([7, 3]) == ((7, 3),)
    assert playoff_groups([7]) == ((7,),)
    assert playoff_groups([]) == ()


def test_semi_finals_are_1_v_4_and_2_v_3_on_the_first_evening() -> None:
    bracket = build_bracket([(11, 12, 13, 14)], seed=1)
    assert pairs(bracket) == {"G1-S1": {11, 14}, "G1-S2": {12, 13}}
    assert {m.round for m in bracket.matches} == {"semi"}
    assert {m.evening for m in bracket.matches} == {1}


def test_the_final_of_the_semi_final_winners_is_on_the_third_evening() -> None:
    bracket = build_bracket([(11, 12, 13, 14)], seed=1)
    bracket = win(bracket, "G1-S1", 14)
    assert "G1-F" not in pairs(bracket)  # waits for the other semi-final
    bracket = win(bracket, "G1-S2", 12)
    final = bracket.match("G1-F")
    assert {final.white, final.black} == {14, 12} and final.evening == 3 and final.round == "final"
    assert winners(bracket) == (None,)
    bracket = win(bracket, "G1-F", 12)
    assert winners(bracket) == (12,) and club_champion(bracket) == 12


def test_a_drawn_semi_final_creates_a_decider_at_once() -> None:
    bracket = record_result(build_bracket([(1, 2, 3, 4)], seed=5), "G1-S2", "1/2-1/2")
    decider = bracket.match("G1-S2-D")
    assert decider.round == "decider" and decider.decides == "G1-S2"
    assert {decider.white, decider.black} == {2, 3} and decider.evening == 1
    assert match_winner(bracket, bracket.match("G1-S2")) is None


def test_a_drawn_decider_is_won_by_the_player_with_black() -> None:
    bracket = build_bracket([(1, 2, 3, 4)], seed=5)
    bracket = record_result(bracket, "G1-S1", "1/2-1/2")
    bracket = record_result(bracket, "G1-S1-D", "1/2-1/2")
    decider = bracket.match("G1-S1-D")
    assert match_winner(bracket, bracket.match("G1-S1")) == decider.black
    bracket = win(bracket, "G1-S2", 3)
    assert {bracket.match("G1-F").white, bracket.match("G1-F").black} == {decider.black, 3}
    assert "G1-S1-D-D" not in pairs(bracket)


def test_a_drawn_final_is_also_settled_by_a_decider() -> None:
    bracket = build_bracket([(1, 2)], seed=3)
    bracket = record_result(bracket, "G1-F", "1/2-1/2")
    assert winners(bracket) == (None,)
    bracket = record_result(bracket, "G1-F-D", "1/2-1/2")
    assert winners(bracket) == (bracket.match("G1-F-D").black,)


def test_a_group_of_three_gives_its_first_a_bye_to_the_final() -> None:
    bracket = build_bracket([(1, 2, 3, 4), (5, 6, 7)], seed=9)
    assert pairs(bracket)["G2-S1"] == {6, 7}
    assert not any(5 in p for p in pairs(bracket).values())
    bracket = win(bracket, "G2-S1", 7)
    assert pairs(bracket)["G2-F"] == {5, 7}
    bracket = win(bracket, "G2-F", 5)
    assert winners(bracket) == (None, 5)


def test_a_group_of_five_plays_a_qualifier_4_v_5_for_the_semi_final_against_1() -> None:
    bracket = build_bracket([(1, 2, 3, 4, 5)], seed=2)
    assert pairs(bracket) == {"G1-Q1": {4, 5}, "G1-S2": {2, 3}}
    bracket = win(bracket, "G1-Q1", 5)
    semi = bracket.match("G1-S1")
    assert {semi.white, semi.black} == {1, 5} and semi.evening == 2
    bracket = win(win(bracket, "G1-S1", 1), "G1-S2", 2)
    assert pairs(bracket)["G1-F"] == {1, 2}


def test_a_group_of_six_plays_qualifiers_4_v_5_and_3_v_6() -> None:
    bracket = build_bracket([(1, 2, 3, 4, 5, 6)], seed=2)
    assert pairs(bracket) == {"G1-Q1": {4, 5}, "G1-Q2": {3, 6}}
    bracket = win(win(bracket, "G1-Q1", 4), "G1-Q2", 6)
    assert pairs(bracket)["G1-S1"] == {1, 4} and pairs(bracket)["G1-S2"] == {2, 6}
    assert {bracket.match("G1-S1").evening, bracket.match("G1-S2").evening} == {2}


def test_a_group_of_one_wins_without_playing() -> None:
    bracket = build_bracket([(8,)], seed=0)
    assert bracket.matches == () and winners(bracket) == (8,)


def test_colours_are_drawn_by_lot_reproducibly_from_the_seed() -> None:
    groups = [tuple(range(4 * g + 1, 4 * g + 5)) for g in range(6)]
    first = build_bracket(groups, seed="2026-playoffs")
    assert build_bracket(groups, seed="2026-playoffs") == first
    colours = {build_bracket(groups, seed=s).matches for s in range(10)}
    assert len(colours) > 1  # the lot matters
    better_seed_white = [m.white < m.black for m in first.matches]
    assert any(better_seed_white) and not all(better_seed_white)


def test_a_result_is_recorded_once_and_must_be_a_playoff_result() -> None:
    bracket = build_bracket([(1, 2, 3, 4)], seed=1)
    with pytest.raises(ValueError, match="unknown playoff result"):
        record_result(bracket, "G1-S1", "0-0F")
    bracket = record_result(bracket, "G1-S1", "1-0")
    with pytest.raises(ValueError, match="already has the result"):
        record_result(bracket, "G1-S1", "0-1")
    with pytest.raises(KeyError):
        record_result(bracket, "G1-F", "1-0")


def test_a_forfeit_win_advances_the_winner() -> None:
    bracket = build_bracket([(1, 2)], seed=1)
    final = bracket.match("G1-F")
    assert winners(record_result(bracket, "G1-F", "0-1F")) == (final.black,)


def test_a_bracket_rejects_a_player_twice_and_groups_over_six() -> None:
    with pytest.raises(ValueError, match="two places"):
        build_bracket([(1, 2, 3), (3, 4, 5)], seed=1)
    with pytest.raises(ValueError, match="1 to 6"):
        build_bracket([tuple(range(1, 8))], seed=1)
