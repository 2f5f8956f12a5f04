"""A member list read into a table: a header and its rows of text, from a CSV file (";",
"," or tab between the columns; UTF-8, with or without a byte order mark, as Excel's
"CSV UTF-8" writes it) or a spreadsheet (.xlsx, its first sheet, read with openpyxl).

The KNSB's club member export is a CSV file of this kind (relatienummer, naam, rating,
...); its column names are recognised by ``competition.roster.memberimport.guess_mapping``.

A file that cannot be a member list raises one ``ValidationError`` with one Dutch
sentence: too large, empty, not UTF-8, a damaged spreadsheet, too many rows.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import zipfile
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from openpyxl import load_workbook

MAX_ROWS = 2000  # the largest Dutch club has about 300 members
MAX_CELL = 200  # a name or an address; longer is not a member list
DELIMITERS = (";", "\t", ",")
XLSX_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class Row:
    """A row of the file: its number as the leader sees it (the header is row 1) and its
    cells, as many as the header has columns."""

    line: int
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[Row, ...]

    def as_data(self) -> dict:
        return {"header": list(self.header), "rows": [[r.line, list(r.cells)] for r in self.rows]}

    @classmethod
    def from_data(cls, data: dict) -> Table:
        header = tuple(str(c) for c in data["header"])
        rows = tuple(Row(int(line), tuple(str(c) for c in cells)) for line, cells in data["rows"])
        return cls(header, rows)


def read_table(content: bytes, filename: str = "") -> Table:
    """The table of an uploaded member list, or one ``ValidationError``."""
    limit = settings.MEMBERS_UPLOAD_MAX_BYTES
    if len(content) > limit:
        raise ValidationError(
            _("The file is larger than %(limit)s MB; a member list is much smaller. "
              "Nothing was saved.") % {"limit": limit // 2**20})
    if not content.strip(b" \t\r\n\xef\xbb\xbf"):
        raise ValidationError(_("The file is empty: it holds no members. Nothing was saved."))
    if content.startswith(XLSX_MAGIC) or filename.lower().endswith(".xlsx"):
        lines = _xlsx_lines(content)
    else:
        lines = _csv_lines(content)
    return _table(lines)


def _csv_lines(content: bytes) -> list[list[str]]:
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _not_utf8()
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _not_utf8() from None
    first = text.lstrip().split("\n", 1)[0]
    delimiter = max(DELIMITERS, key=first.count)
    try:
        return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    except csv.Error:
        raise ValidationError(_("The file is not a CSV file we can read. Nothing was saved.")) from None


def _not_utf8() -> ValidationError:
    return ValidationError(_(
        "The file is not written in UTF-8: save it again as “CSV UTF-8” (Excel: Save as, "
        "CSV UTF-8) or upload the spreadsheet itself (.xlsx). Nothing was saved."))


def _xlsx_lines(content: bytes) -> list[list[str]]:
    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        raise ValidationError(_(
            "The spreadsheet cannot be read: save it again as .xlsx (Excel 2007 or later) "
            "or as CSV UTF-8. Nothing was saved.")) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            return []
        lines = []
        for values in sheet.iter_rows(values_only=True):
            lines.append([_cell(v) for v in values])
            if len(lines) > MAX_ROWS + 1:
                break
        return lines
    finally:
        book.close()


def _cell(value: object) -> str:
    """A spreadsheet cell as the leader reads it: 8123456, not 8123456.0; a date as d-m-Y."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime | dt.date):
        return f"{value.day}-{value.month}-{value.year}"
    return str(value)


def _table(lines: list[list[str]]) -> Table:
    numbered = [(n, [c.strip() for c in cells]) for n, cells in enumerate(lines, start=1)]
    numbered = [(n, cells) for n, cells in numbered if any(cells)]
    if not numbered:
        raise ValidationError(_("The file is empty: it holds no members. Nothing was saved."))
    header, body = numbered[0][1], numbered[1:]
    while header and not header[-1]:
        header.pop()
    if not body:
        raise ValidationError(_(
            "The file holds a header row but no members below it. Nothing was saved."))
    if len(body) > MAX_ROWS:
        raise ValidationError(_(
            "The file holds more than %(n)s rows; a member list is shorter. Nothing was saved.")
            % {"n": MAX_ROWS})
    width = len(header)
    rows = []
    for n, cells in body:
        cells = (cells + [""] * width)[:width]
        if any(len(c) > MAX_CELL for c in cells):
            raise ValidationError(_(
                "Row %(line)s holds a cell longer than %(n)s characters: this is not a member "
                "list. Nothing was saved.") % {"line": n, "n": MAX_CELL})
        rows.append(Row(n, tuple(cells)))
    return Table(tuple(header), tuple(rows))
