"""FIDE Berger tables for the blitz playoff: a double round robin among the tied players."""

from collections import Counter

import pytest

from competition.events.engine.berger import berger_rounds, playoff_rounds


def test_four_players_follow_the_published_fide_table() -> None:
    rounds = berger_rounds(4, double=False)
    assert [r.games for r in rounds] == [((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1))]


def test_six_players_follow_the_published_fide_table() -> None:
    rounds = berger_rounds(6, double=False)
    assert [r.games for r in rounds] == [
        ((1, 6), (2, 5), (3, 4)),
        ((6, 4), (5, 3), (1, 2)),
        ((2, 6), (3, 1), (4, 5)),
        ((6, 5), (1, 4), (2, 3)),
        ((3, 6), (4, 2), (5, 1)),
    ]


@pytest.mark.parametrize("k", range(2, 11))
def test_double_round_robin_every_pair_meets_twice_once_with_each_colour(k: int) -> None:
    rounds = berger_rounds(k)
    games = [g for r in rounds for g in r.games]
    assert Counter(games) == Counter({(a, b): 1 for a in range(1, k + 1) for b in range(1, k + 1) if a != b})
    assert len(rounds) == 2 * (k - 1 + k % 2)


@pytest.mark.parametrize("k", range(2, 11))
def test_every_player_plays_at_most_once_a_round_and_odd_fields_rotate_the_bye(k: int) -> None:
    rounds = berger_rounds(k)
    for r in rounds:
        seen = [p for g in r.games for p in g] + ([r.bye] if r.bye else [])
        assert sorted(seen) == list(range(1, k + 1))
    byes = Counter(r.bye for r in rounds if r.bye)
    assert byes == (Counter({p: 2 for p in range(1, k + 1)}) if k % 2 else Counter())


@pytest.mark.parametrize("k", range(2, 11))
def test_colours_alternate_as_well_as_a_berger_table_allows(k: int) -> None:
    # In one cycle no player has the same colour three times in a row.
    for p in range(1, k + 1):
        seq = "".join(
            "w" if g[0] == p else "b" for r in berger_rounds(k, double=False) for g in r.games if p in g
        )
        assert "www" not in seq and "bbb" not in seq


def test_playoff_maps_berger_numbers_to_start_numbers() -> None:
    rounds = playoff_rounds([17, 4, 9])
    assert rounds[0].games == ((4, 9),) and rounds[0].bye == 17
    assert {g for r in rounds for g in r.games} == {(a, b) for a in (17, 4, 9) for b in (17, 4, 9) if a != b}


def test_a_round_robin_needs_two_distinct_players() -> None:
    with pytest.raises(ValueError):
        berger_rounds(1)
    with pytest.raises(ValueError):
        playoff_rounds([3, 3])
