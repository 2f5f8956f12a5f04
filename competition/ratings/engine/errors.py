"""The one error a rating list raises: a code for the interface, parameters, a line."""

from __future__ import annotations

from typing import Any

UNKNOWN_FORMAT = "unknown_format"
MISSING_COLUMN = "missing_column"
RATING_OUT_OF_RANGE = "rating_out_of_range"
DUPLICATE_NUMBER = "duplicate_number"
BAD_NUMBER = "bad_number"
EMPTY = "empty"
DAMAGED = "damaged"

_ENGLISH = {
    UNKNOWN_FORMAT: "The file is not a FIDE rating list (text or XML) nor a CSV file with a header row.",
    MISSING_COLUMN: "The column {column!r} is missing.",
    RATING_OUT_OF_RANGE: "Line {line}: rating {rating} is outside 0-3500.",
    DUPLICATE_NUMBER: "Line {line}: number {number} appears already on line {first}.",
    BAD_NUMBER: "Line {line}: {value!r} is not a number.",
    EMPTY: "The file holds no players.",
    DAMAGED: "The file is damaged near line {line}.",
}


class RatingListError(ValueError):
    """A rating list that cannot be used. ``code`` names the defect for the interface's
    translated message; ``params`` fill it in; ``str()`` is the English text."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(_ENGLISH[code].format(**params))
