"""Tournament performance rating as FIDE defines it: the average rating of the opponents
(ARO, rounded) plus ``dp`` from FIDE's conversion table for the percentage score
(rounded to whole percents). Only played games against rated opponents count: forfeits,
byes and absences are no games, and an opponent without a rating tells nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor

# FIDE's table 8.1.1: dp for p = 0.50, 0.51, ... 1.00 (below 0.50 it is -dp(1 - p)).
DP_TABLE = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)


@dataclass(frozen=True)
class RatedGame:
    opponent_rating: int | None
    points: Fraction  # 1, 1/2 or 0


def _round_half_up(value: Fraction) -> int:
    return floor(value + Fraction(1, 2))


def dp(score: Fraction) -> int:
    """The rating difference for a fraction ``score`` (0..1) of the points."""
    if not 0 <= score <= 1:
        raise ValueError(f"score {score} is not between 0 and 1")
    percent = _round_half_up(score * 100)
    return DP_TABLE[percent - 50] if percent >= 50 else -DP_TABLE[50 - percent]


def performance(games: Sequence[RatedGame]) -> int | None:
    """The TPR of these games, or None when no game was against a rated opponent."""
    rated = [g for g in games if g.opponent_rating]
    if not rated:
        return None
    aro = _round_half_up(Fraction(sum(g.opponent_rating or 0 for g in rated), len(rated)))
    score = sum((g.points for g in rated), Fraction(0)) / len(rated)
    return aro + dp(score)
