"""Rounds recorded from bbpPairings (tests/data/dutch/, docs/swiss.md "Checked against
bbpPairings"): each round's input rebuilt from the tournament's final TRF, and the
reference's pairing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from competition.events.engine import trf as trf_format
from competition.events.engine.dutch import Edition, pair_blitz_round
from competition.events.engine.tiebreaks import Entrant, Tournament

DATA = Path(__file__).resolve().parents[2] / "data" / "dutch"


@dataclass(frozen=True)
class RecordedRound:
    tournament: int
    number: int
    before: Tournament
    present: tuple[int, ...]
    total_rounds: int
    games: tuple[tuple[int, int], ...]
    bye: int | None


def recorded_rounds(name: str) -> Iterator[RecordedRound]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    for index, t in enumerate(data["tournaments"]):
        full = trf_format.to_tournament(trf_format.parse(t["trf"]))
        for r, rnd in enumerate(t["rounds"]):
            before = Tournament(tuple(Entrant(e.number, e.results[:r], e.name, e.rating) for e in full.entrants))
            pairs = [tuple(map(int, line.split())) for line in rnd["output"].splitlines()[1:] if line.strip()]
            yield RecordedRound(
                tournament=index,
                number=r + 1,
                before=before,
                present=tuple(e.number for e in full.entrants if e.number not in set(rnd["absent"])),
                total_rounds=t["rounds_total"],
                games=tuple(sorted((w, b) for w, b in pairs if b)),
                bye=next((w for w, b in pairs if not b), None),
            )


def disagreements(name: str, edition: Edition) -> tuple[int, list[str]]:
    """The number of recorded rounds and a line for each one our engine pairs otherwise
    (other boards, other colours or another bye)."""
    count, differ = 0, []
    for rnd in recorded_rounds(name):
        count += 1
        ours = pair_blitz_round(rnd.before, rnd.present, rnd.total_rounds, edition=edition)
        if tuple(sorted(ours.games)) != rnd.games or ours.bye != rnd.bye:
            differ.append(
                f"tournament {rnd.tournament} round {rnd.number}: ours {sorted(ours.games)} bye {ours.bye}, "
                f"reference {list(rnd.games)} bye {rnd.bye}"
            )
    return count, differ
