"""Seed 002's worked example (Henk Jan) and its value table, docs/rules.md 4.1."""

from fractions import Fraction

from competition.scoring.display import format_points
from competition.scoring.keizer import compute_keizer_half, score_with_order
from competition.scoring.types import Outcome
from tests.season_factories import evening, keizer_params

HENK_JAN, PIET, KLAAS, KEES = 1, 2, 3, 4
FILLERS = list(range(10, 20))
EVERYONE = [HENK_JAN, PIET, KLAAS, KEES, *FILLERS]
ROUNDS = [
    evening("2026-09-04", games=[(HENK_JAN, PIET, "1-0")]),
    evening("2026-09-11", absent=[HENK_JAN]),
    evening("2026-09-18", games=[(KLAAS, HENK_JAN, "1-0")]),
    evening("2026-09-25", games=[(HENK_JAN, KEES, "1/2-1/2")]),
]


def _order_with(places: dict[int, int]) -> list[int]:
    """An order of EVERYONE with the given players at the given ranks (1-based)."""
    rest = iter(p for p in EVERYONE if p not in places)
    by_rank = {rank: player for player, rank in places.items()}
    return [by_rank[r] if r in by_rank else next(rest) for r in range(1, len(EVERYONE) + 1)]


def test_tenth_place_is_worth_51_and_twelfth_49_with_top_60_step_1() -> None:
    # The values the engine gives the standings' places, not a formula beside it.
    params = keizer_params("classic")
    standings = compute_keizer_half(params, ROUNDS, EVERYONE, present_from_start=EVERYONE).standings
    values = {row.rank: row.value for row in standings}
    assert (values[1], values[10], values[12]) == (60, 51, 49)


def test_henk_jan_after_round_3_scores_125_67_at_value_95() -> None:
    params = keizer_params("classic", top=100)  # 6th place is worth 95
    order = _order_with({HENK_JAN: 6, PIET: 7})
    total, lines = score_with_order(params, ROUNDS[:3], order, present_from_start=EVERYONE)[HENK_JAN]
    assert [(line.outcome, line.value, line.points) for line in lines] == [
        (Outcome.WIN, 94, 94),
        (Outcome.ABSENT_WITH_NOTICE, 95, Fraction(95, 3)),
        (Outcome.LOSS, None, 0),
    ]
    assert total == Fraction(377, 3)
    assert format_points(total) == "125.67"


def test_henk_jan_after_recalculation_in_round_4_scores_174() -> None:
    params = keizer_params("classic", top=100)
    order = _order_with({PIET: 3, HENK_JAN: 8, KEES: 11})  # values 98, 93, 90
    total, lines = score_with_order(params, ROUNDS, order, present_from_start=EVERYONE)[HENK_JAN]
    assert [line.points for line in lines] == [98, 31, 0, 45]
    assert lines[1].value == 93  # the absence follows his own, lower value
    assert total == 174
    assert format_points(total) == "174.00"
