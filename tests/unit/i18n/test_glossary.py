"""The roles are named the same everywhere (docs/glossary.md, issue 32): the competition
leader is the "competitieleider", the arbiter the "wedstrijdleider". Before, 14 Dutch
texts called the leader "wedstrijdleider": the 403 page told the arbiter to ask the
wedstrijdleider, the sign-in page said the wedstrijdleider adds members."""

from __future__ import annotations

import re
from pathlib import Path

from tests.unit.i18n.test_translations import _entries

NL = Path(__file__).resolve().parents[3] / "locale" / "nl" / "LC_MESSAGES" / "django.po"
GLOSSARY = Path(__file__).resolve().parents[3] / "docs" / "glossary.md"


def _count(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text, re.IGNORECASE))


def test_the_wedstrijdleider_is_always_the_arbiter():
    wrong = [
        (msgid, msgstr) for msgid, msgstr, _ in _entries(NL)
        if _count(r"wedstrijdleider", msgstr) > _count(r"\barbiter", msgid)
    ]
    assert wrong == []


def test_the_competition_leader_is_always_the_competitieleider():
    wrong = [
        (msgid, msgstr) for msgid, msgstr, _ in _entries(NL)
        if _count(r"competition leader", msgid) > _count(r"competitieleider", msgstr)
    ]
    assert wrong == []


def test_the_glossary_names_both_roles_as_the_catalogue_does():
    text = GLOSSARY.read_text(encoding="utf-8")
    assert "| competitieleider | leader" in text and "| wedstrijdleider | arbiter" in text
