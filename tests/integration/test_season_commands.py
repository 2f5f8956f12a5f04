"""The season-file commands: compute_standings, import_season, export_season, pair_evening.

A bad file gives one line naming the place and exit code 2, never a traceback.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from competition.models import Game, Player, Season, Standing
from competition.prizes.engine.report import compute
from competition.season.engine.seasonfile import dump_season, load_season
from members.clubs.memo import home_club
from tests.generate import random_season

ROOT = Path(__file__).resolve().parents[2]


def season_file(tmp_path: Path, data: Any, name: str = "season.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def generated(system: str, seed: int = 4, **size: Any) -> dict[str, Any]:
    return dump_season(random_season(seed, system=system, **{"players": 12, "evenings": 6, **size}))


def run(name: str, *args: str) -> str:
    """The command run as from the shell, for the test's club (the decoy club is there
    too, so a command that acts on one club's data is told which)."""
    out = StringIO()
    call_command(name, *args, *_club(name), stdout=out)
    return out.getvalue()


def _club(name: str) -> tuple[str, ...]:
    return ("--club", home_club().slug) if name in ("import_season", "export_season") else ()


def refused(name: str, *args: str) -> str:
    with pytest.raises(CommandError) as caught:
        call_command(name, *args, *_club(name), stdout=StringIO())
    assert caught.value.returncode == 2
    message = str(caught.value)
    assert "\n" not in message
    return message


def small(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "season/1",
        "system": "classic",
        "players": [{"id": i, "name": f"P{i}", "rating": 2000 - i, "start": i, "fixed": True}
                    for i in (1, 2, 3, 4)],
        "evenings": [{"date": "2026-10-02", "half": "winter",
                      "games": [{"white": 1, "black": 2, "result": "1-0"}], "byes": [3]},
                     {"date": "2026-10-09", "half": "winter",
                      "games": [{"white": 3, "black": 1, "result": "1/2-1/2"}]}],
    }
    data.update(changes)
    return data


def with_second_evening(**evening: Any) -> dict[str, Any]:
    data = small()
    data["evenings"][1] = {"date": "2026-10-09", "half": "winter", **evening}
    return data


# --- compute_standings (no database) -------------------------------------------------------


def test_compute_standings_prints_the_keizer_report_per_half(tmp_path):
    data = generated("pion")
    report = json.loads(run("compute_standings", season_file(tmp_path, data)))
    assert set(report) == {"winter", "summer"}
    # The report grows (docs/season-file.md): these keys at least.
    assert {"standings", "cycle"} <= set(report["winter"])
    assert isinstance(report["summer"]["cycle"], bool)
    row = report["winter"]["standings"][0]
    assert {"rank", "id", "name", "score", "value", "games", "won", "drawn", "lost"} <= set(row)
    assert report == json.loads(json.dumps(compute(load_season(data))))


def test_compute_standings_prints_the_ladder_report(tmp_path):
    report = json.loads(run("compute_standings", season_file(tmp_path, generated("ladder"))))
    assert list(report) == ["season"]
    assert {"rank", "id", "name", "start", "group", "score", "points", "pairing_points",
            "games", "won", "drawn", "lost"} <= set(report["season"]["standings"][0])


def test_compute_standings_with_history_gives_the_standings_after_every_evening(tmp_path):
    data = generated("classic")
    report = json.loads(run("compute_standings", season_file(tmp_path, data), "--history"))
    dates = [h["date"] for part in ("winter", "summer") for h in report[part]["history"]]
    assert dates == [e["date"] for e in data["evenings"]]
    def ranks(rows):
        return [(r["rank"], r["id"], r["score"], r["value"]) for r in rows]

    assert ranks(report["summer"]["history"][-1]["standings"]) == ranks(report["summer"]["standings"])


@pytest.mark.parametrize(
    "data, message",
    [(with_second_evening(games=[{"white": 3, "black": 17, "result": "1-0"}]),
      "unknown player id 17 in evening 2026-10-09"),
     (with_second_evening(games=[{"white": 3, "black": 1, "result": "1-0"}], byes=[3]),
      "player 3 appears twice in evening 2026-10-09"),
     (with_second_evening(games=[{"white": 3, "black": 1, "result": "2-0"}]),
      "unknown result '2-0' in evening 2026-10-09, board 1"),
     (with_second_evening(games=[{"white": 3, "black": 1}]),
      "missing key 'result' in evening 2026-10-09, board 1"),
     (small(system="chess960"), "unknown system 'chess960'"),
     ('{"format": "season/1",\n "players": [}', "invalid JSON at line 2, column 14: Expecting value"),
     ("", "invalid JSON at line 1, column 1")],
)
def test_a_bad_season_file_gives_one_line_naming_the_place_and_exit_code_2(tmp_path, data, message):
    path = season_file(tmp_path, data)
    line = refused("compute_standings", path)
    assert line.startswith(f"{path}: ") and message in line


def test_a_missing_file_is_named_with_exit_code_2(tmp_path):
    path = str(tmp_path / "nowhere.json")
    assert refused("compute_standings", path) == (
        f"{path}: cannot read the file (No such file or directory)")


def test_on_the_command_line_a_bad_file_is_one_line_on_stderr_without_traceback(tmp_path):
    path = season_file(tmp_path, with_second_evening(absent_with_notice=[9]))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    done = subprocess.run([sys.executable, "manage.py", "compute_standings", path], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"CommandError: {path}: unknown player id 9 in evening 2026-10-09"]


# --- import_season and export_season --------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("in_home_club")
def test_import_then_export_gives_the_normalised_file_back(tmp_path):
    data = generated("pion", seed=9)
    out = run("import_season", season_file(tmp_path, data), "--name", "Seizoen 2026-2027")
    season = Season.objects.get(name="Seizoen 2026-2027")
    assert out.startswith("Imported season Seizoen 2026-2027 (slug seizoen-2026-2027): 12 players")
    assert Standing.objects.filter(snapshot__half__season=season).exists()
    exported = json.loads(run("export_season", "seizoen-2026-2027"))
    assert exported == dump_season(load_season(data))
    target = tmp_path / "out.json"
    assert run("export_season", "seizoen-2026-2027", "-o", str(target)) == ""
    assert json.loads(target.read_text(encoding="utf-8")) == exported


@pytest.mark.django_db
@pytest.mark.usefixtures("in_home_club")
def test_import_names_the_season_after_its_years_by_default(tmp_path, monkeypatch):
    after_the_season = dt.datetime(2027, 8, 1, tzinfo=dt.UTC)  # its evenings have been played
    monkeypatch.setattr(timezone, "now", lambda: after_the_season)
    run("import_season", season_file(tmp_path, generated("ladder", evenings=20)))
    assert list(Season.objects.values_list("name", "slug")) == [("2026-2027", "2026-2027")]


@pytest.mark.django_db
@pytest.mark.usefixtures("in_home_club")
def test_a_bad_file_imports_nothing(tmp_path):
    path = season_file(tmp_path, with_second_evening(club_duty=[5]))
    assert refused("import_season", path) == f"{path}: unknown player id 5 in evening 2026-10-09"
    two_byes = season_file(tmp_path, with_second_evening(byes=[3, 4]), "two.json")
    assert refused("import_season", two_byes) == (
        f"{two_byes}: evening 2026-10-09 has 2 pairing byes; the database holds one an evening")
    assert not Season.objects.exists() and not Player.objects.exists() and not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("in_home_club")
def test_a_second_import_under_the_same_name_is_refused(tmp_path):
    path = season_file(tmp_path, small())
    run("import_season", path, "--name", "club")
    assert "a season named 'club' exists already; choose another name with --name" in refused(
        "import_season", path, "--name", "club")
    assert Season.objects.count() == 1


@pytest.mark.django_db
def test_export_of_an_unknown_season_names_the_known_ones(tmp_path):
    run("import_season", season_file(tmp_path, small()), "--name", "club")
    assert refused("export_season", "nope") == "no season with slug 'nope' (known: club)"


# --- pair_evening (no database) ---------------------------------------------------------------


def test_pair_evening_prints_the_pairing_as_json(tmp_path):
    path = season_file(tmp_path, small())
    out = json.loads(run("pair_evening", path, "--date", "2026-10-16", "--present", "1,2,3,4"))
    assert set(out) == {"games", "bye", "bye_drawn_from", "relaxed"}
    # After two evenings: 1 and 3 on top; 1 met 2 and 3 already (classic: once a season).
    assert out["games"] == [{"board": 1, "white": 1, "black": 4},
                            {"board": 2, "white": 2, "black": 3}]
    assert out["bye"] is None and out["relaxed"] == []


def test_pair_evening_gives_the_bye_to_the_lowest_placed_without_one(tmp_path):
    path = season_file(tmp_path, small())
    out = json.loads(run("pair_evening", path, "--date", "2026-10-16", "--present", "2,3,4"))
    assert out["bye"] == 4  # 3 had the bye on the first evening
    assert out["games"] == [{"board": 1, "white": 2, "black": 3}]


def test_pair_evening_reports_the_rules_a_forced_pairing_breaks(tmp_path):
    path = season_file(tmp_path, small())
    out = json.loads(run("pair_evening", path, "--date", "2026-10-16", "--present", "1,3"))
    assert out["relaxed"] == [{"white": 1, "black": 3, "rule": "max_meetings_per_half"},
                              {"white": 1, "black": 3, "rule": "max_meetings_per_season"}]


def test_pair_evening_on_a_date_in_the_file_ignores_that_evening(tmp_path):
    path = season_file(tmp_path, small())
    out = json.loads(run("pair_evening", path, "--date", "2026-10-09", "--present", "1,3"))
    assert out["relaxed"] == [] and len(out["games"]) == 1


@pytest.mark.parametrize(
    "args, message",
    [(("--date", "2026-10-16", "--present", "1,2,99"),
      "unknown player id 99 among the players present"),
     (("--date", "2026-10-16", "--present", "1,x"), "--present: 'x' is not a player id"),
     (("--date", "16-10-2026", "--present", "1,2"), "--date: '16-10-2026' is not a date")],
)
def test_pair_evening_refuses_bad_arguments_with_one_line(tmp_path, args, message):
    assert message in refused("pair_evening", season_file(tmp_path, small()), *args)


# --- Hostile files: one line, exit 2 (issue 12, finding 14) ----------------------------------


def _with(path: tuple, value: Any) -> dict[str, Any]:
    data = small()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


HOSTILE = {
    "nested": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "long integer": (json.dumps(small()).replace('"rating": 1999', '"rating": ' + "9" * 5000),
                     "a number too long to read"),
    "huge integer": (_with(("players", 0, "rating"), 10**30), "at most 1000000000"),
    "exponent factor": (_with(("parameters",), {"win": {"of": "opponent", "factor": "1e999999"}}),
                        "must be a number or a fraction"),
    "lone surrogate": (json.dumps(small()).replace('"P1"', '"P\\ud800"'), "lone surrogate"),
    "NUL in a name": (_with(("players", 0, "name"), "P\x001"), "not text"),
    "year one": (_with(("evenings", 0, "date"), "0001-01-01"), "in the years 1900-2999"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", HOSTILE)
@pytest.mark.usefixtures("in_home_club")
def test_a_hostile_season_file_is_refused_with_one_line_and_exit_2(tmp_path, case):
    content, reason = HOSTILE[case]
    path = season_file(tmp_path, content)
    message = refused("import_season", path)
    assert message.startswith(path) and reason in message
    assert not Season.objects.exists()


@pytest.mark.django_db
def test_the_hostile_files_exit_2_in_a_real_process(tmp_path):
    """The exit code as the operator sees it, for the case that used to recurse."""
    path = season_file(tmp_path, HOSTILE["nested"][0])
    done = subprocess.run([sys.executable, "manage.py", "import_season", path],
                          cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=60, env=os.environ | {"DJANGO_DEBUG": "1"})
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def _season_with_a_future_evening(played: bool) -> dict[str, Any]:
    data = small()
    future = {"date": "2099-10-02", "half": "winter"}
    if played:
        future["games"] = [{"white": 1, "black": 2, "result": "1-0"}]
    data["evenings"].append(future)
    return data


@pytest.mark.django_db
@pytest.mark.usefixtures("in_home_club")
def test_an_imported_evening_still_to_come_is_planned_and_nobody_is_e_mailed(tmp_path, mailoutbox):
    from competition.models import Evening, EveningStatus
    from pairing.tasks import close_due_evenings

    run("import_season", season_file(tmp_path, _season_with_a_future_evening(played=False)),
        "--name", "club")
    future = Evening.objects.get(date="2099-10-02")
    assert future.status == EveningStatus.OPEN and future.published_at is None
    assert set(Evening.objects.exclude(pk=future.pk).values_list("status", flat=True)) == {
        EveningStatus.PUBLISHED}
    close_due_evenings()  # the catch-up job, which mails published evenings still to come
    assert mailoutbox == []


@pytest.mark.django_db
@pytest.mark.usefixtures("in_home_club")
def test_an_evening_still_to_come_with_games_is_refused(tmp_path):
    path = season_file(tmp_path, _season_with_a_future_evening(played=True))
    assert refused("import_season", path, "--name", "club") == (
        f"{path}: evening 2099-10-02 is still to come but has games or byes")
    assert not Season.objects.exists()
