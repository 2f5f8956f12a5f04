"""The fixpoint remembers each evening's settled standings per process (keizer.SETTLED):
a recalculation after a result on the last evening does not redo the earlier ones, and
never gives another answer than a computation from scratch."""

from __future__ import annotations

from dataclasses import replace

import pytest

from competition.scoring import keizer
from competition.scoring.fixpoint import TotalsMatrix
from competition.scoring.terms import keizer_terms
from competition.scoring.types import Game, KeizerParams
from tests.generate import random_season


@pytest.fixture
def recalculations(monkeypatch):
    calls: list[int] = []
    real = TotalsMatrix.recalculate

    def counting(self, active, start, max_iterations):
        calls.append(len(active))
        return real(self, active, start, max_iterations)

    monkeypatch.setattr(TotalsMatrix, "recalculate", counting)
    keizer.SETTLED.clear()
    yield calls
    keizer.SETTLED.clear()


def _season():
    season = random_season(3, 24, 12, "classic", {"method": "fixpoint"}, chaotic=True)
    assert isinstance(season.params, KeizerParams)
    return season


def _flip_last(season):
    last = season.evenings[-1]
    first, *rest = last.games
    flipped = Game(first.white, first.black, "0-1" if first.result == "1-0" else "1-0")
    return replace(season, evenings=(*season.evenings[:-1], replace(last, games=(flipped, *rest))))


def test_the_same_season_again_recalculates_nothing(recalculations):
    season = _season()
    first = keizer.compute_keizer_season(season.params, season.players, season.evenings)
    done = len(recalculations)
    again = keizer.compute_keizer_season(season.params, season.players, season.evenings)
    assert done == len(season.evenings) and len(recalculations) == done
    assert again == first


def test_a_result_on_the_last_evening_recalculates_only_that_evening(recalculations):
    season, changed = _season(), _flip_last(_season())
    keizer.compute_keizer_season(season.params, season.players, season.evenings)
    before = len(recalculations)
    remembered = keizer.compute_keizer_season(changed.params, changed.players, changed.evenings)
    assert len(recalculations) == before + 1
    keizer.SETTLED.clear()
    assert remembered == keizer.compute_keizer_season(
        changed.params, changed.players, changed.evenings)


def test_other_parameters_are_other_standings(recalculations):
    season = _season()
    keizer.compute_keizer_season(season.params, season.players, season.evenings)
    before = len(recalculations)
    other = replace(season.params, top=season.params.top + 10)
    keizer.compute_keizer_season(other, season.players, season.evenings)
    assert len(recalculations) == before + len(season.evenings)


def test_the_memory_is_bounded(monkeypatch):
    memory = keizer._Settled()
    monkeypatch.setattr(memory, "SIZE", 3)
    outcome = keizer._EveningOutcome((), [], [], False, 1)
    for n in range(5):
        memory.put(bytes([n]), outcome)
    assert memory.get(bytes([0])) is None and memory.get(bytes([4])) is outcome


def test_an_evenings_part_of_the_memory_key_tells_its_evenings_apart() -> None:
    plain = keizer._evening_key(keizer._Terms([0, 1], [1, 0], [6, 3], [2], [5]), [0, 1, 2])
    assert plain.startswith(b"i")
    # the same numbers split differently between the lists are another evening
    assert plain != keizer._evening_key(keizer._Terms([0], [1, 1, 0], [6, 3], [2], [5]), [0, 1, 2])
    assert plain != keizer._evening_key(keizer._Terms([0, 1], [1, 0], [6, 3], [2], [5]), [0, 1])
    huge = keizer._evening_key(keizer._Terms([0], [1], [2**70], [], []), [0])  # beyond int64: its repr
    assert huge.startswith(b"r") and b"1180591620717411303424" in huge


def test_a_halfs_evening_keys_made_at_once_are_each_evenings_own() -> None:
    terms = [keizer._Terms([0, 1], [1, 0], [6, 3], [2], [5]), keizer._Terms([], [], [], [0], [7]),
             keizer._Terms([2], [2], [4], [], [])]
    entering = [[0, 1, 2], [], [3]]
    expected = [keizer._evening_key(t, new) for t, new in zip(terms, entering, strict=True)]
    assert keizer._evening_keys(terms, entering) == expected
    terms[1] = keizer._Terms([0], [1], [2**70], [], [])  # beyond int64: every evening its own way
    assert keizer._evening_keys(terms, entering) == [
        keizer._evening_key(t, new) for t, new in zip(terms, entering, strict=True)
    ]


def test_the_terms_made_with_the_events_are_those_of_the_events() -> None:
    from tests.generate import random_season

    made = []
    for seed, preset in enumerate(("classic", "pion", "keizer1956", "classic", "pion")):
        season = random_season(seed, 14, 8, preset, chaotic=seed % 2 == 1)
        units = keizer_terms(season.params)
        index = {p.id: i for i, p in enumerate(season.players)}
        fixed = [p.id for p in season.players if p.fixed]
        events, _, terms, _ = keizer._events(season.evenings, index, fixed, 1, {}, units.scoring)
        assert terms == [keizer._evening_terms(units, evening_events) for evening_events in events]
        made += terms
    assert any(t.fixed for t in made) and any(t.rows for t in made)
