"""Properties over generated seasons (hypothesis): invariants every standings must keep."""

import json
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.scoring.types import Evening, Game, KeizerParams, LadderParams, Player, SeasonInput
from competition.season.engine.seasonfile import dump_season, load_season
from tests.generate import random_season

seeds = st.integers(0, 2**32 - 1)
sizes = st.integers(2, 10)
lengths = st.integers(1, 10)
keizer_systems = st.sampled_from(["pion", "classic", "keizer1956"])
methods = st.sampled_from(["fixpoint", "lagging", "frozen"])
FAST = settings(max_examples=150, deadline=None)


def _keizer(seed: int, size: int, length: int, system: str, method: str) -> SeasonInput:
    return random_season(seed, players=size, evenings=length, system=system, overrides={"method": method})


def _halves(season: SeasonInput):
    assert isinstance(season.params, KeizerParams)
    return compute_keizer_season(season.params, season.players, season.evenings)


@FAST
@given(seeds, sizes, lengths, keizer_systems, methods)
def test_without_a_cycle_the_order_is_by_the_totals_shown_then_starting_position(
    seed: int, size: int, length: int, system: str, method: str
) -> None:
    for half in _halves(_keizer(seed, size, length, system, method)).values():
        position = {p: i for i, p in enumerate(half.starting_order)}
        for entry in half.history:
            if entry.cycle:
                continue
            keys = [(-row.total, position[row.player_id]) for row in entry.rows]
            assert keys == sorted(keys)
            assert [row.rank for row in entry.rows] == list(range(1, len(entry.rows) + 1))


@FAST
@given(seeds, sizes, lengths, keizer_systems, methods)
def test_explanation_lines_sum_exactly_to_the_totals(
    seed: int, size: int, length: int, system: str, method: str
) -> None:
    for half in _halves(_keizer(seed, size, length, system, method)).values():
        for row in half.standings:
            assert sum(line.points for line in row.lines) == row.total
            assert half.history[-1].rows[row.rank - 1].total == row.total


@FAST
@given(seeds, sizes, lengths, keizer_systems, methods)
def test_every_player_in_the_standings_has_one_line_per_evening_since_he_entered(
    seed: int, size: int, length: int, system: str, method: str
) -> None:
    season = _keizer(seed, size, length, system, method)
    for name, half in _halves(season).items():
        dates = [e.date for e in season.evenings if e.half == name]
        for row in half.standings:
            evening_dates = [line.date for line in row.lines if line.date is not None]
            assert evening_dates == dates[len(dates) - len(evening_dates) :]


@FAST
@given(seeds, sizes, lengths)
def test_the_ladder_is_zero_sum_apart_from_the_bonuses(seed: int, size: int, length: int) -> None:
    season = random_season(seed, players=size, evenings=length, system="ladder")
    assert isinstance(season.params, LadderParams)
    result = compute_ladder(season.params, season.players, season.evenings)
    assert sum(row.points - row.start_points - row.bonus for row in result.standings) == 0
    for row in result.standings:
        assert sum(line.delta + line.bonus for line in row.lines) == row.score


def _relabel(season: SeasonInput, mapping: dict[int, int]) -> SeasonInput:
    def game(g: Game) -> Game:
        return Game(mapping[g.white], mapping[g.black], g.result)

    def night(e: Evening) -> Evening:
        return replace(
            e,
            games=tuple(game(g) for g in e.games),
            byes=tuple(mapping[p] for p in e.byes),
            absent_with_notice=tuple(mapping[p] for p in e.absent_with_notice),
            club_duty=tuple(mapping[p] for p in e.club_duty),
        )

    players = tuple(replace(p, id=mapping[p.id]) for p in season.players)
    return replace(season, players=players, evenings=tuple(night(e) for e in season.evenings))


@FAST
@given(seeds, sizes, lengths, st.sampled_from(["pion", "classic", "keizer1956", "ladder"]), st.randoms())
def test_relabelling_player_ids_changes_nothing(seed: int, size: int, length: int, system: str, rng) -> None:
    season = random_season(seed, players=size, evenings=length, system=system)
    ids = [p.id for p in season.players]
    new_ids = rng.sample(range(1, 10_000), len(ids))
    mapping = dict(zip(ids, new_ids, strict=True))
    relabelled = _relabel(season, mapping)

    def summary(s: SeasonInput, back: dict[int, int]):
        if isinstance(s.params, LadderParams):
            rows = compute_ladder(s.params, s.players, s.evenings).standings
            return [[(back[r.player_id], r.points) for r in rows]]
        return [
            [(back[r.player_id], r.total, h.cycle) for r in h.standings]
            for h in compute_keizer_season(s.params, s.players, s.evenings).values()
        ]

    identity = {i: i for i in ids}
    inverse = {v: k for k, v in mapping.items()}
    assert summary(season, identity) == summary(relabelled, inverse)


@FAST
@given(seeds, sizes, lengths, st.sampled_from(["pion", "classic", "keizer1956", "ladder"]))
def test_the_season_file_round_trips(seed: int, size: int, length: int, system: str) -> None:
    season = random_season(seed, players=size, evenings=length, system=system)
    data = json.loads(json.dumps(dump_season(season)))
    assert load_season(data) == season
    assert dump_season(load_season(data)) == data


@FAST
@given(seeds, sizes, lengths)
def test_start_points_given_as_fractions_round_trip(seed: int, size: int, length: int) -> None:
    from fractions import Fraction

    season = random_season(seed, players=size, evenings=length, system="ladder")
    players = tuple(
        Player(p.id, p.name, p.rating, p.start, p.fixed, Fraction(p.start, 7)) for p in season.players
    )
    season = replace(season, players=players)
    assert load_season(json.loads(json.dumps(dump_season(season)))) == season


@FAST
@given(seeds, sizes, lengths, keizer_systems)
def test_fixpoint_standings_without_a_cycle_reproduce_themselves(
    seed: int, size: int, length: int, system: str
) -> None:
    from competition.scoring.keizer import score_with_order

    season = _keizer(seed, size, 2 * length, system, "fixpoint")
    assert isinstance(season.params, KeizerParams)
    winter = [e for e in season.evenings if e.half == "winter"]
    half = _halves(season)["winter"]
    fixed = [p.id for p in season.players if p.fixed]
    if half.cycle:
        return
    order = [row.player_id for row in half.standings]
    scored = score_with_order(
        season.params, winter, order, starting_order=half.starting_order, present_from_start=fixed
    )
    assert {p: total for p, (total, _) in scored.items()} == {r.player_id: r.total for r in half.standings}


@FAST
@given(seeds, st.integers(2, 24), lengths, keizer_systems, methods, st.booleans())
def test_at_every_evening_the_totals_shown_never_rise_down_the_standings(
    seed: int, size: int, length: int, system: str, method: str, chaotic: bool
) -> None:
    # After a cycle too: the total shown is the average that decided the order.
    from competition.scoring.display import round_points

    season = random_season(seed, size, length, system, {"method": method}, chaotic=chaotic)
    for half in _halves(season).values():
        for entry in half.history:
            totals = [row.total for row in entry.rows]
            assert totals == sorted(totals, reverse=True)
            shown = [round_points(total) for total in totals]
            assert shown == sorted(shown, reverse=True)
