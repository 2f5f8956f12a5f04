"""FIDE Tournament Report File (TRF16, and TRF-26 files with the same player records).

``parse(text)`` reads a file into frozen dataclasses, ``write(trf)`` writes it back in the
fixed columns of the format, and ``to_tournament`` / ``from_tournament`` convert to and from
the tie-break model of ``competition.events.engine.tiebreaks``. Any defect raises one ``TrfError``
naming the line.

Player record ``001`` (1-based columns): 5-8 start number, 10 sex, 11-13 title, 15-47 name,
49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank,
then per round ten columns from 92: opponent (4), colour (w/b/-), result.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from core.singleline import check_single_line, control_characters

from .tiebreaks import Entrant, Kind, RoundResult, Tournament


class TrfField(enum.StrEnum):
    """A numeric field a refusal names (``TrfRefusal``'s ``field``); the value is English."""

    START_NUMBER = "start number"
    RATING = "rating"
    NATIONAL_RATING = "national rating"
    POINTS = "points"
    RANK = "rank"


class TrfRefusal(enum.Enum):
    """Why a TRF file cannot be read: a code the shell words in the member's language
    (``competition.events.texts``); the value is the English text, filled in from
    ``TrfError.params``."""

    FIELD_MISSING = "{field} is missing"
    FIELD_NOT_A_NUMBER = "{field} {value!r} is not a number"
    FIELD_TOO_HIGH = "{field} {value} is above {max}"
    POINTS_NOT_HALVES = "points {value!r} is not a multiple of 0.5"
    ROUND_LAYOUT = "round {round}: expected 'oooo c r', got {value!r}"
    OPPONENT_NOT_A_NUMBER = "round {round} opponent {value!r} is not a number"
    BAD_COLOUR = "round {round}: colour {value!r} is not w, b or -"
    UNKNOWN_RESULT = "round {round}: unknown result code {value!r}"
    BYE_WITH_OPPONENT = "round {round}: bye {result!r} with opponent {opponent}"
    RESULT_WITHOUT_OPPONENT = "round {round}: result {result!r} needs an opponent"
    GAME_WITHOUT_COLOUR = "round {round}: a played game needs colour w or b"
    RECORD_TOO_SHORT = "player record is shorter than {columns} columns"
    TOO_MANY_ROUNDS = "more than {max} rounds"
    CONTROL_CHARACTERS = "control characters in the record ({codes})"
    UNKNOWN_RECORD = "unknown record {value!r}"
    NUMBER_TWICE = "start number {number} already on line {first}"
    NATIONAL_WITHOUT_PLAYER = "{federation} record for start number {number}, who is not in the file"
    SECOND_PAIRING_BYE = (
        "round {round}: a second pairing-allocated bye (U); {other} already has the one of this round"
    )
    OPPONENT_NOT_IN_FILE = "round {round}: opponent {opponent} is not in the file"
    OPPONENT_DOES_NOT_LIST = "round {round}: opponent {opponent} does not list {number}"
    RESULTS_DISAGREE = (
        "round {round}: result {result!r} of {number} does not match {theirs!r} of {opponent}"
    )
    BOTH_WHITE = "round {round}: {number} and {opponent} both have white"
    BOTH_BLACK = "round {round}: {number} and {opponent} both have black"
    COLOURS_DISAGREE = "round {round}: {number} and {opponent} disagree on the colours"
    POINTS_DO_NOT_ADD_UP = "points {points} but the results add up to {total}"
    # The records ``report.read_next_round`` reads (TRF-26 XXZ, XXR).
    ABSENT_NOT_A_NUMBER = "XXZ: {value!r} is not a start number"
    ABSENT_NOT_IN_FILE = "XXZ: start number {value} is not in the file"
    BAD_ROUND_COUNT = "XXR: {value!r} is not a number of rounds"


class TrfError(ValueError):
    """A TRF file that cannot be read: ``line`` is the line number, ``code`` says why and
    ``params`` fill it in; ``str()`` is the English text (the command line)."""

    def __init__(self, line: int, code: TrfRefusal, **params: Any) -> None:
        self.line = line
        self.code = code
        self.params = params
        super().__init__(f"line {line}: {code.value.format(**params)}")


# Result codes: points for a single game, and whether the game was played.
PLAYED_CODES = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0)}
UNRATED_CODES = {"W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0)}  # < 1 move
FORFEIT_CODES = {"+": Fraction(1), "-": Fraction(0)}
BYE_CODES = {"H": Fraction(1, 2), "F": Fraction(1), "U": Fraction(1), "Z": Fraction(0), " ": Fraction(0)}
RESULT_CODES = {**PLAYED_CODES, **UNRATED_CODES, **FORFEIT_CODES, **BYE_CODES}

PLAYER_CODE = "001"
PLAYER_COLUMNS = 89  # a player record reaches at least to the rank (86-89)
RESULTS_COLUMN = 91  # 0-based start of round 1
ROUND_WIDTH = 10
# Limits that keep a hostile file cheap to refuse: no Swiss has more rounds, no rating is
# higher (the club's own rating fields stop at 3500 too).
MAX_ROUNDS = 99
MAX_RATING = 3500


@dataclass(frozen=True)
class TrfRound:
    opponent: int  # 0: none (bye, not paired)
    colour: str  # "w", "b" or "-"
    result: str  # one of RESULT_CODES

    @property
    def points(self) -> Fraction:
        return RESULT_CODES[self.result]


@dataclass(frozen=True)
class TrfPlayer:
    number: int
    name: str
    rating: int = 0
    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    points: Fraction = Fraction(0)
    rank: int = 0
    rounds: tuple[TrfRound, ...] = ()


@dataclass(frozen=True)
class TrfNational:
    """A TRF-2026 National Rating Support (NRS) record: the static columns of ``001``
    under the rating federation's code (``NED``), for the player with start ``number``."""

    federation: str
    number: int
    rating: int = 0
    national_id: str = ""
    origin: str = ""


@dataclass(frozen=True)
class TrfFile:
    """Header records (code, rest of line) in file order, then the player records, then
    the NRS records (TRF-2026; read as such when a ``172`` record names their federation)."""

    headers: tuple[tuple[str, str], ...]
    players: tuple[TrfPlayer, ...]
    national: tuple[TrfNational, ...] = ()

    def header(self, code: str) -> str | None:
        for c, value in self.headers:
            if c == code:
                return value
        return None


# ----------------------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------------------


def _int(field: str, line: int, what: TrfField, default: int | None = None) -> int:
    text = field.strip()
    if not text:
        if default is None:
            raise TrfError(line, TrfRefusal.FIELD_MISSING, field=what)
        return default
    if not (text.isascii() and text.isdigit()):  # '²'.isdigit() is true
        raise TrfError(line, TrfRefusal.FIELD_NOT_A_NUMBER, field=what, value=text)
    return int(text)


def _points(field: str, line: int) -> Fraction:
    text = field.strip() or "0"
    try:
        value = Fraction(text)
    except ValueError:
        raise TrfError(line, TrfRefusal.FIELD_NOT_A_NUMBER, field=TrfField.POINTS, value=text) from None
    if value < 0 or value * 2 != int(value * 2):
        raise TrfError(line, TrfRefusal.POINTS_NOT_HALVES, value=text)
    return value


def _round(chunk: str, line: int, rnd: int) -> TrfRound:
    chunk = chunk.ljust(8)
    if chunk[4] != " " or chunk[6] != " ":
        raise TrfError(line, TrfRefusal.ROUND_LAYOUT, round=rnd, value=chunk)
    number = chunk[0:4].strip()
    if number and not (number.isascii() and number.isdigit()):
        raise TrfError(line, TrfRefusal.OPPONENT_NOT_A_NUMBER, round=rnd, value=number)
    opponent = int(number or 0)
    colour = chunk[5].lower() if chunk[5] != " " else "-"
    result = chunk[7].upper() if chunk[7] != " " else "Z"
    if colour not in ("w", "b", "-"):
        raise TrfError(line, TrfRefusal.BAD_COLOUR, round=rnd, value=chunk[5])
    if result not in RESULT_CODES:
        raise TrfError(line, TrfRefusal.UNKNOWN_RESULT, round=rnd, value=chunk[7])
    if result in BYE_CODES and opponent:
        raise TrfError(line, TrfRefusal.BYE_WITH_OPPONENT, round=rnd, result=result, opponent=opponent)
    if result == "-" and not opponent:
        result = "Z"  # '0000 - -': not paired, same as a zero bye
    if result not in BYE_CODES and not opponent:
        raise TrfError(line, TrfRefusal.RESULT_WITHOUT_OPPONENT, round=rnd, result=result)
    if result in PLAYED_CODES or result in UNRATED_CODES:
        if colour == "-":
            raise TrfError(line, TrfRefusal.GAME_WITHOUT_COLOUR, round=rnd)
    return TrfRound(opponent, colour, result)


def _player(text: str, line: int) -> TrfPlayer:
    if len(text) < PLAYER_COLUMNS:
        raise TrfError(line, TrfRefusal.RECORD_TOO_SHORT, columns=PLAYER_COLUMNS)
    rounds_text = text[RESULTS_COLUMN:].rstrip()
    if len(rounds_text) > MAX_ROUNDS * ROUND_WIDTH:
        raise TrfError(line, TrfRefusal.TOO_MANY_ROUNDS, max=MAX_ROUNDS)
    rounds = []
    for i in range(0, len(rounds_text), ROUND_WIDTH):
        rounds.append(_round(rounds_text[i : i + 8], line, i // ROUND_WIDTH + 1))
    rating = _int(text[48:52], line, TrfField.RATING, default=0)
    if rating > MAX_RATING:
        raise TrfError(line, TrfRefusal.FIELD_TOO_HIGH, field=TrfField.RATING, value=rating, max=MAX_RATING)
    return TrfPlayer(
        number=_int(text[4:8], line, TrfField.START_NUMBER),
        sex=text[9].strip(),
        title=text[10:13].strip(),
        name=text[14:47].strip(),
        rating=rating,
        federation=text[53:56].strip(),
        fide_id=text[57:68].strip(),
        birth_date=text[69:79].strip(),
        points=_points(text[80:84], line),
        rank=_int(text[85:89], line, TrfField.RANK, default=0),
        rounds=tuple(rounds),
    )


# TRF16 ends every line with CR; files from other programs use CRLF or LF. Only these
# three end a line (str.splitlines would also split on form feed, U+001C..U+001E, U+0085
# and U+2028, which belong to no TRF and are refused as control characters instead).
_LINE_END = re.compile("\r\n|\r|\n")
COMMENT = "###"  # TRF-2026: a comment line, ignored
NRS_METHOD = "172"  # TRF-2026: federation (5-7) and starting rank method; announces NRS records


def parse(text: str) -> TrfFile:
    """Parse a TRF16 / TRF-26 text; ``TrfError`` names the first bad line."""
    headers: list[tuple[str, str]] = []
    players: list[TrfPlayer] = []
    national: list[tuple[int, TrfNational]] = []
    nrs_federations: set[str] = set()
    where: dict[int, int] = {}  # start number -> line
    for n, line in enumerate(_LINE_END.split(text), start=1):
        if not line.strip() or line.startswith(COMMENT):
            continue
        codes = control_characters(line)
        if codes:
            raise TrfError(n, TrfRefusal.CONTROL_CHARACTERS, codes=", ".join(codes))
        code = line[:3]
        if len(code) < 3 or not code.isalnum():
            raise TrfError(n, TrfRefusal.UNKNOWN_RECORD, value=line[:3])
        if code == PLAYER_CODE:
            player = _player(line, n)
            if player.number in where:
                raise TrfError(n, TrfRefusal.NUMBER_TWICE, number=player.number, first=where[player.number])
            where[player.number] = n
            players.append(player)
        elif code in nrs_federations:
            national.append((n, _national(line, n)))
        else:
            headers.append((code, line[4:] if len(line) > 4 else ""))
            if code == NRS_METHOD and len(line) >= 7:
                nrs_federations.add(line[4:7])
    numbers = {p.number for p in players}
    for n, record in national:
        if record.number not in numbers:
            raise TrfError(n, TrfRefusal.NATIONAL_WITHOUT_PLAYER, federation=record.federation,
                           number=record.number)
    trf = TrfFile(tuple(headers), tuple(players), tuple(r for _, r in national))
    _check(trf, where)
    return trf


def _national(text: str, line: int) -> TrfNational:
    rating = _int(text[48:52], line, TrfField.NATIONAL_RATING, default=0)
    if rating > MAX_RATING:
        raise TrfError(line, TrfRefusal.FIELD_TOO_HIGH, field=TrfField.NATIONAL_RATING, value=rating,
                       max=MAX_RATING)
    return TrfNational(
        federation=text[:3],
        number=_int(text[4:8], line, TrfField.START_NUMBER),
        rating=rating,
        origin=text[53:56].strip(),
        national_id=text[57:68].strip(),
    )


# The results that may stand against each other on the two sides of one pairing: a game
# against a game (1-0, =-=, 0-1), a game of less than one move against the same (W-L, D-D,
# L-W), a forfeit against a forfeit (+ -, - +, or - - for a double forfeit).
AGREEING = {
    ("1", "0"), ("=", "="), ("0", "1"),
    ("W", "L"), ("D", "D"), ("L", "W"),
    ("+", "-"), ("-", "+"), ("-", "-"),
}


def _check(trf: TrfFile, where: dict[int, int]) -> None:
    """Cross-checks: opponents exist and agree (results and colours), at most one
    pairing-allocated bye per round, and the points add up."""
    by_number = {p.number: p for p in trf.players}
    byes: dict[int, int] = {}  # round -> start number with the U
    for p in trf.players:
        line = where[p.number]
        for rnd, r in enumerate(p.rounds, start=1):
            if r.result == "U":
                if rnd in byes:
                    raise TrfError(line, TrfRefusal.SECOND_PAIRING_BYE, round=rnd, other=byes[rnd])
                byes[rnd] = p.number
            if not r.opponent:
                continue
            other = by_number.get(r.opponent)
            if other is None:
                raise TrfError(line, TrfRefusal.OPPONENT_NOT_IN_FILE, round=rnd, opponent=r.opponent)
            pair = {"round": rnd, "number": p.number, "opponent": r.opponent}
            if len(other.rounds) < rnd or other.rounds[rnd - 1].opponent != p.number:
                raise TrfError(line, TrfRefusal.OPPONENT_DOES_NOT_LIST, **pair)
            theirs = other.rounds[rnd - 1]
            if (r.result, theirs.result) not in AGREEING:
                raise TrfError(line, TrfRefusal.RESULTS_DISAGREE, result=r.result, theirs=theirs.result, **pair)
            if r.colour != "-" and r.colour == theirs.colour:
                both = TrfRefusal.BOTH_WHITE if r.colour == "w" else TrfRefusal.BOTH_BLACK
                raise TrfError(line, both, **pair)
            if (r.colour == "-") != (theirs.colour == "-"):
                raise TrfError(line, TrfRefusal.COLOURS_DISAGREE, **pair)
        total = sum((r.points for r in p.rounds), Fraction(0))
        if total != p.points:
            raise TrfError(line, TrfRefusal.POINTS_DO_NOT_ADD_UP, points=float(p.points), total=float(total))


# ----------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------


def _fmt_points(value: Fraction) -> str:
    return f"{float(value):4.1f}"


def _one_line(text: str, what: str) -> str:
    """A field as written: a control character would forge or break a record (NotSingleLine)."""
    return check_single_line(text, what)


def _write_player(p: TrfPlayer) -> str:
    what = f"player {p.number}"
    head = (
        f"{PLAYER_CODE} {p.number:4d} {_one_line(p.sex[:1], what):1}{_one_line(p.title[:3], what):>3} "
        f"{_one_line(p.name[:33], what + ' name'):<33} "
        f"{p.rating or '':>4} {_one_line(p.federation[:3], what):<3} {_one_line(p.fide_id[:11], what):>11} "
        f"{_one_line(p.birth_date[:10], what):<10} {_fmt_points(p.points)} {p.rank or '':>4}"
    )
    rounds = "".join(
        f"  {r.opponent if r.opponent else '0000':>4} {r.colour} {r.result}" for r in p.rounds
    )
    return (head + rounds).rstrip()


def _write_national(r: TrfNational) -> str:
    what = f"{r.federation} record {r.number}"
    return (
        f"{_one_line(r.federation[:3], what):<3} {r.number:4d} {'':1}{'':>3} {'':<33} "
        f"{r.rating or '':>4} {_one_line(r.origin[:3], what):<3} {_one_line(r.national_id[:11], what):>11}"
    ).rstrip()


# TRF16 and TRF-2026 (Remark 1): every line ends with CR. We write CR LF: the CR is there,
# and the `trf` package from PyPI splits lines on LF only (a CR-only file is one line to it).
LINE_END = "\r\n"


def write(trf: TrfFile) -> str:
    """The TRF text: headers first, then the player records in the order given, then the
    NRS records. A control character in any field raises NotSingleLine (a ValueError):
    a name with a line break must never forge a record."""
    lines = [f"{_one_line(code, 'record code')} {_one_line(value, 'record ' + code)}".rstrip()
             for code, value in trf.headers]
    lines += [_write_player(p) for p in trf.players]
    lines += [_write_national(r) for r in trf.national]
    return LINE_END.join(lines) + LINE_END


# ----------------------------------------------------------------------------------------
# Player fields as FIDE writes them
# ----------------------------------------------------------------------------------------

# Dutch (and the common foreign) name particles: FIDE's rating list writes them with the
# surname, the first one capitalised: "Van Foreest, Jorden", "De Haan, Yvonne".
PARTICLES = frozenset({
    "van", "de", "der", "den", "het", "'t", "te", "ten", "ter", "in", "op", "'s", "aan",
    "bij", "uit", "voor", "onder", "la", "le", "du", "des", "di", "da", "dos", "von", "vom", "zu",
})


def fide_name(name: str) -> str:
    """``"Yvonne de Haan"`` as FIDE lists it: ``"De Haan, Yvonne"``; ``"Jan van den Berg"``
    is ``"Van den Berg, Jan"``. A name that already has a comma, or is one word, stays as
    it is; without particles the last word is the surname."""
    # Split on spaces only: a control character stays in the name, for the writer to refuse.
    words = [w for w in name.split(" ") if w]
    if "," in name or len(words) < 2:
        return " ".join(words)
    first = next((i for i in range(1, len(words) - 1) if words[i].lower() in PARTICLES), None)
    if first is None:
        return f"{words[-1]}, {' '.join(words[:-1])}"
    surname = " ".join(words[first:])
    return f"{surname[:1].upper()}{surname[1:]}, {' '.join(words[:first])}"


def natural_name(name: str) -> str:
    """A TRF name back in the club's order: ``"De Haan, Yvonne"`` (and the older
    ``"Haan, Yvonne de"``) is ``"Yvonne de Haan"``: a particle within the name is lower case."""
    last, comma, first = name.partition(",")
    if not comma:
        return " ".join(name.split())
    surname = last.split()
    if len(surname) > 1 and surname[0].lower() in PARTICLES:
        surname[0] = surname[0].lower()
    return " ".join(first.split() + surname)


TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}


def fide_title(code: str) -> str:
    """A member's title code (``g``, ``wg``, ...) as the acronym TRF writes (``GM``, ``WGM``)."""
    return TITLES.get(code, code.upper())


def read_trf_date(text: str | None) -> dt.date | None:
    """A date record as TRF writes it (``YYYY/MM/DD``; ``.`` or ``-`` between the parts
    as some programs write them), or None when it is blank or no real date."""
    value = (text or "").strip()
    if len(value) != 10 or value[4] not in "/.-" or value[7] != value[4]:
        return None
    parts = value.split(value[4])
    if not all(part.isascii() and part.isdigit() for part in parts):
        return None
    try:
        return dt.date(int(parts[0]), int(parts[1]), int(parts[2]))
    except ValueError:
        return None


def trf_date(value: dt.date | None) -> str:
    """YYYY/MM/DD, or blank: never a partial date such as 1990/00/00."""
    return f"{value:%Y/%m/%d}" if value else ""


def round_dates(dates: list[dt.date]) -> str:
    """The value of record 132: YY/MM/DD above each round's columns (92-99, 102-109, ...)."""
    return " " * 87 + "  ".join(f"{d:%y/%m/%d}" for d in dates)


# ----------------------------------------------------------------------------------------
# Conversion to and from the tie-break model
# ----------------------------------------------------------------------------------------

_BYE_KINDS = {"H": Kind.HALF_BYE, "F": Kind.FULL_BYE, "U": Kind.PAIRING_BYE, "Z": Kind.ZERO_BYE}


def _colour(c: str) -> Literal["w", "b"] | None:
    return "w" if c == "w" else "b" if c == "b" else None


def _to_result(r: TrfRound) -> RoundResult:
    colour = _colour(r.colour)
    if r.result in _BYE_KINDS:
        return RoundResult.bye(_BYE_KINDS[r.result])
    if r.result in FORFEIT_CODES:
        return RoundResult.forfeit(r.opponent, won=r.result == "+", colour=colour)
    return RoundResult.game(r.opponent, r.points, colour)


def to_tournament(trf: TrfFile) -> Tournament:
    """The tie-break model of a (single-game) TRF; missing later rounds become zero byes."""
    rounds = max((len(p.rounds) for p in trf.players), default=0)
    entrants = []
    for p in trf.players:
        results = tuple(_to_result(r) for r in p.rounds)
        results += (RoundResult.bye(Kind.ZERO_BYE),) * (rounds - len(results))
        entrants.append(Entrant(p.number, results, p.name, p.rating))
    return Tournament(tuple(entrants))


def _code(r: RoundResult) -> TrfRound:
    if r.max_points != 1:
        raise ValueError("TRF holds single games only; a two-game match does not fit")
    if r.kind is Kind.PLAYED:
        assert r.opponent is not None
        code = {Fraction(1): "1", Fraction(1, 2): "=", Fraction(0): "0"}[r.points]
        return TrfRound(r.opponent, r.colour or "w", code)
    if r.kind in (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS):
        assert r.opponent is not None
        return TrfRound(r.opponent, r.colour or "w", "+" if r.kind is Kind.FORFEIT_WIN else "-")
    bye_code = {Kind.HALF_BYE: "H", Kind.FULL_BYE: "F", Kind.PAIRING_BYE: "U", Kind.ZERO_BYE: "Z"}
    return TrfRound(0, "-", bye_code[r.kind])


def from_tournament(
    tournament: Tournament,
    headers: tuple[tuple[str, str], ...] = (),
) -> TrfFile:
    """A TRF for a tournament; played games without a colour are written as white/black."""
    players = []
    for e in tournament.entrants:
        rounds = []
        for r in e.results:
            t = _code(r)
            if t.opponent and r.colour is None:
                # A TRF pairing needs colours; give the lower start number white.
                t = TrfRound(t.opponent, "w" if e.number < t.opponent else "b", t.result)
            rounds.append(t)
        players.append(
            TrfPlayer(number=e.number, name=e.name, rating=e.rating, points=e.score, rounds=tuple(rounds))
        )
    return TrfFile(headers, tuple(players))


def report_headers(
    *,
    name: str,
    dates: list[dt.date],
    players: int,
    rated: int,
    rounds: int,
    city: str = "",
    federation: str = "NED",
    kind: str = "",
    arbiter: str = "",
    time_control: str = "",
    national: tuple[str, str] | None = None,
) -> tuple[tuple[str, str], ...]:
    """The tournament records of a file for rating (C.04 Annex 2): 012 name, 022 city,
    032 federation, 042/052 first and last date (YYYY/MM/DD), 062/072 players and rated
    players, 092 type, 102 chief arbiter, 122 time control, 132 round dates, and ``XXR``;
    ``national`` = (federation, method) writes TRF-2026's 172 before NRS records. A record
    whose value is unknown (no city, no arbiter) is left out rather than written empty."""
    headers: list[tuple[str, str]] = [("012", name)]
    if city:
        headers.append(("022", city))
    if federation:
        headers.append(("032", federation))
    if dates:
        headers += [("042", trf_date(min(dates))), ("052", trf_date(max(dates)))]
    headers += [("062", str(players)), ("072", str(rated))]
    if kind:
        headers.append(("092", kind))
    if arbiter:
        headers.append(("102", arbiter))
    if time_control:
        headers.append(("122", time_control))
    if dates:
        headers.append(("132", round_dates(dates)))
    if national:
        headers.append((NRS_METHOD, f"{national[0]} {national[1]}"))
    headers.append(("XXR", str(rounds)))
    return tuple(headers)
