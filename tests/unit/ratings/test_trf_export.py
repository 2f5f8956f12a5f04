"""The competition out as TRF-16 for rating: each evening a round, every game with colour
and result, forfeits and byes coded as TRF says, the player fields FIDE wants, TRF-2026 NRS
records for the KNSB; read back by our reader, py4swiss's and the `trf` package's."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from fractions import Fraction

import pytest
import trf as pypi_trf
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
from core.singleline import NotSingleLine

D1, D2, D3 = dt.date(2026, 9, 11), dt.date(2026, 9, 18), dt.date(2026, 9, 25)
PLAYERS = [
    ExportPlayer(11, "Anna Bakker", fide_rating=1995, knsb_rating=1950, fide_id="1000001",
                 knsb_number="8000001", federation="NED", sex="w", title="wf",
                 birth_date=dt.date(1990, 3, 7)),
    ExportPlayer(12, "Jan de Vries", knsb_rating=2120, knsb_number="8000002", federation="NED", sex="m"),
    ExportPlayer(13, "Pieter Jansen", fide_rating=1780, knsb_rating=1801, fide_id="1000003",
                 knsb_number="8000003", federation="BEL", sex="m", title="c"),
    ExportPlayer(14, "Kees Mulder", federation="NED"),
    ExportPlayer(15, "Yvonne de Haan", fide_rating=1710, knsb_rating=1690, knsb_number="8000005",
                 fide_id="1000005", federation="NED", sex="w", birth_date=dt.date(2001, 12, 31)),
    ExportPlayer(16, "Never Played", knsb_rating=1500),
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
                      time_control="90/40+30, 30s", city="Utrecht", arbiter="Haan, Yvonne de")


@pytest.fixture(scope="module")
def knsb_export():
    return export_trf(name="Interne competitie 2026-2027", players=PLAYERS, rounds=ROUNDS,
                      rating=KNSB, start_rating=KNSB, city="Utrecht", arbiter="Haan, Yvonne de")


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


def player(parsed, number):
    return next(p for p in parsed.players if p.number == number)


def test_names_are_lastname_comma_firstname_with_the_particles_before_the_surname_as_fide_lists_them(export):
    # FIDE's list: "Van Foreest, Jorden"; before, this project wrote "Vries, Jan de".
    parsed = trf.parse(export.text)
    assert [p.name for p in parsed.players] == [
        "Bakker, Anna", "De Vries, Jan", "Jansen, Pieter", "Mulder, Kees", "De Haan, Yvonne"]


def test_each_player_has_his_own_federation_sex_title_fide_id_and_full_birth_date(export):
    parsed = trf.parse(export.text)
    anna, jan, pieter, kees = (player(parsed, n) for n in (1, 2, 3, 4))
    assert (anna.sex, anna.title, anna.federation, anna.fide_id, anna.birth_date) == (
        "w", "WFM", "NED", "1000001", "1990/03/07")
    assert (pieter.federation, pieter.title, pieter.fide_id) == ("BEL", "CM", "1000003")
    # Unknown is blank: no partial date (YYYY/00/00), no federation guessed, no KNSB number.
    assert (jan.fide_id, jan.birth_date, jan.title) == ("", "", "")
    assert (kees.sex, kees.birth_date, kees.rating) == ("", "", 0)


def test_the_rating_column_holds_the_fide_rating_never_the_knsb_rating(export, knsb_export):
    for text in (export.text, knsb_export.text):
        parsed = trf.parse(text)
        assert [p.rating for p in parsed.players] == [1995, 0, 1780, 0, 1710]
        assert [p.fide_id for p in parsed.players] == ["1000001", "", "1000003", "", "1000005"]
    assert trf.parse(export.text).header("072") == "3"


def test_a_fide_file_has_no_national_records(export):
    parsed = trf.parse(export.text)
    assert parsed.national == () and parsed.header("172") is None


def test_a_knsb_file_carries_knsb_ratings_and_relation_numbers_in_trf_2026_nrs_records(knsb_export):
    parsed = trf.parse(knsb_export.text)
    assert parsed.header("172") == "NED NRO"
    assert [(r.federation, r.number, r.rating, r.national_id) for r in parsed.national] == [
        ("NED", 1, 1950, "8000001"), ("NED", 2, 2120, "8000002"), ("NED", 3, 1801, "8000003"),
        ("NED", 4, 0, ""), ("NED", 5, 1690, "8000005")]
    nrs = [ln for ln in knsb_export.text.splitlines() if ln.startswith("NED")]
    assert nrs[0][4:8] == "   1" and nrs[0][48:52] == "1950" and nrs[0][57:68] == "    8000001"


def test_the_tournament_records_a_rating_officer_needs(export):
    parsed = trf.parse(export.text)
    assert parsed.header("012") == "Interne competitie 2026-2027"
    assert parsed.header("022") == "Utrecht"
    assert parsed.header("032") == "NED"
    assert (parsed.header("042"), parsed.header("052")) == ("2026/09/11", "2026/09/25")
    assert parsed.header("102") == "Haan, Yvonne de"
    assert parsed.header("132") is not None


def test_every_line_ends_with_cr_then_lf(export, knsb_export):
    for text in (export.text, knsb_export.text):
        assert text.endswith("\r\n")
        assert text.count("\n") == text.count("\r\n") == text.count("\r")


@pytest.fixture(scope="module")
def export_for_pypi_trf():
    # The `trf` package reads titles of two letters only (its pattern wants column 11
    # blank): WFM, WGM, WIM and WCM are beyond it, so Anna is an FM here.
    players = [replace(PLAYERS[0], title="f"), *PLAYERS[1:]]
    return export_trf(name="Interne competitie 2026-2027", players=players, rounds=ROUNDS,
                      city="Utrecht", arbiter="Haan, Yvonne de")


def test_the_pypi_trf_reader_splits_on_lf_only_so_a_cr_only_file_loses_its_players(export_for_pypi_trf):
    # Why CR LF and not CR alone (TRF Remark 1): this reader needs the LF.
    text = export_for_pypi_trf.text
    assert len(pypi_trf.loads(text.replace("\r\n", "\r")).players) == 0
    assert len(pypi_trf.loads(text).players) == 5


def test_the_pypi_trf_reader_reads_the_file_as_we_wrote_it(export_for_pypi_trf):
    export = export_for_pypi_trf
    read = pypi_trf.loads(export.text)
    assert (read.name, read.city, read.federation) == ("Interne competitie 2026-2027", "Utrecht", "NED")
    assert (read.startdate, read.enddate, read.chiefarbiter) == ("2026/09/11", "2026/09/25", "Haan, Yvonne de")
    assert read.rounddates == ["26/09/11", "26/09/18", "26/09/25"]
    ours = trf.parse(export.text)
    for p, q in zip(read.players, ours.players, strict=True):
        assert (p.startrank, p.name, p.rating, p.fed, p.birthdate, p.points, p.rank) == (
            q.number, q.name, q.rating, q.federation, q.birth_date, float(q.points), q.rank)
        assert p.id == (int(q.fide_id) if q.fide_id else None)
        assert [(g.startrank or 0, g.color, g.result) for g in p.games] == [
            (r.opponent, r.colour, r.result) for r in q.rounds]


def test_the_pypi_trf_reader_reads_the_knsb_file_too():
    players = [replace(PLAYERS[0], title="f"), *PLAYERS[1:]]
    read = pypi_trf.loads(export_trf(name="x", players=players, rounds=ROUNDS, rating=KNSB).text)
    assert [p.rating for p in read.players] == [1995, 0, 1780, 0, 1710]


@pytest.mark.parametrize("control", ["\n", "\r", "\x00", "\u2028"])
def test_the_writer_refuses_a_control_character_in_a_name(control):
    players = [replace(PLAYERS[0], name=f"Anna{control}001    9 Bakker"), *PLAYERS[1:]]
    with pytest.raises(NotSingleLine):
        export_trf(name="x", players=players, rounds=ROUNDS)


def test_the_writer_refuses_a_control_character_in_a_club_setting():
    with pytest.raises(NotSingleLine):
        export_trf(name="x", players=PLAYERS, rounds=ROUNDS, arbiter="Haan\n001 forged")


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
    anna = parsed.player_sections[0]
    assert (anna.name, anna.fide_rating, anna.fide_federation, anna.fide_number) == (
        "Bakker, Anna", 1995, "NED", 1000001)
    assert (anna.sex.value, anna.title.value) == ("w", "wfm")
    assert (anna.birth_date.year, anna.birth_date.month, anna.birth_date.day) == (1990, 3, 7)
    assert parsed.player_sections[1].fide_rating is None  # Jan has a KNSB rating only


def test_py4swiss_reads_the_knsb_file_past_its_trf_2026_records(knsb_export, tmp_path):
    # py4swiss 0.3 knows no 172 or NRS records: strictly it refuses them, otherwise it
    # reads the file around them.
    text = "\n".join(ln for ln in knsb_export.text.splitlines() if not ln.startswith("132"))
    path = tmp_path / "knsb.trf"
    path.write_text(text + "\n", encoding="utf-8")
    parsed = TrfParser.parse(path)
    assert [p.fide_rating for p in parsed.player_sections] == [1995, None, 1780, None, 1710]


def test_an_unknown_rating_kind_is_refused():
    with pytest.raises(ValueError):
        export_trf(name="x", players=PLAYERS, rounds=ROUNDS, rating="elo")


def test_fide_is_the_default_rating(export):
    assert FIDE and trf.parse(export.text).national == ()
