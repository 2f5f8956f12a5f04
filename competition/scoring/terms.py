"""A Keizer competition's rules as integer terms: ``keizer_terms(params)``, the one
reading of ``KeizerParams`` that both engines of the recalculation (the matrix of
``fixpoint.TotalsMatrix`` and the plain loop) and the explanation of a total use.

Every value, factor and fixed amount is scaled to a whole number with one denominator:
a value v is held as ``v × value_unit``, a total t as ``t × total_unit``, where
``total_unit = value_unit × factor_unit``, so a factor × a value and fixed points are
both whole numbers of total units (docs/standings.md, "How fast"). The own value added
once (``own_value_added``, Keizer's 1956 method) is a term too: ``own_added`` times the
player's own value, from the evening he enters; ``own_value_line`` is its line in the
explanation. Pure: no Django.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from competition.scoring.types import SCORED_OUTCOMES, KeizerParams, Line, Outcome

Basis = Literal["opponent", "own", "fixed"]

# What happened to one player (by index) on one evening, as the engines keep it: (player,
# outcome, opponent, colour: "white" / "black" for games, over_limit). A plain tuple: a
# season has thousands, and even a named tuple costs twice as much to build.
Event = tuple[int, Outcome, int | None, str | None, bool]
PLAYER: Final = 0
OUTCOME: Final = 1
OPPONENT: Final = 2
OVER_LIMIT: Final = 4


def scaled(amount: Fraction, unit: int) -> int:
    """`amount × unit`, a whole number (`unit` is a multiple of its denominator)."""
    return amount.numerator * unit // amount.denominator


@dataclass(frozen=True)
class KeizerTerms:
    """The rules of one competition in integer units (see the module)."""

    value_unit: int
    factor_unit: int
    total_unit: int
    top: int  # the first place's value, scaled
    step: int  # each next place's value lower by this, scaled
    # outcome -> (basis, integer coefficient: of factor_unit, or of total_unit for fixed)
    rules: Mapping[Outcome, tuple[Basis, int]]
    # The rules that add to a total: a term of nothing (a loss scoring 0 fixed points,
    # say: half of an evening's terms) changes no total, so the terms leave it out.
    scoring: Mapping[Outcome, tuple[Basis, int]]
    own_added: int  # coefficient of the own value added once (0: not added)

    def values(self, order: Sequence[int], size: int) -> list[int]:
        """Scaled value of every player index; players not in `order` get 0."""
        values = [0] * size
        top, step = self.top, self.step
        for rank0, player in enumerate(order):
            values[player] = top - step * rank0
        return values

    def term(self, event: Event) -> tuple[Basis, int] | None:
        """The scoring term of an event, or None if it scores nothing."""
        if event[OVER_LIMIT]:
            return None
        return self.rules.get(event[OUTCOME])

    def points(self, event: Event, values: Sequence[int]) -> int:
        """An event's points in total units, with the scaled `values` of the players."""
        term = self.term(event)
        if term is None:
            return 0
        basis, coefficient = term
        if basis == "fixed":
            return coefficient
        if basis == "own":
            return coefficient * values[event[PLAYER]]
        opponent = event[OPPONENT]
        assert opponent is not None
        return coefficient * values[opponent]

    def own_value_line(self, value: int, orders: int = 1) -> Line | None:
        """The explanation's line of the own value added once, for a player whose scaled
        value is `value` (summed over the `orders` of a cycle, its average); None where
        the competition adds no own value."""
        if not self.own_added:
            return None
        points = Fraction(value * self.own_added, self.factor_unit * self.value_unit * orders)
        return Line(None, Outcome.OWN_VALUE, None, points, points)


@functools.lru_cache(maxsize=256)
def keizer_terms(params: KeizerParams) -> KeizerTerms:
    """The one reading of a competition's Keizer rules into integer terms."""
    # Each rule read once: the other outcomes score nothing.
    rules = {outcome: rule for outcome in SCORED_OUTCOMES if (rule := params.rule(outcome)) is not None}
    factors = [r.amount for r in rules.values() if r.basis != "fixed"]
    fixed = [r.amount for r in rules.values() if r.basis == "fixed"]
    value_unit = math.lcm(params.top.denominator, params.step.denominator)
    factor_unit = math.lcm(1, *(f.denominator for f in factors)) * math.lcm(1, *(f.denominator for f in fixed))
    total_unit = value_unit * factor_unit
    terms: dict[Outcome, tuple[Basis, int]] = {
        outcome: ("fixed", scaled(rule.amount, total_unit)) if rule.basis == "fixed"
        else (rule.basis, scaled(rule.amount, factor_unit))
        for outcome, rule in rules.items()
    }
    return KeizerTerms(
        value_unit=value_unit, factor_unit=factor_unit, total_unit=total_unit,
        top=scaled(params.top, value_unit), step=scaled(params.step, value_unit),
        rules=terms, scoring={outcome: rule for outcome, rule in terms.items() if rule[1] != 0},
        own_added=factor_unit if params.own_value_added else 0,
    )
