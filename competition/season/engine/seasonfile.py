"""The season file (`"format": "season/1"`, see docs/season-file.md): load, dump, compute.

`load_season` validates everything and raises one `SeasonFileError` whose message
names the place ("unknown player id 17 in evening 2026-10-09"); the engines then
only see well-formed frozen inputs.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from competition.scoring.params import (
    ParameterError,
    is_ladder,
    normalise_overrides,
    number_to_json,
    parse_number,
    parse_parameters,
    preset_names,
)
from competition.scoring.types import (
    RESULTS,
    Evening,
    Game,
    Player,
    SeasonInput,
)
from core.singleline import NotSingleLine, check_single_line

FORMAT = "season/1"


# Bounds that keep every number and date within what the database and the calendar hold.
MAX_INT = 10**9
FIRST_YEAR, LAST_YEAR = 1900, 2999


class SeasonFileError(ValueError):
    """The season file is not valid; the message says where and why."""


# ---------------------------------------------------------------------------
# Small checks


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SeasonFileError(f"{where} must be an object, not {_kind(value)}")
    return value


def _keys(data: Mapping[str, Any], where: str, required: Sequence[str], optional: Sequence[str] = ()) -> None:
    for key in required:
        if key not in data:
            raise SeasonFileError(f"missing key '{key}' in {where}")
    for key in data:
        if key not in required and key not in optional:
            raise SeasonFileError(f"unknown key '{key}' in {where}")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SeasonFileError(f"{what} must be a whole number, not {_kind(value)}")
    if abs(value) > MAX_INT:
        raise SeasonFileError(f"{what} must be a whole number of at most {MAX_INT}")
    return value


def _list(value: Any, what: str) -> Sequence[Any]:
    if not isinstance(value, (list, tuple)):
        raise SeasonFileError(f"{what} must be a list, not {_kind(value)}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise SeasonFileError(f"{what} must be text, not {_kind(value)}")
    if "\x00" in value or not _encodable(value):
        raise SeasonFileError(f"{what} holds a character that is not text (NUL or a lone surrogate)")
    return value


def _one_line(value: str, what: str) -> str:
    """A name in one line: a line break or other control character would forge a line in
    the files made from it (TRF, CSV, iCal) and break an e-mail header. Refused both when
    read and when written (core/singleline.py)."""
    try:
        return check_single_line(value, what)
    except NotSingleLine as error:
        raise SeasonFileError(str(error)) from None


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800" in JSON)
        return False
    return True


# ---------------------------------------------------------------------------
# Loading


def load_season(data: Mapping[str, Any]) -> SeasonInput:
    """Validate a parsed season file and turn it into frozen inputs."""
    data = _mapping(data, "the season file")
    _keys(data, "the season file", ("format", "system", "players", "evenings"), ("parameters",))
    if data["format"] != FORMAT:
        raise SeasonFileError(f"unsupported format {data['format']!r}: expected '{FORMAT}'")
    system = data["system"]
    if system not in preset_names():
        raise SeasonFileError(f"unknown system {system!r}: expected one of {', '.join(preset_names())}")
    raw_overrides = data.get("parameters") or {}
    _mapping(raw_overrides, "'parameters'")
    try:
        params = parse_parameters(system, raw_overrides)
        overrides = normalise_overrides(system, raw_overrides)
    except ParameterError as error:
        raise SeasonFileError(f"in 'parameters': {error}") from None
    ladder = is_ladder(system)
    players = _players(_list(data["players"], "'players'"), ladder)
    evenings = _evenings(_list(data["evenings"], "'evenings'"), {p.id for p in players}, ladder)
    return SeasonInput(system, params, overrides, players, evenings)


def _players(raw: Sequence[Any], ladder: bool) -> tuple[Player, ...]:
    players: list[Player] = []
    ids: set[int] = set()
    starts: dict[int, int] = {}
    for position, item in enumerate(raw, start=1):
        where = f"player {position} of 'players'"
        item = _mapping(item, where)
        _keys(item, where, ("id", "name", "rating", "start", "fixed"), ("start_points",))
        player_id = _int(item["id"], f"'id' of {where}")
        where = f"player {player_id}"
        if player_id in ids:
            raise SeasonFileError(f"player id {player_id} appears twice in 'players'")
        ids.add(player_id)
        name = _one_line(_str(item["name"], f"'name' of {where}"), f"'name' of {where}")
        rating = None if item["rating"] is None else _int(item["rating"], f"'rating' of {where}")
        start = _int(item["start"], f"'start' of {where}")
        if start < 1:
            raise SeasonFileError(f"'start' of {where} must be at least 1")
        if start in starts:
            raise SeasonFileError(f"start {start} is given to both player {starts[start]} and player {player_id}")
        starts[start] = player_id
        if not isinstance(item["fixed"], bool):
            raise SeasonFileError(f"'fixed' of {where} must be true or false, not {_kind(item['fixed'])}")
        players.append(Player(player_id, name, rating, start, item["fixed"], _start_points(item, where, ladder)))
    return tuple(players)


def _start_points(item: Mapping[str, Any], where: str, ladder: bool) -> Fraction | None:
    if "start_points" not in item or item["start_points"] is None:
        return None
    if not ladder:
        raise SeasonFileError(f"'start_points' of {where}: only the ladder has start points")
    try:
        return parse_number("start_points", item["start_points"])
    except ParameterError:
        raise SeasonFileError(
            f"'start_points' of {where} must be a number or a fraction like \"2/3\", not {_kind(item['start_points'])}"
        ) from None


_EVENING_LISTS = ("byes", "absent_with_notice", "club_duty")


def _evenings(raw: Sequence[Any], known: set[int], ladder: bool) -> tuple[Evening, ...]:
    evenings: list[Evening] = []
    for position, item in enumerate(raw, start=1):
        evening = _evening(_mapping(item, f"evening {position}"), position, known, ladder)
        if evenings:
            previous = evenings[-1]
            if evening.date == previous.date:
                raise SeasonFileError(f"two evenings on {evening.date}")
            if evening.date < previous.date:
                raise SeasonFileError(
                    f"evening {evening.date} comes after evening {previous.date}: evenings must be in date order"
                )
            if previous.half == "summer" and evening.half == "winter":
                raise SeasonFileError(
                    f"winter evening {evening.date} comes after summer evening {previous.date}:"
                    " the winter half comes first"
                )
        evenings.append(evening)
    return tuple(evenings)


def _evening(item: Mapping[str, Any], position: int, known: set[int], ladder: bool) -> Evening:
    if "date" not in item:
        raise SeasonFileError(f"missing key 'date' in evening {position}")
    date = _date(item["date"], f"evening {position}")
    where = f"evening {date}"
    optional = ("games", *_EVENING_LISTS) + (() if ladder else ("half",))
    _keys(item, where, ("date",) if ladder else ("date", "half"), optional)
    half = None
    if not ladder:
        half = item["half"]
        if half not in ("winter", "summer"):
            raise SeasonFileError(f"'half' of {where} must be 'winter' or 'summer', not {_kind(half)}")
    seen: set[int] = set()

    def player(value: Any, what: str) -> int:
        player_id = _int(value, what)
        if player_id not in known:
            raise SeasonFileError(f"unknown player id {player_id} in {where}")
        if player_id in seen:
            raise SeasonFileError(f"player {player_id} appears twice in {where}")
        seen.add(player_id)
        return player_id

    games = tuple(_game(g, f"{where}, board {n}", player) for n, g in enumerate(_games(item, where), start=1))
    lists = {
        key: tuple(player(v, f"the player ids in '{key}' of {where}") for v in _list(item.get(key, []), f"'{key}' of {where}"))
        for key in _EVENING_LISTS
    }
    return Evening(date, half, games, lists["byes"], lists["absent_with_notice"], lists["club_duty"])


def _games(item: Mapping[str, Any], where: str) -> Sequence[Any]:
    return _list(item.get("games", []), f"'games' of {where}")


def _game(raw: Any, where: str, player: Any) -> Game:
    raw = _mapping(raw, where)
    _keys(raw, where, ("white", "black", "result"))
    white = player(raw["white"], f"'white' of {where}")
    black = player(raw["black"], f"'black' of {where}")
    result = raw["result"]
    if result not in RESULTS:
        raise SeasonFileError(f"unknown result {result!r} in {where} (expected one of {', '.join(RESULTS)})")
    return Game(white, black, result)


def _date(value: Any, where: str) -> datetime.date:
    if isinstance(value, str):
        try:
            day = datetime.date.fromisoformat(value)
        except ValueError:
            pass
        else:
            if not FIRST_YEAR <= day.year <= LAST_YEAR:  # time zones overflow at year 1
                raise SeasonFileError(
                    f"'date' of {where} must lie in the years {FIRST_YEAR}-{LAST_YEAR}, not {value}"
                )
            return day
    raise SeasonFileError(f"'date' of {where} must be a date like 2026-10-09, not {_kind(value)}")


# ---------------------------------------------------------------------------
# Dumping


def dump_season(season: SeasonInput) -> dict[str, Any]:
    """The normalised season file: every list present, `parameters` only if any."""
    data: dict[str, Any] = {"format": FORMAT, "system": season.system}
    if season.overrides:
        data["parameters"] = dict(season.overrides)
    data["players"] = [_dump_player(p) for p in season.players]
    data["evenings"] = [_dump_evening(e) for e in season.evenings]
    return data


def _dump_player(player: Player) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": player.id,
        "name": _one_line(player.name, f"the name of player {player.id}"),
        "rating": player.rating,
        "start": player.start,
        "fixed": player.fixed,
    }
    if player.start_points is not None:
        data["start_points"] = number_to_json(player.start_points)
    return data


def _dump_evening(evening: Evening) -> dict[str, Any]:
    data: dict[str, Any] = {"date": evening.date.isoformat()}
    if evening.half is not None:
        data["half"] = evening.half
    data["games"] = [{"white": g.white, "black": g.black, "result": g.result} for g in evening.games]
    data["byes"] = list(evening.byes)
    data["absent_with_notice"] = list(evening.absent_with_notice)
    data["club_duty"] = list(evening.club_duty)
    return data


# ---------------------------------------------------------------------------
# Computing the report
