"""The Dutch system's 2017 edition (py4swiss) against bbpPairings 5.0.1, the last release
of that edition, on 30 random tournaments, 159 rounds (tests/data/dutch/bbp5-2017.json)."""

from __future__ import annotations

from tests.unit.events.dutch_reference import disagreements


def test_the_2017_edition_pairs_the_recorded_rounds_as_bbppairings_5() -> None:
    rounds, differ = disagreements("bbp5-2017.json", "2017")
    assert rounds >= 150
    assert len(differ) <= rounds // 100, "\n".join(differ)
