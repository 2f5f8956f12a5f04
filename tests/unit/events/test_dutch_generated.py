"""The Dutch system's two editions against tournaments generated and paired by bbpPairings
(5.0.1 for 2017, 6.0.0 for 2026; scripts/generate_dutch_tournaments.py): every round of
every tournament replayed and compared, boards, colours and bye.

The rounds where our engine still pairs otherwise are listed in
tests/data/dutch/generated-differences.json (docs/swiss.md, "Checked against bbpPairings"):
a listed round must still differ (the list only shrinks), every other round must agree.

By default the tournaments of at most ``DUTCH_GENERATED_MAX_PLAYERS`` (40) players are
replayed; ``make test-dutch-generated`` replays all of them (up to 150 players)."""

from __future__ import annotations

import json
import os

import pytest

from tests.unit.events.dutch_generated import DATA, generated, round_differences

MAX_PLAYERS = int(os.environ.get("DUTCH_GENERATED_MAX_PLAYERS", "40"))
KNOWN: dict[str, list[str]] = json.loads((DATA / "generated-differences.json").read_text(encoding="utf-8"))

CASES = [
    (edition, index)
    for edition in ("2017", "2026")
    for index, t in enumerate(generated(edition))
    if len(t["players"]) <= MAX_PLAYERS
]


def test_the_generated_set_is_large_and_varied() -> None:
    for edition in ("2017", "2026"):
        ts = generated(edition)
        assert len(ts) >= 1000
        sizes = {len(t["players"]) for t in ts}
        assert min(sizes) <= 9 + 1 and max(sizes) >= 140
        assert {t["rounds"] for t in ts} == set(range(5, 14))


@pytest.mark.parametrize(("edition", "index"), CASES, ids=[f"{e}-{i}" for e, i in CASES])
def test_every_round_pairs_as_bbppairings(edition: str, index: int) -> None:
    known = {line for line in KNOWN[edition] if line.startswith(f"tournament {index} ")}
    differ = list(round_differences(edition, index))  # type: ignore[arg-type]
    assert {line.split(":")[0] for line in differ} == known, "\n".join(differ)
