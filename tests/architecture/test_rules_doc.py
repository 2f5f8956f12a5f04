"""docs/rules.md is the specification the code cites: every test it names must exist, so a
renamed or deleted test cannot leave a rule pointing at nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^\s*(?:async\s+)?def (test_\w+)", path.read_text(), re.M))
    return names


def test_every_test_file_docs_rules_cites_exists():
    text = RULES.read_text()
    files = set(re.findall(r"tests/[\w/]+\.py", text))
    assert files, "docs/rules.md cites no test file"
    missing = sorted(f for f in files if not (ROOT / f).is_file())
    assert not missing, f"docs/rules.md cites test files that do not exist: {missing}"


def test_every_test_docs_rules_names_exists():
    text = RULES.read_text()
    cited = set(re.findall(r"\b(test_[a-z0-9_]+)\b(?!\.py)", text))
    # ``test_*`` alone is a family of tests, not one name.
    cited = {name for name in cited if not name.endswith("_")}
    assert len(cited) > 50
    missing = sorted(cited - _test_names())
    assert not missing, f"docs/rules.md names tests that do not exist: {missing}"


def test_every_section_of_the_rules_is_there():
    headings = re.findall(r"^##+ (\d+(?:\.\d+)?)\.? ", RULES.read_text(), re.M)
    assert headings == ["1", "2", "3", "4", "4.1", "4.2", "4.3", "5", "6", "7", "8", "9", "10"]
