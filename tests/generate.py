"""Seeded random seasons, for benchmarks and property tests (not for production data).

A generated season looks like a club's: fixed players mostly present, some
absences with notice and club duty, flexible players now and then, pairings of
neighbours in the starting order, results that favour the higher-placed player,
and a few forfeits and postponed games.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from competition.scoring.params import is_ladder, parse_parameters
from competition.scoring.types import Evening, Game, Player, SeasonInput

FIRST_EVENING = datetime.date(2026, 9, 4)  # a Friday


def random_players(rng: random.Random, count: int, fixed_share: float = 0.7) -> tuple[Player, ...]:
    """Players 1..count; ids shuffled so they differ from starting positions."""
    ids = rng.sample(range(1, 10 * count + 1), count)
    ratings = sorted((rng.randint(1000, 2300) for _ in range(count)), reverse=True)
    return tuple(
        Player(ids[i], f"Player {ids[i]}", ratings[i], i + 1, rng.random() < fixed_share)
        for i in range(count)
    )


def _result(rng: random.Random, white: Player, black: Player) -> str:
    roll = rng.random()
    if roll < 0.03:
        return rng.choice(["1-0F", "0-1F", "0-0F", "postponed"])
    edge = (black.start - white.start) / 100  # higher placed = smaller start
    p_white = 0.4 + edge
    if roll < p_white:
        return "1-0"
    if roll < p_white + 0.2:
        return "1/2-1/2"
    return "0-1"


def _evening(
    rng: random.Random, players: tuple[Player, ...], date: datetime.date, half: str | None, chaotic: bool = False
) -> Evening:
    present: list[Player] = []
    notice: list[int] = []
    duty: list[int] = []
    for player in players:
        roll = rng.random()
        chance = 0.8 if player.fixed else 0.35
        if roll < chance:
            present.append(player)
        elif roll < chance + 0.08:
            notice.append(player.id)
        elif roll < chance + 0.11:
            duty.append(player.id)
    byes: list[int] = []
    if len(present) % 2:
        byes.append(present.pop(rng.randrange(len(present))).id)
    if chaotic:
        rng.shuffle(present)
    else:
        present.sort(key=lambda p: p.start + rng.random() * 6)  # neighbours, with some mixing
    games = []
    for a, b in zip(present[::2], present[1::2], strict=True):
        white, black = (a, b) if rng.random() < 0.5 else (b, a)
        result = rng.choice(["1-0", "0-1", "1/2-1/2"]) if chaotic else _result(rng, white, black)
        games.append(Game(white.id, black.id, result))
    return Evening(date, half, tuple(games), tuple(byes), tuple(notice), tuple(duty))  # type: ignore[arg-type]


def random_season(
    seed: int,
    players: int = 100,
    evenings: int = 40,
    system: str = "classic",
    overrides: dict[str, Any] | None = None,
    *,
    chaotic: bool = False,
) -> SeasonInput:
    """A season of weekly evenings; Keizer seasons split into two equal halves.

    `chaotic`: anyone may meet anyone and results ignore the standings (a win, a draw
    and a loss equally likely). The fixpoint recalculation then cycles on nearly every
    evening, often for hundreds of iterations: the benchmark's worst case.
    """
    rng = random.Random(seed)
    people = random_players(rng, players)
    ladder = is_ladder(system)
    nights = []
    for k in range(evenings):
        half = None if ladder else ("winter" if k < (evenings + 1) // 2 else "summer")
        nights.append(_evening(rng, people, FIRST_EVENING + datetime.timedelta(weeks=k), half, chaotic))
    params = parse_parameters(system, overrides)
    return SeasonInput(system, params, dict(overrides or {}), people, tuple(nights))


# The Keizer variants a history test runs (system, parameter overrides): the fixpoint of
# each preset, the lagging one (keizer1956's own value added), the frozen one, and one
# without the absence limit.
KEIZER_VARIANTS: list[tuple[str, dict[str, Any] | None]] = [
    ("pion", {"method": "fixpoint"}),
    ("classic", {"method": "fixpoint"}),
    ("keizer1956", {"method": "fixpoint"}),
    ("keizer1956", None),  # lagging, own value added
    ("pion", {"method": "frozen"}),
    ("classic", {"method": "fixpoint", "absent_with_notice_limit": 0}),
]
