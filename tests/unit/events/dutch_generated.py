"""Tournaments generated and paired by bbpPairings itself (scripts/generate_dutch_tournaments.py,
tests/data/dutch/generated-*.json.gz): each round's input rebuilt from the generated TRF cut
before it, the players with a bye of their own (Z, H, F) or no entry absent, and the
reference's pairing of that round."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ReplayedRound:
    """One generated round: the tournament before it, who is paired, and bbpPairings's pairing."""

    number: int
    before: Tournament
    present: list[int]
    total_rounds: int
    first_white: bool
    games: list[tuple[int, int]]
    bye: int | None


def replayed_rounds(edition: Edition, index: int) -> Iterator[ReplayedRound]:
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
        yield ReplayedRound(r + 1, before, present, t["rounds"], first_white, games, bye)


def round_differences(edition: Edition, index: int) -> Iterator[str]:
    """A line for each round of generated tournament ``index`` our engine pairs otherwise
    than bbpPairings (other boards, other colours or another bye)."""
    players = len(generated(edition)[index]["players"])
    for r in replayed_rounds(edition, index):
        ours = pair_blitz_round(r.before, r.present, r.total_rounds, edition=edition, first_white=r.first_white)
        if sorted(ours.games) != r.games or ours.bye != r.bye:
            yield (f"tournament {index} ({players} players) round {r.number}: "
                   f"ours {sorted(ours.games)} bye {ours.bye}, reference {r.games} bye {r.bye}")
