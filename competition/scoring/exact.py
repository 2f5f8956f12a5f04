"""Exact numbers made quickly: the engine's outputs are `Fraction`s, thousands a season.

`Fraction(n, d)` normalises its arguments through several type checks before it divides
by their greatest common divisor; the engine's numerator and denominator are always
Python ints with a positive denominator, so `fraction` divides by the divisor itself and
builds the (immutable) Fraction directly: the same value, type and hash, in a third of
the time. `Fractions` memoises them per denominator (a season repeats few totals).
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

_new = object.__new__
# Python 3.12 names this constructor; before, it is the same two slots set by hand.
_from_coprime = getattr(Fraction, "_from_coprime_ints", None)


def fraction(numerator: int, denominator: int) -> Fraction:
    """`Fraction(numerator, denominator)` for ints with ``denominator > 0``."""
    g = gcd(numerator, denominator)
    if g != 1:
        numerator //= g
        denominator //= g
    if _from_coprime is not None:
        return _from_coprime(numerator, denominator)  # type: ignore[no-any-return]
    result = _new(Fraction)
    result._numerator = numerator  # type: ignore[attr-defined]
    result._denominator = denominator  # type: ignore[attr-defined]
    return result


class Fractions:
    """The Fractions of one computation, made once each: ``memo.over(d)`` is a dict from
    numerator to ``Fraction(numerator, d)``, filled by ``memo.get(n, d)``."""

    def __init__(self) -> None:
        self._by_denominator: dict[int, dict[int, Fraction]] = {}

    def over(self, denominator: int) -> dict[int, Fraction]:
        found = self._by_denominator.get(denominator)
        if found is None:
            found = self._by_denominator[denominator] = {}
        return found

    def get(self, numerator: int, denominator: int) -> Fraction:
        made = self.over(denominator)
        result = made.get(numerator)
        if result is None:
            result = made[numerator] = fraction(numerator, denominator)
        return result
