"""Rating lists read as a stream: FIDE's fixed-width text list, FIDE's XML list and a CSV
file with a header row. Only the entries the club asks for (``Wanted``) are kept, so a
list of 1.5 million players is read in bounded memory.

Every defect raises ``RatingListError``: an unknown format, a missing column, a rating
outside 0-3500, a number that is not a number, a duplicate number. Duplicates are looked
for among the kept entries (those that concern the club): finding them in the whole list
would need the whole list in memory.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO
from xml.etree import ElementTree

from .errors import (
    BAD_NUMBER,
    DAMAGED,
    DUPLICATE_NUMBER,
    EMPTY,
    MISSING_COLUMN,
    RATING_OUT_OF_RANGE,
    UNKNOWN_FORMAT,
    RatingListError,
)

FIDE_TXT = "fide_txt"
FIDE_XML = "fide_xml"
CSV = "csv"
FORMATS = (FIDE_TXT, FIDE_XML, CSV)

MAX_RATING = 3500
PROGRESS_EVERY = 20_000  # lines (or players) between two progress reports
HEAD_BYTES = 8192

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
        return name_key(name) in self.names


def normal_number(text: str, line: int) -> str:
    value = text.strip()
    if not value:
        return ""
    if not value.isdigit():
        raise RatingListError(BAD_NUMBER, line=line, value=value)
    return str(int(value))


def _rating(text: str, line: int) -> int | None:
    value = text.strip()
    if not value:
        return None
    try:
        rating = int(value)
    except ValueError:
        raise RatingListError(RATING_OUT_OF_RANGE, line=line, rating=value) from None
    if not 0 <= rating <= MAX_RATING:
        raise RatingListError(RATING_OUT_OF_RANGE, line=line, rating=rating)
    return rating


def _year(text: str) -> int | None:
    value = text.strip()[:4]
    return int(value) if len(value) == 4 and value.isdigit() and value != "0000" else None


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
        if entry.number:
            first = self._lines.setdefault(entry.number, entry.line)
            if first != entry.line:
                raise RatingListError(
                    DUPLICATE_NUMBER, line=entry.line, number=entry.number, first=first
                )
        self.entries.append(entry)


# --- Opening and recognising a file -------------------------------------------------------


def open_list(path: str) -> tuple[BinaryIO, int]:
    """The list's bytes as a stream, and their size; a zip (as FIDE publishes them) is
    read from its first file without unpacking it to disk."""
    with open(path, "rb") as probe:
        zipped = probe.read(4) == b"PK\x03\x04"
    if not zipped:
        stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
        stream.seek(0, io.SEEK_END)
        size = stream.tell()
        stream.seek(0)
        return stream, size
    try:
        archive = zipfile.ZipFile(path)
        members = [i for i in archive.infolist() if not i.is_dir()]
        if not members:
            raise RatingListError(UNKNOWN_FORMAT)
        inner = io.BufferedReader(archive.open(members[0]), buffer_size=HEAD_BYTES)  # type: ignore[type-var]
        return inner, members[0].file_size
    except zipfile.BadZipFile:
        raise RatingListError(UNKNOWN_FORMAT) from None


def _first_line(head: bytes) -> str:
    text = _decode(head.lstrip(b"\xef\xbb\xbf").lstrip())
    return text.splitlines()[0] if text else ""


def detect(head: bytes) -> str:
    """The format of a list from its first bytes."""
    stripped = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if stripped.startswith(b"<"):
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
    """The column names of a CSV file, for the leader's mapping."""
    return [c for c in _split_header(_first_line(head)) if c]


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
) -> list[ListEntry]:
    """The kept entries of the list in ``stream`` (format detected unless ``fmt``)."""
    if not hasattr(stream, "peek"):
        stream = io.BufferedReader(stream, buffer_size=HEAD_BYTES)  # type: ignore[type-var]
    head = stream.peek(HEAD_BYTES)[:HEAD_BYTES]
    if not head.strip():
        raise RatingListError(EMPTY)
    fmt = fmt or detect(head)
    report = _reporter(stream, total, progress)
    if fmt == FIDE_TXT:
        rows = _fide_txt(stream, report)
    elif fmt == FIDE_XML:
        rows = _fide_xml(stream, head, report)
    elif fmt == CSV:
        rows = _csv(stream, head, mapping or {}, report)
    else:
        raise RatingListError(UNKNOWN_FORMAT)
    kept = _Kept()
    seen = 0
    for entry in rows:
        seen += 1
        if wanted.keeps(entry.number, entry.name):
            kept.add(entry)
    if not seen:
        raise RatingListError(EMPTY)
    if progress:
        progress(1.0)
    return kept.entries


def _reporter(stream: BinaryIO, total: int, progress: Progress | None) -> Callable[[], None]:
    def report() -> None:
        if progress and total:
            try:
                progress(min(stream.tell() / total, 0.99))
            except (OSError, ValueError):
                pass

    return report


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


def _fide_txt(stream: BinaryIO, report: Callable[[], None]) -> Iterator[ListEntry]:
    spans: dict[str, tuple[int, int | None]] | None = None
    for n, raw in enumerate(stream, start=1):
        text = _decode(raw).rstrip("\r\n")
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


def _fide_xml(stream: BinaryIO, head: bytes, report: Callable[[], None]) -> Iterator[ListEntry]:
    # An entity declaration can only come in a DOCTYPE before the first element: a rating
    # list has none, and refusing it keeps entity expansion out of the parser.
    if b"<!DOCTYPE" in head.upper() or b"<!ENTITY" in head.upper():
        raise RatingListError(UNKNOWN_FORMAT)
    root = None
    count = 0
    checked = False
    try:
        for event, elem in ElementTree.iterparse(stream, events=("start", "end")):
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
    except ElementTree.ParseError as exc:
        raise RatingListError(DAMAGED, line=exc.position[0]) from None
    if root is None or root.tag != "playerslist":
        raise RatingListError(UNKNOWN_FORMAT)


def _csv(
    stream: BinaryIO, head: bytes, mapping: dict[str, str], report: Callable[[], None]
) -> Iterator[ListEntry]:
    encoding = "utf-8-sig" if _is_utf8(head) else "cp1252"
    text = io.TextIOWrapper(stream, encoding=encoding, errors="replace", newline="")
    header_line = text.readline()
    delimiter = _delimiter(header_line)
    header = _split_header(header_line)
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

    for n, row in enumerate(csv.reader(text, delimiter=delimiter or ","), start=2):
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
