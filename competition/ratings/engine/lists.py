"""Rating lists read as a stream: FIDE's fixed-width text list, FIDE's XML list and a CSV
file with a header row. Only the entries the club asks for (``Wanted``) are kept, so a
list of 1.5 million players is read in bounded memory.

Every defect raises ``RatingListError``: an unknown format, a missing column, a rating
outside 0-3500, a number that is not a number, a duplicate number. Duplicates are looked
for among the kept entries (those that concern the club): finding them in the whole list
would need the whole list in memory.

Whatever the file, memory stays bounded: every byte comes through ``_Bounded``, which
refuses more than ``max_bytes`` unpacked bytes in all and more than ``MAX_ENTRY_BYTES``
between two entries (one endless line, one endless XML element). XML is parsed by
defusedxml with every DTD refused at the parser, so no entity is ever expanded.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from core.singleline import CONTROL, control_characters

from .errors import (
    BAD_NUMBER,
    CONTROL_CHARACTER,
    DAMAGED,
    DUPLICATE_NUMBER,
    EMPTY,
    ENCRYPTED_ZIP,
    ENTRY_TOO_LONG,
    FIELD_TOO_LONG,
    MISSING_COLUMN,
    RATING_OUT_OF_RANGE,
    TOO_LARGE,
    UNKNOWN_FORMAT,
    UNSUPPORTED_ZIP,
    RatingListError,
)

FIDE_TXT = "fide_txt"
FIDE_XML = "fide_xml"
CSV = "csv"

MAX_RATING = 3500
PROGRESS_EVERY = 20_000  # lines (or players) between two progress reports
HEAD_BYTES = 8192
BUFFER_BYTES = 64 * 1024
MAX_BYTES = 2**30  # unpacked; FIDE's largest list (XML, all players) is about half of it
MAX_ENTRY_BYTES = 2**20  # between two entries: a FIDE line is 160 bytes, an XML player 500
ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)

STANDARD = "standard"
RAPID = "rapid"
BLITZ = "blitz"
LIST_KINDS = (STANDARD, RAPID, BLITZ)

Progress = Callable[[float], None]  # fraction of the file read, 0..1


@dataclass(frozen=True)
class ListEntry:
    """One player of a rating list. ``number`` is the federation number as digits
    without leading zeros, or "" when the list gives none."""

    number: str
    name: str
    rating: int | None
    line: int
    federation: str = ""
    birth_year: int | None = None


def name_key(name: str) -> str:
    """A name for comparing: no accents, no case, no punctuation, words sorted, so that
    FIDE's "Vries, Jan de" and the club's "Jan de Vries" are the same."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    return " ".join(sorted(re.findall(r"[a-z0-9]+", plain)))


# How German (and Scandinavian) names are written in ASCII: FIDE's list has "Mueller,
# Juergen" for Jürgen Müller, and sometimes "Muller, Jurgen".
_TRANSLITERATION = str.maketrans({
    "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue",
    "æ": "ae", "Æ": "Ae", "ø": "oe", "Ø": "Oe",
})


def name_keys(name: str) -> frozenset[str]:
    """Every key a name is known by: accents stripped (Müller -> muller) and the German
    transliteration (Müller -> mueller). Two names look alike when their keys meet."""
    return frozenset({name_key(name), name_key(unicodedata.normalize("NFC", name)
                                               .translate(_TRANSLITERATION))})


@dataclass(frozen=True)
class Wanted:
    """What to keep from a list: entries with one of ``numbers``, and entries whose
    name key is one of ``names`` (members without a number). Nothing wanted: keep all."""

    numbers: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    keep_all: bool = False
    _words: frozenset[str] = field(default=frozenset(), init=False, repr=False)

    def __post_init__(self) -> None:
        words = frozenset(w for key in self.names for w in key.split())
        object.__setattr__(self, "_words", words)

    def keeps(self, number: str, name: str) -> bool:
        if self.keep_all or (number and number in self.numbers):
            return True
        if not self.names:
            return False
        # Cheap test first: one word of the name must be a word of a wanted name.
        first = re.split(r"[\s,]+", name.strip().lower(), maxsplit=1)[0]
        if first and first.isascii() and first not in self._words:
            return False
        return not self.names.isdisjoint(name_keys(name))


def _digits(value: str) -> bool:
    """ASCII digits only: "²", "٣" and "١٩٠٠" are digits to Python, no numbers here."""
    return value.isascii() and value.isdigit()


def _shown(value: str) -> str:
    return value[:40]  # a message quotes a cell, not a megabyte


def normal_number(text: str, line: int) -> str:
    value = text.strip()
    if not value:
        return ""
    if not _digits(value):
        raise RatingListError(BAD_NUMBER, line=line, value=_shown(value))
    return str(int(value))


def _rating(text: str, line: int) -> int | None:
    """A rating in ASCII digits, 0-3500; 0 is "no rating" in every list (FIDE's and the
    KNSB's write it so; a member's 1824 must not become 0 from a CSV's empty rating)."""
    value = text.strip()
    if not value:
        return None
    if not _digits(value):
        raise RatingListError(RATING_OUT_OF_RANGE, line=line, rating=_shown(value))
    rating = int(value)
    if not 0 <= rating <= MAX_RATING:
        raise RatingListError(RATING_OUT_OF_RANGE, line=line, rating=rating)
    if rating == 0:
        return None
    return rating


def _year(text: str) -> int | None:
    value = text.strip()[:4]
    return int(value) if len(value) == 4 and _digits(value) and value != "0000" else None


def _encoding(head: bytes) -> str:
    """The text encoding from the first bytes: a byte order mark (Excel's "Unicode text"
    is UTF-16 with one), else UTF-8 when it decodes, else Windows-1252."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return "utf-8" if _is_utf8(head) else "cp1252"


def _head_text(head: bytes) -> str:
    encoding = _encoding(head)
    if encoding == "utf-16" and len(head) % 2:
        head = head[:-1]
    return head.decode(encoding, errors="ignore" if encoding == "utf-16" else "replace")


def _is_utf8(head: bytes) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a character cut off at the end of the sample
    return True


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:  # older lists and spreadsheet exports
        return raw.decode("cp1252", errors="replace")


class _Kept:
    """The kept entries, refusing a number seen before."""

    def __init__(self) -> None:
        self.entries: list[ListEntry] = []
        self._lines: dict[str, int] = {}

    def add(self, entry: ListEntry) -> None:
        for text in (entry.name, entry.federation):
            if CONTROL.search(text):
                raise RatingListError(CONTROL_CHARACTER, line=entry.line,
                                      codes=", ".join(control_characters(text)))
        if entry.number:
            first = self._lines.setdefault(entry.number, entry.line)
            if first != entry.line:
                raise RatingListError(
                    DUPLICATE_NUMBER, line=entry.line, number=entry.number, first=first
                )
        self.entries.append(entry)


# --- Opening and recognising a file -------------------------------------------------------


class _Bounded(io.RawIOBase):
    """The bytes of a list, bounded: at most ``max_bytes`` in all, at most
    ``MAX_ENTRY_BYTES`` since the last entry (``mark``). A zip's own errors (a bad CRC,
    a cut-off stream) become a damaged list."""

    def __init__(self, inner: BinaryIO, *, max_bytes: int = MAX_BYTES, archive: zipfile.ZipFile | None = None) -> None:
        self._inner = inner
        self._archive = archive
        self.max_bytes = max_bytes
        self.count = 0
        self.marked = 0
        self.line = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            data = self._inner.read(len(buffer))
        except RatingListError:
            raise
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError,
                NotImplementedError):
            raise RatingListError(DAMAGED, line=self.line + 1) from None
        n = len(data)
        self.count += n
        if self.count > self.max_bytes:
            raise RatingListError(TOO_LARGE, limit=self.max_bytes // 2**20)
        if self.count - self.marked > MAX_ENTRY_BYTES + BUFFER_BYTES:
            raise RatingListError(ENTRY_TOO_LONG, line=self.line + 1,
                                  limit=MAX_ENTRY_BYTES // 1024)
        buffer[:n] = data
        return n

    def mark(self, line: int) -> None:
        """An entry was read: the next one may take ``MAX_ENTRY_BYTES`` again."""
        self.marked, self.line = self.count, line

    def close(self) -> None:
        if not self.closed:
            self._inner.close()
            if self._archive is not None:
                self._archive.close()
        super().close()


def _buffered(raw: _Bounded) -> io.BufferedReader:
    return io.BufferedReader(raw, buffer_size=BUFFER_BYTES)


def open_list(path: str, *, max_bytes: int = MAX_BYTES) -> tuple[BinaryIO, int]:
    """The list's bytes as a bounded stream, and their size; a zip (as FIDE publishes
    them) is read from its first file without unpacking it to disk. An encrypted zip, an
    unknown compression method or more than ``max_bytes`` unpacked are refused."""
    with open(path, "rb") as probe:
        zipped = probe.read(4) == b"PK\x03\x04"
    if not zipped:
        stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
        stream.seek(0, io.SEEK_END)
        size = stream.tell()
        stream.seek(0)
        if size > max_bytes:
            stream.close()
            raise RatingListError(TOO_LARGE, limit=max_bytes // 2**20)
        return _buffered(_Bounded(stream, max_bytes=max_bytes)), size
    try:
        archive = zipfile.ZipFile(path)
    except RatingListError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError,
            NotImplementedError, RuntimeError):
        raise RatingListError(UNKNOWN_FORMAT) from None
    try:
        members = [i for i in archive.infolist() if not i.is_dir()]
        if not members:
            raise RatingListError(UNKNOWN_FORMAT)
        info = members[0]
        if info.flag_bits & 0x1:
            raise RatingListError(ENCRYPTED_ZIP)
        if info.compress_type not in ZIP_METHODS:
            raise RatingListError(UNSUPPORTED_ZIP)
        if info.file_size > max_bytes:
            raise RatingListError(TOO_LARGE, limit=max_bytes // 2**20)
        try:
            inner = archive.open(info)
        except RuntimeError:  # "password required"
            raise RatingListError(ENCRYPTED_ZIP) from None
        except (NotImplementedError, zipfile.BadZipFile, OSError, ValueError, EOFError):
            raise RatingListError(UNSUPPORTED_ZIP) from None
    except BaseException:
        archive.close()
        raise
    raw = _Bounded(inner, max_bytes=max_bytes, archive=archive)  # type: ignore[arg-type]
    return _buffered(raw), info.file_size


def zip_member_name(path: str) -> str:
    """The name of the file inside a zip ("" for a file that is not one): FIDE's names
    say which list it is (standard_sep25frl.txt, rapid_sep25frl.txt)."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = [i for i in archive.infolist() if not i.is_dir()]
            return members[0].filename if members else ""
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        return ""


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_LABEL = re.compile(r"(?<![a-z])(" + "|".join(_MONTHS) + r")(\d{2})(?!\d)", re.IGNORECASE)
_YEAR_MONTH = re.compile(r"(?<!\d)(20\d{2})[-_.]?(0[1-9]|1[0-2])(?!\d)")
_RAPID = re.compile(r"(?<![a-z])(rapid|rpd|snel|snelschaak|quick)", re.IGNORECASE)
_BLITZ = re.compile(r"(?<![a-z])(blitz|btz|bliksem)", re.IGNORECASE)


def list_date(*texts: str) -> dt.date | None:
    """The list's month from its month label ("SEP25" in FIDE's header and file names)
    or a year and month ("2025-09") in a file name: the first of that month."""
    for text in texts:
        label = _MONTH_LABEL.search(text)
        if label:
            return dt.date(2000 + int(label.group(2)), _MONTHS.index(label.group(1).lower()) + 1, 1)
        numeric = _YEAR_MONTH.search(text)
        if numeric:
            return dt.date(int(numeric.group(1)), int(numeric.group(2)), 1)
    return None


def list_kind(*texts: str) -> str:
    """Standard, rapid or blitz, from the file names and the header (FIDE's rapid and
    blitz lists have the standard list's layout: only their names tell them apart)."""
    for text in texts:
        if _RAPID.search(text):
            return RAPID
        if _BLITZ.search(text):
            return BLITZ
    return STANDARD


def first_line(head: bytes) -> str:
    """The first line of the file (its header), for ``list_date`` and ``list_kind``."""
    return _first_line(head)


def _first_line(head: bytes) -> str:
    text = _head_text(head).lstrip("\ufeff").lstrip()
    return text.splitlines()[0] if text else ""


def detect(head: bytes) -> str:
    """The format of a list from its first bytes (UTF-8, UTF-16 or Windows-1252)."""
    if _head_text(head).lstrip("\ufeff").lstrip().startswith("<"):
        return FIDE_XML
    first = _first_line(head)
    if re.match(r"\s*ID\s+Number\b", first) and "Name" in first:
        return FIDE_TXT
    cells = _split_header(first) if _delimiter(first) else []
    if len(cells) >= 2 and all(0 < len(c) <= 30 and "." not in c for c in cells):
        return CSV
    raise RatingListError(UNKNOWN_FORMAT)


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (";", "\t", ",")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ""


def _split_header(header: str) -> list[str]:
    delimiter = _delimiter(header)
    row = next(csv.reader([header], delimiter=delimiter)) if delimiter else [header]
    return [c.strip() for c in row]


def csv_header(head: bytes) -> list[str]:
    """The column names of a CSV file, for the leader's mapping; a control character (a
    NUL) in the header row is refused."""
    columns = [c for c in _split_header(_first_line(head)) if c]
    codes = control_characters("".join(columns))
    if codes:
        raise RatingListError(CONTROL_CHARACTER, line=1, codes=", ".join(codes))
    return columns


# The leader maps these fields to columns; the first three are required.
CSV_FIELDS = ("number", "name", "rating", "birth_year", "federation")
CSV_REQUIRED = ("number", "name", "rating")
_GUESSES = {
    "number": ("relatienummer", "relnr", "knsb", "fideid", "fide id", "id", "nummer", "number", "nr"),
    "name": ("naam", "name", "speler", "player"),
    "rating": ("rating", "elo", "rtg", "knsb rating", "rating knsb"),
    "birth_year": ("geboortejaar", "birth year", "jaar", "born", "b-day", "birthday"),
    "federation": ("federatie", "fed", "federation", "land", "country"),
}


def guess_mapping(header: list[str]) -> dict[str, str]:
    """A first proposal for the mapping, by column name (the leader confirms it)."""
    lowered = {c.lower(): c for c in header}
    mapping: dict[str, str] = {}
    for fld, names in _GUESSES.items():
        for candidate in names:
            if candidate in lowered and lowered[candidate] not in mapping.values():
                mapping[fld] = lowered[candidate]
                break
    return mapping


# --- Reading --------------------------------------------------------------------------------


def read_list(
    stream: BinaryIO,
    *,
    wanted: Wanted,
    fmt: str | None = None,
    mapping: dict[str, str] | None = None,
    total: int = 0,
    progress: Progress | None = None,
    max_bytes: int = MAX_BYTES,
) -> list[ListEntry]:
    """The kept entries of the list in ``stream`` (format detected unless ``fmt``), read
    in bounded memory whatever the file (a stream from ``open_list`` is bounded already)."""
    bounded = getattr(stream, "raw", None)
    if not isinstance(bounded, _Bounded):
        bounded = _Bounded(stream, max_bytes=max_bytes)
        stream = _buffered(bounded)
    head = stream.peek(HEAD_BYTES)[:HEAD_BYTES]  # type: ignore[attr-defined]
    if not head.strip():
        raise RatingListError(EMPTY)
    fmt = fmt or detect(head)
    report = _reporter(bounded, total, progress)
    if fmt == FIDE_TXT:
        rows = _fide_txt(stream, head, report)
    elif fmt == FIDE_XML:
        rows = _fide_xml(stream, report)
    elif fmt == CSV:
        rows = _csv(stream, head, mapping or {}, report)
    else:
        raise RatingListError(UNKNOWN_FORMAT)
    kept = _Kept()
    seen = 0
    for entry in rows:
        seen += 1
        bounded.marked, bounded.line = bounded.count, entry.line  # as ``mark``, inlined: per entry
        if wanted.keeps(entry.number, entry.name):
            kept.add(entry)
    if not seen:
        raise RatingListError(EMPTY)
    if progress:
        progress(1.0)
    return kept.entries


def _reporter(bounded: _Bounded, total: int, progress: Progress | None) -> Callable[[], None]:
    def report() -> None:
        if progress and total:
            progress(min(bounded.count / total, 0.99))

    return report


def _text_lines(stream: BinaryIO, head: bytes) -> Iterator[bytes | str]:
    """The lines of a text list: bytes (decoded line by line, fast, and an old list in
    Windows-1252 next to UTF-8 lines still reads), or str from a UTF-16 text stream."""
    if _encoding(head) == "utf-16":
        return iter(io.TextIOWrapper(stream, encoding="utf-16", errors="replace", newline=""))
    return iter(stream)


def _fide_columns(header: str) -> dict[str, tuple[int, int | None]]:
    """Column spans from FIDE's header line: the lists move their columns between
    editions (standard list, combined list), the header says where they are."""
    labels = [(m.group(0), m.start()) for m in re.finditer(r"ID Number|\S+", header)]
    spans: dict[str, tuple[int, int | None]] = {}
    for i, (label, start) in enumerate(labels):
        end = labels[i + 1][1] if i + 1 < len(labels) else None
        spans[label.lower()] = (start, end)
    rating = next((lbl for lbl, _ in labels if re.fullmatch(r"[A-Za-z]{3}\d{2}", lbl)), None)
    rating = rating or next((lbl for lbl, _ in labels if lbl in ("SRtng", "Rtng")), None)
    for needed in ("ID Number", "Name"):
        if needed.lower() not in spans:
            raise RatingListError(MISSING_COLUMN, column=needed)
    if rating is None:
        raise RatingListError(MISSING_COLUMN, column="rating")
    spans["rating"] = spans[rating.lower()]
    return spans


def _fide_txt(stream: BinaryIO, head: bytes, report: Callable[[], None]) -> Iterator[ListEntry]:
    spans: dict[str, tuple[int, int | None]] | None = None
    for n, line in enumerate(_text_lines(stream, head), start=1):
        text = (line if isinstance(line, str) else _decode(line)).rstrip("\r\n")
        if n == 1:
            text = text.lstrip("\ufeff")
        if not text.strip():
            continue
        if spans is None:
            spans = _fide_columns(text)
            id_span, name_span, rating_span = spans["id number"], spans["name"], spans["rating"]
            fed_span = spans.get("fed", (0, 0))
            year_span = spans.get("b-day", (0, 0))
            continue
        if n % PROGRESS_EVERY == 0:
            report()
        yield ListEntry(
            number=normal_number(text[id_span[0]:id_span[1]], n),
            name=text[name_span[0]:name_span[1]].strip(),
            rating=_rating(text[rating_span[0]:rating_span[1]], n),
            line=n,
            federation=text[fed_span[0]:fed_span[1]].strip(),
            birth_year=_year(text[year_span[0]:year_span[1]]),
        )
    if spans is None:
        raise RatingListError(EMPTY)


def _fide_xml(stream: BinaryIO, report: Callable[[], None]) -> Iterator[ListEntry]:
    # defusedxml refuses a DTD (and so every entity declaration) at the parser, wherever
    # it stands and in whatever encoding: a rating list has none.
    root = None
    count = 0
    checked = False
    try:
        for event, elem in iterparse(stream, events=("start", "end"), forbid_dtd=True):
            if root is None:
                root = elem
                continue
            if event != "end" or elem.tag != "player":
                continue
            count += 1
            if not checked:
                for tag in ("fideid", "name", "rating"):
                    if elem.find(tag) is None:
                        raise RatingListError(MISSING_COLUMN, column=tag)
                checked = True
            if count % PROGRESS_EVERY == 0:
                report()
            yield ListEntry(
                number=normal_number(elem.findtext("fideid") or "", count),
                name=(elem.findtext("name") or "").strip(),
                rating=_rating(elem.findtext("rating") or "", count),
                line=count,
                federation=(elem.findtext("country") or "").strip(),
                birth_year=_year(elem.findtext("birthday") or ""),
            )
            # Forget what was read: the element and its place under the root.
            elem.clear()
            root.clear()
    except ParseError as exc:
        raise RatingListError(DAMAGED, line=exc.position[0]) from None
    except DefusedXmlException:
        raise RatingListError(UNKNOWN_FORMAT) from None
    if root is None or root.tag != "playerslist":
        raise RatingListError(UNKNOWN_FORMAT)


def _csv(
    stream: BinaryIO, head: bytes, mapping: dict[str, str], report: Callable[[], None]
) -> Iterator[ListEntry]:
    text = io.TextIOWrapper(stream, encoding=_encoding(head), errors="replace", newline="")
    header_line = text.readline().lstrip("\ufeff")
    delimiter = _delimiter(header_line)
    header = _split_header(header_line)
    codes = control_characters("".join(header))
    if codes:
        raise RatingListError(CONTROL_CHARACTER, line=1, codes=", ".join(codes))
    index: dict[str, int] = {}
    for fld in CSV_FIELDS:
        column = mapping.get(fld, "")
        if not column:
            if fld in CSV_REQUIRED:
                raise RatingListError(MISSING_COLUMN, column=fld)
            continue
        if column not in header:
            raise RatingListError(MISSING_COLUMN, column=column)
        index[fld] = header.index(column)

    def cell(row: list[str], fld: str) -> str:
        i = index.get(fld)
        return row[i] if i is not None and i < len(row) else ""

    rows = csv.reader(text, delimiter=delimiter or ",")
    n = 1
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:  # a field over the csv module's 128 KB, a stray quote
            code = FIELD_TOO_LONG if "field larger" in str(exc) else DAMAGED
            raise RatingListError(code, line=rows.line_num + 1) from None  # + the header
        n += 1
        if not any(c.strip() for c in row):
            continue
        if n % PROGRESS_EVERY == 0:
            report()
        yield ListEntry(
            number=normal_number(cell(row, "number"), n),
            name=cell(row, "name").strip(),
            rating=_rating(cell(row, "rating"), n),
            line=n,
            federation=cell(row, "federation").strip(),
            birth_year=_year(cell(row, "birth_year")),
        )
