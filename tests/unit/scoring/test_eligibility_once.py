"""The eligibility arithmetic lives once (docs/rules.md 6): the number the late sign-off's
warning says (the most absences allowed) and the ladder's counted games are the rule's own."""

import pytest

from competition.scoring.eligibility import (
    counted_games,
    enough_games,
    most_absences_allowed,
    present_enough,
)


@pytest.mark.parametrize("percentage", [0, 1, 33, 50, 67, 99, 100])
@pytest.mark.parametrize("evenings", range(0, 23))
def test_the_most_absences_allowed_is_the_last_count_the_rule_still_accepts(evenings, percentage):
    allowed = most_absences_allowed(evenings, percentage)
    assert present_enough(evenings - allowed, evenings, percentage)
    if allowed < evenings:
        assert not present_enough(evenings - allowed - 1, evenings, percentage)


def test_exactly_the_percentage_is_enough():
    assert most_absences_allowed(10, 50) == 5
    assert most_absences_allowed(9, 50) == 4
    assert most_absences_allowed(10, 100) == 0


def test_the_ladder_counts_at_most_the_exempted_club_team_matches():
    assert counted_games(10, 2, 4) == (10, 2)
    assert counted_games(10, 6, 4) == (10, 4)
    assert enough_games(*counted_games(10, 6, 4), 14)
    assert not enough_games(*counted_games(9, 6, 4), 14)


def test_an_eligibility_is_stored_with_every_field_and_read_back_the_same():
    """to_json names each field by hand (the recalculation stores thousands): it must
    keep up with the dataclass."""
    from dataclasses import asdict

    from competition.scoring.eligibility import Eligibility

    e = Eligibility(player_id=7, eligible=False, evenings=10, absent_without_notice=4,
                    games=5, exempted=1, reason="te vaak afwezig", overridden=True)
    assert e.to_json() == asdict(e)
    assert Eligibility.from_json(e.to_json()) == e
