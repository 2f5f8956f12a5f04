"""JSON reports of a Swiss event for the command line (``swiss_tiebreaks``, ``swiss_pair``).

Pure: a ``Tournament`` (or a pairing) in, a JSON-able dict out. Tie-break values are exact
``Fraction``s; in JSON they are numbers (all of them are multiples of ¼, so a float holds
them exactly).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import tiebreaks as swiss
from . import trf
from .tiebreaks import RoundPairing, Rules, Tournament

DEFAULT_ORDER: tuple[str, ...] = ("PTS", "DE", "BH-M1", "SB")
REPORTED: tuple[str, ...] = ("BH", "BH-C1", "BH-M1", "SB", "SB-C1")
_EMPTY = Tournament(())


def number_json(value: Fraction) -> int | float:
    """An exact JSON number: an int when whole, else the (exact) float."""
    return int(value) if value.denominator == 1 else float(value)


def parse_order(text: str, rules: Rules = "2024") -> tuple[str, ...]:
    """'PTS,DE,BH-M1,SB' -> ('PTS', 'DE', 'BH-M1', 'SB'); ValueError names a bad code."""
    codes = tuple(code.strip().upper() for code in text.split(",") if code.strip())
    if not codes:
        raise ValueError("the tie-break order is empty")
    for code in codes:
        if code != "DE":
            swiss.tiebreak(_EMPTY, code, rules)  # raises ValueError for an unknown code
    return codes


def tiebreak_report(
    tournament: Tournament, rules: Rules = "2024", order: Sequence[str] = DEFAULT_ORDER
) -> dict[str, Any]:
    """``{"players": [...]}`` in final order (equal players share a rank, then by start
    number): start, name, points, BH, BH-C1, BH-M1, SB, SB-C1 and the rank by ``order``."""
    values = {code: swiss.tiebreak(tournament, code, rules) for code in REPORTED}
    scores = tournament.scores()
    players = []
    for ranking in swiss.rank_players(tournament, order=tuple(order), rules=rules):
        number = ranking.number
        row: dict[str, Any] = {
            "start": number,
            "name": tournament.entrant(number).name,
            "points": number_json(scores[number]),
        }
        row.update({code: number_json(values[code][number]) for code in REPORTED})
        row["rank"] = ranking.rank
        players.append(row)
    return {"players": players}


def pairing_report(pairing: RoundPairing) -> dict[str, Any]:
    """``{"games": [{"white", "black"}], "bye": start number or None}``."""
    return {
        "games": [{"white": white, "black": black} for white, black in pairing.games],
        "bye": pairing.bye,
    }


@dataclass(frozen=True)
class NextRound:
    """What pairing the next round of a TRF needs."""

    tournament: Tournament
    present: frozenset[int]  # every start number not on an XXZ record
    total_rounds: int | None  # the XXR record, if any


def read_tournament(text: str) -> Tournament:
    """Parse a single-game TRF into the tie-break model; ``TrfError`` names the bad line."""
    return trf.to_tournament(trf.parse(text))


def read_next_round(text: str) -> NextRound:
    """The tournament, who is present (TRF-26 ``XXZ``: absent next round) and the planned
    number of rounds (``XXR``). ``TrfError`` names the bad line."""
    parsed = trf.parse(text)
    numbers = {p.number for p in parsed.players}
    absent: set[int] = set()
    total_rounds: int | None = None
    for line, code, value in _header_lines(text):
        if code == "XXZ":
            for token in value.split():
                if not (token.isascii() and token.isdigit()):
                    raise trf.TrfError(line, trf.TrfRefusal.ABSENT_NOT_A_NUMBER, value=token)
                if int(token) not in numbers:
                    raise trf.TrfError(line, trf.TrfRefusal.ABSENT_NOT_IN_FILE, value=token)
                absent.add(int(token))
        elif code == "XXR":
            text = value.strip()
            if not (text.isascii() and text.isdigit()) or int(text[:6]) > trf.MAX_ROUNDS:
                raise trf.TrfError(line, trf.TrfRefusal.BAD_ROUND_COUNT, value=text)
            total_rounds = int(value)
    return NextRound(trf.to_tournament(parsed), frozenset(numbers - absent), total_rounds)


def first_white(tournament: Tournament) -> bool:
    """Whether the first round gave white to the odd boards' higher player (C.04.3 E.5 and
    A.3 go on from it): read from the lowest start number who had a colour in round 1;
    True for a tournament not yet begun."""
    for entrant in sorted(tournament.entrants, key=lambda e: e.number):
        if entrant.results and entrant.results[0].colour:
            return entrant.results[0].colour == "w"
    return True


def _header_lines(text: str) -> list[tuple[int, str, str]]:
    """(line number, code, value) of every non-player record."""
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        if raw.strip() and raw[:3] != trf.PLAYER_CODE:
            out.append((n, raw[:3], raw[4:]))
    return out
