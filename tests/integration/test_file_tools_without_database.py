"""The pure file tools (README, docs/season-file.md) read a file and print: each runs in
a real process whose database does not exist (DATABASE_URL names an SQLite file in a
folder that is not there), and works."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.test_season_commands import season_file, small

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "tests" / "data" / "fide-tiebreak-exercise" / "tournament-5-rounds.trf"


def _no_database(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/nowhere/none.sqlite3"}
    env.pop("REDIS_URL", None)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("tool", ["pair_evening", "compute_standings"])
def test_a_season_file_tool_needs_no_database(tmp_path, tool):
    path = season_file(tmp_path, small())
    args = ["--date", "2026-10-16", "--present", "1,2,3,4"] if tool == "pair_evening" else []
    done = _no_database(tmp_path, tool, path, *args)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["games"] if tool == "pair_evening" else out
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("tool", ["swiss_pair", "swiss_tiebreaks"])
def test_a_swiss_file_tool_needs_no_database(tmp_path, tool):
    assert EXERCISE.exists()
    done = _no_database(tmp_path, tool, str(EXERCISE))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert not (tmp_path / "nowhere").exists()
