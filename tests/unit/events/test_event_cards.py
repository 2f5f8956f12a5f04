"""A Swiss event's cross table and player card (competition.events.engine.cards)."""

from __future__ import annotations

from fractions import Fraction

from competition.events.engine.cards import player_card, round_cross_table
from competition.events.engine.tiebreaks import Entrant, Kind, RoundResult, Tournament


def tournament() -> Tournament:
    game, bye = RoundResult.game, RoundResult.bye
    return Tournament((
        Entrant(1, (game(2, 1, "w"), game(3, "1/2", "b"))),
        Entrant(2, (game(1, 0, "b"), bye(Kind.PAIRING_BYE))),
        Entrant(3, (bye(Kind.ZERO_BYE), game(1, "1/2", "w"))),
    ))


def test_card_has_round_opponent_colour_result_and_running_score():
    card = player_card(tournament(), 1, order=[1, 3, 2])
    assert [(c.round, c.opponent, c.opponent_place, c.colour) for c in card] == [
        (1, 2, 3, "w"), (2, 3, 2, "b")]
    assert [c.outcome for c in card] == ["win", "draw"]
    assert [c.running for c in card] == [Fraction(1), Fraction(3, 2)]


def test_byes_and_absences_have_no_opponent():
    t = tournament()
    assert [c.outcome for c in player_card(t, 2, [1, 2, 3])] == ["loss", "bye"]
    absent = player_card(t, 3, [1, 2, 3])[0]
    assert (absent.outcome, absent.opponent, absent.opponent_place) == ("absent", None, None)


def test_cross_table_rows_follow_the_order_with_scores():
    rows = round_cross_table(tournament(), [1, 2, 3])
    assert [(r.place, r.number, r.score) for r in rows] == [
        (1, 1, Fraction(3, 2)), (2, 2, Fraction(1)), (3, 3, Fraction(1, 2))]
    assert rows[0].cells[1].opponent_place == 3


def test_a_rapid_match_is_a_win_above_half_its_two_points():
    match = Tournament((
        Entrant(1, (RoundResult.game(2, "3/2", None, 2),)),
        Entrant(2, (RoundResult.game(1, "1/2", None, 2),)),
    ))
    (won,), (lost,) = (player_card(match, n, [1, 2]) for n in (1, 2))
    assert (won.outcome, won.colour, won.points) == ("win", None, Fraction(3, 2))
    assert lost.outcome == "loss"
    even = Tournament((Entrant(1, (RoundResult.game(2, 1, None, 2),)),
                       Entrant(2, (RoundResult.game(1, 1, None, 2),))))
    assert player_card(even, 1, [1, 2])[0].outcome == "draw"


def test_forfeits_keep_their_kind():
    t = Tournament((
        Entrant(1, (RoundResult.forfeit(2, won=True, colour="w"),)),
        Entrant(2, (RoundResult.forfeit(1, won=False, colour="b"),)),
    ))
    assert player_card(t, 1, [1, 2])[0].outcome == "forfeit_win"
    assert player_card(t, 2, [1, 2])[0].outcome == "forfeit_loss"
