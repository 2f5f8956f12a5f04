"""The UI speaks Dutch by default: every message has a Dutch translation, the compiled
catalogue matches the source, and placeholders survive translation."""

import gettext
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[3] / "locale"


def _entries(po: Path) -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, is_python_format) of a .po file; plural forms joined."""
    entries, msgid, msgstr, flags, field = [], [], [], "", None
    def flush():
        if msgid or msgstr:
            entries.append(("".join(msgid), "".join(msgstr), "python-format" in flags))
    for line in po.read_text(encoding="utf-8").splitlines():
        if line.startswith("#,"):
            flags = line
        elif line.startswith("msgctxt "):
            flush()
            msgid, msgstr = [eval(line.split(" ", 1)[1]), "\x04"], []  # "context\x04msgid", as in the .mo
            field = None
        elif line.startswith("msgid ") or line.startswith("msgid_plural "):
            if line.startswith("msgid "):
                if not (msgid and msgid[-1] == "\x04"):  # after a msgctxt: the same entry
                    flush()
                    msgid, msgstr = [], []
            else:
                flags += " plural"
                msgid.append("\x00")  # msgid and msgid_plural, as in the .mo file
            field = msgid
            field.append(eval(line.split(" ", 1)[1]))  # a quoted C string
        elif line.startswith("msgstr"):
            field = msgstr
            field.append(eval(line.split(" ", 1)[1]))
        elif line.startswith('"') and field is not None:
            field.append(eval(line))
        elif not line.strip():
            flush()
            msgid, msgstr, flags, field = [], [], "", None
    flush()
    return [e for e in entries if e[0]]


@pytest.mark.parametrize("lang", ["nl"])
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    text = po.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    missing = [msgid for msgid, msgstr, _ in _entries(po) if not msgstr]
    assert missing == []


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_compiled_catalogue_matches_the_source(lang):
    folder = LOCALE / lang / "LC_MESSAGES"
    with open(folder / "django.mo", "rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    for msgid, msgstr, _ in _entries(folder / "django.po"):
        if msgstr and "\x00" not in msgid:
            assert catalogue.gettext(msgid) == msgstr, msgid
        elif msgstr:
            singular, plural = msgid.split("\x00")
            assert catalogue.ngettext(singular, plural, 1) + catalogue.ngettext(
                singular, plural, 2) == msgstr, singular


def test_placeholders_survive_translation():
    pattern = re.compile(r"%\((\w+)\)[sd]")
    for msgid, msgstr, _ in _entries(LOCALE / "nl" / "LC_MESSAGES" / "django.po"):
        assert sorted(pattern.findall(msgid)) == sorted(pattern.findall(msgstr)) or not msgstr, msgid
