"""Tournaments generated and paired by bbpPairings itself (scripts/generate_dutch_tournaments.py,
tests/data/dutch/generated-*.json.gz): each round's input rebuilt from the generated TRF cut
before it, the players with a bye of their own (Z, H, F) or no entry absent, and the
reference's pairing of that round."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from competition.events.engine import trf as trf_format
from competition.events.engine.dutch import Edition, pair_blitz_round
from competition.events.engine.tiebreaks import Entrant, Kind, Tournament

DATA = Path(__file__).resolve().parents[2] / "data" / "dutch"


@cache
def generated(edition: Edition) -> list[dict[str, Any]]:
    with gzip.open(DATA / f"generated-{edition}.json.gz", "rt", encoding="ascii") as f:
        return list(json.load(f)["tournaments"])


def full_tournament(t: dict[str, Any]) -> Tournament:
    lines = ["012 Generated"] + [row[:14] + " " * 33 + row[14:] for row in t["players"]]
    return trf_format.to_tournament(trf_format.parse("\r\n".join(lines) + "\r\n"))


def round_differences(edition: Edition, index: int) -> Iterator[str]:
    """A line for each round of generated tournament ``index`` our engine pairs otherwise
    than bbpPairings (other boards, other colours or another bye)."""
    t = generated(edition)[index]
    full = full_tournament(t)
    first = min(
        (e for e in full.entrants if e.results and e.results[0].colour),
        key=lambda e: e.number,
    )
    first_white = first.results[0].colour == "w"
    for r in range(t["rounds"]):
        before = Tournament(tuple(Entrant(e.number, e.results[:r], e.name, e.rating) for e in full.entrants))
        this = {e.number: e.results[r] for e in full.entrants}
        present = [n for n, x in this.items() if x.opponent is not None or x.kind is Kind.PAIRING_BYE]
        games = sorted((n, x.opponent) for n, x in this.items() if x.colour == "w" and x.opponent)
        bye = next((n for n, x in this.items() if x.kind is Kind.PAIRING_BYE), None)
        ours = pair_blitz_round(before, present, t["rounds"], edition=edition, first_white=first_white)
        if sorted(ours.games) != games or ours.bye != bye:
            yield (f"tournament {index} ({len(full.entrants)} players) round {r + 1}: "
                   f"ours {sorted(ours.games)} bye {ours.bye}, reference {games} bye {bye}")
