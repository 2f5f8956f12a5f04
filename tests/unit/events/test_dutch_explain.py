"""Why a Dutch round was paired so (``explain.explain_round``, docs/swiss.md "Why this
pairing"): hand-made positions for every kind of reason, and the generated tournaments
(tests/data/dutch) replayed through the explanation: the same pairing as published, every
pair and every floater explained, no alternative ever better than the choice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.events.engine.dutch import Edition, pair_blitz_round
from competition.events.engine.explain import (
    TOPICS_2017,
    TOPICS_2026,
    BracketReport,
    Candidate,
    Reason,
    RoundExplanation,
    explain_round,
)
from competition.events.engine.tiebreaks import Entrant, Kind, RoundResult, Tournament
from tests.unit.events.dutch_generated import generated, replayed_rounds

HALF = Fraction(1, 2)
ORDER = Reason("order", "D")
ALONE = Reason("alone")

Game = tuple[int, int, Fraction | int]  # white, black, white's points


def tournament(n: int, rounds: list[list[Game]], byes: dict[int, int] | None = None) -> Tournament:
    """``n`` players rated in start order; in each round the games given, the player in
    ``byes`` (round index -> player) the pairing-allocated bye, everyone else absent."""
    results: dict[int, list[RoundResult]] = {i: [] for i in range(1, n + 1)}
    for r, games in enumerate(rounds):
        got: dict[int, RoundResult] = {}
        for white, black, points in games:
            got[white] = RoundResult.game(black, Fraction(points), "w")
            got[black] = RoundResult.game(white, 1 - Fraction(points), "b")
        if byes and r in byes:
            got[byes[r]] = RoundResult.bye(Kind.PAIRING_BYE)
        for number, row in results.items():
            row.append(got.get(number, RoundResult.bye(Kind.ZERO_BYE)))
    return Tournament(tuple(Entrant(i, tuple(row), f"P{i}", 2200 - 10 * i) for i, row in results.items()))


def explain(t: Tournament, edition: Edition = "2026", player: int | None = None) -> RoundExplanation:
    return explain_round(t, [e.number for e in t.entrants], 7, edition, player=player)


def candidates(e: RoundExplanation) -> dict[int, Candidate]:
    assert e.player is not None
    return {c.opponent: c for c in e.player.candidates}


def test_round_one_is_one_bracket_paired_in_the_order_of_d() -> None:
    e = explain(tournament(8, []))
    assert e.pairing.games == ((1, 5), (6, 2), (3, 7), (8, 4))
    (bracket,) = e.brackets
    assert bracket == BracketReport(Fraction(0), (), tuple(range(1, 9)), False, True, True, bracket.pairs, ())
    assert [(p.white, p.black, p.reason) for p in bracket.pairs] == [
        (1, 5, ORDER), (6, 2, ORDER), (3, 7, ORDER), (8, 4, ORDER)
    ]


@pytest.mark.parametrize("edition", ["2017", "2026"])
def test_the_bye_of_an_odd_first_round_is_the_order_s(edition: Edition) -> None:
    e = explain(tournament(7, []), edition, player=7)
    assert e.pairing.bye == 7 and e.bye_score == 0
    (bracket,) = e.brackets
    assert [(f.player, f.bye, f.reason) for f in bracket.floats] == [(7, True, ORDER)]
    assert e.player is not None and e.player.score == 0
    assert {c.opponent: c.reason for c in e.player.candidates} == dict.fromkeys(range(1, 7), ORDER)


def test_the_asked_player_sees_every_opponent_of_his_bracket_and_what_kept_them_apart() -> None:
    # After two draws each, 1 and 2 had white twice (both must have black: C.3); 1 met 5 and 7.
    t = tournament(8, [
        [(1, 5, HALF), (2, 6, HALF), (3, 7, HALF), (4, 8, HALF)],
        [(1, 7, HALF), (2, 8, HALF), (5, 3, HALF), (6, 4, HALF)],
    ])
    e = explain(t, player=1)
    assert (8, 1) in e.pairing.games
    got = candidates(e)
    assert got[8] == Candidate(8, True, None)
    assert got[2].reason == Reason("colour", "C.3")
    assert got[5].reason == got[7].reason == Reason("played", "C.1")
    # 6 had black then white: his preference for black (no colour difference, the last
    # game's colour alternates) clashes with 1's; the first criterion that tells is C.12.
    assert got[6].reason == Reason("criterion", "C.12", "colour_preference")
    assert got[3].reason == got[4].reason == ORDER
    assert set(got) == set(range(2, 9))


@pytest.mark.parametrize(("edition", "decided"), [
    ("2017", Reason("criterion", "C.5", "pairs")), ("2026", Reason("complete", "C.4")),
])
def test_a_downfloater_who_met_everyone_is_alone_and_the_pairs_count_first(edition: Edition, decided: Reason) -> None:
    # 1 won twice (against 3 and 2): nobody of 1 point may meet him, so he floats down to 4.
    t = tournament(4, [[(1, 3, 1), (2, 4, 1)], [(2, 1, 0), (4, 3, 0)]])
    e = explain(t, edition, player=1)
    assert e.pairing.games == ((1, 4), (3, 2))
    top, middle, last = e.brackets
    assert (top.score, top.residents, top.floats[0].reason) == (2, (1,), ALONE)
    assert (middle.score, middle.mdps, middle.residents) == (1, (1,), (2, 3))
    # without 3-2 the bracket makes no pair at all: the number of pairs (C.5) decided; in
    # 2026 every bracket is paired with the completion of the round first, and without
    # 3-2 the round cannot be completed (2 and 3 met 4): C.4 decided
    assert middle.pairs[0].reason == decided
    assert middle.floats[0].reason == ALONE
    assert last.last and last.pairs[0].reason == Reason("complete", "C.4")
    assert e.player is not None and candidates(e) == {4: Candidate(4, True, None)}


@pytest.mark.parametrize("edition", ["2017", "2026"])
def test_the_only_player_without_a_bye_gets_it_c2(edition: Edition) -> None:
    # 3 and 5 had the bye; the bye of round 3 can only be 4's (of the lowest score)
    t = tournament(5, [[(1, 4, 1), (2, 5, 1)], [(1, 2, HALF), (4, 3, 1)]], byes={0: 3, 1: 5})
    e = explain(t, edition, player=4)
    assert e.pairing.bye == 4
    last = e.brackets[-1]
    assert last.last and last.mdps == (1, 2) and last.residents == (3, 4, 5)
    (float_,) = last.floats
    assert float_.player == 4 and float_.bye
    if edition == "2026":
        assert float_.reason == Reason("bye", "C.2")
    else:
        # 2017 lets 1 (1½) take the bye instead; his higher score is what it costs (C.6)
        assert float_.reason == Reason("criterion", "C.6", "psd")


def test_2026_the_bye_goes_to_the_lowest_score_c5_then_to_the_fewest_unplayed_games_c9() -> None:
    # 5 was absent in round 1: 2 and 5 have 0, 3 (½) comes down to them as the bye's last bracket
    t = tournament(5, [[(1, 2, 1), (3, 4, HALF)]])
    e = explain(t, "2026", player=2)
    assert e.pairing.bye == 2 and (5, 3) in e.pairing.games
    got = candidates(e)
    assert got[5].reason == Reason("bye", "C.5")  # 2-5 would leave 3 (½) the bye
    assert got[3].reason == Reason("criterion", "C.9", "bye_unplayed_games")  # 5 has one unplayed
    e2017 = explain(t, "2017", player=2)
    assert e2017.pairing.bye == 2
    assert candidates(e2017)[5].reason == Reason("criterion", "C.6", "psd")
    # 2017 has no C.9: that 5 was absent counts as a downfloat in the round before (C.12)
    assert candidates(e2017)[3].reason == Reason("criterion", "C.12", "downfloat_previous")


def test_an_absent_or_unknown_player_cannot_be_asked_about() -> None:
    t = tournament(6, [])
    with pytest.raises(ValueError, match="player 6 is not paired in this round"):
        explain_round(t, [1, 2, 3, 4, 5], 5, player=6)
    with pytest.raises(ValueError, match="player 9 is not paired in this round"):
        explain_round(t, range(1, 7), 5, player=9)


def test_the_topics_follow_each_edition_s_numbering() -> None:
    assert len(TOPICS_2017) == 15 and TOPICS_2017[0] == "pairs" and TOPICS_2017[-1] == "upfloat_two_before_score"
    assert TOPICS_2026[3] == "bye_unplayed_games" and TOPICS_2026[4:] == TOPICS_2017[3:]


# ---------------------------------------------------------------------------
# the generated tournaments: fifteen of at most 14 players per edition (some 100 rounds each)

SMALL = {
    edition: [i for i, t in enumerate(generated(edition)) if len(t["players"]) <= 14][:15]
    for edition in ("2017", "2026")
}


@pytest.mark.parametrize("edition", ["2017", "2026"])
def test_every_generated_round_is_explained_and_the_explanation_pairs_as_published(edition: Edition) -> None:
    rounds = collapsed = 0
    kinds: set[str] = set()
    for index in SMALL[edition]:
        for r in replayed_rounds(edition, index):
            e = explain_round(r.before, r.present, r.total_rounds, edition, first_white=r.first_white,
                              player=r.present[-1])
            assert e.pairing == pair_blitz_round(r.before, r.present, r.total_rounds, edition,
                                                 first_white=r.first_white)
            rounds += 1
            paired = [p for b in e.brackets for pair in b.pairs for p in (pair.white, pair.black)]
            assert sorted(paired) == sorted(p for game in e.pairing.games for p in game)
            byes = [f.player for b in e.brackets for f in b.floats if f.bye]
            assert byes == ([e.pairing.bye] if e.pairing.bye is not None else [])
            for before, after in zip(e.brackets, e.brackets[1:], strict=False):
                if not before.completed:
                    # C.4 (2017): its downfloaters left the round incomplete; the bracket is
                    # paired again as the penultimate one, with the brackets below collapsed
                    collapsed += 1
                    assert after.penultimate and after.mdps == before.mdps
                    assert (after.score, after.residents[: len(before.residents)]) == (before.score, before.residents)
                else:
                    moved = {f.player for f in before.floats if not f.bye}
                    assert set(after.mdps) == moved
            reasons = [x.reason for b in e.brackets for x in (*b.pairs, *b.floats)]
            reasons += [c.reason for c in e.player.candidates if c.reason] if e.player else []
            assert Reason("unexplained") not in reasons
            kinds |= {reason.kind for reason in reasons}
    # 2026: every bracket is paired with the completion of the round built in, none collapses
    assert rounds >= 80 and (collapsed > 0 if edition == "2017" else collapsed == 0)
    assert kinds >= {"criterion", "complete", "bye", "order", "played", "alone"}
