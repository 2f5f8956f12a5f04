"""Showing exact totals: two decimals, rounded half up (halves away from zero)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from math import gcd


def round_points(value: Fraction) -> Decimal:
    """The exact value rounded to two decimals: 377/3 -> 125.67, 0.125 -> 0.13, -0.125 -> -0.13."""
    return round_units(value.numerator, value.denominator)


def round_units(n: int, d: int) -> Decimal:
    """`round_points(Fraction(n, d))` for ints with ``d > 0``, without the Fraction."""
    # floor(|n/d| * 100 + 1/2) in integers: thousands of lines a recalculation
    cents = (200 * abs(n) + d) // (2 * d)
    return Decimal(cents if n >= 0 else -cents).scaleb(-2)


def units_text(n: int, d: int) -> str:
    """`str(round_units(n, d))` without the Decimal: '125.67', '0.00', '-0.13'. What a
    stored standings row holds as text (its JSON is then made without a fallback per
    number)."""
    cents = (200 * abs(n) + d) // (2 * d)
    whole, part = divmod(cents, 100)
    return f"{'-' if n < 0 and cents else ''}{whole}.{part:02d}"


def exact_text(n: int, d: int) -> str:
    """`str(Fraction(n, d))` for ints with ``d > 0``: '377/3', '-5', '0'."""
    g = gcd(n, d)
    n, d = n // g, d // g
    return str(n) if d == 1 else f"{n}/{d}"


def format_points(value: Fraction) -> str:
    """'125.67', '174.00', '-2.30'."""
    return f"{round_points(value):.2f}"


def points_json(value: Fraction) -> float:
    """A JSON number with at most two decimals (float of the rounded decimal: 125.67)."""
    return float(round_points(value))


def rounding_difference(shown: Sequence[Decimal], total: Decimal) -> Decimal:
    """What the lines of an explanation, each rounded to two decimals, miss of the rounded
    total (five absences of 0.3333 × 60 = 19.998 show 20.00 each; 5 × 20.00 = 100.00, the
    total 99.99): the amount of a "rounding" line that makes the column add up on screen.

    Rounding every line to the cent can be off by at most half a cent a line (and half a
    cent in the total); a larger gap is not rounding, and is not hidden: zero is returned."""
    gap = total - sum(shown, Decimal(0))
    if abs(gap) > Decimal("0.005") * (len(shown) + 1):
        return Decimal(0)
    return gap
