"""The Swiss management commands: `swiss_tiebreaks` and `swiss_pair` (issue 6)."""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competition.events.engine.report import first_white, read_next_round

# FIDE's exercise with its answers (a copy of ../shared/data, MIT, see its README).
DATA = Path(__file__).resolve().parents[1] / "data" / "fide-tiebreak-exercise"
EXERCISE = DATA / "tournament-5-rounds.trf"
EXPECTED = json.loads((DATA / "expected.json").read_text())["rules_2024"]


def run(name: str, *args: str) -> Any:
    out = StringIO()
    call_command(name, *args, stdout=out)
    return json.loads(out.getvalue())


def player_line(number: int, name: str, points: str, rounds: str) -> str:
    head = f"001 {number:4d} m    {name:<33} 2000 NED           0 1990/01/01 {points:>4} {number:4d}"
    return head + rounds


def write(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "t.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------
# swiss_tiebreaks


@pytest.mark.parametrize("code", ["BH", "BH-C1", "SB", "SB-C1"])
def test_tiebreaks_reproduce_the_fide_exercise(code: str) -> None:
    rows = {row["start"]: row for row in run("swiss_tiebreaks", str(EXERCISE))["players"]}
    assert {str(n): row[code] for n, row in rows.items()} == EXPECTED[code]


def test_tiebreaks_report_points_names_and_every_column_as_json_numbers() -> None:
    rows = run("swiss_tiebreaks", str(EXERCISE))["players"]
    assert len(rows) == 16
    assert {str(r["start"]): r["points"] for r in rows} == EXPECTED["final_points"]
    for row in rows:
        assert set(row) == {"start", "name", "points", "BH", "BH-C1", "BH-M1", "SB", "SB-C1", "rank"}
        assert all(isinstance(row[k], (int, float)) for k in row if k != "name")
    assert rows[0] == {**rows[0], "start": 2, "name": "Bruno", "rank": 1}


def test_tiebreaks_default_order_ranks_by_points_de_median_buchholz_sb() -> None:
    rows = run("swiss_tiebreaks", str(EXERCISE))["players"]
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    points = [r["points"] for r in rows]
    assert points == sorted(points, reverse=True)
    # the four players on 3.5: Charline's BH-M1 9 is the highest of them
    assert rows[1]["start"] == 3 and rows[1]["rank"] == 2


def test_tiebreaks_equal_players_share_a_rank() -> None:
    rows = run("swiss_tiebreaks", str(EXERCISE), "--order", "PTS")["players"]
    ranks = {r["start"]: r["rank"] for r in rows}
    assert ranks[2] == 1
    assert {ranks[n] for n in (1, 3, 4, 16)} == {2}  # all on 3.5
    assert ranks[6] == 6  # the next rank skips the shared places
    assert {ranks[n] for n in (5, 8, 11)} == {7}


def test_tiebreaks_order_is_case_insensitive_and_validated() -> None:
    assert run("swiss_tiebreaks", str(EXERCISE), "--order", "pts, bh")["players"][0]["start"] == 2
    with pytest.raises(CommandError, match="unknown tie-break 'XYZ'") as error:
        call_command("swiss_tiebreaks", str(EXERCISE), "--order", "PTS,XYZ", stdout=StringIO())
    assert error.value.returncode == 2


def test_tiebreaks_2026_rules_cap_the_dummy_of_a_half_bye() -> None:
    rows = {r["start"]: r for r in run("swiss_tiebreaks", str(EXERCISE), "--rules", "2026")["players"]}
    assert rows[4]["BH"] == 14  # 15 under the 2024 rules


def test_tiebreaks_bad_file_names_the_line_and_exits_2(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [
            "012 Bad",
            player_line(1, "A", "1.0", "     2 w 1"),
            player_line(2, "B", "1.0", "     1 b 1"),
        ],
    )
    with pytest.raises(CommandError) as error:
        call_command("swiss_tiebreaks", path, stdout=StringIO())
    assert error.value.returncode == 2
    assert "line 2" in str(error.value) and "does not match" in str(error.value)


def test_tiebreaks_unknown_record_and_missing_file_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, ["012 Bad", "!!! what"])
    with pytest.raises(CommandError, match="line 2: unknown record") as error:
        call_command("swiss_tiebreaks", path, stdout=StringIO())
    assert error.value.returncode == 2
    with pytest.raises(CommandError, match="cannot read the file") as error:
        call_command("swiss_tiebreaks", str(tmp_path / "missing.trf"), stdout=StringIO())
    assert error.value.returncode == 2


# ---------------------------------------------------------------------------
# swiss_pair


def test_pair_next_round_of_the_exercise_pairs_everybody_once() -> None:
    report = run("swiss_pair", str(EXERCISE))
    assert set(report) == {"games", "bye"}
    paired = [n for g in report["games"] for n in (g["white"], g["black"])]
    assert sorted(paired + ([report["bye"]] if report["bye"] else [])) == list(range(1, 17))
    assert report["bye"] is None
    assert {"white": 2, "black": 4} in report["games"]  # Bruno (4) v David (3.5): not met yet


def test_pair_round_one_odd_field_gives_the_lowest_the_bye(tmp_path: Path) -> None:
    path = write(tmp_path, ["012 New", "XXR 3"] + [player_line(n, f"P{n}", "0.0", "") for n in range(1, 6)])
    report = run("swiss_pair", path)
    assert report["bye"] == 5
    assert sorted((g["white"], g["black"]) for g in report["games"]) == [(1, 3), (4, 2)]


def test_pair_skips_players_on_an_xxz_record(tmp_path: Path) -> None:
    path = write(tmp_path, ["012 New", "XXZ 2 5"] + [player_line(n, f"P{n}", "0.0", "") for n in range(1, 6)])
    report = run("swiss_pair", path)
    paired = {n for g in report["games"] for n in (g["white"], g["black"])} | {report["bye"]}
    assert paired == {1, 3, 4}


def test_pair_bad_xxz_names_the_line_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, ["012 New", "XXZ 9"] + [player_line(n, f"P{n}", "0.0", "") for n in range(1, 5)])
    with pytest.raises(CommandError, match="line 2: XXZ: start number 9 is not in the file") as error:
        call_command("swiss_pair", path, stdout=StringIO())
    assert error.value.returncode == 2


def test_pair_bad_round_names_the_line_and_exits_2(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        ["012 Bad", player_line(1, "A", "1.0", "     2 w 1"), player_line(2, "B", "0.0", "     7 b 0")],
    )
    with pytest.raises(CommandError, match="line 2: round 1: opponent 2 does not list 1") as error:
        call_command("swiss_pair", path, stdout=StringIO())
    assert error.value.returncode == 2


# ---------------------------------------------------------------------------
# swiss_pair --explain (issue 40; docs/swiss.md "Why this pairing")


def explain_text(*args: str) -> str:
    out = StringIO()
    call_command("swiss_pair", *args, "--explain", stdout=out)
    return out.getvalue()


def test_explain_names_the_score_groups_and_pairs_as_the_json_does() -> None:
    text = explain_text(str(EXERCISE), "--player", "4")
    lines = text.splitlines()
    assert lines[0] == "Ronde 6, FIDE-Dutch-systeem (C.04.3, editie 2026)"
    assert "Scoregroep 3½ punten: 1 Alyx, 3 Charline, 4 David, 16 Stephan" in lines
    assert "Scoregroep 1 punt: 10 Lais" in lines
    assert "  naar deze groep doorgeschoven: 2 Bruno" in lines
    # every board of the pairing once, with what decided it
    pairs = [line.strip().split(":")[0] for line in lines if re.match(r"  \d+ \w+ - \d+ \w+: ", line)]
    boards = [f"{g['white']} {NAMES[g['white']]} - {g['black']} {NAMES[g['black']]}"
              for g in run("swiss_pair", str(EXERCISE))["games"]]
    assert sorted(pairs) == sorted(boards)
    assert "  6 Franck - 1 Alyx: C.6: zoveel mogelijk paren" in lines
    assert "  10 Lais - 7 Genevieve: anders kan de ronde niet worden afgemaakt (C.4)" in lines
    assert "  2 Bruno schuift door naar beneden: er is niemand in zijn scoregroep tegen wie hij nog mag spelen" in lines
    # the asked player: every opponent of his score group
    at = lines.index("4 David, in de scoregroep van 3½ punten:")
    assert lines[at + 1:] == [
        "  tegen 2 Bruno: ingedeeld",
        "  tegen 1 Alyx: niet, ze hebben al tegen elkaar gespeeld (C.1)",
        "  tegen 3 Charline: niet, ze hebben al tegen elkaar gespeeld (C.1)",
        "  tegen 16 Stephan: niet, C.7: zo klein mogelijke puntverschillen tussen tegenstanders",
    ]


NAMES = {1: "Alyx", 2: "Bruno", 3: "Charline", 4: "David", 5: "Helene", 6: "Franck", 7: "Genevieve",
         8: "Irina", 9: "Jessica", 10: "Lais", 11: "Maria", 12: "Nick", 13: "Opal", 14: "Paul",
         15: "Reine", 16: "Stephan"}


def test_explain_numbers_the_criteria_by_the_edition_and_speaks_english_on_request() -> None:
    text = explain_text(str(EXERCISE), "--edition", "2017", "--language", "en")
    assert text.startswith("Round 6, FIDE Dutch system (C.04.3, edition 2017)\n")
    assert "  6 Franck - 1 Alyx: C.5: as many pairs as possible" in text.splitlines()
    assert "Score group 3½ points: 1 Alyx, 3 Charline, 4 David, 16 Stephan" in text
    assert "  2 Bruno - 4 David: C.6: score differences between opponents as small as possible" in text


def test_explain_the_bye_of_an_odd_first_round(tmp_path: Path) -> None:
    path = write(tmp_path, ["012 New", "XXR 3"] + [player_line(n, f"P{n}", "0.0", "") for n in range(1, 6)])
    lines = explain_text(path, "--player", "5").splitlines()
    assert "Scoregroep 0 punten: 1 P1, 2 P2, 3 P3, 4 P4, 5 P5" in lines
    bye = "  5 P5 krijgt de bye: geen criterium maakt verschil: de volgorde in de scoregroep beslist (D.1-D.3)"
    assert bye in lines
    assert lines[-1] == "  hij krijgt de bye"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--explain", "--player", "9"], "--player 9 is not in the file"),
        (["--explain", "--player", "2"], "--player 2 is absent \\(XXZ\\)"),
        (["--player", "1"], "--player needs --explain"),
    ],
)
def test_explain_refuses_a_player_it_cannot_explain_and_prints_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    path = write(tmp_path, ["012 New", "XXZ 2"] + [player_line(n, f"P{n}", "0.0", "") for n in range(1, 6)])
    before = Path(path).read_bytes()
    out = StringIO()
    with pytest.raises(CommandError, match=message) as error:
        call_command("swiss_pair", path, *args, stdout=out)
    assert error.value.returncode == 2
    assert out.getvalue() == "" and Path(path).read_bytes() == before


@pytest.mark.parametrize(("first", "board_3"), [("b", (2, 1)), ("w", (1, 2))])
def test_the_first_round_s_colours_are_read_from_the_file(
    tmp_path: Path, first: str, board_3: tuple[int, int]
) -> None:
    # 1 and 2 were absent in round 1 and meet in round 2 without a colour history: the
    # colours go on from round 1's (C.04.3 E.5), where the higher player of board 1 had black
    # or white. Before, the command always assumed white.
    other = "w" if first == "b" else "b"
    lines = ["012 Colours", "XXR 3",
             player_line(1, "A", "0.0", "  0000 - -"), player_line(2, "B", "0.0", "  0000 - -"),
             player_line(3, "C", "0.5", f"     5 {first} ="), player_line(4, "D", "0.5", f"     6 {first} ="),
             player_line(5, "E", "0.5", f"     3 {other} ="), player_line(6, "F", "0.5", f"     4 {other} =")]
    assert first_white(read_next_round("\n".join(lines) + "\n").tournament) is (first == "w")
    games = [(g["white"], g["black"]) for g in run("swiss_pair", write(tmp_path, lines))["games"]]
    assert board_3 in games
