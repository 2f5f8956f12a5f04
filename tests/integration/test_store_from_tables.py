"""The store writes a history evening from its table (docs/standings.md, "History as
columns"): the same rows, dicts and key order as from the row objects, so the snapshot's
fingerprint does not change with the way it was made."""

from __future__ import annotations

import pytest

from competition.scoring import keizer
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.season.standings import _row_values, _table_values
from tests.generate import KEIZER_VARIANTS, random_season

KEIZER = KEIZER_VARIANTS


@pytest.fixture(autouse=True)
def cold():
    keizer.SETTLED.clear()
    yield
    keizer.SETTLED.clear()


@pytest.mark.parametrize(("system", "overrides"), [*KEIZER, ("ladder", None), ("ladder", {"place_factor": "1/3"})])
def test_the_store_writes_the_same_rows_from_a_table_as_from_the_row_objects(system, overrides) -> None:
    # What a snapshot stores and fingerprints (`_row_values`): equal dicts, equal key order.
    for seed in range(4):
        season = random_season(seed, 8 + 3 * seed, 6 + seed, system, overrides, chaotic=seed % 2 == 1)
        args = (season.params, season.players, season.evenings)
        if system == "ladder":
            histories = [compute_ladder(*args).history]
        else:
            histories = [result.history for result in compute_keizer_season(*args).values()]
        for history in histories:
            for entry in history:
                from_table = _table_values(entry.table())
                from_rows = [_row_values(row, False) for row in entry.rows]
                assert from_table == from_rows
                assert [list(row) for row in from_table] == [list(row) for row in from_rows]
                assert repr(from_table) == repr(from_rows)
