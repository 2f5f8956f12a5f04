"""Prize eligibility (docs/rules.md 6): attendance for Keizer, games for the ladder, overrides."""

from __future__ import annotations

from fractions import Fraction

from competition.scoring.eligibility import keizer_eligibility, ladder_eligibility
from competition.scoring.types import LadderStanding, PlayerStats, Standing


def keizer_row(player_id: int, rank: int | None = None, **stats: int) -> Standing:
    return Standing(rank or player_id, player_id, Fraction(0), Fraction(60), PlayerStats(**stats))


def ladder_row(player_id: int, **stats: int) -> LadderStanding:
    zero = Fraction(0)
    return LadderStanding(player_id, player_id, player_id, 1, zero, zero, zero, zero, PlayerStats(**stats))


def test_exactly_50_percent_not_absent_without_notice_is_eligible() -> None:
    row = keizer_row(1, won=5, absent_without_notice=5)
    result = keizer_eligibility([row], 10)[1]
    assert result.eligible
    assert (result.evenings, result.absent_without_notice, result.games) == (10, 5, 5)


def test_one_absence_more_than_half_makes_a_player_ineligible() -> None:
    result = keizer_eligibility([keizer_row(1, won=4, absent_without_notice=6)], 10)[1]
    assert not result.eligible
    assert "4 of 10" in result.reason and "50%" in result.reason


def test_absences_with_notice_and_club_duty_keep_a_player_eligible() -> None:
    row = keizer_row(1, won=1, absent_with_notice=5, club_duty=3, absent_without_notice=1)
    assert keizer_eligibility([row], 10)[1].eligible


def test_evenings_before_a_flexible_players_entry_count_as_absent_without_notice() -> None:
    # entered on evening 6 of 10 and played every evening since: 5 evenings not signed up
    on_time = keizer_row(1, won=5)
    assert keizer_eligibility([on_time], 10)[1].absent_without_notice == 5
    assert keizer_eligibility([on_time], 10)[1].eligible
    late = keizer_row(2, won=4)  # entered on evening 7
    assert not keizer_eligibility([late], 10)[2].eligible


def test_a_forfeit_loss_counts_as_absent_without_notice() -> None:
    row = keizer_row(1, won=4, forfeit_losses=2, absent_without_notice=4)
    result = keizer_eligibility([row], 10)[1]
    assert result.absent_without_notice == 6 and not result.eligible


def test_the_percentage_is_a_parameter() -> None:
    row = keizer_row(1, won=6, absent_without_notice=4)
    assert keizer_eligibility([row], 10, percentage=60)[1].eligible
    assert not keizer_eligibility([row], 10, percentage=70)[1].eligible


def test_an_overridden_eligibility_wins_over_the_rule_and_keeps_the_numbers() -> None:
    absent = keizer_row(1, won=1, absent_without_notice=9)
    present = keizer_row(2, won=10)
    result = keizer_eligibility([absent, present], 10, overrides={1: True, 2: False})
    assert result[1].eligible and result[1].overridden
    assert result[1].absent_without_notice == 9
    assert "administrator" in result[1].reason
    assert not result[2].eligible and result[2].overridden


def test_an_override_for_a_player_not_in_the_standings_is_ignored() -> None:
    assert set(keizer_eligibility([keizer_row(1, won=1)], 1, overrides={99: True})) == {1}


def test_ladder_needs_14_games() -> None:
    assert ladder_eligibility([ladder_row(1, won=7, drawn=4, lost=3)], 30)[1].eligible
    assert not ladder_eligibility([ladder_row(1, won=7, drawn=4, lost=2)], 30)[1].eligible


def test_ladder_min_games_with_exemptions_capped_at_4() -> None:
    ten_games_four_matches = ladder_row(1, won=10, club_duty=4)
    result = ladder_eligibility([ten_games_four_matches], 30)[1]
    assert result.eligible and (result.games, result.exempted) == (10, 4)
    nine_games_six_matches = ladder_row(2, won=9, club_duty=6)
    result = ladder_eligibility([nine_games_six_matches], 30)[2]
    assert not result.eligible and (result.games, result.exempted) == (9, 4)


def test_ladder_forfeit_wins_are_not_games() -> None:
    assert not ladder_eligibility([ladder_row(1, won=13, forfeit_wins=3)], 30)[1].eligible


def test_ladder_min_games_and_exemptions_are_parameters_and_overrides_apply() -> None:
    row = ladder_row(1, won=8, club_duty=3)
    assert ladder_eligibility([row], 30, min_games=10, max_exempted=2)[1].eligible
    assert not ladder_eligibility([row], 30, min_games=10, max_exempted=1)[1].eligible
    assert ladder_eligibility([row], 30, overrides={1: True})[1].eligible
