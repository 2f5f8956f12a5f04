"""The season file: loading, dumping, computing, and one clear message per error."""

import copy
import json
from typing import Any

import pytest

from competition.prizes.engine.report import compute
from competition.season.engine.seasonfile import SeasonFileError, dump_season, load_season
from tests.season_factories import season_dict


def _player(id: int, start: int | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": id, "name": f"P{id}", "rating": 1800, "start": start or id, "fixed": True, **extra}


def _good(system: str = "classic") -> dict[str, Any]:
    half = {} if system == "ladder" else {"half": "winter"}
    return season_dict(
        system,
        players=[_player(1), _player(2), _player(3), _player(4)],
        evenings=[
            {"date": "2026-10-02", **half, "games": [{"white": 1, "black": 2, "result": "1-0"}], "byes": [3]},
            {
                "date": "2026-10-09",
                **half,
                "games": [{"white": 3, "black": 1, "result": "1/2-1/2"}],
                "absent_with_notice": [2],
                "club_duty": [4],
            },
        ],
    )


def _error(data: dict[str, Any]) -> str:
    with pytest.raises(SeasonFileError) as caught:
        load_season(data)
    return str(caught.value)


def test_dump_of_load_is_the_normalised_file() -> None:
    data = _good()
    dumped = dump_season(load_season(data))
    for night in data["evenings"]:
        for key in ("games", "byes", "absent_with_notice", "club_duty"):
            night.setdefault(key, [])
    assert dumped == data


def test_load_of_dump_is_the_same_season() -> None:
    season = load_season(_good("ladder"))
    assert load_season(json.loads(json.dumps(dump_season(season)))) == season


def test_parameters_are_kept_as_normalised_overrides() -> None:
    data = _good()
    data["parameters"] = {"top": 80.0, "bye": {"of": "own", "factor": 0.5}}
    season = load_season(data)
    assert dump_season(season)["parameters"] == {"top": 80, "bye": {"of": "own", "factor": 0.5}}


def test_ladder_start_points_round_trip() -> None:
    data = _good("ladder")
    data["players"][0]["start_points"] = "1/3"
    data["players"][1]["start_points"] = 2.5
    assert dump_season(load_season(data))["players"][:2] == [
        _player(1, start_points="1/3"),
        _player(2, start_points=2.5),
    ]


def test_compute_keizer_report_has_a_half_per_half_with_evenings() -> None:
    report = compute(load_season(_good()))
    assert list(report) == ["winter"]
    assert report["winter"]["cycle"] in (True, False)
    row = report["winter"]["standings"][0]
    assert set(row) == {
        "rank", "id", "name", "score", "value", "games", "won", "drawn", "lost", "eligible"
    }
    assert {p["prize"] for p in report["winter"]["prizes"]} <= {
        "champion", "silver", "bronze", "best_of_rest"
    }
    assert json.loads(json.dumps(report)) == report


def test_compute_with_history_adds_the_standings_after_every_evening() -> None:
    report = compute(load_season(_good()), history=True)
    assert [h["date"] for h in report["winter"]["history"]] == ["2026-10-02", "2026-10-09"]
    final = [{k: v for k, v in row.items() if k != "eligible"} for row in report["winter"]["standings"]]
    assert report["winter"]["history"][-1]["standings"] == final


def test_compute_ladder_report() -> None:
    report = compute(load_season(_good("ladder")), history=True)
    rows = report["season"]["standings"]
    assert {"rank", "id", "name", "score", "points", "pairing_points", "games"} <= set(rows[0])
    assert len(report["season"]["history"]) == 2


def test_compute_rounds_to_two_decimals_half_up() -> None:
    data = season_dict(
        "classic",
        players=[_player(1), _player(2)],
        evenings=[{"date": "2026-10-02", "half": "winter", "absent_with_notice": [1, 2]}],
    )
    rows = compute(load_season(data))["winter"]["standings"]
    assert [r["score"] for r in rows] == [20.0, 19.67]  # 60/3 and 59/3


def _with(mutate) -> dict[str, Any]:
    data = copy.deepcopy(_good())
    mutate(data)
    return data


def _set(path: list[Any], value: Any):
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _delete(path: list[Any]):
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (_set(["evenings", 1, "byes"], [17]), "unknown player id 17 in evening 2026-10-09"),
        (_set(["evenings", 1, "byes"], [4]), "player 4 appears twice in evening 2026-10-09"),
        (_set(["evenings", 1, "byes"], [3]), "player 3 appears twice in evening 2026-10-09"),
        (
            _set(["evenings", 1, "games", 0, "result"], "2-0"),
            "unknown result '2-0' in evening 2026-10-09, board 1"
            " (expected one of 1-0, 0-1, 1/2-1/2, 1-0F, 0-1F, 0-0F, postponed)",
        ),
        (
            _set(["evenings", 1, "date"], "2026-09-25"),
            "evening 2026-09-25 comes after evening 2026-10-02: evenings must be in date order",
        ),
        (_set(["evenings", 1, "date"], "2026-10-02"), "two evenings on 2026-10-02"),
        (_set(["evenings", 1, "date"], "9 oktober"), "'date' of evening 2 must be a date like 2026-10-09, not the text '9 oktober'"),
        (_delete(["evenings", 0, "date"]), "missing key 'date' in evening 1"),
        (_delete(["evenings", 0, "half"]), "missing key 'half' in evening 2026-10-02"),
        (_set(["evenings", 0, "half"], "spring"), "'half' of evening 2026-10-02 must be 'winter' or 'summer', not the text 'spring'"),
        (_delete(["evenings", 1, "games", 0, "result"]), "missing key 'result' in evening 2026-10-09, board 1"),
        (_set(["evenings", 1, "games", 0, "white"], "3"), "'white' of evening 2026-10-09, board 1 must be a whole number, not the text '3'"),
        (_set(["evenings", 1, "games", 0, "colour"], "w"), "unknown key 'colour' in evening 2026-10-09, board 1"),
        (_set(["evenings", 1, "games"], {"white": 1}), "'games' of evening 2026-10-09 must be a list, not an object"),
        (_set(["evenings", 0, "byes"], [True]), "the player ids in 'byes' of evening 2026-10-02 must be a whole number, not a boolean"),
        (_set(["evenings", 0, "bye"], [3]), "unknown key 'bye' in evening 2026-10-02"),
        (_set(["evenings", 1], "2026-10-09"), "evening 2 must be an object, not the text '2026-10-09'"),
        (_set(["format"], "season/2"), "unsupported format 'season/2': expected 'season/1'"),
        (_delete(["players"]), "missing key 'players' in the season file"),
        (_set(["players"], {}), "'players' must be a list, not an object"),
        (_set(["system"], "swiss"), "unknown system 'swiss': expected one of pion, classic, keizer1956, ladder"),
        (_set(["parameters"], {"top": "lots"}), "in 'parameters': parameter 'top' must be a number or a fraction like \"2/3\", not 'lots'"),
        (_set(["parameters"], [1]), "'parameters' must be an object, not a list"),
        (_set(["players", 1, "id"], 1), "player id 1 appears twice in 'players'"),
        (_set(["players", 1, "start"], 1), "start 1 is given to both player 1 and player 2"),
        (_set(["players", 1, "start"], 0), "'start' of player 2 must be at least 1"),
        (_set(["players", 1, "fixed"], "ja"), "'fixed' of player 2 must be true or false, not the text 'ja'"),
        (_set(["players", 1, "name"], None), "'name' of player 2 must be text, not null"),
        (_set(["players", 1, "rating"], 1800.5), "'rating' of player 2 must be a whole number, not a number"),
        (_delete(["players", 1, "start"]), "missing key 'start' in player 2 of 'players'"),
        (_set(["players", 1, "start_points"], 3), "'start_points' of player 2: only the ladder has start points"),
        (_set(["players", 1, "club"], "x"), "unknown key 'club' in player 2 of 'players'"),
        (_set(["evenings", 0, "half"], "summer"), "winter evening 2026-10-09 comes after summer evening 2026-10-02: the winter half comes first"),
    ],
)
def test_bad_season_file_gives_one_clear_message(mutate, message: str) -> None:
    assert _error(_with(mutate)) == message


def test_ladder_evenings_have_no_half() -> None:
    data = _good("ladder")
    data["evenings"][0]["half"] = "winter"
    assert _error(data) == "unknown key 'half' in evening 2026-10-02"


def test_ladder_start_points_must_be_numbers() -> None:
    data = _good("ladder")
    data["players"][0]["start_points"] = "veel"
    assert _error(data) == "'start_points' of player 1 must be a number or a fraction like \"2/3\", not the text 'veel'"


def test_not_a_mapping_at_all() -> None:
    assert _error([]) == "the season file must be an object, not a list"  # type: ignore[arg-type]
