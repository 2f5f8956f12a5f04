"""The fixpoint remembers each evening's settled standings per process (keizer.SETTLED):
a recalculation after a result on the last evening does not redo the earlier ones, and
never gives another answer than a computation from scratch."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from competition.scoring import keizer
from competition.scoring.fixpoint import TotalsMatrix, int_array
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


def test_keys_of_another_form_are_other_keys(recalculations, monkeypatch):
    # a shared memory outlives a deploy: what an earlier key form stored is never read
    season = _season()
    keizer.compute_keizer_season(season.params, season.players, season.evenings)
    before = len(recalculations)
    monkeypatch.setattr(keizer, "_KEY_FORMAT", "an earlier form")
    keizer.compute_keizer_season(season.params, season.players, season.evenings)
    assert len(recalculations) == before + len(season.evenings)


def test_the_memory_is_bounded(monkeypatch):
    memory = keizer._Settled()
    monkeypatch.setattr(memory, "SIZE", 3)
    outcome = keizer._EveningOutcome((), [], [], False, 1)
    for n in range(5):
        memory.put(bytes([n]), outcome)
    assert memory.get(bytes([0])) is None and memory.get(bytes([4])) is outcome


def _read_of(terms, entering, size=5):
    """A half's reading with these evenings' terms (`keizer._Terms`) and players entering."""
    rows, columns, amounts, ends = [], [], [], []
    for t in terms:
        rows += t.rows + t.fixed
        columns += t.of + [size] * len(t.fixed)
        amounts += t.coefficients + t.amounts
        ends.append(len(rows))
    empty = np.zeros(0, dtype=np.intp)
    return keizer._HalfRead(size, [[] for _ in terms], [list(new) for new in entering], np.array(rows, dtype=np.intp),
                            np.array(columns, dtype=np.intp), int_array(amounts), ends, empty, empty)


def test_an_evenings_part_of_the_memory_key_tells_its_evenings_apart() -> None:
    [plain] = keizer._evening_keys(_read_of([keizer._Terms([0, 1], [1, 0], [6, 3], [2], [5])], [[0, 1, 2]]))
    assert plain.startswith(b"i")
    # the same numbers split differently between the parts are another evening
    assert [plain] != keizer._evening_keys(_read_of([keizer._Terms([0], [1], [6], [1, 2], [3, 5])], [[0, 1, 2]]))
    assert [plain] != keizer._evening_keys(_read_of([keizer._Terms([0, 1], [1, 0], [6, 3], [2], [5])], [[0, 1]]))
    # beyond int64: its repr
    [huge] = keizer._evening_keys(_read_of([keizer._Terms([0], [1], [2**70], [], [])], [[0]]))
    assert huge.startswith(b"r") and b"1180591620717411303424" in huge


def test_a_halfs_evening_keys_made_at_once_are_each_evenings_own() -> None:
    terms = [keizer._Terms([0, 1], [1, 0], [6, 3], [2], [5]), keizer._Terms([], [], [], [0], [7]),
             keizer._Terms([2], [2], [4], [], [])]
    entering = [[0, 1, 2], [], [3]]
    alone = [keizer._evening_keys(_read_of([t], [new]))[0] for t, new in zip(terms, entering, strict=True)]
    assert keizer._evening_keys(_read_of(terms, entering)) == alone
    assert len(set(alone)) == 3
    # a number beyond int64 in the half: every evening by its repr, each its own
    terms[1] = keizer._Terms([0], [1], [2**70], [], [])
    keys = keizer._evening_keys(_read_of(terms, entering))
    assert all(key.startswith(b"r") for key in keys) and len(set(keys)) == 3
    assert b"1180591620717411303424" in keys[1] and b"1180591620717411303424" not in keys[0]


def test_the_terms_made_with_the_events_are_those_of_the_events() -> None:
    from tests.generate import random_season

    made = []
    for seed, preset in enumerate(("classic", "pion", "keizer1956", "classic", "pion")):
        season = random_season(seed, 14, 8, preset, chaotic=seed % 2 == 1)
        units = keizer_terms(season.params)
        index = {p.id: i for i, p in enumerate(season.players)}
        fixed = [p.id for p in season.players if p.fixed]
        events, _, terms, _ = keizer._events(season.evenings, index, fixed, 1, {}, units.scoring)
        # the same terms, each once (their order within an evening changes no sum)
        assert [_sorted(t) for t in terms] == [_sorted(keizer._evening_terms(units, evening_events))
                                               for evening_events in events]
        made += terms
    assert any(t.fixed for t in made) and any(t.rows for t in made)


def _sorted(terms):
    return (sorted(zip(terms.rows, terms.of, terms.coefficients, strict=True)),
            sorted(zip(terms.fixed, terms.amounts, strict=True)))
