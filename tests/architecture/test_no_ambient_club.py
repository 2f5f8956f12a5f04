"""No ambient club in the tests (docs/testing.md): a test starts outside every club and
names the club it runs in (``in_home_club``, tests/conftest.py, or its own
``club_context``). A fixture every test gets without asking (``autouse``) that entered a
club would put every test in it again, and a query that forgets the club would pass
there; this test fails on one, in any conftest.py under tests/."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
# What enters a club's (or the platform's) context: core/tenancy/context.py's two, and
# tests/transactions.py's helpers that enter club A.
ENTERS = {"club_context", "platform_context", "in_home_club", "rolled_back"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _fixture(function: ast.FunctionDef) -> tuple[bool, bool]:
    """(a fixture, an autouse one) from the function's decorators."""
    for decorator in function.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if _name(call.func if call else decorator) != "fixture":
            continue
        autouse = any(k.arg == "autouse" and isinstance(k.value, ast.Constant) and k.value.value is True
                      for k in (call.keywords if call else []))
        return True, autouse
    return False, False


def _uses(function: ast.FunctionDef) -> tuple[set[str], set[str]]:
    """(the names it calls, the fixtures it asks for: its arguments and its
    ``request.getfixturevalue("...")``)."""
    called, asked = set(), {a.arg for a in function.args.args}
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            called.add(_name(node.func))
            if _name(node.func) == "getfixturevalue" and node.args and isinstance(node.args[0], ast.Constant):
                asked.add(node.args[0].value)
    return called, asked


def clubs_entered(sources: dict[str, str]) -> list[str]:
    """The autouse fixtures of these conftest sources (path → text) that enter a club, by
    themselves or through a fixture of these sources that does."""
    fixtures: dict[str, tuple[str, bool, set[str], set[str]]] = {}
    for where, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef):
                is_fixture, autouse = _fixture(node)
                if is_fixture:
                    fixtures[f"{where}::{node.name}"] = (node.name, autouse, *_uses(node))
    entering = {name for name, _, called, _ in fixtures.values() if called & ENTERS}
    grown = True
    while grown:  # a fixture that asks for one that enters a club enters it too
        before = len(entering)
        entering |= {name for name, _, _, asked in fixtures.values() if asked & entering}
        grown = len(entering) > before
    return sorted(key for key, (name, autouse, _, _) in fixtures.items() if autouse and name in entering)


def _conftests() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted(TESTS.rglob("conftest.py"))}


def test_no_autouse_fixture_enters_a_club():
    sources = _conftests()
    assert "tests/conftest.py" in sources
    offenders = clubs_entered(sources)
    assert not offenders, (
        f"an autouse fixture enters a club, so every test would run in it: {offenders}; "
        "a test names its club (the in_home_club fixture) instead")


def test_the_check_sees_a_club_entered_directly_or_through_another_fixture():
    """The check itself: the old ``_home_club`` (autouse, ``club_context(home_club())``)
    fails it, and so does an autouse fixture that asks for ``in_home_club``."""
    direct = (
        "import pytest\n"
        "@pytest.fixture(autouse=True)\n"
        "def _home_club(request):\n"
        "    with club_context(home_club()):\n"
        "        yield\n"
    )
    through = (
        "import pytest\n"
        "@pytest.fixture\n"
        "def in_home_club(_database_ready):\n"
        "    with club_context(home_club()):\n"
        "        yield\n"
        "@pytest.fixture(autouse=True, scope='function')\n"
        "def _everyone(request):\n"
        "    request.getfixturevalue('in_home_club')\n"
        "@pytest.fixture\n"
        "def named(in_home_club):\n"
        "    pass\n"
    )
    assert clubs_entered({"a/conftest.py": direct}) == ["a/conftest.py::_home_club"]
    assert clubs_entered({"b/conftest.py": through}) == ["b/conftest.py::_everyone"]
