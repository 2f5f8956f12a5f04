"""A Keizer or ladder half (or any run of evenings) as a FIDE TRF-16 file for rating: each
playing evening is a round, each game is coded with its colour and result.

Codes (TRF-16): ``1`` / ``=`` / ``0`` a played game; ``+`` / ``-`` a forfeit won or lost
(a double forfeit is ``-`` on both sides); ``0000 - U`` the pairing bye; ``0000 - Z`` an
evening without a game (absent, club duty, or a game left out). Games that were not
played (postponed, no result yet) are left out, and the export says which and why.

The player record carries what FIDE wants where it is known: "Lastname, Firstname" (with the
particles after the first names), sex, title, the FIDE rating, the player's own federation,
the FIDE id and the full birth date. The FIDE columns never hold a KNSB number: a file for
the KNSB (``rating=KNSB``) adds TRF-2026 National Rating Support records (``NED``, announced
by record ``172``) with the KNSB rating and relation number.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from competition.events.engine.trf import (
    TrfFile,
    TrfNational,
    TrfPlayer,
    TrfRound,
    fide_name,
    fide_title,
    report_headers,
    trf_date,
    write,
)

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
    fide_rating: int | None = None
    knsb_rating: int | None = None
    fide_id: str = ""
    knsb_number: str = ""
    federation: str = ""
    sex: str = ""  # "m" / "w" as TRF writes it, or blank
    title: str = ""  # the member's code: g, m, f, c, wg, wm, wf, wc
    birth_date: dt.date | None = None


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
    rating: str = FIDE,
    start_rating: str = FIDE,
    city: str = "",
    arbiter: str = "",
    federation: str = "NED",
    kind: str = "Keizer",
    time_control: str = "",
) -> Export:
    """The TRF of ``rounds`` for ``players`` (in starting order), for FIDE (``rating=FIDE``)
    or the KNSB (``KNSB``: NRS records with KNSB ratings and numbers). A player with neither
    a counted game nor a bye in these rounds is not in the file."""
    if rating not in (KNSB, FIDE):
        raise ValueError(f"unknown rating kind {rating!r}")
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
        rounds_of = tuple(codes[p.id])
        trf_players.append(TrfPlayer(
            number=numbers[p.id],
            name=fide_name(p.name),
            rating=p.fide_rating or 0,
            sex=p.sex,
            title=fide_title(p.title) if p.title else "",
            federation=p.federation,
            fide_id=p.fide_id.strip(),
            birth_date=trf_date(p.birth_date),
            points=sum((_POINTS[r.result] for r in rounds_of), Fraction(0)),
            rounds=rounds_of,
        ))
    # TRF wants a rank: by game points, then the starting order (the Keizer order is
    # the club's own; the rating officer needs only the games).
    order = sorted(trf_players, key=lambda p: (-p.points, p.number))
    rank = {p.number: i for i, p in enumerate(order, start=1)}
    trf_players = [replace(p, rank=rank[p.number]) for p in trf_players]
    national: tuple[TrfNational, ...] = ()
    if rating == KNSB:
        national = tuple(
            TrfNational("NED", numbers[p.id], p.knsb_rating or 0, p.knsb_number.strip())
            for p in included
        )
    headers = report_headers(
        name=name, city=city, federation=federation, dates=[r.date for r in rounds],
        players=len(included), rated=sum(1 for p in trf_players if p.rating),
        kind=kind, arbiter=arbiter, time_control=time_control, rounds=len(rounds),
        national=("NED", "NRO" if start_rating == KNSB else "FIDE") if national else None,
    )
    trf = TrfFile(headers, tuple(trf_players), national)
    return Export(trf=trf, text=write(trf), left_out=tuple(left_out), numbers=numbers)
