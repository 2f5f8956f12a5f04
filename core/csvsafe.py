"""CSV cells that a spreadsheet will not run as a formula (OWASP "CSV injection"): a text
cell beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
single quote. Numbers are written as numbers (a ladder score may be negative).

And every text cell is one line: a control character (a line break above all, which a
line-based reader takes for a new record) becomes a space, whatever reached the database
before names were checked on the way in (core/singleline.py)."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

from core.singleline import CONTROL

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_START):
        value = "'" + value
    return CONTROL.sub(" ", value)


class SafeWriter:
    """``csv.writer`` whose every row goes through ``safe_cell``: use it for every export."""

    def __init__(self, stream: Any, **kwargs: Any) -> None:
        self._writer = csv.writer(stream, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(v) for v in row])
