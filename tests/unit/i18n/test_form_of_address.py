"""One form of address on the whole site (issue 23): the Dutch site says "je", as most
of it did; no translation of ours says "u", "uw" or "a.u.b." (the formal form), including
the sign-in pages' strings the project translates over allauth's own."""

from __future__ import annotations

import re
from pathlib import Path

from tests.unit.i18n.test_translations import _entries

NL = Path(__file__).resolve().parents[3] / "locale" / "nl" / "LC_MESSAGES" / "django.po"
# "U" alone is a code (uitgesteld, a TRF bye); "U bent" addresses the reader.
FORMAL = re.compile(r"\b(u|uw|uwe|Uw|Uwe|a\.u\.b)\b|\bU (?=[a-z])")
CODES = {"P"}


def test_no_dutch_translation_addresses_the_reader_formally():
    formal = [
        (msgid, msgstr) for msgid, msgstr, _ in _entries(NL)
        if msgid.rsplit("\x04", 1)[-1] not in CODES and FORMAL.search(msgstr)
    ]
    assert formal == []


def test_the_password_reset_page_says_je_not_u():
    ids = {msgid: msgstr for msgid, msgstr, _ in _entries(NL)}
    reset = ids["Please contact us if you have any trouble resetting your password."]
    assert "je" in reset.split() and not FORMAL.search(reset)
