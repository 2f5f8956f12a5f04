"""Incremental against full recalculation (hypothesis): a correction anywhere in a
generated season; the standings the recalculation reuses (`incremental.input_links`
unchanged; a half's last evening, with its explanation lines, when it was the last
before too) must equal the full recalculation's, bit for bit,
for the fixpoint, lagging and frozen methods and the ladder; and it does reuse every
evening of the half before the corrected one."""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring import keizer
from competition.scoring.incremental import LADDER, input_links
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.scoring.types import Evening, Game, LadderParams, SeasonInput
from tests.generate import random_season

SYSTEMS = st.sampled_from([
    ("pion", {"method": "fixpoint"}),
    ("classic", {"method": "fixpoint"}),
    ("keizer1956", {"method": "fixpoint"}),
    ("classic", {"method": "lagging"}),
    ("keizer1956", None),
    ("pion", {"method": "frozen"}),
    ("classic", {"method": "fixpoint", "absent_with_notice_limit": 1}),
    ("ladder", None),
])
CORRECTIONS = st.sampled_from(["result", "drop game", "notice", "remove evening", "add evening"])
OTHER = {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0F", "1-0F": "postponed", "postponed": "1-0",
         "0-1F": "1-0", "0-0F": "1-0"}


def _stored(season: SeasonInput) -> dict[tuple[str, Any], tuple[str, bool]]:
    """{(half, date): (what a snapshot stores of those standings, whether it is the
    half's last)} of a full recalculation; a half's last holds the final rows with their
    explanation lines."""
    out: dict[tuple[str, Any], tuple[str, bool]] = {}
    if isinstance(season.params, LadderParams):
        result = compute_ladder(season.params, season.players, season.evenings)
        for i, entry in enumerate(result.history):
            last = i == len(result.history) - 1
            out[(LADDER, entry.date)] = (repr(result.standings if last else entry.rows), last)
        return out
    for half, res in compute_keizer_season(season.params, season.players, season.evenings).items():
        for i, entry in enumerate(res.history):
            last = i == len(res.history) - 1
            rows = res.standings if last else entry.rows
            out[(half, entry.date)] = (repr((rows, entry.cycle, entry.cycle_orders)), last)
    return out


def _corrected(season: SeasonInput, k: int, kind: str, pick: int) -> SeasonInput:
    evenings = list(season.evenings)
    evening = evenings[k]
    if kind == "add evening":
        last = evenings[-1]
        evenings.append(replace(last, date=last.date + datetime.timedelta(weeks=1)))
    elif kind == "remove evening":
        del evenings[k]
    elif kind == "result" and evening.games:
        i = pick % len(evening.games)
        game = evening.games[i]
        games = list(evening.games)
        games[i] = Game(game.white, game.black, OTHER[game.result])  # type: ignore[arg-type]
        evenings[k] = replace(evening, games=tuple(games))
    elif kind == "drop game" and evening.games:
        i = pick % len(evening.games)
        evenings[k] = replace(evening, games=evening.games[:i] + evening.games[i + 1:])
    else:  # a notice of absence given (or taken back) by a player not playing
        playing = {p for g in evening.games for p in (g.white, g.black)} | set(evening.byes)
        free = [p.id for p in season.players if p.id not in playing and p.id not in evening.club_duty]
        if not free:
            return season
        player = free[pick % len(free)]
        notice = evening.absent_with_notice
        notice = tuple(p for p in notice if p != player) if player in notice else (*notice, player)
        evenings[k] = replace(evening, absent_with_notice=notice)
    return replace(season, evenings=tuple(evenings))


def _half(evening: Evening) -> str:
    return evening.half or LADDER


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 9), st.integers(1, 9), SYSTEMS, CORRECTIONS,
       st.integers(0, 10**6), st.integers(0, 10**6), st.booleans())
def test_what_the_incremental_recalculation_reuses_equals_the_full_recalculation(
    seed: int, size: int, length: int, system: tuple[str, Any], kind: str, at: int, pick: int,
    warm: bool,
) -> None:
    name, overrides = system
    before = random_season(seed, players=size, evenings=length, system=name, overrides=overrides)
    k = at % length
    after = _corrected(before, k, kind, pick)
    if not warm:  # the engine's memory of settled evenings must not matter either
        keizer.SETTLED.clear()
    old, new = _stored(before), _stored(after)
    old_links = input_links(before.params, before.players, before.evenings)
    new_links = input_links(after.params, after.players, after.evenings)
    assert set(new_links) == set(new)
    for key, (rows, last) in new.items():
        # The shell reuses a snapshot whose link is unchanged and that was, and is, the
        # half's last or not (its link is marked "last": standings.last_link).
        if key in old and old_links.get(key) == new_links[key] and last == old[key][1]:
            assert old[key][0] == rows, key  # reused: must be what the full run stores
    # Reused indeed: every evening of the corrected one's half before it keeps its link.
    corrected = before.evenings[k]
    for evening in before.evenings:
        if _half(evening) == _half(corrected) and evening.date < corrected.date:
            assert old_links[(_half(evening), evening.date)] == new_links[(_half(evening), evening.date)]
    keizer.SETTLED.clear()


def test_a_correction_changes_the_links_from_its_evening_on_and_the_whole_summer_after_winter() -> None:
    season = random_season(3, players=8, evenings=6, system="classic")
    links = input_links(season.params, season.players, season.evenings)
    changed = _corrected(season, 1, "result", 0)
    new = input_links(changed.params, changed.players, changed.evenings)
    keys = [(_half(e), e.date) for e in season.evenings]
    assert [links[key] == new[key] for key in keys] == [True, False, False, False, False, False]
    late = _corrected(season, 4, "result", 0)
    new = input_links(late.params, late.players, late.evenings)
    assert [links[key] == new[key] for key in keys] == [True, True, True, True, False, False]
