"""The blitz championship's pairing: FIDE Dutch system through py4swiss (docs/rules.md 8).

py4swiss 0.3.x implements C.04.3 "FIDE (Dutch) System" in the edition effective until
31 January 2026 (approved 2017, the rules since the 2017 rewrite; not the edition in force
from 1 February 2026). It reads a TRF(x) file, so this adapter writes one with
``competition.events.engine.trf``: start numbers are renumbered 1..N in start-number order, the
absent players are listed on an ``XXZ`` line, the top seed has white in round 1
(``XXC white1``).
"""

from __future__ import annotations

import enum
import math
import tempfile
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path
from typing import Any

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import TrfParser

from . import trf as trf_format
from .tiebreaks import Entrant, RoundPairing, Tournament

MAX_ROUNDS = 11


class BlitzRefusal(enum.Enum):
    """Why a blitz round is not paired: a code the shell words in the member's language
    (``competition.events.services``); the value is the English text."""

    CANNOT_PAIR = "round {round} cannot be paired: {detail}"


class BlitzPairingError(ValueError):
    """No pairing of the round satisfies the Dutch system's absolute criteria; ``code``
    and ``params`` (``round``, the pairing library's ``detail``) say so."""

    def __init__(self, code: BlitzRefusal, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code.value.format(**params))


def propose_rounds(n_players: int) -> int:
    """Rounds for a blitz evening: ceil(log2 n) + 2, at most 11, and never so many that the
    Swiss could get stuck.

    log2 n rounds separate a clear winner; two more reduce ties. The cap n/2 (rounded
    down) keeps every later round pairable without rematches: after r-1 rounds each player
    still has at least n-r eligible opponents, and Dirac's theorem gives a perfect pairing
    while that is at least half the field. Small fields therefore get fewer rounds; for
    fewer than 6 players prefer a round robin (``berger.berger_rounds(k, double=False)``).
    """
    if n_players < 2:
        return 0
    ideal = math.ceil(math.log2(n_players)) + 2
    return max(1, min(ideal, MAX_ROUNDS, n_players // 2))


def _to_trf(tournament: Tournament, present: set[int], total_rounds: int) -> str:
    entrants = sorted(tournament.entrants, key=lambda e: e.number)
    ids = {e.number: i + 1 for i, e in enumerate(entrants)}
    renumbered = []
    for e in entrants:
        results = tuple(
            r if r.opponent is None else replace(r, opponent=ids[r.opponent]) for r in e.results
        )
        # The pairing needs no names: a neutral one, so a stored name with a control
        # character (refused by the TRF writer) can never stop a round from being paired.
        renumbered.append(Entrant(ids[e.number], results, f"Player {e.number}", e.rating))
    absent = sorted(ids[n] for n in ids if n not in present)
    headers: list[tuple[str, str]] = [("012", "Blitz"), ("XXR", str(total_rounds)), ("XXC", "white1")]
    if absent:
        headers.append(("XXZ", " ".join(map(str, absent))))
    trf = trf_format.from_tournament(Tournament(tuple(renumbered)), tuple(headers))
    players = tuple(replace(p, rank=p.number) for p in trf.players)  # py4swiss needs a rank
    return trf_format.write(replace(trf, players=players))


def pair_blitz_round(
    tournament: Tournament, present: Collection[int], total_rounds: int | None = None
) -> RoundPairing:
    """Pair the next round by the Dutch system among the ``present`` start numbers.

    ``total_rounds`` is the number of rounds of the evening (it decides the last round's
    topscorer rules); by default ``propose_rounds`` of the number of entrants.
    """
    numbers = [e.number for e in tournament.entrants]
    present_set = set(present)
    if not present_set <= set(numbers):
        raise ValueError(f"not in the tournament: {sorted(present_set - set(numbers))}")
    if len(present_set) < 2:
        return RoundPairing((), next(iter(present_set), None))
    rounds = total_rounds or max(propose_rounds(len(numbers)), tournament.rounds + 1)
    text = _to_trf(tournament, present_set, max(rounds, tournament.rounds + 1))
    back = {i + 1: n for i, n in enumerate(sorted(numbers))}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round.trf"
        path.write_text(text, encoding="utf-8")
        parsed = TrfParser.parse(path, strict=True)
    try:
        pairings = DutchEngine.generate_pairings(parsed)
    except PairingError as exc:
        raise BlitzPairingError(BlitzRefusal.CANNOT_PAIR, round=tournament.rounds + 1,
                                detail=str(exc)) from exc
    games = tuple((back[p.white], back[p.black]) for p in pairings if p.black)
    byes = [back[p.white] for p in pairings if not p.black]
    return RoundPairing(games, byes[0] if byes else None)
