"""The engine gives the naive reference's results bit for bit (docs/standings.md, "How fast").

`bench/naive.py` computes the standings the straightforward way (Fractions, every evening
recomputed to its fixpoint, nothing remembered); the engine's integer units, matrix
arithmetic and memory of settled evenings must never change a number, a place, a line or
a count. Small seasons keep this fast; `make bench` times the large ones.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench import naive
from competition.scoring import keizer
from competition.scoring.generate import random_season
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.scoring.types import KeizerParams, LadderParams

SEEDS = range(6)

KEIZER = [
    ("pion", {"method": "fixpoint"}),
    ("classic", {"method": "fixpoint"}),
    ("keizer1956", {"method": "fixpoint"}),  # own value added
    ("classic", {"method": "lagging"}),
    ("keizer1956", None),  # lagging, own value added
    ("pion", {"method": "frozen"}),
    ("keizer1956", {"method": "frozen"}),
    ("classic", {"method": "fixpoint", "absent_with_notice_limit": 0}),
    # fixed points for an absence: lines within and over the limit look alike but for the flag
    ("pion", {"method": "lagging", "absent_with_notice": {"fixed": 1}, "absent_with_notice_limit": 1}),
]


@pytest.fixture(autouse=True)
def cold():
    keizer.SETTLED.clear()
    yield
    keizer.SETTLED.clear()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("system", "overrides"), KEIZER)
def test_the_keizer_engine_equals_the_naive_reference(seed, system, overrides) -> None:
    season = random_season(seed, 8 + 3 * seed, 6 + seed, system, overrides, chaotic=seed % 2 == 1)
    assert isinstance(season.params, KeizerParams)
    args = (season.params, season.players, season.evenings)
    expected = naive.compute_keizer_season(*args)
    assert compute_keizer_season(*args) == expected
    assert compute_keizer_season(*args) == expected  # again, from the memory of settled evenings
    assert compute_keizer_season(*args, engine="python") == expected
    changed = replace(season, evenings=(*season.evenings[:-1], replace(season.evenings[-1], games=())))
    changed_args = (changed.params, changed.players, changed.evenings)
    # the earlier evenings remembered, the last one recalculated: still the reference's numbers
    assert compute_keizer_season(*changed_args) == naive.compute_keizer_season(*changed_args)
    final = compute_keizer_season(*args, history=False)
    assert {half: result.standings for half, result in final.items()} == {
        half: result.standings for half, result in expected.items()
    }


def test_these_seasons_cycle() -> None:
    # The seasons above must exercise the hard part: cycles settled by the average.
    cycles = 0
    for seed in SEEDS:
        season = random_season(seed, 8 + 3 * seed, 6 + seed, "pion", {"method": "fixpoint"}, chaotic=seed % 2 == 1)
        assert isinstance(season.params, KeizerParams)
        halves = naive.compute_keizer_season(season.params, season.players, season.evenings)
        cycles += sum(entry.cycle for half in halves.values() for entry in half.history)
    assert cycles > 0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("overrides", [None, {"bonus_for_bye": True, "place_factor": "1/3"}])
def test_the_ladder_equals_the_naive_reference(seed, overrides) -> None:
    season = random_season(seed, 8 + 3 * seed, 6 + seed, "ladder", overrides)
    assert isinstance(season.params, LadderParams)
    args = (season.params, season.players, season.evenings)
    assert compute_ladder(*args) == naive.compute_ladder(*args)
    assert compute_ladder(*args, history=False) == naive.compute_ladder(*args, history=False)
