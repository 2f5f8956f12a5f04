"""The competition out as TRF-16: each evening a round, every game with colour and
result, forfeits and byes coded as TRF says; read back by our reader and py4swiss's."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from py4swiss.trf import TrfParser

from competition.events.engine import trf
from competition.ratings.engine.matching import FIDE, KNSB
from competition.ratings.engine.trf_export import (
    LEFT_OUT_NOT_PLAYED,
    LEFT_OUT_POSTPONED,
    ExportGame,
    ExportPlayer,
    ExportRound,
    export_trf,
)

D1, D2, D3 = dt.date(2026, 9, 11), dt.date(2026, 9, 18), dt.date(2026, 9, 25)
PLAYERS = [
    ExportPlayer(11, "Anna Bakker", 1995, fide_id="1000001", knsb_number="8000001"),
    ExportPlayer(12, "Jan de Vries", 2120, knsb_number="8000002"),
    ExportPlayer(13, "Pieter Jansen", 1780, knsb_number="8000003"),
    ExportPlayer(14, "Kees Mulder", None),
    ExportPlayer(15, "Els Visser", 1710, knsb_number="8000005"),
    ExportPlayer(16, "Never Played", 1500),
]
ROUNDS = [
    ExportRound(D1, (ExportGame(11, 12, "1-0"), ExportGame(13, 14, "1/2-1/2")), bye=15),
    ExportRound(D2, (ExportGame(12, 13, "0-1F"), ExportGame(15, 11, "0-0F"),
                     ExportGame(14, 16, "postponed"))),
    ExportRound(D3, (ExportGame(13, 11, "0-1"), ExportGame(14, 15, "1-0F"),
                     ExportGame(12, 16, ""))),
]


@pytest.fixture(scope="module")
def export():
    return export_trf(name="Interne competitie 2026-2027", players=PLAYERS, rounds=ROUNDS,
                      time_control="90/40+30, 30s")


def rounds_of(parsed, number):
    player = next(p for p in parsed.players if p.number == number)
    return [(r.opponent, r.colour, r.result) for r in player.rounds]


def test_each_evening_is_a_round_with_colour_and_result(export):
    parsed = trf.parse(export.text)
    assert parsed.header("XXR") == "3"
    assert rounds_of(parsed, 1) == [(2, "w", "1"), (5, "b", "-"), (3, "b", "1")]
    assert rounds_of(parsed, 3) == [(4, "w", "="), (2, "b", "+"), (1, "w", "0")]


def test_forfeits_are_plus_and_minus_and_a_double_forfeit_minus_on_both_sides(export):
    parsed = trf.parse(export.text)
    assert rounds_of(parsed, 2)[1] == (3, "w", "-")
    assert rounds_of(parsed, 5)[1] == (1, "w", "-")
    assert rounds_of(parsed, 4)[2] == (5, "w", "+")


def test_the_pairing_bye_is_u_and_an_evening_without_a_game_is_z(export):
    parsed = trf.parse(export.text)
    assert rounds_of(parsed, 5)[0] == (0, "-", "U")
    assert rounds_of(parsed, 4)[1] == (0, "-", "Z")  # his game was postponed
    assert rounds_of(parsed, 2)[2] == (0, "-", "Z")  # his game has no result


def test_unplayed_games_are_left_out_with_the_reason(export):
    assert [(lo.date, lo.reason) for lo in export.left_out] == [
        (D2, LEFT_OUT_POSTPONED), (D3, LEFT_OUT_NOT_PLAYED)]


def test_a_player_with_only_left_out_games_is_not_in_the_file(export):
    names = [p.name for p in trf.parse(export.text).players]
    assert "Never Played" not in names and len(names) == 5


def test_points_are_game_points_and_add_up(export):
    parsed = trf.parse(export.text)  # the reader checks the totals against the rounds
    anna = next(p for p in parsed.players if p.number == 1)
    assert anna.points == Fraction(2)


def test_ratings_and_the_chosen_federation_numbers_are_in_the_player_records(export):
    parsed = trf.parse(export.text)
    jan = next(p for p in parsed.players if p.number == 2)
    assert (jan.rating, jan.fide_id, jan.federation) == (2120, "8000002", "NED")
    by_fide = trf.parse(export_trf(name="x", players=PLAYERS, rounds=ROUNDS, id_kind=FIDE).text)
    assert [p.fide_id for p in by_fide.players][:2] == ["1000001", ""]


def test_the_round_dates_sit_above_the_round_columns(export):
    line = next(ln for ln in export.text.splitlines() if ln.startswith("132"))
    assert line[91:99] == "26/09/11" and line[101:109] == "26/09/18"


def test_py4swiss_reads_the_file_strictly(export, tmp_path):
    # py4swiss reads the round dates (132) nine columns apart where TRF-16 puts them ten
    # apart, above the rounds; everything else it checks as strictly as FIDE does.
    text = "\n".join(ln for ln in export.text.splitlines() if not ln.startswith("132"))
    path = tmp_path / "export.trf"
    path.write_text(text + "\n", encoding="utf-8")
    parsed = TrfParser.parse(path, strict=True)
    assert len(parsed.player_sections) == 5
    assert parsed.x_section.number_of_rounds == 3


def test_an_unknown_id_kind_is_refused():
    with pytest.raises(ValueError):
        export_trf(name="x", players=PLAYERS, rounds=ROUNDS, id_kind="elo")


def test_knsb_is_the_default_id(export):
    assert KNSB and trf.parse(export.text).players[0].fide_id == "8000001"
