"""Unplayed rounds in the tie-breaks (C.07 Art. 16), category by category, as FIDE's
tie-break calculator counts them; and properties over random Swiss files (docs/swiss.md,
"Unplayed rounds")."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from competition.events.engine import trf
from competition.events.engine.tiebreaks import (
    Entrant,
    Kind,
    RoundResult,
    Tournament,
    adjusted_scores,
    tiebreak,
)

F = Fraction
A, B, C, D = 1, 2, 3, 4


def _smallest(d_round_2: str) -> Tournament:
    """4 players, 2 rounds. Round 1: A beats B, C beats D. Round 2: A beats C; D's round
    is ``d_round_2`` (against B where it has an opponent)."""
    g = RoundResult.game
    r1 = {A: g(B, 1, "w"), B: g(A, 0, "b"), C: g(D, 1, "w"), D: g(C, 0, "b")}
    r2 = {A: g(C, 1, "w"), C: g(A, 0, "b")}
    if d_round_2 == "forfeit_loss":
        r2 |= {B: RoundResult.forfeit(D, won=True, colour="w"), D: RoundResult.forfeit(B, won=False, colour="b")}
    elif d_round_2 == "forfeit_win":
        r2 |= {B: RoundResult.forfeit(D, won=False, colour="w"), D: RoundResult.forfeit(B, won=True, colour="b")}
    elif d_round_2 == "double_forfeit":
        r2 |= {B: RoundResult.forfeit(D, won=False, colour="w"), D: RoundResult.forfeit(B, won=False, colour="b")}
    elif d_round_2 == "played_loss":
        r2 |= {B: g(D, 1, "w"), D: g(B, 0, "b")}
    else:
        kind = Kind(d_round_2)
        other = Kind.PAIRING_BYE if kind is not Kind.PAIRING_BYE else Kind.ZERO_BYE
        r2 |= {B: RoundResult.bye(other), D: RoundResult.bye(kind)}
    return Tournament(tuple(Entrant(n, (r1[n], r2[n])) for n in (A, B, C, D)))


def test_issue_smallest_case_a_forfeit_after_the_last_played_round_is_a_loss_for_the_forfeiter() -> None:
    # C beats D in round 1, D forfeits round 2: FIDE's calculator gives C BH 2 and SB 0.
    t = _smallest("forfeit_loss")
    assert tiebreak(t, "BH")[C] == 2
    assert tiebreak(t, "SB")[C] == 0
    assert tiebreak(t, "BH", rules="2026")[C] == 2
    assert tiebreak(t, "SB", rules="2026")[C] == 0
    assert adjusted_scores(t)[D] == 0


@pytest.mark.parametrize(
    ("category", "seen_by_opponents"),
    [
        ("played_loss", F(0)),
        ("forfeit_loss", F(0)),  # has an opponent: its real points, also after the last game
        ("double_forfeit", F(0)),
        ("forfeit_win", F(1)),
        (Kind.PAIRING_BYE.value, F(1)),
        (Kind.FULL_BYE.value, F(1)),
        (Kind.HALF_BYE.value, F(1, 2)),  # no opponent, after the last game: a draw
        (Kind.ZERO_BYE.value, F(1, 2)),  # absent after his last game: a draw, not a loss
    ],
)
def test_each_category_after_the_last_played_round_as_the_opponents_see_it(
    category: str, seen_by_opponents: Fraction
) -> None:
    t = _smallest(category)
    assert adjusted_scores(t)[D] == seen_by_opponents
    # C's only other opponent is A (2 points); C lost to A, so SB = D's value x 1.
    assert tiebreak(t, "BH")[C] == 2 + seen_by_opponents
    assert tiebreak(t, "SB")[C] == seen_by_opponents


@pytest.mark.parametrize(
    ("kind", "real"), [(Kind.ZERO_BYE, F(0)), (Kind.HALF_BYE, F(1, 2)), (Kind.FULL_BYE, F(1))]
)
def test_a_bye_before_the_last_played_round_keeps_its_real_points(kind: Kind, real: Fraction) -> None:
    # D has the bye in round 1 and loses to C in round 2: his bye counts what it scored.
    g = RoundResult.game
    r1 = {A: g(B, 1, "w"), B: g(A, 0, "b"), C: RoundResult.bye(Kind.PAIRING_BYE), D: RoundResult.bye(kind)}
    r2 = {A: g(B, 1, "w"), B: g(A, 0, "b"), C: g(D, 1, "w"), D: g(C, 0, "b")}
    t = Tournament(tuple(Entrant(n, (r1[n], r2[n])) for n in (A, B, C, D)))
    assert adjusted_scores(t)[D] == real
    # C's own bye counts against a dummy with C's own final score (2): BH = 2 + D's value.
    assert tiebreak(t, "BH")[C] == 2 + real


# ----------------------------------------------------------------------------------------
# Properties over random Swiss files
# ----------------------------------------------------------------------------------------

GAME_RESULTS = ("1-0", "½-½", "0-1", "+-", "-+", "--")
UNPAIRED = (Kind.HALF_BYE, Kind.ZERO_BYE, Kind.FULL_BYE)
CUT_CODES = ("BH", "BH-C1", "BH-M1", "SB", "SB-C1", "FB", "FB-C1")
RULES = ("2024", "2026")


def _pair(white: int, black: int, result: str) -> tuple[RoundResult, RoundResult]:
    g, f = RoundResult.game, RoundResult.forfeit
    if result == "1-0":
        return g(black, 1, "w"), g(white, 0, "b")
    if result == "½-½":
        return g(black, F(1, 2), "w"), g(white, F(1, 2), "b")
    if result == "0-1":
        return g(black, 0, "w"), g(white, 1, "b")
    return (
        f(black, won=result[0] == "+", colour="w"),
        f(white, won=result[1] == "+", colour="b"),
    )


@st.composite
def swiss_files(draw: st.DrawFn) -> Tournament:
    """A random small Swiss with every category of unplayed round, written as a TRF file
    and read back (so the properties hold for what a file says)."""
    n = draw(st.integers(4, 9))
    rounds = draw(st.integers(2, 5))
    results: dict[int, list[RoundResult]] = {p: [] for p in range(1, n + 1)}
    for _ in range(rounds):
        order = draw(st.permutations(range(1, n + 1)))
        # Most players are paired; some take a half/zero/full bye or are absent.
        away = draw(st.lists(st.sampled_from((None,) * 4 + UNPAIRED), min_size=n, max_size=n))
        paired = [p for p, kind in zip(order, away, strict=True) if kind is None]
        for p, kind in zip(order, away, strict=True):
            if kind is not None:
                results[p].append(RoundResult.bye(kind))
        if len(paired) % 2:
            results[paired.pop()].append(RoundResult.bye(Kind.PAIRING_BYE))
        for white, black in zip(paired[::2], paired[1::2], strict=True):
            w, b = _pair(white, black, draw(st.sampled_from(GAME_RESULTS)))
            results[white].append(w)
            results[black].append(b)
    t = Tournament(tuple(Entrant(p, tuple(r), f"Player {p}") for p, r in results.items()))
    return trf.to_tournament(trf.parse(trf.write(trf.from_tournament(t))))


PROPERTY = hypothesis_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _set_round(t: Tournament, rnd: int, changes: dict[int, RoundResult]) -> Tournament:
    entrants = []
    for e in t.entrants:
        if e.number in changes:
            results = list(e.results)
            results[rnd] = changes[e.number]
            e = replace(e, results=tuple(results))
        entrants.append(e)
    return Tournament(tuple(entrants))


def _all(t: Tournament) -> dict[tuple[str, str], dict[int, Fraction]]:
    return {(code, rules): tiebreak(t, code, rules) for code in CUT_CODES for rules in RULES}


@PROPERTY
@given(swiss_files())
def test_a_forfeit_loss_counts_for_the_forfeiters_opponents_as_a_lost_game(t: Tournament) -> None:
    """Wherever it falls (before or after his last played round), a one-sided forfeit
    counts in everybody else's BH/SB/FB exactly as the same game lost over the board
    (where that game leaves the rest of his rounds counting as they did)."""
    before = _all(t)
    for e in t.entrants:
        for rnd, r in enumerate(e.results):
            if r.kind is not Kind.FORFEIT_LOSS or r.opponent is None:
                continue
            winner = t.entrant(r.opponent).results[rnd]
            if winner.kind is not Kind.FORFEIT_WIN:
                continue  # a double forfeit has no over-the-board equivalent
            last = _last_not_vur(e)
            if any(e.results[i].opponent is None for i in range(last + 1, rnd)):
                # A game in round rnd would make his earlier trailing byes count what they
                # scored (they are no longer after his last round that was not a VUR).
                continue
            played = _set_round(t, rnd, {
                e.number: RoundResult.game(r.opponent, 0, r.colour),
                r.opponent: RoundResult.game(e.number, 1, winner.colour),
            })
            after = _all(played)
            for key, values in before.items():
                for n, value in values.items():
                    if n not in (e.number, r.opponent):
                        assert after[key][n] == value, (key, n, rnd + 1)


def _last_not_vur(e: Entrant) -> int:
    return max((i for i, r in enumerate(e.results) if not r.is_vur), default=-1)


@PROPERTY
@given(swiss_files())
def test_adjusted_score_changes_only_trailing_rounds_without_an_opponent_into_draws(t: Tournament) -> None:
    adjusted = adjusted_scores(t)
    for e in t.entrants:
        last = _last_not_vur(e)
        trailing = [r for i, r in enumerate(e.results) if i > last and r.opponent is None]
        expected = e.score + sum((F(1, 2) - r.points for r in trailing), F(0))
        assert adjusted[e.number] == expected
        assert adjusted[e.number] >= e.score  # a withdrawal never drags his opponents down
        if not trailing:  # his last round counts (played, forfeit either way, U, F)
            assert adjusted[e.number] == e.score


@PROPERTY
@given(swiss_files())
def test_a_trailing_zero_bye_and_a_trailing_half_bye_weigh_the_same_for_the_opponents(t: Tournament) -> None:
    # Not FB: it turns a last-round pairing into a game, which moves the last round that
    # was not a VUR (and so which byes trail).
    before = {key: v for key, v in _all(t).items() if not key[0].startswith("FB")}
    for e in t.entrants:
        last = _last_not_vur(e)
        for rnd in range(last + 1, t.rounds):
            r = e.results[rnd]
            if r.kind not in (Kind.ZERO_BYE, Kind.HALF_BYE):
                continue
            swapped = Kind.HALF_BYE if r.kind is Kind.ZERO_BYE else Kind.ZERO_BYE
            after = _all(_set_round(t, rnd, {e.number: RoundResult.bye(swapped)}))
            for key, values in before.items():
                for n, value in values.items():
                    if n != e.number:
                        assert after[key][n] == value, (key, n, rnd + 1)


@PROPERTY
@given(swiss_files())
def test_own_unplayed_rounds_count_a_dummy_with_the_own_score_and_2026_caps_it(t: Tournament) -> None:
    adjusted = adjusted_scores(t)
    bh24, bh26 = tiebreak(t, "BH", "2024"), tiebreak(t, "BH", "2026")
    sb24, sb26 = tiebreak(t, "SB", "2024"), tiebreak(t, "SB", "2026")
    half_max = F(t.rounds, 2)
    for e in t.entrants:
        real = [adjusted[r.opponent] for r in e.results if r.played and r.opponent is not None]
        unplayed = [r for r in e.results if not r.played]
        assert bh24[e.number] == sum(real, F(0)) + len(unplayed) * e.score
        caps = [min(e.score, adjusted[r.opponent] if r.opponent is not None else half_max) for r in unplayed]
        assert bh26[e.number] == sum(real, F(0)) + sum(caps, F(0))
        assert bh26[e.number] <= bh24[e.number] and sb26[e.number] <= sb24[e.number]
        sb_real = sum(
            (adjusted[r.opponent] * r.points for r in e.results if r.played and r.opponent is not None), F(0)
        )
        assert sb24[e.number] == sb_real + sum((e.score * r.points for r in unplayed), F(0))


@PROPERTY
@given(swiss_files())
def test_a_low_cut_takes_a_vur_first(t: Tournament) -> None:
    bh, c1, m1 = (tiebreak(t, code, "2024") for code in ("BH", "BH-C1", "BH-M1"))
    adjusted = adjusted_scores(t)
    for e in t.entrants:
        assert m1[e.number] <= c1[e.number] <= bh[e.number]
        if any(r.is_vur for r in e.results):
            assert bh[e.number] - c1[e.number] == e.score  # the VUR's dummy goes
        else:
            values = [adjusted[r.opponent] if r.played and r.opponent else e.score for r in e.results]
            assert bh[e.number] - c1[e.number] == min(values)


@PROPERTY
@given(swiss_files(), st.data())
def test_fore_buchholz_ignores_how_the_last_round_went(t: Tournament, data: st.DataObject) -> None:
    last = t.rounds - 1
    before = {rules: tiebreak(t, "FB", rules) for rules in RULES}
    pairs = {
        tuple(sorted((e.number, e.results[last].opponent)))
        for e in t.entrants
        if e.results[last].opponent is not None
    }
    changes: dict[int, RoundResult] = {}
    for white, black in sorted(pairs):
        w, b = _pair(white, black, data.draw(st.sampled_from(GAME_RESULTS)))
        changes |= {white: w, black: b}
    changed = _set_round(t, last, changes)
    for rules in RULES:
        assert tiebreak(changed, "FB", rules) == before[rules]


# A random file on which FIDE's calculator and we once differed (scripts/compare_tiebreaks.py):
# player 7 (3 points) has a half-point bye in round 1 and a forfeit loss against 4 in round 3.
CALCULATOR_CASE = """012 Random
XXR 5
001    1      Player 1                                                           2.0          4 w 0  0000 - U  0000 - Z     4 b +     2 w -
001    2      Player 2                                                           2.5       0000 - U     3 w 0  0000 - H     7 b 0     1 b +
001    3      Player 3                                                           3.5          6 b +     2 b 1  0000 - U  0000 - Z     4 w =
001    4      Player 4                                                           3.5          1 b 1     5 b 1     7 b +     1 w -     3 b =
001    5      Player 5                                                           1.5       0000 - Z     4 w 0  0000 - H     6 w +  0000 - Z
001    6      Player 6                                                           1.0          3 w -     7 w 0  0000 - H     5 b -     7 b =
001    7      Player 7                                                           3.0       0000 - H     6 b 1     4 w -     2 w 1     6 w =
"""


def test_2026_low_cut_takes_the_vur_with_the_lowest_capped_score_as_fides_calculator() -> None:
    # 2026: the H round's dummy is capped at 5 / 2 = 2.5 (SB value 1.25), the forfeit's at
    # min(3, 4's adjusted 3.5) = 3 (SB value 0). The calculator cuts the VUR with the lowest
    # score, the H round: SB 21/4 - 5/4 = 4 (not 21/4, cutting the forfeit's 0).
    t = trf.to_tournament(trf.parse(CALCULATOR_CASE))
    assert tiebreak(t, "SB", rules="2026")[7] == F(21, 4)
    assert tiebreak(t, "SB-C1", rules="2026")[7] == 4
    # 2024: both dummies have his own score 3, so the VUR to cut is the forfeit (0); the least
    # significant real opponent (score 1, a draw: ½) contributes more, so he goes: 11/2 - ½.
    assert tiebreak(t, "SB", rules="2024")[7] == F(11, 2)
    assert tiebreak(t, "SB-C1", rules="2024")[7] == 5
