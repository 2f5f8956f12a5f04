"""Permissions are one enum (core/permissions.py ``Perm``), never a string literal: a
misspelt literal is a permission nobody holds, and a check that always refuses."""

from __future__ import annotations

import re
from pathlib import Path

from core.permissions import Perm

ROOT = Path(__file__).resolve().parents[2]
LITERAL = re.compile(r"[\"']competition\.(" + "|".join(p.value.split(".")[1] for p in Perm) + r")[\"']")


def test_no_permission_is_written_as_a_string_outside_the_enum():
    found = []
    for app in ("core", "competition", "pairing", "members", "config", "tests"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or path == ROOT / "core" / "permissions.py":
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if LITERAL.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}")
    assert found == [], found


def test_every_role_permission_is_a_member_of_the_enum():
    from members.clubs.roles import ROLE_PERMISSIONS

    assert {p for perms in ROLE_PERMISSIONS.values() for p in perms} == set(Perm)
