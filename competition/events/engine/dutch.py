"""The blitz championship's pairing: FIDE Dutch system through py4swiss (docs/rules.md 8).

py4swiss 0.3.x implements C.04.3 "FIDE (Dutch) System" in the edition effective until
31 January 2026 (approved 2017, the rules since the 2017 rewrite: ``edition="2017"``); the
edition in force from 1 February 2026 (``edition="2026"``) is ``dutch2026.Engine2026``, the
changed articles applied on top of py4swiss's engine. It reads a TRF(x) file, so this adapter writes one with
``competition.events.engine.trf``: start numbers are renumbered 1..N in start-number order, the
absent players are listed on an ``XXZ`` line, the top seed has white in round 1
(``XXC white1``).
"""

from __future__ import annotations

import datetime as dt
import enum
import math
import tempfile
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from py4swiss.engines.common import PairingError
from py4swiss.trf import TrfParser

from . import trf as trf_format
from .dutch2026 import Engine2026
from .dutch_brackets import Engine2017, Observer
from .tiebreaks import Entrant, Kind, RoundPairing, Tournament

MAX_ROUNDS = 11

# C.04.3 editions: "2017" is the text effective until 31 January 2026, "2026" the one in
# force from 1 February 2026 (docs/swiss.md, "Dutch editions").
Edition = Literal["2017", "2026"]
EDITIONS: tuple[Edition, ...] = ("2017", "2026")
EDITION_2026_FROM = dt.date(2026, 2, 1)


def edition_for(date: dt.date | None) -> Edition:
    """The edition in force on an event's date; an event without a date pairs by the
    current one."""
    return "2017" if date is not None and date < EDITION_2026_FROM else "2026"


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


def _paired_before(entrant: Entrant) -> bool:
    """He took part in the pairing of a round: a game (played or forfeited) or the
    pairing-allocated bye; a bye of his own or an absence is none."""
    return any(r.opponent is not None or r.kind in (Kind.PAIRING_BYE, Kind.FORFEIT_WIN) for r in entrant.results)


def _listed(tournament: Tournament, present: Collection[int], absent_marks: bool) -> list[Entrant]:
    """The entrants the TRF lists, in start-number order: the players present and those
    paired before (a game, a forfeit, the pairing-allocated bye). An absent player who was
    never paired is left out, so that he moves nobody's pairing number, whose parity gives
    the colours of two players without a colour preference (E.5): bbpPairings numbers so,
    5.0.1 (2017) as 6.0.0 (2026), so both editions alike; py4swiss would number every
    player listed."""
    entrants = sorted(tournament.entrants, key=lambda e: e.number)
    if absent_marks:
        return entrants
    return [e for e in entrants if e.number in present or _paired_before(e)]


def round_trf(
    tournament: Tournament, present: Collection[int], total_rounds: int, *, absent_marks: bool = False,
    first_white: bool = True,
) -> str:
    """The TRF(x) the engine pairs: start numbers renumbered 1..N, the absent players on an
    ``XXZ`` line, or (``absent_marks``, for engines that read no ``XXZ``) with a
    ``0000 - Z`` entry for the round being paired."""
    entrants = _listed(tournament, present, absent_marks)
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
    headers: list[tuple[str, str]] = [("012", "Blitz"), ("XXR", str(total_rounds)), ("XXC", "white1" if first_white else "black1")]
    if absent and not absent_marks:
        headers.append(("XXZ", " ".join(map(str, absent))))
    trf = trf_format.from_tournament(Tournament(tuple(renumbered)), tuple(headers))
    players = tuple(replace(p, rank=p.number) for p in trf.players)  # py4swiss needs a rank
    if absent and absent_marks:
        away = set(absent)
        players = tuple(
            replace(p, rounds=(*p.rounds, trf_format.TrfRound(0, "-", "Z"))) if p.number in away else p
            for p in players
        )
    return trf_format.write(replace(trf, players=players))


def engine_numbers(tournament: Tournament, present: Collection[int]) -> dict[int, int]:
    """The start number of each of the engine's players (its ids, 1..N in ``round_trf``)."""
    return {i + 1: e.number for i, e in enumerate(_listed(tournament, set(present), False))}


def pair_blitz_round(
    tournament: Tournament,
    present: Collection[int],
    total_rounds: int | None = None,
    edition: Edition = "2026",
    *,
    first_white: bool = True,
    observer: Observer | None = None,
) -> RoundPairing:
    """Pair the next round by the Dutch system among the ``present`` start numbers.

    ``total_rounds`` is the number of rounds of the evening (it decides the last round's
    topscorer rules); by default ``propose_rounds`` of the number of entrants. ``edition``
    is the C.04.3 text that applies (``edition_for`` the event's date). ``first_white``:
    the top seed had (or has) white in round 1 (the initial colour; the events always draw
    white, a generated reference tournament may have drawn black). ``observer`` sees every
    bracket as it is paired (``explain``), in the engine's numbers (``engine_numbers``).
    """
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition of the Dutch system: {edition!r}")
    numbers = [e.number for e in tournament.entrants]
    present_set = set(present)
    if not present_set <= set(numbers):
        raise ValueError(f"not in the tournament: {sorted(present_set - set(numbers))}")
    if len(present_set) < 2:
        return RoundPairing((), next(iter(present_set), None))
    rounds = total_rounds or max(propose_rounds(len(numbers)), tournament.rounds + 1)
    text = round_trf(tournament, present_set, max(rounds, tournament.rounds + 1), first_white=first_white)
    back = engine_numbers(tournament, present_set)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round.trf"
        path.write_text(text, encoding="utf-8")
        parsed = TrfParser.parse(path, strict=True)
    try:
        engine = Engine2026 if edition == "2026" else Engine2017
        pairings = engine.generate_pairings(parsed, observer)
    except PairingError as exc:
        raise BlitzPairingError(BlitzRefusal.CANNOT_PAIR, round=tournament.rounds + 1,
                                detail=str(exc)) from exc
    games = tuple((back[p.white], back[p.black]) for p in pairings if p.black)
    byes = [back[p.white] for p in pairings if not p.black]
    return RoundPairing(games, byes[0] if byes else None)
