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
