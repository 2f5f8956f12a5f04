"""The articles of C.04.3 (FIDE Dutch system) that the 2026 edition changed, each on a small
position where it decides the pairing (docs/swiss.md, "Dutch editions"). Every expected
pairing is the one bbpPairings gives: 6.0.0 for the 2026 edition, 5.0.1 for the 2017 one."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from competition.events.engine.dutch import edition_for, pair_blitz_round
from competition.events.engine.tiebreaks import Entrant, Kind, RoundResult, Tournament
from tests.unit.events.dutch_generated import replayed_rounds

POINTS = {"1-0": Fraction(1), "½-½": Fraction(1, 2), "0-1": Fraction(0)}


def position(n: int, rounds: list[dict[object, str]]) -> Tournament:
    """Players 1..n (rated in that order); a round maps ``(white, black)`` to ``"1-0"``,
    ``"½-½"``, ``"0-1"`` and a player's number to a bye: ``U`` (pairing-allocated), ``F``
    (full point), ``H`` (half point) or ``Z`` (absent)."""
    t = Tournament(tuple(Entrant(i, (), f"P{i}", 2000 - 10 * i) for i in range(1, n + 1)))
    byes = {"U": Kind.PAIRING_BYE, "F": Kind.FULL_BYE, "H": Kind.HALF_BYE, "Z": Kind.ZERO_BYE}
    for rnd in rounds:
        results: dict[int, RoundResult] = {}
        for key, value in rnd.items():
            if isinstance(key, tuple):
                white, black = key
                results[white] = RoundResult.game(black, POINTS[value], "w")
                results[black] = RoundResult.game(white, 1 - POINTS[value], "b")
            else:
                assert isinstance(key, int)
                results[key] = RoundResult.bye(byes[value])
        t = t.with_round(results)
    return t


def pairing(t: Tournament, present: list[int], total: int, edition: str) -> tuple[list[tuple[int, int]], int | None]:
    p = pair_blitz_round(t, present, total, edition=edition)  # type: ignore[arg-type]
    return sorted(p.games), p.bye


def test_a_full_point_bye_takes_away_the_pairing_allocated_bye_from_2026() -> None:
    """C.04.1 f / C.2 (2026): who already scored a win's points without playing (here player
    4's full-point bye of round 1) gets no pairing-allocated bye; in 2017 only a PAB or a
    forfeit win counted, and player 4, the lowest of the lowest group, had it."""
    t = position(5, [
        {(1, 2): "0-1", 3: "U", 4: "F", 5: "H"},
        {(3, 4): "½-½", (2, 5): "0-1", 1: "U"},
        {(4, 1): "0-1", (5, 3): "0-1", 2: "U"},
    ])
    everybody = [1, 2, 3, 4, 5]
    assert pairing(t, everybody, 4, "2026") == ([(3, 1), (4, 2)], 5)
    assert pairing(t, everybody, 4, "2017") == ([(1, 5), (3, 2)], 4)


def test_an_absence_is_no_downfloat_from_2026() -> None:
    """A.4 b (2026): a round not played is a downfloat only when it scored points. Player 5
    was absent in round 2 (a zero): in 2017 that was a downfloat, so C.14 kept him from
    floating again and player 1 went down instead; from 2026 player 5 floats."""
    t = position(6, [
        {(1, 3): "0-1", (4, 2): "1-0", 5: "U", 6: "Z"},
        {(6, 1): "½-½", (3, 4): "1-0", 2: "F", 5: "Z"},
    ])
    everybody = [1, 2, 3, 4, 5, 6]
    assert pairing(t, everybody, 4, "2026") == ([(1, 5), (2, 3), (4, 6)], None)
    assert pairing(t, everybody, 4, "2017") == ([(2, 1), (4, 6), (5, 3)], None)


def test_the_bye_goes_to_the_lowest_score_possible_from_2026() -> None:
    """C.5 (new in 2026): minimise the score of the bye assignee. Only player 6 (0 points)
    can take the bye if players 1 and 3 both float down; in 2017 fewer and lower
    downfloaters came first, and player 5 (1 point) got the bye. bbpPairings' own test of
    the article (dutch_2025_C5)."""
    t = position(6, [
        {(1, 4): "1-0", (5, 2): "0-1", (3, 6): "1-0"},
        {(4, 3): "0-1", (2, 1): "0-1", (6, 5): "0-1"},
    ])
    present = [1, 2, 3, 5, 6]
    assert pairing(t, present, 3, "2026") == ([(1, 5), (3, 2)], 6)
    assert pairing(t, present, 3, "2017") == ([(1, 3), (6, 2)], 5)


def test_the_bye_goes_to_a_player_with_the_most_games_played_from_2026() -> None:
    """C.9 (new in 2026): minimise the unplayed games of the bye assignee. Players 3, 4 and
    5 have 0 points; 5 was absent in round 1, so the bye goes to 4, the lowest of those who
    played every round (bbpPairings' test dutch_2025_C9). The 2017 edition gives 4 the bye
    too, for another reason: 5's absence was a downfloat then, and the bye is one."""
    t = position(5, [{(1, 3): "1-0", (4, 2): "0-1", 5: "Z"}])
    everybody = [1, 2, 3, 4, 5]
    assert pairing(t, everybody, 3, "2026") == ([(2, 1), (3, 5)], 4)


def test_no_bracket_collapses_from_2026_the_completion_of_the_round_comes_first() -> None:
    """C.4 / A.9 (2026, as bbpPairings 6 applies it): every bracket is paired with the
    completion of the round built in, over all the players below at once, and no bracket is
    collapsed into the next. Round 5 of generated tournament 659 (10 players, all present):
    in 2017 the 2½ bracket sends 2 down for the next bracket's sake (C.7, a pair with 6
    there), but that bracket's downfloaters then leave the round incomplete, the brackets
    below it are collapsed (A.9) and 2 meets 9; from 2026, 2 and 6 can meet only in a round
    that cannot be completed, the next bracket's criterion weighs nothing, the colours
    (C.12) pair 2 with 5 and 1 floats. Both pairings are bbpPairings' (6.0.0 and 5.0.1)."""
    r = next(r for r in replayed_rounds("2026", 659) if r.number == 5)

    def paired(edition: str) -> list[tuple[int, int]]:
        p = pair_blitz_round(r.before, r.present, r.total_rounds, edition=edition,  # type: ignore[arg-type]
                             first_white=r.first_white)
        assert p.bye is None
        return sorted(p.games)

    assert paired("2026") == r.games == [(2, 5), (3, 7), (4, 6), (8, 10), (9, 1)]
    assert paired("2017") == [(1, 5), (2, 9), (3, 7), (4, 6), (8, 10)]


@pytest.mark.parametrize(
    ("date", "edition"),
    [(None, "2026"), (dt.date(2025, 12, 19), "2017"), (dt.date(2026, 1, 31), "2017"),
     (dt.date(2026, 2, 1), "2026"), (dt.date(2026, 12, 4), "2026")],
)
def test_the_edition_in_force_on_the_event_date(date: dt.date | None, edition: str) -> None:
    assert edition_for(date) == edition


def test_an_unknown_edition_is_refused() -> None:
    with pytest.raises(ValueError, match="edition"):
        pair_blitz_round(position(2, []), [1, 2], 1, edition="2024")  # type: ignore[arg-type]
