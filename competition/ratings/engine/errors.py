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
TOO_LARGE = "too_large"
ENTRY_TOO_LONG = "entry_too_long"
FIELD_TOO_LONG = "field_too_long"
ENCRYPTED_ZIP = "encrypted_zip"
UNSUPPORTED_ZIP = "unsupported_zip"
CONTROL_CHARACTER = "control_character"
# Not the file's fault: the reading stopped (an unforeseen error, a worker that died).
NOT_READ = "not_read"

_ENGLISH = {
    UNKNOWN_FORMAT: "The file is not a FIDE rating list (text or XML) nor a CSV file with a header row.",
    MISSING_COLUMN: "The column {column!r} is missing.",
    RATING_OUT_OF_RANGE: "Line {line}: rating {rating} is outside 0-3500.",
    DUPLICATE_NUMBER: "Line {line}: number {number} appears already on line {first}.",
    BAD_NUMBER: "Line {line}: {value!r} is not a number.",
    EMPTY: "The file holds no players.",
    DAMAGED: "The file is damaged near line {line}.",
    TOO_LARGE: "The file holds more than {limit} MB of data.",
    ENTRY_TOO_LONG: "Near line {line} one line (or entry) is longer than {limit} KB.",
    FIELD_TOO_LONG: "Line {line}: a field is longer than 128 KB.",
    ENCRYPTED_ZIP: "The zip file is protected with a password.",
    UNSUPPORTED_ZIP: "The zip file uses a compression method that cannot be read.",
    CONTROL_CHARACTER: "Line {line} holds a control character ({codes}).",
    NOT_READ: "The list could not be read to the end.",
}


class RatingListError(ValueError):
    """A rating list that cannot be used. ``code`` names the defect for the interface's
    translated message; ``params`` fill it in; ``str()`` is the English text."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(_ENGLISH[code].format(**params))
