"""A Keizer or ladder half (or any run of evenings) as a FIDE TRF-16 file for rating: each
playing evening is a round, each game is coded with its colour and result.

Codes (TRF-16): ``1`` / ``=`` / ``0`` a played game; ``+`` / ``-`` a forfeit won or lost
(a double forfeit is ``-`` on both sides); ``0000 - U`` the pairing bye; ``0000 - Z`` an
evening without a game (absent, club duty, or a game left out). Games that were not
played (postponed, no result yet) are left out, and the export says which and why.

The ID column (58-68) carries the FIDE id or the KNSB relation number, as chosen: the
KNSB rates club competitions by relation number, FIDE by FIDE id.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from competition.events.engine.trf import TrfFile, TrfPlayer, TrfRound, write

from .matching import FIDE, KNSB

# Result codes of the competition's games (competition.models.Result values).
WHITE_WINS, DRAW, BLACK_WINS = "1-0", "1/2-1/2", "0-1"
WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN, DOUBLE_FORFEIT = "1-0F", "0-1F", "0-0F"
POSTPONED = "postponed"

_CODES = {
    WHITE_WINS: ("1", "0"),
    DRAW: ("=", "="),
    BLACK_WINS: ("0", "1"),
    WHITE_FORFEIT_WIN: ("+", "-"),
    BLACK_FORFEIT_WIN: ("-", "+"),
    DOUBLE_FORFEIT: ("-", "-"),
}
_POINTS = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1),
           "-": Fraction(0), "U": Fraction(1), "Z": Fraction(0)}

LEFT_OUT_POSTPONED = "postponed"
LEFT_OUT_NOT_PLAYED = "not_played"


@dataclass(frozen=True)
class ExportPlayer:
    id: int
    name: str
    rating: int | None
    fide_id: str = ""
    knsb_number: str = ""
    birth_year: int | None = None


@dataclass(frozen=True)
class ExportGame:
    white: int
    black: int
    result: str
    board: int = 0


@dataclass(frozen=True)
class ExportRound:
    date: dt.date
    games: tuple[ExportGame, ...] = ()
    bye: int | None = None  # the player with the pairing bye


@dataclass(frozen=True)
class LeftOut:
    date: dt.date
    white: int
    black: int
    reason: str  # LEFT_OUT_POSTPONED or LEFT_OUT_NOT_PLAYED


@dataclass(frozen=True)
class Export:
    trf: TrfFile
    text: str
    left_out: tuple[LeftOut, ...]
    numbers: dict[int, int]  # player id -> start number in the file


def _counted(game: ExportGame) -> bool:
    return game.result in _CODES


def export_trf(
    *,
    name: str,
    players: Sequence[ExportPlayer],
    rounds: Sequence[ExportRound],
    id_kind: str = KNSB,
    city: str = "",
    federation: str = "NED",
    kind: str = "Keizer",
    time_control: str = "",
) -> Export:
    """The TRF of ``rounds`` for ``players`` (in starting order). A player with neither
    a counted game nor a bye in these rounds is not in the file."""
    if id_kind not in (KNSB, FIDE):
        raise ValueError(f"unknown id kind {id_kind!r}")
    left_out: list[LeftOut] = []
    present: set[int] = set()
    for rnd in rounds:
        for g in rnd.games:
            if _counted(g):
                present |= {g.white, g.black}
            else:
                reason = LEFT_OUT_POSTPONED if g.result == POSTPONED else LEFT_OUT_NOT_PLAYED
                left_out.append(LeftOut(rnd.date, g.white, g.black, reason))
        if rnd.bye is not None:
            present.add(rnd.bye)
    included = [p for p in players if p.id in present]
    numbers = {p.id: n for n, p in enumerate(included, start=1)}
    codes: dict[int, list[TrfRound]] = {p.id: [] for p in included}
    for rnd in rounds:
        done: set[int] = set()
        for g in rnd.games:
            if not _counted(g):
                continue
            white_code, black_code = _CODES[g.result]
            codes[g.white].append(TrfRound(numbers[g.black], "w", white_code))
            codes[g.black].append(TrfRound(numbers[g.white], "b", black_code))
            done |= {g.white, g.black}
        if rnd.bye is not None and rnd.bye in codes:
            codes[rnd.bye].append(TrfRound(0, "-", "U"))
            done.add(rnd.bye)
        for pid in codes:
            if pid not in done:
                codes[pid].append(TrfRound(0, "-", "Z"))
    trf_players = []
    for p in included:
        number = p.fide_id if id_kind == FIDE else p.knsb_number
        rounds_of = tuple(codes[p.id])
        trf_players.append(TrfPlayer(
            number=numbers[p.id],
            name=p.name,
            rating=p.rating or 0,
            federation=federation,
            fide_id=number.strip(),
            birth_date=f"{p.birth_year}/00/00" if p.birth_year else "",
            points=sum((_POINTS[r.result] for r in rounds_of), Fraction(0)),
            rounds=rounds_of,
        ))
    # TRF wants a rank: by game points, then the starting order (the Keizer order is
    # the club's own; the rating officer needs only the games).
    order = sorted(trf_players, key=lambda p: (-p.points, p.number))
    rank = {p.number: i for i, p in enumerate(order, start=1)}
    trf_players = [replace(p, rank=rank[p.number]) for p in trf_players]
    dates = [r.date for r in rounds]
    headers: list[tuple[str, str]] = [("012", name)]
    if city:
        headers.append(("022", city))
    headers.append(("032", federation))
    if dates:
        headers += [("042", f"{min(dates):%Y/%m/%d}"), ("052", f"{max(dates):%Y/%m/%d}")]
    headers += [
        ("062", str(len(included))),
        ("072", str(sum(1 for p in included if p.rating))),
        ("092", kind),
    ]
    if time_control:
        headers.append(("122", time_control))
    if dates:
        # Round dates sit above the rounds' columns: the first at column 92, ten apart.
        headers.append(("132", " " * 87 + "  ".join(f"{d:%y/%m/%d}" for d in dates)))
    headers.append(("XXR", str(len(rounds))))
    trf = TrfFile(tuple(headers), tuple(trf_players))
    return Export(trf=trf, text=write(trf), left_out=tuple(left_out), numbers=numbers)
