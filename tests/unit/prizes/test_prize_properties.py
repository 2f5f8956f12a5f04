"""Properties of prizes and playoffs over generated standings, seasons and brackets."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.prizes.engine.awards import (
    playoff_groups,
    playoff_players,
    prize_report,
    summer_prizes,
    winter_prizes,
)
from competition.prizes.engine.playoffs import RESULTS, build_bracket, record_result, winners
from competition.scoring.eligibility import evenings_in_standings, keizer_eligibility
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.types import KeizerParams, PlayerStats, Standing
from tests.generate import random_season

stats = st.builds(
    PlayerStats,
    won=st.integers(0, 6),
    drawn=st.integers(0, 6),
    lost=st.integers(0, 6),
    forfeit_wins=st.integers(0, 2),
)


@st.composite
def standings_and_eligible(draw: st.DrawFn) -> tuple[list[Standing], set[int]]:
    rows = draw(st.lists(stats, max_size=30))
    ids = draw(st.permutations(range(100, 100 + len(rows))))
    standings = [Standing(i + 1, pid, Fraction(0), Fraction(0), s) for i, (pid, s) in enumerate(zip(ids, rows, strict=True))]
    eligible = {row.player_id for row in standings if draw(st.booleans())}
    return standings, eligible


@given(standings_and_eligible())
def test_no_player_gets_two_prizes_in_a_half_and_only_eligible_players_win(case: tuple) -> None:
    standings, eligible = case
    for prizes in (winter_prizes(standings, eligible), summer_prizes(standings, eligible)):
        winners_ = [p.player_id for p in prizes]
        assert len(winners_) == len(set(winners_))
        assert set(winners_) <= eligible
        assert len({p.prize for p in prizes}) == len(prizes)
    assert len(winter_prizes(standings, eligible)) == min(4, len(eligible))


@given(standings_and_eligible())
def test_every_eligible_summer_player_is_in_exactly_one_playoff_group(case: tuple) -> None:
    standings, eligible = case
    groups = playoff_groups(playoff_players(standings, eligible))
    placed = Counter(p for group in groups for p in group)
    assert set(placed) == eligible and set(placed.values()) <= {1}
    sizes = [len(g) for g in groups]
    assert all(3 <= s <= 6 for s in sizes) or len(sizes) <= 1
    assert all(s == 4 for s in sizes[:-2])  # only the last one or two groups differ from four
    order = [row.player_id for row in standings if row.player_id in eligible]
    assert [p for group in groups for p in group] == order  # top group first, seeding order


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(0, 10**6))
def test_a_bracket_played_to_the_end_has_one_winner_per_group_from_that_group(count: int, seed: int) -> None:
    groups = playoff_groups(list(range(1, count + 1)))
    bracket = build_bracket(groups, seed)
    rng = random.Random(seed)
    for _ in range(100):
        open_matches = bracket.open_matches()
        if not open_matches:
            break
        match = rng.choice(open_matches)
        bracket = record_result(bracket, match.id, rng.choice(RESULTS))
    assert not bracket.open_matches()
    found = winners(bracket)
    assert len(found) == len(groups)
    assert all(w is not None and w in group for w, group in zip(found, groups, strict=True))
    assert all(m.black != m.white for m in bracket.matches)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6))
def test_generated_seasons_give_one_prize_per_player_and_every_eligible_summer_player_a_place(seed: int) -> None:
    season = random_season(seed, players=16, evenings=12, system="pion")
    assert isinstance(season.params, KeizerParams)
    halves = compute_keizer_season(season.params, season.players, season.evenings, history=False)
    report = prize_report(season, halves)
    for half, result in halves.items():
        evenings = sum(1 for e in season.evenings if e.half == half)
        assert all(evenings_in_standings(row.stats) <= evenings for row in result.standings)
        eligibility = keizer_eligibility(result.standings, evenings)
        eligible = {p for p, e in eligibility.items() if e.eligible}
        assert {row["id"] for row in report[half]["standings"] if row["eligible"]} == eligible
        prized = [p["id"] for p in report[half]["prizes"]]
        assert len(prized) == len(set(prized)) and set(prized) <= eligible
    placed = [p for group in report["summer"]["playoff_groups"] for p in group]
    summer_eligible = {row["id"] for row in report["summer"]["standings"] if row["eligible"]}
    assert sorted(placed) == sorted(summer_eligible)
