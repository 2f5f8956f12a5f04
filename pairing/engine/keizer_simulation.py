"""A generated season of Keizer evenings, for benchmarks and property tests only.

Players have a hidden strength; the standings order is that strength plus noise, so
neighbours in the standings keep meeting, as in a real competition. Results are not
simulated: only who met whom, colours and byes matter to the pairing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from pairing.engine.keizer import pair_evening
from pairing.engine.types import Half, Meeting, PairingRules, PlayerId, PresentPlayer

GameHook = Callable[[PresentPlayer, PresentPlayer], None]


def half_of(evening: int, evenings_per_half: int = 20) -> Half:
    return "winter" if evening < evenings_per_half else "summer"


def simulate_season(
    *,
    players: int,
    evenings: int,
    seed: int,
    rules: PairingRules,
    presence: float = 0.85,
    evenings_per_half: int = 20,
    on_game: GameHook | None = None,
) -> tuple[list[PresentPlayer], list[Meeting]]:
    """Pair `evenings` evenings; `on_game(white, black)` sees each game before it is played.

    Returns the field of the next evening (everybody present, in standings order) and
    the season's meetings.
    """
    rng = random.Random(seed)
    strength = {pid: rng.random() for pid in range(1, players + 1)}
    colours: dict[PlayerId, list[str]] = {pid: [] for pid in strength}
    byes = dict.fromkeys(strength, 0)
    meetings: list[Meeting] = []

    def field(pids: Iterable[PlayerId]) -> list[PresentPlayer]:
        order = sorted(pids, key=lambda pid: -(strength[pid] + rng.gauss(0, 0.1)))
        return [
            PresentPlayer(pid, tuple(colours[pid]), byes[pid])  # type: ignore[arg-type]
            for pid in order
        ]

    for evening in range(evenings):
        half = half_of(evening, evenings_per_half)
        present = field(pid for pid in strength if rng.random() < presence)
        result = pair_evening(
            present, meetings, rules, evening_index=evening, half=half, seed=evening
        )
        by_id = {p.id: p for p in present}
        for game in result.games:
            if on_game is not None:
                on_game(by_id[game.white], by_id[game.black])
            colours[game.white].append("W")
            colours[game.black].append("B")
            meetings.append(Meeting(game.white, game.black, evening, half))
        if result.bye is not None:
            byes[result.bye] += 1
    return field(strength), meetings
