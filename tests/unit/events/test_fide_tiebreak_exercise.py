"""FIDE's tie-break exercise (IA Mario Held, C.07 2023): every published value, 2024 rules."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from competition.events.engine import tiebreaks as swiss
from competition.events.engine import trf

# FIDE's exercise with its answers (a copy of ../shared/data, MIT, see its README).
DATA = Path(__file__).resolve().parents[2] / "data" / "fide-tiebreak-exercise"
EXPECTED = json.loads((DATA / "expected.json").read_text())
TOURNAMENT = trf.to_tournament(trf.parse((DATA / "tournament-5-rounds.trf").read_text()))
CODES = ("BH", "BH-C1", "SB", "SB-C1", "FB", "WIN", "WON", "PS")


def _cases(section: str) -> list[tuple[str, int, float]]:
    values = EXPECTED.get(section, {})
    return [(code, int(n), v) for code in CODES for n, v in values.get(code, {}).items()]


@pytest.mark.parametrize(("code", "player", "expected"), _cases("rules_2024"))
def test_exercise_value_under_2024_rules(code: str, player: int, expected: float) -> None:
    assert swiss.tiebreak(TOURNAMENT, code, rules="2024")[player] == Fraction(expected)



def test_exercise_has_all_sixteen_players_for_every_tiebreak() -> None:
    assert len(_cases("rules_2024")) == 8 * 16


@pytest.mark.parametrize(
    ("player", "expected"), sorted(EXPECTED["rules_2024"]["final_points"].items())
)
def test_exercise_final_points(player: str, expected: float) -> None:
    assert TOURNAMENT.entrant(int(player)).score == Fraction(expected)


@pytest.mark.parametrize(
    ("player", "expected"),
    sorted(EXPECTED["rules_2024"]["adjusted_score_for_opponents_Art16.3"].items()),
)
def test_art_16_3_withdrawn_players_trailing_vurs_count_as_draws(player: str, expected: float) -> None:
    assert swiss.adjusted_scores(TOURNAMENT)[int(player)] == Fraction(expected)


@pytest.mark.parametrize("example", sorted(EXPECTED["rules_2024"]["DE_final_rank_with_PTS_then_DE"]))
def test_exercise_direct_encounter_leaves_swiss_ties_with_missing_games_unbroken(example: str) -> None:
    expected = {int(n): rank for n, rank in EXPECTED["rules_2024"]["DE_final_rank_with_PTS_then_DE"][example].items()}
    ranks = {r.number: r.rank for r in swiss.rank_players(TOURNAMENT, order=("PTS", "DE"))}
    assert {n: ranks[n] for n in expected} == expected


def test_art_16_4_2026_caps_the_dummy_of_a_half_bye_at_half_the_maximum() -> None:
    # David (4): H in round 2, own score 3.5; the cap is 5 rounds x 1 / 2 = 2.5.
    assert swiss.tiebreak(TOURNAMENT, "BH", rules="2026")[4] == Fraction(14)


def test_art_16_4_2026_caps_the_dummy_of_a_forfeit_win_at_the_opponents_score() -> None:
    # Maria (11): forfeit win against Jessica (9, adjusted 1.5); own score 2.5.
    assert swiss.tiebreak(TOURNAMENT, "BH", rules="2026")[11] == Fraction(25, 2)
