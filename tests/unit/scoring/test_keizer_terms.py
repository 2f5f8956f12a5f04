"""A competition's Keizer rules as integer terms (competition/scoring/terms.py): one
function from ``KeizerParams``, read by both engines of the recalculation and by the
explanation, so a rule (the own value added once, Keizer 1956) is applied in one place."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from competition.scoring import keizer
from competition.scoring.params import parse_parameters
from competition.scoring.terms import KeizerTerms, keizer_terms
from competition.scoring.types import KeizerParams, Line, Outcome

SCORING = Path(keizer.__file__).parent


def _params(system: str, **overrides: object) -> KeizerParams:
    params = parse_parameters(system, overrides or None)
    assert isinstance(params, KeizerParams)
    return params


def test_classic_in_integer_units_of_one_denominator() -> None:
    """classic: a draw half the opponent's value, a bye two thirds and an absence a
    third of the own value, so the factors' unit is 6; a win 1 × the opponent's value is
    6 of it; values top 60, step 1."""
    terms = keizer_terms(_params("classic"))
    assert (terms.value_unit, terms.factor_unit, terms.total_unit) == (1, 6, 6)
    assert (terms.top, terms.step) == (60, 1)
    assert terms.rules[Outcome.WIN] == ("opponent", 6)
    assert terms.rules[Outcome.BYE] == ("own", 4)
    assert Outcome.LOSS not in terms.scoring  # 0 fixed points add nothing
    assert terms.own_added == 0 and terms.own_value_line(60) is None
    assert terms.values([2, 0, 1], 4) == [59, 58, 60, 0]


def test_the_own_value_added_once_is_one_term_and_one_line() -> None:
    terms = keizer_terms(_params("keizer1956"))
    assert terms.own_added == terms.factor_unit
    # A value of 47 averaged over a cycle of two orders (93 summed): 46 1/2.
    assert terms.own_value_line(93, orders=2) == Line(None, Outcome.OWN_VALUE, None,
                                                        Fraction(93, 2), Fraction(93, 2))
    halves = keizer_terms(_params("keizer1956", top="101/2"))
    assert halves.value_unit == 2 and halves.own_value_line(101) == Line(
        None, Outcome.OWN_VALUE, None, Fraction(101, 2), Fraction(101, 2))


def test_equal_parameters_give_the_same_terms_once() -> None:
    assert keizer_terms(_params("pion")) is keizer_terms(_params("pion"))
    assert isinstance(keizer_terms(_params("pion")), KeizerTerms)


def test_the_engines_and_the_explanation_read_the_rules_only_through_the_terms() -> None:
    """Before, ``own_value_added`` was applied in three places of keizer.py (the
    engines' term, the history's explanation and ``explain``), and the units were built
    there too."""
    for module in ("keizer.py", "fixpoint.py"):
        text = (SCORING / module).read_text(encoding="utf-8")
        assert not re.search(r"params\.(own_value_added|top|step|rule\()", text), module
