"""A history evening as columns (docs/standings.md, "History as columns"): the tables the
engine makes of every evening are the naive reference's rows, column by column. That the
store writes the same rows from a table as from the row objects is in
tests/integration/test_store_from_tables.py (it needs Django)."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from bench import naive
from competition.scoring import keizer
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.scoring.types import (
    EveningStandings,
    LadderEvening,
    LadderTable,
    PlayerStats,
    StandingsTable,
)
from tests.generate import KEIZER_VARIANTS, random_season

KEIZER = KEIZER_VARIANTS
FIELDS = tuple(PlayerStats.__dataclass_fields__)


@pytest.fixture(autouse=True)
def cold():
    keizer.SETTLED.clear()
    yield
    keizer.SETTLED.clear()


def _keizer(seed, system, overrides):
    season = random_season(seed, 8 + 3 * seed, 6 + seed, system, overrides, chaotic=seed % 2 == 1)
    args = (season.params, season.players, season.evenings)
    return compute_keizer_season(*args), naive.compute_keizer_season(*args)


def _assert_columns(table: StandingsTable, rows) -> None:
    assert table.player_ids == tuple(row.player_id for row in rows)
    assert [Fraction(n, table.denominator) for n in table.totals] == [row.total for row in rows]
    assert [Fraction(n, table.value_unit) for n in table.values] == [row.value for row in rows]
    assert table.counts == tuple(tuple(getattr(row.stats, name) for row in rows) for name in FIELDS)


SEEDS = range(6)  # of these, some pion seasons cycle (test_engine_against_naive.test_these_seasons_cycle)


def test_a_cycles_averaged_totals_are_in_the_tables() -> None:
    cycled = 0
    for seed in SEEDS:
        got, want = _keizer(seed, "pion", {"method": "fixpoint"})
        for half, result in got.items():
            for entry, want_entry in zip(result.history, want[half].history, strict=True):
                if entry.cycle:
                    cycled += 1
                    assert entry.table().denominator % entry.cycle_orders == 0
                    _assert_columns(entry.table(), want_entry.rows)
    assert cycled > 0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("system", "overrides"), KEIZER)
def test_every_evenings_table_is_the_references_standings_column_by_column(seed, system, overrides) -> None:
    got, want = _keizer(seed, system, overrides)
    for half, result in got.items():
        for entry, want_entry in zip(result.history, want[half].history, strict=True):
            _assert_columns(entry.table(), want_entry.rows)
            assert entry.rows == want_entry.rows


def test_counts_beyond_a_byte_in_a_long_half_are_the_final_standings() -> None:
    # 1.400 evenings, 700 a half: a player's count passes 255 (the tables then skip the byte
    # route); the final rows' counts come from the tally by another way (`_stats_after`)
    season = random_season(3, 4, 1400, "classic", {"method": "lagging"})
    for result in compute_keizer_season(season.params, season.players, season.evenings).values():
        last = result.history[-1].table()
        assert max(max(column) for column in last.counts) > 255
        _assert_columns(last, result.standings)


@pytest.mark.parametrize("seed", range(4))
def test_every_ladder_evenings_table_is_the_references_ladder(seed) -> None:
    season = random_season(seed, 8 + 3 * seed, 6 + seed, "ladder", {"place_factor": "1/3"})
    args = (season.params, season.players, season.evenings)
    got, want = compute_ladder(*args), naive.compute_ladder(*args)
    for entry, want_entry in zip(got.history, want.history, strict=True):
        table, rows = entry.table(), want_entry.rows
        assert table.player_ids == tuple(row.player_id for row in rows)
        for column, name in ((table.points, "points"), (table.pairing_points, "pairing_points"),
                             (table.bonuses, "bonus"), (table.start_points, "start_points")):
            assert [Fraction(n, table.unit) for n in column] == [getattr(row, name) for row in rows], name
        assert table.groups == tuple(row.group for row in rows)
        assert table.counts == tuple(tuple(getattr(row.stats, name) for row in rows) for name in FIELDS)
        assert table.rows() == rows


def test_the_tables_are_made_once_for_the_whole_history_and_survive_a_pickle() -> None:
    got, want = _keizer(3, "pion", {"method": "fixpoint"})
    history = got["winter"].history
    assert all("_table" not in vars(entry) for entry in history)
    table = history[0].table()
    assert all("_table" in vars(entry) and "_tables" not in vars(entry) for entry in history)
    assert all("rows" not in vars(entry) for entry in history[:-1])  # the tables make no rows
    assert history[0].table() is table
    _, again = _keizer(3, "pion", {"method": "fixpoint"})
    unread = again["winter"].history
    pickled = pickle.loads(pickle.dumps(unread[1]))  # before any table is read: made for it
    assert "_tables" not in vars(pickled)
    assert pickled.table() == history[1].table()
    assert pickled.rows == want["winter"].history[1].rows


def test_an_evening_built_by_hand_makes_its_table_of_its_rows() -> None:
    _, want = _keizer(1, "classic", {"method": "fixpoint"})
    entry = want["winter"].history[-1]
    assert isinstance(entry, EveningStandings)
    built = EveningStandings(entry.date, entry.rows, entry.cycle, entry.iterations, entry.cycle_orders)
    _assert_columns(built.table(), entry.rows)
    season = random_season(2, 14, 8, "ladder", {"place_factor": "1/3"})
    ladder = naive.compute_ladder(season.params, season.players, season.evenings).history[-1]
    assert LadderEvening(ladder.date, ladder.rows).table().rows() == ladder.rows
    assert isinstance(LadderEvening(ladder.date, ladder.rows).table(), LadderTable)
