"""Last season's games from a file a club has: a TRF file (Sevilla's export for the KNSB)
or a games CSV (docs/operations.md, "Last season from a file"), read into one shape.

A file that cannot be read raises one ``ValidationError`` in the member's language that
names the line; nothing of it is kept.

The games CSV: a header row, then one game a row, the columns ``datum``, ``wit``, ``zwart``,
``uitslag`` (or in English ``date``, ``white``, ``black``, ``result``), separated by ``;``
or ``,``. A date is ``5-9-2025``, ``05-09-2025`` or ``2025-09-05``; a result is ``1-0``,
``0-1``, ``½-½`` (also ``1/2-1/2``, ``0,5-0,5`` and ``=``), or a forfeit: ``1-0r``,
``0-1r``, ``0-0r`` (reglementair). One evening a date; a player once an evening. A name
written two ways ("de Haan, Yvonne" and "Yvonne de Haan") is one player.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from competition.events.engine import trf as trf_engine
from competition.events.texts import trf_refusal
from competition.ratings.engine.lists import name_key

MAX_BYTES = 2 * 1024 * 1024  # a season's TRF of 40 players is some 20 KB
MAX_ROWS = 20_000


@dataclass
class FilePlayer:
    key: int  # the TRF start number; in a CSV the order of first appearance
    name: str
    rating: int | None = None
    number: str = ""  # KNSB relation number or FIDE id, when the file gives one


@dataclass
class FileEvening:
    date: dt.date
    games: list[tuple[int, int, str]] = field(default_factory=list)  # white, black, result
    byes: list[int] = field(default_factory=list)  # a pairing bye (TRF "U")
    absent_with_notice: list[int] = field(default_factory=list)  # TRF "H" (half-point bye)


@dataclass
class HistoryFile:
    kind: str  # "trf" or "csv"
    players: list[FilePlayer]
    evenings: list[FileEvening]

    @property
    def games(self) -> int:
        return sum(len(e.games) for e in self.evenings)


def _refuse(message: str) -> ValidationError:
    return ValidationError(_("%(problem)s Nothing was saved.") % {"problem": message})


def _text(raw: bytes) -> str:
    if not raw.strip():
        raise _refuse(_("The file is empty."))
    if len(raw) > MAX_BYTES:
        raise _refuse(_("The file is larger than %(mb)s MB; a season's games are far less.")
                      % {"mb": MAX_BYTES // (1024 * 1024)})
    if b"\x00" in raw[:4096] or raw.startswith(b"PK\x03\x04"):  # binary; a spreadsheet (zip)
        raise _refuse(_(NOT_TEXT))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")  # Sevilla writes Windows-1252
    except UnicodeDecodeError:  # a byte Windows-1252 does not have: no text file
        raise _refuse(_(NOT_TEXT)) from None


NOT_TEXT = gettext_noop("The file is no text file (UTF-8 or Windows-1252): upload the TRF file "
                        "from Sevilla, or save the spreadsheet as CSV.")


def read_history(raw: bytes, filename: str = "") -> HistoryFile:
    """A TRF file (it has ``001`` player records) or a games CSV."""
    text = _text(raw)
    first = next((line for line in text.splitlines() if line.strip()), "")
    if filename.lower().endswith((".trf", ".txt")) or re.match(r"^(001|012|042|132) ", first) \
            or "\n001 " in text:
        return _trf(text)
    return _csv(text)


# --- TRF --------------------------------------------------------------------------------


def _round_dates(trf: trf_engine.TrfFile, rounds: int) -> list[dt.date]:
    """Record 132 (the dates above the rounds), else weekly from the start date (042)."""
    found = re.findall(r"\d{2,4}[/.-]\d{2}[/.-]\d{2}", trf.header("132") or "")
    dates = []
    for text in found:
        parts = re.split(r"[/.-]", text)
        year = int(parts[0]) + (2000 if len(parts[0]) == 2 else 0)
        try:
            dates.append(dt.date(year, int(parts[1]), int(parts[2])))
        except ValueError:
            raise _refuse(_("Record 132 holds “%(v)s”, which is no date.") % {"v": text}) from None
    if len(dates) >= rounds:
        return dates[:rounds]
    start = trf_engine.read_trf_date(trf.header("042"))
    if start is None:
        raise _refuse(_("The file says on which dates its rounds were played neither in record "
                        "132 nor by a start date in record 042; export it again with the round "
                        "dates."))
    return [start + dt.timedelta(weeks=n) for n in range(rounds)]


_WHITE_RESULTS = {"1": "1-0", "W": "1-0", "=": "1/2-1/2", "D": "1/2-1/2", "0": "0-1", "L": "0-1"}


def _trf(text: str) -> HistoryFile:
    try:
        trf = trf_engine.parse(text)
    except trf_engine.TrfError as exc:
        raise _refuse(trf_refusal(exc)) from None
    if not trf.players:
        raise _refuse(_("The file has no players (no 001 records)."))
    national = {r.number: r.national_id for r in trf.national}
    players = [
        FilePlayer(key=p.number, name=trf_engine.natural_name(p.name), rating=p.rating or None,
                   number=national.get(p.number) or p.fide_id)
        for p in trf.players
    ]
    seen: dict[str, FilePlayer] = {}
    for player in players:
        first = seen.setdefault(name_key(player.name), player)
        if first is not player:
            raise _refuse(_("Players %(a)s and %(b)s have the same name, %(name)s: one player "
                            "twice, or two players to tell apart? Correct the name in the file.")
                          % {"a": first.key, "b": player.key, "name": player.name})
    rounds = max(len(p.rounds) for p in trf.players)
    dates = _round_dates(trf, rounds)
    evenings = [FileEvening(date) for date in dates]
    for p in trf.players:
        for n, r in enumerate(p.rounds):
            evening = evenings[n]
            if r.result == "U":
                evening.byes.append(p.number)
            elif r.result == "H":
                evening.absent_with_notice.append(p.number)
            elif r.opponent and (r.colour == "w" or (r.colour == "-" and p.number < r.opponent)):
                if r.result in _WHITE_RESULTS:
                    result = _WHITE_RESULTS[r.result]
                else:  # a forfeit: "+" or "-" on each side
                    theirs = next((o.rounds[n].result for o in trf.players
                                   if o.number == r.opponent), "-")
                    result = {("+", "-"): "1-0F", ("-", "+"): "0-1F"}.get((r.result, theirs), "0-0F")
                evening.games.append((p.number, r.opponent, result))
    _check_dates(evenings, line=None)
    played = [e for e in evenings if e.games or e.byes]
    if not played:
        raise _refuse(_("The file holds no games."))
    return HistoryFile("trf", players, played)


# --- The games CSV ------------------------------------------------------------------------

COLUMNS = {
    "date": ("datum", "date"),
    "white": ("wit", "white"),
    "black": ("zwart", "black"),
    "result": ("uitslag", "result", "resultaat"),
}
_RESULTS = {
    "1-0": "1-0", "0-1": "0-1", "½-½": "1/2-1/2", "1/2-1/2": "1/2-1/2", "0,5-0,5": "1/2-1/2",
    "0.5-0.5": "1/2-1/2", "=": "1/2-1/2", "=-=": "1/2-1/2", "remise": "1/2-1/2",
    "1-0r": "1-0F", "0-1r": "0-1F", "0-0r": "0-0F", "+-": "1-0F", "-+": "0-1F", "--": "0-0F",
}


def _date(text: str) -> dt.date | None:
    value = text.strip()
    for pattern, order in ((r"(\d{4})-(\d{1,2})-(\d{1,2})", "ymd"),
                           (r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})", "dmy")):
        m = re.fullmatch(pattern, value)
        if m:
            parts = dict(zip(order, (int(g) for g in m.groups()), strict=True))
            try:
                return dt.date(parts["y"], parts["m"], parts["d"])
            except ValueError:
                return None
    return None


def _csv(text: str) -> HistoryFile:
    lines = text.splitlines()
    delimiter = ";" if lines[0].count(";") >= lines[0].count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = [c.strip().lower() for c in next(reader)]
    where: dict[str, int] = {}
    for key, names in COLUMNS.items():
        index = next((header.index(n) for n in names if n in header), None)
        if index is None:
            raise _refuse(_(
                "Line 1 should name the columns datum, wit, zwart and uitslag (or date, white, "
                "black, result); the column “%(column)s” is missing (found: %(found)s).")
                % {"column": names[0], "found": ", ".join(header) or "–"})
        where[key] = index
    keys: dict[str, int] = {}
    players: list[FilePlayer] = []
    evenings: dict[dt.date, FileEvening] = {}
    seen: dict[tuple[dt.date, int], int] = {}
    for row in reader:
        line = reader.line_num
        if line > MAX_ROWS:
            raise _refuse(_("The file has more than %(n)s lines.") % {"n": MAX_ROWS})
        if not any(c.strip() for c in row):
            continue
        cells = {k: (row[i].strip() if i < len(row) else "") for k, i in where.items()}
        date = _date(cells["date"])
        if date is None:
            raise _refuse(_("line %(line)s: “%(v)s” is no date (write 5-9-2025).")
                          % {"line": line, "v": cells["date"][:20]})
        result = _RESULTS.get(cells["result"].replace(" ", "").lower())
        if result is None:
            raise _refuse(_("line %(line)s: “%(v)s” is no result (write 1-0, 0-1 or ½-½; a "
                            "forfeit 1-0r, 0-1r or 0-0r).")
                          % {"line": line, "v": cells["result"][:20]})
        pair: list[int] = []
        for side in ("white", "black"):
            name = " ".join(cells[side].split())
            if not name or len(name) > 120:
                raise _refuse(_("line %(line)s: the name of %(side)s is empty or too long.")
                              % {"line": line, "side": _("white") if side == "white" else _("black")})
            same = name_key(name) or name  # "de Haan, Yvonne" is Yvonne de Haan
            if same not in keys:
                keys[same] = len(players) + 1
                players.append(FilePlayer(key=keys[same], name=name))
            pair.append(keys[same])
        if pair[0] == pair[1]:
            raise _refuse(_("line %(line)s: %(name)s plays against himself.")
                          % {"line": line, "name": cells["white"]})
        for player in pair:
            if (date, player) in seen:
                raise _refuse(_("line %(line)s: %(name)s plays twice on %(date)s (also on line "
                                "%(first)s).") % {"line": line, "name": players[player - 1].name,
                                                  "date": _day(date), "first": seen[date, player]})
            seen[date, player] = line
        evenings.setdefault(date, FileEvening(date)).games.append((pair[0], pair[1], result))
    if not evenings:
        raise _refuse(_("The file holds no games."))
    return HistoryFile("csv", players, sorted(evenings.values(), key=lambda e: e.date))


def _day(date: dt.date) -> str:
    from django.utils.formats import date_format

    return date_format(date, "j F Y")


def _check_dates(evenings: list[FileEvening], line: int | None) -> None:
    for before, after in zip(evenings, evenings[1:], strict=False):
        if after.date <= before.date:
            raise _refuse(_("The rounds' dates are not in order: %(a)s comes before %(b)s.")
                          % {"a": _day(before.date), "b": _day(after.date)})
