"""One club context (docs/architecture.md, "A request's club"): the club of the work in
hand lives in one context variable, core/tenancy/context.py's, and nowhere else. A second variable
about the club (the project had four: the club, the tenant, "all clubs" and django-scopes'
state written by hand) is a second answer to "which club?" that can disagree with the
first; this test fails on a new one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [p for top in ("competition", "config", "core", "members", "pairing", "scripts", "bench")
           for p in (ROOT / top).rglob("*.py")] + [ROOT / "manage.py"]

THE_CONTEXT = "core/tenancy/context.py"
# Context variables that are about something else than the club, by file and name.
NOT_ABOUT_THE_CLUB = {("competition/season/services.py", "deferred_recalculation")}

DEFINED = re.compile(r"ContextVar\s*(?:\[[^\]]*\])?\s*\(\s*[\"']([^\"']+)[\"']")
# django-scopes' private key, read (``get_scope().get("_enabled")``, ``scope["_enabled"]``)
# or written: whether the scoping is off is our club context's own record.
SCOPES_PRIVATE = re.compile(r"""\.get\(\s*["']_enabled["']|\[\s*["']_enabled["']\s*\]|_enabled\s*=""")
SCOPES_STATE = re.compile(r"""["']_enabled["']\s*\]\s*=|state\s*\[\s*["']_enabled|django_scopes\.state\s+import\s+\w*(?:set|state)""")


def _defined() -> dict[tuple[str, str], str]:
    found = {}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for name in DEFINED.findall(text):
            found[(str(path.relative_to(ROOT)), name)] = text
    return found


def test_only_core_defines_a_context_variable_about_the_club():
    variables = set(_defined())
    assert {where for where, _ in variables if where == THE_CONTEXT} == {THE_CONTEXT}
    others = {v for v in variables if v[0] != THE_CONTEXT} - NOT_ABOUT_THE_CLUB
    assert not others, f"a second context variable; the club's is {THE_CONTEXT}'s: {sorted(others)}"
    assert len([v for v in variables if v[0] == THE_CONTEXT]) == 1


def test_django_scopes_is_entered_through_its_public_api_only():
    """``scope`` and ``scopes_disabled``, entered by ``core.tenancy.context.club_context`` alone;
    never its state written by hand."""
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        assert not SCOPES_STATE.search(text), f"{path.relative_to(ROOT)} writes django-scopes' state"
        where = str(path.relative_to(ROOT))
        if where != THE_CONTEXT:
            assert not re.search(r"\bwith\s+(?:scope|scopes_disabled)\(", text), \
                f"{where} enters django-scopes itself, beside the club context"


def test_django_scopes_private_state_is_never_read():
    """Whether the scoping is off is ``core.tenancy.context.scoping_off()`` (our context
    knows when it entered ``scopes_disabled()``); django-scopes' ``_enabled`` key is its
    own business."""
    offenders = [str(p.relative_to(ROOT)) for p in SOURCES
                 if SCOPES_PRIVATE.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"these read django-scopes' private state: {offenders}"


def test_the_private_state_check_sees_the_old_reading():
    assert SCOPES_PRIVATE.search('if not scope.get("_enabled", True):')
    assert SCOPES_PRIVATE.search("get_scope()['_enabled']")
    assert not SCOPES_PRIVATE.search("scoping_off()")


def test_no_silent_fallback_to_the_first_club():
    """``current_club() or home_club()``: work outside every club done in the
    installation's first club instead of refused."""
    pattern = re.compile(r"current_club\(\)\s*or\s*home_club\(\)")
    offenders = [str(p.relative_to(ROOT)) for p in [*SOURCES, *(ROOT / "tests").rglob("*.py")]
                 if p != Path(__file__).resolve() and pattern.search(p.read_text(encoding="utf-8"))]
    assert not offenders, offenders
