"""Short builders for seasons in tests and examples: `evening("2026-10-09", games=[(1, 2, "1-0")])`."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from competition.scoring.params import parse_parameters
from competition.scoring.types import Evening, Game, Half, KeizerParams, LadderParams, Player


def player(id: int, start: int | None = None, *, fixed: bool = True, name: str | None = None) -> Player:
    """A player whose starting position defaults to his id."""
    return Player(id, name or f"Player {id}", None, id if start is None else start, fixed)


def players(*ids: int, fixed: bool = True) -> tuple[Player, ...]:
    return tuple(player(i, fixed=fixed) for i in ids)


def evening(
    date: str,
    half: Half | None = "winter",
    *,
    games: Iterable[tuple[int, int, str]] = (),
    byes: Iterable[int] = (),
    absent: Iterable[int] = (),
    duty: Iterable[int] = (),
) -> Evening:
    """An evening; `absent` are the absences with notice, `duty` the club duties."""
    return Evening(
        datetime.date.fromisoformat(date),
        half,
        tuple(Game(w, b, r) for w, b, r in games),
        tuple(byes),
        tuple(absent),
        tuple(duty),
    )


def keizer_params(system: str = "classic", **overrides: Any) -> KeizerParams:
    params = parse_parameters(system, overrides)
    assert isinstance(params, KeizerParams)
    return params


def ladder_params(**overrides: Any) -> LadderParams:
    params = parse_parameters("ladder", overrides)
    assert isinstance(params, LadderParams)
    return params


def season_dict(
    system: str = "classic",
    *,
    players: Iterable[Mapping[str, Any]] = (),
    evenings: Iterable[Mapping[str, Any]] = (),
    parameters: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A season-file dict (format season/1)."""
    data: dict[str, Any] = {"format": "season/1", "system": system}
    if parameters is not None:
        data["parameters"] = dict(parameters)
    data["players"] = [dict(p) for p in players]
    data["evenings"] = [dict(e) for e in evenings]
    return data
