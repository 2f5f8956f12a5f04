"""Pairing an evening from a season file, without the database (``manage.py pair_evening``).

Pure: the same input the database path builds (``pairing/services.py``: `pairing_input`
and `standings_order`), from a `SeasonInput` instead of rows, so that both paths pair
a season alike. Only the evenings before the date count; an evening on that date in
the file is paired as if it had not been played.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence

from competition.scoring.keizer import compute_keizer_season, winter_starting_order
from competition.scoring.ladder import compute_ladder, pairing_order
from competition.scoring.presets import COMPETITION_PRESETS
from competition.scoring.types import Evening, LadderParams, SeasonInput
from pairing.engine.keizer import pair_evening, place_newcomers
from pairing.engine.types import Colour, Meeting, PairingResult, PairingRules, PresentPlayer

FORFEITS = frozenset({"1-0F", "0-1F", "0-0F"})
SEASON = "season"  # the ladder's one period, as the database names its half


class PairingInputError(ValueError):
    """The date, half or players present do not fit the season; one line saying why."""


def rules_for_system(system: str) -> PairingRules:
    """The pairing rules of a system's preset (competition/scoring/presets.py)."""
    preset = COMPETITION_PRESETS[system]
    fields = ("max_meetings_per_season", "max_meetings_per_half", "min_evenings_between", "bye_policy")
    return PairingRules(**{key: preset[key] for key in fields})  # type: ignore[arg-type]


def evening_half(season: SeasonInput, date: dt.date, half: str | None = None) -> str:
    """The half the evening on `date` belongs to: `season` for the ladder; else `half` if
    given, else the file's evening on that date, else the last evening before it, else
    winter."""
    if isinstance(season.params, LadderParams):
        return SEASON
    if half is not None:
        if half not in ("winter", "summer"):
            raise PairingInputError(f"half {half!r}: expected 'winter' or 'summer'")
        return half
    on_or_before = [e for e in season.evenings if e.date <= date]
    return (on_or_before[-1].half if on_or_before else None) or "winter"


def standings_order(season: SeasonInput, earlier: Sequence[Evening], half: str) -> list[int]:
    """Player ids in the standings after `earlier`, as the pairing order (the database's
    `pairing.services.standings_order`). Players not yet in it are left out."""
    by_start = winter_starting_order(season.players)
    if not earlier:
        return by_start
    if isinstance(season.params, LadderParams):
        ladder = compute_ladder(season.params, season.players, earlier, history=False)
        return pairing_order(ladder.standings)
    results = compute_keizer_season(season.params, season.players, earlier, history=False)
    if half in results:
        return [r.player_id for r in results[half].standings]
    if half == "summer" and "winter" in results:
        return [r.player_id for r in results["winter"].standings]
    return by_start


def pairing_input_from_season(
    season: SeasonInput, date: dt.date, present: Iterable[int], *, half: str | None = None
) -> tuple[list[PresentPlayer], list[Meeting], int, str]:
    """(players in pairing order, meetings, evening index, half) for the evening on `date`.

    Meetings are the games before `date` that are not forfeits (postponed ones count);
    colours come from the same games; the evening index is the evening's position among
    the file's evenings (1 = first), counting only those before it.
    """
    known = {p.id: p for p in season.players}
    wanted = list(present)
    unknown = sorted({pid for pid in wanted if pid not in known})
    if unknown:
        raise PairingInputError(
            f"unknown player id{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(map(str, unknown))} among the players present"
        )
    twice = sorted({pid for pid in wanted if wanted.count(pid) > 1})
    if twice:
        raise PairingInputError(f"player {twice[0]} is listed twice among the players present")
    the_half = evening_half(season, date, half)
    earlier = [e for e in season.evenings if e.date < date]
    colours: dict[int, list[Colour]] = defaultdict(list)
    byes: dict[int, int] = defaultdict(int)
    meetings: list[Meeting] = []
    for index, e in enumerate(earlier, start=1):
        kind = e.half or SEASON
        for g in e.games:
            if g.result in FORFEITS:
                continue
            colours[g.white].append("W")
            colours[g.black].append("B")
            meetings.append(Meeting(g.white, g.black, index, kind))  # type: ignore[arg-type]
        for pid in e.byes:
            byes[pid] += 1
    here = set(wanted)
    order = [pid for pid in standings_order(season, earlier, the_half) if pid in here]
    placed = set(order)
    newcomers = sorted((pid for pid in wanted if pid not in placed), key=lambda pid: known[pid].start)
    if newcomers:
        ratings = {pid: known[pid].rating for pid in wanted}
        order = place_newcomers(order, ratings, newcomers)
    players = [
        PresentPlayer(pid, tuple(colours[pid]), byes[pid], known[pid].rating) for pid in order
    ]
    return players, meetings, len(earlier) + 1, the_half


def pair_from_season(
    season: SeasonInput,
    date: dt.date,
    present: Iterable[int],
    rules: PairingRules | None = None,
    *,
    half: str | None = None,
    seed: str | int | None = None,
) -> PairingResult:
    """Pair the evening on `date`; rules default to the system's preset, the seed of a
    drawn bye to the date (the database uses ``<season slug>:<date>``)."""
    players, meetings, index, the_half = pairing_input_from_season(season, date, present, half=half)
    return pair_evening(
        players,
        meetings,
        rules or rules_for_system(season.system),
        evening_index=index,
        half=the_half,  # type: ignore[arg-type]
        seed=date.isoformat() if seed is None else seed,
    )
