"""The rank-difference ladder (seed 001, docs/rules.md 4.2)."""

import datetime
from fractions import Fraction

import pytest

from competition.scoring.display import format_points
from competition.scoring.ladder import (
    compute_ladder,
    game_delta,
    ladder_groups,
    pairing_order,
    progress,
    start_points,
)
from competition.scoring.types import Outcome, Player
from tests.season_factories import evening, ladder_params, player

LOW, HIGH = 20, 10  # ids equal to starting positions: LOW is 10 places below HIGH


def _field(count: int = 20) -> tuple[Player, ...]:
    return tuple(player(i) for i in range(1, count + 1))


@pytest.mark.parametrize(
    ("result", "expected"),
    [("1-0", "3.70"), ("1/2-1/2", "0.70"), ("0-1", "-2.30")],
)
def test_game_against_a_player_10_places_higher_moves_seed_001_points(result: str, expected: str) -> None:
    params = ladder_params(bonus=0)
    ladder = compute_ladder(params, _field(), [evening("2026-09-04", None, games=[(LOW, HIGH, result)])])
    assert format_points(ladder.row(LOW).score) == expected
    assert ladder.row(HIGH).score == -ladder.row(LOW).score  # zero-sum


@pytest.mark.parametrize(
    ("result", "expected"),
    [("1-0", "4.00"), ("1/2-1/2", "1.00"), ("0-1", "-2.00")],
)
def test_attendance_bonus_gives_seed_001_points_with_bonus(result: str, expected: str) -> None:
    mirrored = {"1-0": "0-1", "0-1": "1-0"}.get(result, result)  # LOW has black this time
    night = [evening("2026-09-04", None, games=[(HIGH, LOW, mirrored)])]
    ladder = compute_ladder(ladder_params(), _field(), night)
    assert format_points(ladder.row(LOW).score) == expected


def test_delta_uses_exact_fractions() -> None:
    assert game_delta(ladder_params(), Outcome.WIN, 20, 10) == Fraction(37, 10)
    assert game_delta(ladder_params(), Outcome.LOSS, 10, 20) == Fraction(-37, 10)


def test_forfeits_and_postponed_games_move_no_points_and_give_no_bonus() -> None:
    games = [(1, 2, "1-0F"), (3, 4, "0-1F"), (5, 6, "0-0F"), (7, 8, "postponed")]
    ladder = compute_ladder(ladder_params(), _field(), [evening("2026-09-04", None, games=games)])
    assert all(row.score == 0 for row in ladder.standings)
    assert ladder.row(1).stats.forfeit_wins == 1
    assert ladder.row(1).stats.games == 0


def test_club_duty_gives_the_bonus_unless_switched_off() -> None:
    night = [evening("2026-09-04", None, duty=[1], byes=[2], absent=[3])]
    on = compute_ladder(ladder_params(), _field(), night)
    assert (on.row(1).score, on.row(2).score, on.row(3).score) == (Fraction(3, 10), 0, 0)
    off = compute_ladder(ladder_params(bonus_for_club_duty=False, bonus_for_bye=True), _field(), night)
    assert (off.row(1).score, off.row(2).score) == (0, Fraction(3, 10))


def test_default_start_points_keep_the_starting_order() -> None:
    roster = _field(5)
    params = ladder_params()
    assert [start_points(params, p, 5) for p in roster] == [Fraction(7 * k, 100) for k in (4, 3, 2, 1, 0)]
    ladder = compute_ladder(params, roster, [evening("2026-09-04", None)])
    assert [row.player_id for row in ladder.standings] == [1, 2, 3, 4, 5]


def test_given_start_points_are_used() -> None:
    roster = (Player(1, "A", None, 1, True, Fraction(10)), Player(2, "B", None, 2, True, Fraction(12)))
    ladder = compute_ladder(ladder_params(), roster, [evening("2026-09-04", None)])
    assert [row.player_id for row in ladder.standings] == [2, 1]
    assert ladder.row(1).points == 10


def test_points_are_start_points_plus_deltas_plus_bonuses_and_pairing_ignores_bonus() -> None:
    roster = _field(3)
    nights = [
        evening("2026-09-04", None, games=[(3, 1, "1-0")], duty=[2]),
        evening("2026-09-11", None, games=[(2, 3, "1/2-1/2")]),
    ]
    ladder = compute_ladder(ladder_params(), roster, nights)
    row = ladder.row(3)
    # beat 1 (2 places higher): 3 + 0.14; drew with 2 (1 place higher): 0 + 0.07
    delta = Fraction(321, 100)
    assert row.points == row.start_points + delta + 2 * Fraction(3, 10)
    assert row.pairing_points == row.start_points + delta
    assert sum(line.delta + line.bonus for line in row.lines) == row.score
    assert pairing_order(ladder.standings) == [
        r.player_id for r in sorted(ladder.standings, key=lambda r: (-r.pairing_points, r.start))
    ]


def test_equal_points_are_ordered_by_start() -> None:
    roster = (Player(1, "A", None, 1, True, Fraction(0)), Player(2, "B", None, 2, True, Fraction(0)))
    ladder = compute_ladder(ladder_params(), roster, [evening("2026-09-04", None)])
    assert [row.player_id for row in ladder.standings] == [1, 2]


def test_58_players_make_groups_of_15_15_14_14() -> None:
    groups = ladder_groups(_field(58))
    sizes = [list(groups.values()).count(g) for g in (1, 2, 3, 4)]
    assert sizes == [15, 15, 14, 14]
    assert groups[15] == 1 and groups[16] == 2 and groups[31] == 3 and groups[58] == 4


def test_progress_counts_only_evenings_inside_the_period() -> None:
    nights = [
        evening("2026-09-04", None, games=[(LOW, HIGH, "1-0")]),
        evening("2027-02-05", None, games=[(LOW, HIGH, "1-0")]),
    ]
    gained = progress(ladder_params(), _field(), nights, datetime.date(2026, 9, 1), datetime.date(2027, 1, 31))
    assert gained[LOW] == 4
    assert gained[HIGH] == Fraction(-37, 10) + Fraction(3, 10)


def test_flexible_player_enters_the_ladder_at_his_first_evening() -> None:
    roster = (player(1), player(2), player(3, fixed=False))
    nights = [evening("2026-09-04", None, games=[(1, 2, "1-0")]), evening("2026-09-11", None, byes=[3])]
    ladder = compute_ladder(ladder_params(), roster, nights)
    assert [len(e.rows) for e in ladder.history] == [2, 3]
