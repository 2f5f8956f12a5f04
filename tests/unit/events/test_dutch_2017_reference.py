"""The Dutch system's 2017 edition (py4swiss) against bbpPairings 5.0.1, the last release
of that edition, on 30 random tournaments, 159 rounds (tests/data/dutch/bbp5-2017.json)."""

from __future__ import annotations

from competition.events.engine.dutch import pair_blitz_round
from tests.unit.events.dutch_generated import replayed_rounds
from tests.unit.events.dutch_reference import disagreements


def test_the_2017_edition_pairs_the_recorded_rounds_as_bbppairings_5() -> None:
    rounds, differ = disagreements("bbp5-2017.json", "2017")
    assert rounds >= 150
    assert len(differ) <= rounds // 100, "\n".join(differ)


def _replayed(index: int, number: int) -> tuple[list[tuple[int, int]], int | None, list[tuple[int, int]], int | None]:
    """Round ``number`` of generated tournament ``index`` (2017): ours, then bbpPairings 5.0.1's."""
    r = next(r for r in replayed_rounds("2017", index) if r.number == number)
    p = pair_blitz_round(r.before, r.present, r.total_rounds, edition="2017", first_white=r.first_white)
    return sorted(p.games), p.bye, r.games, r.bye


def test_c7_counts_the_last_brackets_pairs_with_a_legal_bye_downfloaters_that_cannot_complete() -> None:
    """C.7 (2017) when the following bracket is the last: its pairs are those of a pairing
    with the bye to a player who may have it (C.2). Round 6 of generated tournament 765: the
    2-point bracket (MDP 5; 4, 6, 9, 10) sends one player down to 8 and 11 (1½), 11 and 9
    having had a pairing-allocated bye, 9 and 11 having met. Sending 9 (5-6, 4-10) seemed to
    give a pair there, 9-8, but only by leaving 11 the bye: the round cannot be completed so,
    and the brackets below were collapsed (A.9), where C.7 does not apply, and 6 went down
    and got the bye. Sending 4 (5-9, 6-10) pairs 4-11 and gives 8 the bye: no collapse."""
    ours, bye, reference, reference_bye = _replayed(765, 6)
    assert (ours, bye) == (reference, reference_bye)
    assert ours == [(2, 3), (5, 9), (7, 1), (10, 6), (11, 4)] and bye == 8


def test_c7_counts_the_last_brackets_psd_with_a_legal_bye() -> None:
    """C.7 (2017) when the following bracket is the last, the PSD of that bracket (A.8) as
    it must be paired, the bye to a player who may have it. Round 6 of generated tournament
    454: sending 22 (18-24 paired) seemed to pair him with 23 in the last bracket (20, 23;
    20 had a pairing-allocated bye), leaving 20 the bye he may not have; paired as it must
    be, 20-23, 22 gets the bye, the PSD 1½ and 0. Sending 24 (18-22 paired) gives 24-20
    and 23 the bye, the PSD 1 and ½, which is lower."""
    ours, bye, reference, reference_bye = _replayed(454, 6)
    assert (ours, bye) == (reference, reference_bye)
    assert (18, 22) in ours and (20, 24) in ours and bye == 23
