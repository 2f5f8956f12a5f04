"""The point explanation adds up on screen: the rounding line (competition/scoring/display.py)."""

import math
from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from competition.scoring.display import round_points, round_units, rounding_difference, units_text


def test_five_absences_of_a_third_of_sixty_need_a_rounding_line_of_minus_one_cent():
    # 0.3333 × 60 = 19.998, shown as 20.00 five times; the exact total is 99.99.
    line = Fraction(3333, 10000) * 60
    shown = [round_points(line)] * 5
    total = round_points(line * 5)
    assert shown[0] == Decimal("20.00") and total == Decimal("99.99")
    gap = rounding_difference(shown, total)
    assert gap == Decimal("-0.01")
    assert sum(shown) + gap == total


def test_lines_that_add_up_need_no_rounding_line():
    assert rounding_difference([Decimal("60.00"), Decimal("5.00")], Decimal("65.00")) == 0


def test_a_gap_larger_than_rounding_is_not_hidden_as_rounding():
    assert rounding_difference([Decimal("60.00")], Decimal("65.00")) == 0


def test_two_decimals_rounded_half_up_away_from_zero():
    assert round_points(Fraction(377, 3)) == Decimal("125.67")
    assert round_points(Fraction(1, 8)) == Decimal("0.13")
    assert round_points(Fraction(-1, 8)) == Decimal("-0.13")
    assert round_points(Fraction(-1, 300)) == Decimal("0.00")
    assert round_points(Fraction(0)) == Decimal("0.00")
    assert round_points(174) == Decimal("174.00")
    assert str(round_points(Fraction(7, 2))) == "3.50"


@given(st.fractions(max_denominator=10**6).filter(lambda v: abs(v) < 10**6))
def test_the_rounding_is_the_exact_value_to_the_nearest_cent_halves_away_from_zero(value):
    """Against the definition in exact arithmetic: floor(|v| × 100 + ½), signed."""
    cents = math.floor(abs(value) * 100 + Fraction(1, 2))
    assert round_points(value) == Decimal(cents if value >= 0 else -cents).scaleb(-2)


def test_the_stored_text_of_a_value_is_its_rounded_decimal_written_out():
    # What a stored standings row holds as text (competition/season/standings.py).
    assert units_text(377, 3) == "125.67"
    assert units_text(-1, 8) == "-0.13"
    assert units_text(-1, 300) == "0.00"
    assert units_text(0, 1) == "0.00"
    assert units_text(7, 2) == "3.50"
    assert units_text(-174, 1) == "-174.00"


@given(st.integers(-(10**15), 10**15), st.integers(1, 10**7))
def test_the_stored_text_is_the_decimals_text_for_any_value(n, d):
    assert units_text(n, d) == str(round_units(n, d)) == str(round_points(Fraction(n, d)))
