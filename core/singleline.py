"""Single-line text: names, event names, reasons and notes shown in one line.

Pure (no Django): the engines' file writers use it as well as the shell's forms. A control
character (C0, DEL, C1, and the Unicode line and paragraph separators) in such a field breaks
an e-mail header, forges a record in a line-based file (TRF, CSV, iCal) or hides text on a
page; it is refused where text enters and refused again by every writer (docs/trust.md).
"""

from __future__ import annotations

import re

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def control_characters(text: str) -> list[str]:
    """The control characters in ``text``, each once, as ``U+000A`` style codes."""
    return sorted({f"U+{ord(c):04X}" for c in CONTROL.findall(text)})


def is_single_line(text: str) -> bool:
    return CONTROL.search(text) is None


class NotSingleLine(ValueError):
    """A single-line field holds a control character; ``codes`` says which."""

    def __init__(self, what: str, text: str) -> None:
        self.what = what
        self.codes = control_characters(text)
        super().__init__(f"{what} contains control characters ({', '.join(self.codes)})")


def check_single_line(text: str, what: str) -> str:
    """``text`` unchanged, or NotSingleLine: for writers that must never emit a forged line."""
    if CONTROL.search(text):
        raise NotSingleLine(what, text)
    return text
