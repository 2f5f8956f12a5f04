"""``scripts/loadtest.py`` takes its database, port and Redis from arguments or the
environment, so two runs cannot collide, and never drops a database it did not create
(issue 12, finding 16). The PostgreSQL server is replaced by a recorder here: what
matters is which statements the script sends."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def loadtest():
    spec = importlib.util.spec_from_file_location("loadtest_script", ROOT / "scripts" / "loadtest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Server:
    """Records SQL; ``existing`` databases make CREATE fail as PostgreSQL does."""

    def __init__(self, existing: set[str]) -> None:
        self.existing = existing
        self.statements: list[str] = []

    def __call__(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def execute(self, sql: str):
        self.statements.append(sql)
        name = sql.split('"')[1]
        if sql.startswith("CREATE DATABASE") and name in self.existing:
            raise psycopg.errors.DuplicateDatabase(f'database "{name}" already exists')
        if sql.startswith("CREATE DATABASE"):
            self.existing.add(name)
        if sql.startswith("DROP DATABASE"):
            self.existing.discard(name)


def test_an_existing_database_is_refused_and_never_dropped(loadtest, monkeypatch, capsys):
    server = Server(existing={"ranglijst_colleague"})
    monkeypatch.setattr(loadtest, "admin_connection", server)
    monkeypatch.setattr(loadtest, "claim_redis", lambda url: None)
    assert loadtest.main(["--database", "ranglijst_colleague", "--seconds", "1"]) == 2
    assert "exists already" in capsys.readouterr().out
    assert not any(s.startswith("DROP") for s in server.statements)
    assert "ranglijst_colleague" in server.existing


def test_the_script_only_creates_and_drops_its_own_database(loadtest, monkeypatch):
    server = Server(existing=set())
    monkeypatch.setattr(loadtest, "admin_connection", server)
    loadtest.create_database("ranglijst_loadtest_mine")
    loadtest.drop_database("ranglijst_loadtest_mine")
    assert server.statements[0] == 'CREATE DATABASE "ranglijst_loadtest_mine"'
    assert not any("IF EXISTS" in s for s in server.statements[:1])  # no drop before create


@pytest.mark.parametrize("name", ["Bad-Name", 'x"; DROP DATABASE postgres; --', ""])
def test_a_database_name_outside_plain_identifiers_is_refused(loadtest, monkeypatch, name):
    server = Server(existing=set())
    monkeypatch.setattr(loadtest, "admin_connection", server)
    with pytest.raises(loadtest.Refused):
        loadtest.create_database(name)
    assert server.statements == []


def test_database_port_and_redis_come_from_arguments_or_the_environment(loadtest, monkeypatch):
    args = loadtest.parse_args(["--database", "lt_a", "--port", "8123",
                                "--redis-url", "redis://127.0.0.1:6379/14"])
    assert (args.database, args.port, args.redis_url) == ("lt_a", 8123, "redis://127.0.0.1:6379/14")
    monkeypatch.setenv("LOADTEST_DATABASE", "lt_env")
    monkeypatch.setenv("LOADTEST_PORT", "8124")
    args = loadtest.parse_args([])
    assert (args.database, args.port) == ("lt_env", 8124)
    monkeypatch.delenv("LOADTEST_DATABASE")
    monkeypatch.delenv("LOADTEST_PORT")
    args = loadtest.parse_args([])
    assert args.database == f"ranglijst_loadtest_{os.getpid()}" and args.port == 0


def test_the_smoke_form_is_a_small_club_for_a_few_seconds(loadtest):
    """CI's form (``make loadtest-smoke``, .ci/run after the tests): issue 30."""
    args = loadtest.parse_args(["--smoke"])
    assert args.smoke and args.seconds == loadtest.SMOKE_SECONDS <= 5
    assert (args.visitors, args.players, args.arbiters) == loadtest.SMOKE_MIX
    assert loadtest.SMOKE_CLUB[0] < loadtest.PLAYERS
    assert loadtest.parse_args([]).seconds == 30  # the documented run is unchanged
    assert loadtest.parse_args(["--smoke", "--seconds", "7"]).seconds == 7


def test_the_smoke_form_fails_when_postgresql_or_redis_is_missing(loadtest, monkeypatch, capsys):
    """A skipped smoke run would let CI pass without a load test: it fails instead (the
    full run still skips, for a machine without the services)."""
    def unreachable(url):
        raise ConnectionError("Connection refused")

    monkeypatch.setattr(loadtest, "claim_redis", unreachable)
    assert loadtest.main(["--smoke"]) == 1
    assert "FAILED" in capsys.readouterr().out
    assert loadtest.main([]) == 0
    assert "SKIPPED" in capsys.readouterr().out


def test_ci_runs_the_smoke_form_after_the_tests():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in ci
    assert ci.index("make loadtest-smoke") > ci.index("make test PYTEST_ARGS")
    makefile = (ROOT / "Makefile").read_text()
    assert "loadtest-smoke: install\n\t$(BIN)/python scripts/loadtest.py --smoke\n" in makefile


class Stop(Exception):
    pass


@pytest.mark.django_db
def test_the_club_is_built_and_checked_inside_the_clubs_context(loadtest, monkeypatch):
    """``make loadtest`` failed with a ScopeError in build_club: the club context was entered
    without keeping its reference, and closed at once (issue 30). The services are replaced
    here; what matters is the club ``build_club`` runs in."""
    from members.clubs.context import club_context, current_club
    from members.clubs.memo import home_club

    seen = []

    def build_club(*args):
        seen.append(current_club())
        raise Stop

    monkeypatch.setattr(os, "environ", dict(os.environ))  # main() sets the run's variables
    monkeypatch.setattr(loadtest, "claim_redis", lambda url: None)
    monkeypatch.setattr(loadtest, "create_database", lambda name: None)
    monkeypatch.setattr(loadtest, "drop_database", lambda name: None)
    monkeypatch.setattr(loadtest, "flush_redis", lambda url: None)
    monkeypatch.setattr(loadtest, "build_club", build_club)
    monkeypatch.setattr("django.core.management.call_command", lambda *a, **k: None)
    with club_context(None):  # the script starts in no club
        with pytest.raises(Stop):
            loadtest.main(["--database", "ranglijst_loadtest_unused"])
        assert current_club() is None  # and is left in none after the run
    assert seen == [home_club()]
