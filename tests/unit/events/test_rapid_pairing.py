"""Rapid competition pairing: two-game matches, colours irrelevant, bye worth 2 (docs/rules.md 7)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.events.engine.rapid import pair_rapid_round
from competition.events.engine.tiebreaks import (
    Entrant,
    Kind,
    RoundPairing,
    RoundResult,
    Tournament,
    played_pairs,
)

TWO = 2
MATCH_SCORES = [Fraction(s, 2) for s in range(5)]  # 0, ½, 1, 1½, 2


def field(n: int) -> Tournament:
    return Tournament(tuple(Entrant(i, (), f"P{i}", 2100 - 25 * i) for i in range(1, n + 1)))


def play(t: Tournament, pairing: RoundPairing, rng: random.Random) -> Tournament:
    results = {e.number: RoundResult.bye(Kind.ZERO_BYE, TWO) for e in t.entrants}
    for a, b in pairing.games:
        s = rng.choice(MATCH_SCORES)
        results[a] = RoundResult.game(b, s, max_points=TWO)
        results[b] = RoundResult.game(a, TWO - s, max_points=TWO)
    if pairing.bye is not None:
        results[pairing.bye] = RoundResult.bye(Kind.PAIRING_BYE, TWO)
    return t.with_round(results)


def byes_of(t: Tournament) -> dict[int, int]:
    return {e.number: sum(r.kind is Kind.PAIRING_BYE for r in e.results) for e in t.entrants}


def best_possible(players: list[int], met: set[frozenset[int]], had_bye: set[int]) -> tuple[bool, bool]:
    """Brute force: does a pairing without rematch exist, and one without rematch or second bye?"""
    found = [False, False]

    def walk(rest: list[int], bye_ok: bool) -> None:
        if not rest:
            found[0] = True
            found[1] = found[1] or bye_ok
            return
        first, others = rest[0], rest[1:]
        if len(rest) % 2:  # first may take the bye
            walk(others, bye_ok and first not in had_bye)
        for i, other in enumerate(others):
            if frozenset((first, other)) not in met:
                walk(others[:i] + others[i + 1 :], bye_ok)

    walk(players, True)
    return found[0], found[1]


def check_round(t: Tournament, present: list[int], pairing: RoundPairing) -> None:
    paired = [p for game in pairing.games for p in game]
    everyone = paired + ([pairing.bye] if pairing.bye is not None else [])
    # Every present player is in exactly one match or has the one bye; nobody else plays.
    assert sorted(everyone) == sorted(present)
    assert (pairing.bye is not None) == (len(present) % 2 == 1)
    met = played_pairs(t)
    had_bye = {n for n, k in byes_of(t).items() if k}
    rematches = [g for g in pairing.games if frozenset(g) in met]
    second_bye = pairing.bye in had_bye
    no_rematch_possible, clean_possible = best_possible(sorted(present), met, had_bye)
    if no_rematch_possible:
        assert not rematches, "rematch although a pairing without one exists"
    if clean_possible:
        assert not second_bye, "second bye although a clean pairing exists"
    assert len(pairing.notes) == len(rematches) + int(second_bye)


def test_first_round_pairs_top_half_against_bottom_half_and_gives_the_lowest_rated_the_bye() -> None:
    pairing = pair_rapid_round(field(7), range(1, 8))
    assert pairing.games == ((1, 4), (2, 5), (3, 6))
    assert pairing.bye == 7


def test_absent_players_are_simply_not_paired() -> None:
    pairing = pair_rapid_round(field(6), [1, 2, 4, 5])
    assert sorted(p for g in pairing.games for p in g) == [1, 2, 4, 5]
    assert pairing.bye is None


def test_bye_goes_to_the_lowest_score_group_player_without_a_bye() -> None:
    t = field(5)
    t = t.with_round({
        1: RoundResult.game(3, 2, max_points=2), 3: RoundResult.game(1, 0, max_points=2),
        2: RoundResult.game(4, 2, max_points=2), 4: RoundResult.game(2, 0, max_points=2),
        5: RoundResult.bye(Kind.PAIRING_BYE, 2),
    })
    pairing = pair_rapid_round(t, range(1, 6))
    assert pairing.bye == 4  # 3 and 4 are on 0; 4 is lower rated; 5 had the bye
    assert not pairing.notes


def test_unavoidable_rematch_is_paired_and_reported() -> None:
    t = field(2).with_round({1: RoundResult.game(2, 1, max_points=2), 2: RoundResult.game(1, 1, max_points=2)})
    pairing = pair_rapid_round(t, [1, 2])
    assert pairing.games == ((1, 2),)
    assert pairing.notes == ("rematch 1-2: no pairing without one exists",)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 9), seed=st.integers(0, 10**6))
def test_rapid_rounds_are_complete_without_avoidable_rematches_or_second_byes(n: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    t = field(n)
    for _ in range(rounds):
        present = sorted(p for p in range(1, n + 1) if rng.random() > 0.15)
        pairing = pair_rapid_round(t, present)
        check_round(t, present, pairing)
        t = play(t, pairing, rng)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(18, 26), seed=st.integers(0, 10**6))
def test_nine_rapid_rounds_with_everyone_present_never_rematch_and_give_at_most_one_bye(n: int, seed: int) -> None:
    """From 18 players on, 9 rounds can always be completed (Dirac: after 8 rounds everyone
    still has at least half the field as possible opponents); smaller fields are covered
    round by round against the brute force above."""
    rng = random.Random(seed)
    t = field(n)
    for _ in range(9):
        pairing = pair_rapid_round(t, range(1, n + 1))
        assert not pairing.notes
        t = play(t, pairing, rng)
    assert max(byes_of(t).values()) <= 1
    games = [frozenset((e.number, r.opponent)) for e in t.entrants for r in e.results if r.played]
    assert len(games) == 2 * len(set(games))  # each pair met at most once


def test_pairing_keeps_score_groups_together_when_it_can() -> None:
    t = field(8).with_round({
        **{p: RoundResult.game(p + 4, 2, max_points=2) for p in range(1, 5)},
        **{p + 4: RoundResult.game(p, 0, max_points=2) for p in range(1, 5)},
    })
    pairing = pair_rapid_round(t, range(1, 9))
    scores = t.scores()
    assert all(scores[a] == scores[b] for a, b in pairing.games)
    assert set(pairing.games) == {(1, 3), (2, 4), (5, 7), (6, 8)}
