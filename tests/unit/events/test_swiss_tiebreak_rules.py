"""Tie-break rules on small hand-made tournaments (C.07 Art. 6, 8, 9, 14, 16)."""

from fractions import Fraction

import pytest

from competition.events.engine.tiebreaks import (
    Entrant,
    Kind,
    RoundResult,
    Tournament,
    direct_encounter_tiers,
    rank_players,
    tiebreak,
)

F = Fraction
SCORES = {"1-0": (F(1), F(0)), "½-½": (F(1, 2), F(1, 2)), "0-1": (F(0), F(1))}


def build(players: int, rounds: list[list[tuple[int, int, str]]], byes: dict[tuple[int, int], Kind] | None = None) -> Tournament:
    """Rounds of (white, black, result); players missing from a round get a zero bye
    unless ``byes[(round, player)]`` says otherwise."""
    byes = byes or {}
    results: dict[int, list[RoundResult]] = {p: [] for p in range(1, players + 1)}
    for rnd, games in enumerate(rounds, start=1):
        seen = set()
        for white, black, result in games:
            w, b = SCORES[result]
            results[white].append(RoundResult.game(black, w, "w"))
            results[black].append(RoundResult.game(white, b, "b"))
            seen |= {white, black}
        for p in results:
            if p not in seen:
                results[p].append(RoundResult.bye(byes.get((rnd, p), Kind.ZERO_BYE)))
    return Tournament(tuple(Entrant(p, tuple(r)) for p, r in results.items()))


# 6 players, 3 rounds: 1 and 5 tie on 2.5 after drawing each other.
SMALL_SWISS = build(
    6,
    [
        [(1, 2, "1-0"), (3, 4, "½-½"), (5, 6, "1-0")],
        [(1, 3, "1-0"), (2, 5, "0-1"), (4, 6, "1-0")],
        [(1, 5, "½-½"), (3, 6, "1-0"), (2, 4, "½-½")],
    ],
)


def test_bh_m1_cuts_the_lowest_and_the_highest_opponent() -> None:
    # Player 1 met 2 (0.5), 3 (1.5) and 5 (2.5): BH 4.5, BH-C1 4.0, BH-M1 1.5.
    assert tiebreak(SMALL_SWISS, "BH")[1] == F(9, 2)
    assert tiebreak(SMALL_SWISS, "BH-C1")[1] == F(4)
    assert tiebreak(SMALL_SWISS, "BH-M1")[1] == F(3, 2)
    # Player 5 met 6 (0), 2 (0.5) and 1 (2.5): BH-M1 keeps only 0.5.
    assert tiebreak(SMALL_SWISS, "BH-M1")[5] == F(1, 2)


def test_sonneborn_berger_weights_opponents_by_points_scored_against_them() -> None:
    # 1 x 0.5 + 1 x 1.5 + 0.5 x 2.5
    assert tiebreak(SMALL_SWISS, "SB")[1] == F(13, 4)


def test_club_order_breaks_a_drawn_direct_encounter_by_median_buchholz() -> None:
    ranking = {r.number: r for r in rank_players(SMALL_SWISS)}
    assert (ranking[1].rank, ranking[5].rank) == (1, 2)
    assert not ranking[1].needs_decider


# Round robin of 4: 3 and 4 tie on 1.5; 3 beat 4, while SB would favour 4.
ROUND_ROBIN = build(
    4,
    [
        [(1, 4, "½-½"), (2, 3, "1-0")],
        [(4, 3, "0-1"), (1, 2, "0-1")],
        [(2, 4, "0-1"), (3, 1, "½-½")],
    ],
)


def test_direct_encounter_ranks_the_winner_of_the_game_between_two_tied_players_first() -> None:
    assert tiebreak(ROUND_ROBIN, "SB")[4] > tiebreak(ROUND_ROBIN, "SB")[3]
    assert direct_encounter_tiers(ROUND_ROBIN, {3, 4}) == [frozenset({3}), frozenset({4})]
    ranks = {r.number: r.rank for r in rank_players(ROUND_ROBIN)}
    assert (ranks[2], ranks[3], ranks[4], ranks[1]) == (1, 2, 3, 4)


# Swiss: 1, 2 and 3 tie on 1.5; 1 beat 2, 2 drew 3, and 1 never met 3.
THREE_WAY = build(
    6,
    [
        [(1, 2, "1-0"), (3, 4, "1-0"), (5, 6, "½-½")],
        [(2, 3, "½-½"), (1, 5, "0-1"), (4, 6, "1-0")],
        [(1, 6, "½-½"), (2, 4, "1-0"), (3, 5, "0-1")],
    ],
)


def test_direct_encounter_ranks_nobody_first_while_a_missing_game_could_change_it() -> None:
    # 1 scored 1 of 2 possible, 3 could still reach 1.5 by winning the missing game.
    assert direct_encounter_tiers(THREE_WAY, {1, 2, 3}) == [frozenset({1, 2, 3})]
    ranks = {r.number: r.rank for r in rank_players(THREE_WAY, order=("PTS", "DE"))}
    assert ranks[1] == ranks[2] == ranks[3]


def test_direct_encounter_ranks_a_player_first_when_no_missing_game_could_change_it() -> None:
    tied = build(
        6,
        [
            [(1, 2, "1-0"), (3, 4, "1-0"), (5, 6, "½-½")],
            [(1, 3, "1-0"), (2, 5, "1-0"), (4, 6, "0-1")],
        ],
    )
    # 1 beat 2 and 3 (2 out of 2); 2 and 3 did not meet and can reach 1 at most.
    assert direct_encounter_tiers(tied, {1, 2, 3})[0] == frozenset({1})


def test_direct_encounter_of_a_cycle_leaves_everyone_tied() -> None:
    cycle = build(3, [[(1, 2, "1-0")], [(2, 3, "1-0")], [(3, 1, "1-0")]])
    assert direct_encounter_tiers(cycle, {1, 2, 3}) == [frozenset({1, 2, 3})]


def test_an_unbroken_tie_for_first_is_marked_for_a_decider() -> None:
    drawn = build(2, [[(1, 2, "½-½")], [(2, 1, "½-½")]])
    ranking = rank_players(drawn)
    assert [(r.rank, r.needs_decider) for r in ranking] == [(1, True), (1, True)]


def test_players_tied_below_first_share_a_rank_without_a_decider() -> None:
    ranking = rank_players(THREE_WAY, order=("PTS", "DE"))
    shared = [r for r in ranking if r.number in (1, 2, 3)]
    assert {r.rank for r in shared} == {2} and not any(r.needs_decider for r in shared)


# Rapid: two-game matches worth 0-2; 3 players, so a bye (2 points) each round.
MATCHES = Tournament(
    (
        Entrant(1, (RoundResult.game(2, F(3, 2), max_points=2), RoundResult.game(3, 1, max_points=2))),
        Entrant(2, (RoundResult.game(1, F(1, 2), max_points=2), RoundResult.bye(Kind.PAIRING_BYE, 2))),
        Entrant(3, (RoundResult.bye(Kind.PAIRING_BYE, 2), RoundResult.game(1, 1, max_points=2))),
    )
)


def test_a_match_bye_is_worth_two_points_and_counts_as_a_won_round() -> None:
    assert MATCHES.scores() == {1: F(5, 2), 2: F(5, 2), 3: F(3)}
    assert tiebreak(MATCHES, "WIN") == {1: 1, 2: 1, 3: 1}  # 1.5-0.5 wins the match, 1-1 does not
    assert tiebreak(MATCHES, "WON") == {1: 1, 2: 0, 3: 0}


def test_match_bye_counts_against_a_dummy_with_the_own_score_under_2024_rules() -> None:
    assert tiebreak(MATCHES, "BH", rules="2024") == {1: F(11, 2), 2: F(5), 3: F(11, 2)}
    # SB: 2 scored 0.5 against 1 (2.5) and 2 against the dummy (2.5).
    assert tiebreak(MATCHES, "SB", rules="2024")[2] == F(25, 4)


def test_match_bye_dummy_is_capped_at_half_the_maximum_under_2026_rules() -> None:
    # Two rounds of two games: the cap is 2 x 2 / 2 = 2.
    assert tiebreak(MATCHES, "BH", rules="2026") == {1: F(11, 2), 2: F(9, 2), 3: F(9, 2)}


def test_a_vur_is_cut_first_from_buchholz() -> None:
    half_bye = build(4, [[(1, 2, "1-0"), (3, 4, "1-0")], [(1, 3, "0-1")], [(1, 4, "1-0"), (2, 3, "0-1")]],
                     byes={(2, 2): Kind.HALF_BYE, (2, 4): Kind.HALF_BYE})
    # 2: opponents 1 (2) and 3 (3); the H round counts 0.5 (own score) and goes first.
    assert tiebreak(half_bye, "BH")[2] == F(11, 2)
    assert tiebreak(half_bye, "BH-C1")[2] == F(5)


@pytest.mark.parametrize("code", ["XX", "BH-Q1", "WIN-C1"])
def test_unknown_tiebreak_codes_are_rejected(code: str) -> None:
    with pytest.raises(ValueError):
        tiebreak(SMALL_SWISS, code)


def test_only_the_2024_and_2026_editions_are_known() -> None:
    with pytest.raises(ValueError):
        tiebreak(SMALL_SWISS, "BH", rules="2009")  # type: ignore[arg-type]


def test_results_must_be_mutual() -> None:
    with pytest.raises(ValueError):
        Tournament((Entrant(1, (RoundResult.game(2, 1),)), Entrant(2, (RoundResult.bye(Kind.ZERO_BYE),))))
