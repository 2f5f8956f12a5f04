"""The engine gives the naive reference's results bit for bit (docs/standings.md, "How fast").

`bench/naive.py` computes the standings the straightforward way (Fractions, every evening
recomputed to its fixpoint, nothing remembered); the engine's integer units, matrix
arithmetic and memory of settled evenings must never change a number, a place, a line or
a count. Small seasons keep this fast; `make bench` times the large ones.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace

import pytest

from bench import naive
from competition.scoring import keizer
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.scoring.types import KeizerParams, LadderParams
from tests.generate import random_season

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


def _season_args(seed, system, overrides):
    season = random_season(seed, 8 + 3 * seed, 6 + seed, system, overrides, chaotic=seed % 2 == 1)
    assert isinstance(season.params, KeizerParams)
    return season.params, season.players, season.evenings


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("system", "overrides"), KEIZER)
def test_every_history_row_and_explanation_line_equals_the_reference_whichever_is_read_first(
    seed, system, overrides
) -> None:
    # History rows and explanation lines are made when first read (types.Deferred): read in
    # any order, one by one, they are the reference's, field by field.
    args = _season_args(seed, system, overrides)
    expected = naive.compute_keizer_season(*args)
    for lines_first in (True, False):
        keizer.SETTLED.clear()
        result = compute_keizer_season(*args)
        assert result.keys() == expected.keys()
        for half, got in result.items():
            want = expected[half]
            parts = ["lines", "history"] if lines_first else ["history", "lines"]
            for part in parts:
                if part == "lines":
                    for row, want_row in reversed(list(zip(got.standings, want.standings, strict=True))):
                        assert row.lines == want_row.lines
                        for line, want_line in zip(row.lines, want_row.lines, strict=True):
                            assert vars(line) == vars(want_line)
                        assert sum(line.points for line in row.lines) == row.total
                else:
                    assert len(got.history) == len(want.history)
                    for entry, want_entry in reversed(list(zip(got.history, want.history, strict=True))):
                        assert (entry.date, entry.cycle, entry.iterations, entry.cycle_orders) == (
                            want_entry.date, want_entry.cycle, want_entry.iterations, want_entry.cycle_orders
                        )
                        assert len(entry.rows) == len(want_entry.rows)
                        for row, want_row in zip(entry.rows, want_entry.rows, strict=True):
                            assert vars(row) == vars(want_row)
                            assert vars(row.stats) == vars(want_row.stats)
            assert got == want
            assert repr(got) == repr(want)


def test_history_rows_and_explanation_lines_are_made_only_when_read() -> None:
    args = _season_args(3, "classic", {"method": "fixpoint"})
    result = compute_keizer_season(*args)["winter"]
    first, row = result.history[0], result.standings[-1]
    assert "rows" not in vars(first) and "lines" not in vars(row)
    assert first.rows == naive.compute_keizer_season(*args)["winter"].history[0].rows
    assert all("rows" in vars(entry) and "_deferred" not in vars(entry) for entry in result.history)
    assert "lines" not in vars(row)  # the history does not make the explanation
    assert row.lines
    assert all("lines" in vars(r) and "_deferred" not in vars(r) for r in result.standings)


@pytest.mark.parametrize("method", ["fixpoint", "lagging", "frozen"])
def test_reading_an_evening_of_the_history_makes_that_one_and_the_later_ones_only(method) -> None:
    """The incremental recalculation reads the evenings from the corrected one on: the
    earlier rows are not made, and made later they are still the reference's."""
    args = _season_args(2, "classic", {"method": method})
    result = compute_keizer_season(*args)["winter"]
    reference = naive.compute_keizer_season(*args)["winter"].history
    k = len(result.history) // 2
    assert k >= 1
    assert result.history[k].rows == reference[k].rows
    assert all("rows" not in vars(entry) for entry in result.history[:k])
    assert all("rows" in vars(entry) for entry in result.history[k:])
    assert [e.rows for e in result.history] == [e.rows for e in reference]


@pytest.mark.parametrize("seed", [1, 4])
def test_a_result_copied_or_pickled_before_it_is_read_is_the_reference(seed) -> None:
    args = _season_args(seed, "keizer1956", {"method": "fixpoint"})
    expected = naive.compute_keizer_season(*args)
    for make_copy in (copy.copy, copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))):
        keizer.SETTLED.clear()
        result = compute_keizer_season(*args)
        copied = {half: make_copy(half_result) for half, half_result in result.items()}
        assert copied == expected
        assert result == expected
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = result["winter"].standings[0].nothing  # type: ignore[attr-defined]


class _DictMemory:
    """A shared memory of settled evenings as another process would see it."""

    def __init__(self) -> None:
        self.data: dict[bytes, bytes] = {}
        self.reads = self.writes = 0

    def get_many(self, keys):
        self.reads += 1
        return {k: self.data[k] for k in keys if k in self.data}

    def set_many(self, items) -> None:
        self.writes += 1
        self.data.update(items)


@pytest.mark.parametrize("seed", [0, 3])
def test_a_process_that_starts_cold_takes_the_settled_evenings_from_the_shared_memory(seed) -> None:
    """One process settles the season and writes its evenings to the shared memory; a
    second, cold, reads them all in one look-up a half, computes none, and gives the naive
    reference's standings bit for bit; a correction on the last evening computes that
    evening only."""
    args = _season_args(seed, "classic", {"method": "fixpoint"})
    shared = _DictMemory()
    compute_keizer_season(*args, shared=shared)
    halves = len({e.half for e in args[2]})
    assert shared.writes == halves and len(shared.data) == len(args[2])
    keizer.SETTLED.clear()  # another process
    shared.reads = shared.writes = 0
    result = compute_keizer_season(*args, shared=shared)
    assert shared.reads == halves and shared.writes == 0
    reference = naive.compute_keizer_season(*args)
    for half, res in result.items():
        assert res.standings == reference[half].standings
        assert [e.rows for e in res.history] == [e.rows for e in reference[half].history]
    keizer.SETTLED.clear()
    params, players, evenings = args
    last = evenings[-1]
    game = last.games[0]
    changed = (*evenings[:-1], replace(last, games=(replace(game, result="0-1" if game.result != "0-1" else "1-0"),
                                                    *last.games[1:])))
    before = len(shared.data)
    again = compute_keizer_season(params, players, changed, shared=shared)
    assert len(shared.data) == before + 1  # the last evening only
    assert again == naive.compute_keizer_season(params, players, changed)


@pytest.mark.parametrize("seed", [0, 5])
def test_the_ladders_history_rows_are_made_from_the_evening_read_on(seed) -> None:
    """As the Keizer history: reading evening k makes k and the later evenings' rows only;
    every row, made in any order, is the naive reference's."""
    season = random_season(seed, players=12, evenings=8, system="ladder")
    assert isinstance(season.params, LadderParams)
    result = compute_ladder(season.params, season.players, season.evenings)
    reference = naive.compute_ladder(season.params, season.players, season.evenings)
    k = 3
    assert result.history[k].rows == reference.history[k].rows
    assert all("rows" not in vars(e) for e in result.history[:k])
    assert all("rows" in vars(e) for e in result.history[k:])
    assert result == reference
    assert copy.deepcopy(compute_ladder(season.params, season.players, season.evenings)) == reference
    assert pickle.loads(pickle.dumps(compute_ladder(season.params, season.players, season.evenings))) == reference


@pytest.mark.parametrize("seed", [1, 4])
def test_the_ladders_explanation_lines_are_made_when_first_read(seed) -> None:
    """The final rows carry no lines until one row's are read; then every row has the
    naive reference's lines (each summing to the row's progress), and a copy or a pickle
    taken before any was read has them too."""
    season = random_season(seed, players=14, evenings=9, system="ladder")
    assert isinstance(season.params, LadderParams)
    args = (season.params, season.players, season.evenings)
    reference = naive.compute_ladder(*args)
    result = compute_ladder(*args)
    assert all("lines" not in vars(row) for row in result.standings)
    assert result.standings[-1].lines == reference.standings[-1].lines
    assert all("lines" in vars(row) and "_deferred" not in vars(row) for row in result.standings)
    for row, want in zip(result.standings, reference.standings, strict=True):
        assert row.lines == want.lines
        assert sum(line.delta + line.bonus for line in row.lines) == row.score
    assert copy.deepcopy(compute_ladder(*args)).standings == reference.standings
    assert pickle.loads(pickle.dumps(compute_ladder(*args))).standings == reference.standings
