"""The leader's corrections as the pure engine makes them (pairing/engine/corrections.py):
the corrected pairing, the rules it breaks, and whose seat changes."""

from __future__ import annotations

import pytest

from pairing.engine.corrections import (
    BYE,
    CorrectionRefused,
    Seat,
    broken_by,
    seat_changes,
    swap_blacks,
    swap_colours,
)
from pairing.engine.types import PION_RULES, Meeting, PairedGame, Relaxation

GAMES = (PairedGame(1, 1, 2), PairedGame(2, 3, 4), PairedGame(3, 5, 6))


def test_swapping_black_players_keeps_each_players_colour_and_the_other_boards():
    assert swap_blacks(GAMES, 1, 3) == (PairedGame(1, 1, 6), PairedGame(2, 3, 4), PairedGame(3, 5, 2))


def test_swapping_colours_changes_that_board_only():
    assert swap_colours(GAMES, 2) == (PairedGame(1, 1, 2), PairedGame(2, 4, 3), PairedGame(3, 5, 6))


def test_a_correction_of_a_board_that_is_not_there_is_refused():
    with pytest.raises(CorrectionRefused):
        swap_blacks(GAMES, 1, 1)
    with pytest.raises(CorrectionRefused):
        swap_colours(GAMES, 9)


def test_the_corrected_pairing_reports_the_rematch_it_makes():
    history = [Meeting(1, 4, evening=1, half="winter")]
    corrected = swap_blacks(GAMES, 1, 2)  # 1 plays 4 again, one evening later
    assert broken_by(corrected, None, {}, history, PION_RULES, 2, "winter") == [
        Relaxation(1, 4, "min_evenings_between"), Relaxation(1, 4, "max_meetings_per_half")]
    assert broken_by(GAMES, None, {}, history, PION_RULES, 2, "winter") == []


def test_a_bye_to_a_player_with_more_byes_is_reported():
    assert broken_by(GAMES[:2], 5, {5: 1}, [], PION_RULES, 2, "winter") == [
        Relaxation(5, None, "fewest_byes")]


def test_only_the_players_whose_board_opponent_or_colour_changes_are_listed():
    changes = seat_changes(GAMES, 7, swap_blacks(GAMES, 1, 2), 7)
    assert changes == {
        1: (Seat(1, 2, "W"), Seat(1, 4, "W")), 2: (Seat(1, 1, "B"), Seat(2, 3, "B")),
        3: (Seat(2, 4, "W"), Seat(2, 2, "W")), 4: (Seat(2, 3, "B"), Seat(1, 1, "B")),
    }
    assert seat_changes(GAMES, None, GAMES[:2], 5)[5] == (Seat(3, 6, "W"), BYE)
