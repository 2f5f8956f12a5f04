"""Showing exact totals: two decimals, rounded half up (halves away from zero)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction


def round_points(value: Fraction) -> Decimal:
    """The exact value rounded to two decimals: 377/3 -> 125.67, 0.125 -> 0.13, -0.125 -> -0.13."""
    cents = math.floor(abs(value) * 100 + Fraction(1, 2))
    return Decimal(cents if value >= 0 else -cents).scaleb(-2)


def format_points(value: Fraction) -> str:
    """'125.67', '174.00', '-2.30'."""
    return f"{round_points(value):.2f}"


def points_json(value: Fraction) -> float:
    """A JSON number with at most two decimals (float of the rounded decimal: 125.67)."""
    return float(round_points(value))
