"""Blitz championship pairing: FIDE Dutch system through py4swiss (docs/rules.md 8, C.04.3)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.events.engine.dutch import pair_blitz_round, propose_rounds
from competition.events.engine.tiebreaks import Entrant, Kind, RoundPairing, RoundResult, Tournament

GAME_SCORES = [Fraction(0), Fraction(1, 2), Fraction(1)]


def field(n: int) -> Tournament:
    return Tournament(tuple(Entrant(i, (), f"P{i}", 2200 - 20 * i) for i in range(1, n + 1)))


def play(t: Tournament, pairing: RoundPairing, rng: random.Random) -> Tournament:
    results = {e.number: RoundResult.bye(Kind.ZERO_BYE) for e in t.entrants}
    for white, black in pairing.games:
        s = rng.choice(GAME_SCORES)
        results[white] = RoundResult.game(black, s, "w")
        results[black] = RoundResult.game(white, 1 - s, "b")
    if pairing.bye is not None:
        results[pairing.bye] = RoundResult.bye(Kind.PAIRING_BYE)
    return t.with_round(results)


def colours(t: Tournament, number: int) -> str:
    return "".join(r.colour or "" for r in t.entrant(number).results if r.played)


def test_first_round_is_top_half_against_bottom_half_with_alternating_colours() -> None:
    pairing = pair_blitz_round(field(8), range(1, 9), total_rounds=5)
    assert pairing.games == ((1, 5), (6, 2), (3, 7), (8, 4))
    assert pairing.bye is None


def test_odd_field_gives_the_lowest_player_the_bye() -> None:
    assert pair_blitz_round(field(7), range(1, 8), total_rounds=5).bye == 7


def test_absent_player_is_not_paired() -> None:
    pairing = pair_blitz_round(field(8), [1, 2, 3, 4, 5, 6, 7], total_rounds=5)
    assert 8 not in {p for g in pairing.games for p in g} and pairing.bye != 8
    assert pairing.bye == 7


def test_start_numbers_need_not_be_consecutive() -> None:
    t = Tournament(tuple(Entrant(n, (), f"P{n}", 2000 - n) for n in (10, 20, 30, 40)))
    pairing = pair_blitz_round(t, (10, 20, 30, 40), total_rounds=3)
    assert pairing.games == ((10, 30), (40, 20))


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(0, 0), (1, 0), (2, 1), (4, 2), (6, 3), (8, 4), (10, 5), (16, 6), (20, 7), (33, 8), (64, 8), (200, 10), (2000, 11)],
)
def test_propose_rounds_is_log2_plus_two_capped_at_half_the_field_and_eleven(players: int, rounds: int) -> None:
    assert propose_rounds(players) == rounds


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 16), seed=st.integers(0, 10**6))
def test_dutch_rounds_keep_the_absolute_rules(n: int, seed: int) -> None:
    """No rematch, at most one bye, no three equal colours in a row, colour difference within 2."""
    rng = random.Random(seed)
    rounds = propose_rounds(n)
    t = field(n)
    for _ in range(rounds):
        # total_rounds one beyond: the topscorer exceptions of the last round stay out.
        pairing = pair_blitz_round(t, range(1, n + 1), total_rounds=rounds + 1)
        everyone = [p for g in pairing.games for p in g] + ([pairing.bye] if pairing.bye else [])
        assert sorted(everyone) == list(range(1, n + 1))
        t = play(t, pairing, rng)
    pairs = [frozenset((e.number, r.opponent)) for e in t.entrants for r in e.results if r.played]
    assert len(pairs) == 2 * len(set(pairs))
    for e in t.entrants:
        assert sum(r.kind is Kind.PAIRING_BYE for r in e.results) <= 1
        seq = colours(t, e.number)
        assert "www" not in seq and "bbb" not in seq
        assert abs(seq.count("w") - seq.count("b")) <= 2


def test_an_absent_player_never_paired_has_no_pairing_number() -> None:
    # Round 2: 1 was absent in both rounds, 2 and 3 had a half-point bye in round 1 (no
    # colour preference, so E.5: the higher ranked player's pairing number decides). As
    # bbpPairings numbers them (5.0.1 and 6.0.0 alike), 1 gets no pairing number: 2 is
    # number 1 (odd) and has white, in both editions (generated-2017: tournament 700
    # round 2; generated-2026: tournaments 652 and 697, round 2).
    results = {
        1: RoundResult.bye(Kind.ZERO_BYE), 2: RoundResult.bye(Kind.HALF_BYE), 3: RoundResult.bye(Kind.HALF_BYE),
        4: RoundResult.game(6, Fraction(1), "w"), 6: RoundResult.game(4, Fraction(0), "b"),
        7: RoundResult.game(5, Fraction(0), "w"), 5: RoundResult.game(7, Fraction(1), "b"),
    }
    t = field(7).with_round(results)
    for edition in ("2026", "2017"):
        assert pair_blitz_round(t, range(2, 8), total_rounds=4, edition=edition).games == ((5, 4), (2, 3), (6, 7))
