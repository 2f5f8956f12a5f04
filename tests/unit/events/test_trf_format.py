"""TRF16 / TRF-26 reading and writing (FIDE C.04 Annex 2)."""

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from competition.events.engine import trf
from competition.events.engine.tiebreaks import Kind

# FIDE's exercise (a copy of ../shared/data, MIT, see its README).
DATA = Path(__file__).resolve().parents[2] / "data" / "fide-tiebreak-exercise" / "tournament-5-rounds.trf"
TEXT = DATA.read_text()

HEAD = "012 Test\nXXR 2\n"


def line(number: int, name: str, points: str, rounds: str, rating: int = 1800) -> str:
    """A player record with the fixed columns, rounds starting at column 92."""
    return (
        f"001 {number:4d} m    {name:<33} {rating:4d} NED {'':>11} {'':10} {points:>4} {number:4d}  {rounds}"
    ).rstrip()


def two_players(r1: str = "   2 w 1", r2: str = "   1 b 0", points: tuple[str, str] = ("1.0", "0.0")) -> str:
    return HEAD + line(1, "Anna", points[0], r1) + "\n" + line(2, "Bert", points[1], r2) + "\n"


def test_parse_reads_the_fide_exercise() -> None:
    parsed = trf.parse(TEXT)
    assert len(parsed.players) == 16
    assert parsed.header("XXR") == "5"
    nick = next(p for p in parsed.players if p.number == 12)
    assert nick.name == "Nick" and nick.rating == 1650 and nick.points == 2
    assert [r.result for r in nick.rounds] == ["0", "U", "+", "Z", "Z"]


def test_bye_opponent_may_be_written_0000_blank_or_padded_zero() -> None:
    for opponent in ("0000", "    ", "   0"):
        parsed = trf.parse(HEAD + line(1, "Anna", "0.5", f"{opponent} - H") + "\n")
        assert parsed.players[0].rounds[0] == trf.TrfRound(0, "-", "H")


def test_blank_result_is_a_zero_bye_and_unpaired_forfeit_is_too() -> None:
    parsed = trf.parse(HEAD + line(1, "Anna", "0.0", "0000 -  ") + "\n" + line(2, "Bert", "0.0", "0000 - -") + "\n")
    assert [p.rounds[0].result for p in parsed.players] == ["Z", "Z"]


@pytest.mark.parametrize(("mine", "theirs"), [("W", "L"), ("D", "D"), ("+", "-"), ("-", "-"), ("=", "=")])
def test_all_paired_result_codes_are_read(mine: str, theirs: str) -> None:
    points = {"W": "1.0", "L": "0.0", "D": "0.5", "+": "1.0", "-": "0.0", "=": "0.5"}
    parsed = trf.parse(two_players(f"   2 w {mine}", f"   1 b {theirs}", (points[mine], points[theirs])))
    assert parsed.players[0].rounds[0].result == mine


def test_write_then_parse_gives_the_same_file() -> None:
    parsed = trf.parse(TEXT)
    assert trf.parse(trf.write(parsed)) == parsed


def test_write_keeps_the_columns_and_normalises_bye_opponents_to_0000() -> None:
    written = trf.write(trf.parse(TEXT)).splitlines()
    original = TEXT.splitlines()
    assert len(written) == len(original)
    for ours, theirs in zip(written, original, strict=True):
        assert ours == theirs.replace("     0 - ", "  0000 - ")


def test_tournament_round_trip_keeps_every_result() -> None:
    tournament = trf.to_tournament(trf.parse(TEXT))
    again = trf.to_tournament(trf.parse(trf.write(trf.from_tournament(tournament))))
    assert [e.results for e in again.entrants] == [e.results for e in tournament.entrants]


def test_to_tournament_maps_byes_and_forfeits() -> None:
    tournament = trf.to_tournament(trf.parse(TEXT))
    nick = tournament.entrant(12).results
    assert [r.kind for r in nick] == [Kind.PLAYED, Kind.PAIRING_BYE, Kind.FORFEIT_WIN, Kind.ZERO_BYE, Kind.ZERO_BYE]
    assert tournament.entrant(12).score == Fraction(2)


@pytest.mark.parametrize(
    ("text", "line_number", "words"),
    [
        (HEAD + "001    x m    Anna\n", 3, "shorter than 89"),
        (HEAD + line(1, "Anna", "1.0", "   2 w 1").replace("   1 m", "   A m", 1) + "\n", 3, "start number"),
        (two_players("   2 w 7"), 3, "unknown result code"),
        (two_players("   2 x 1"), 3, "colour"),
        (two_players("   2 - 1"), 3, "needs colour"),
        (two_players("   3 w 1"), 3, "opponent 3 is not in the file"),
        (two_players("   2 w 1", "   1 b 1", ("1.0", "1.0")), 3, "does not match"),
        (two_players(points=("0.5", "0.0")), 3, "add up"),
        (two_players(points=("x.5", "0.0")), 3, "points"),
        (HEAD + line(1, "Anna", "1.0", "0007 - U") + "\n", 3, "bye 'U' with opponent"),
        (HEAD + line(1, "Anna", "0.0", "") + "\n" + line(1, "Anna", "0.0", "") + "\n", 4, "already on line 3"),
        (HEAD + "?? broken\n", 3, "unknown record"),
        (HEAD + line(1, "Anna", "1.0", "   2w 1") + "\n", 3, "expected 'oooo c r'"),
    ],
)
def test_bad_files_give_one_error_naming_the_line(text: str, line_number: int, words: str) -> None:
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert error.value.line == line_number
    assert str(error.value).startswith(f"line {line_number}: ")
    assert words in str(error.value)


def test_trf_error_is_a_value_error() -> None:
    assert issubclass(trf.TrfError, ValueError)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        (HEAD + "001    x m    Anna\n", trf.TrfRefusal.RECORD_TOO_SHORT, {"columns": 89}),
        (two_players("   2 x 1"), trf.TrfRefusal.BAD_COLOUR, {"round": 1, "value": "x"}),
        (two_players("   2 w 1", "   1 w 0"), trf.TrfRefusal.BOTH_WHITE,
         {"round": 1, "number": 1, "opponent": 2}),
        (two_players(points=("1.5", "0.0")), trf.TrfRefusal.POINTS_DO_NOT_ADD_UP,
         {"points": 1.5, "total": 1.0}),
        (HEAD + line(1, "Anna", "0.0", "", rating=3600) + "\n", trf.TrfRefusal.FIELD_TOO_HIGH,
         {"field": trf.TrfField.RATING, "value": 3600, "max": 3500}),
    ],
)
def test_a_trf_error_carries_a_code_and_its_parameters_and_says_them_in_english(text, code, params) -> None:
    """The shell words the code in the member's language; str() stays English (the command line)."""
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert (error.value.code, error.value.params) == (code, params)
    assert str(error.value) == f"line 3: {code.value.format(**params)}"


def test_the_next_round_records_are_refused_with_a_code_too() -> None:
    from competition.events.engine.report import read_next_round

    with pytest.raises(trf.TrfError) as error:
        read_next_round(two_players() + "XXZ 9\n")
    assert error.value.code is trf.TrfRefusal.ABSENT_NOT_IN_FILE and error.value.line == 5
    assert str(error.value) == "line 5: XXZ: start number 9 is not in the file"


def test_unknown_header_records_are_kept_for_trf_26() -> None:
    text = "012 Club blitz\r\nXXR 3\r\nTTT anything new\r\n"
    assert trf.write(trf.parse(text)) == text


# --- What does not add up is refused (docs/swiss.md, "TRF") -----------------------------

POINTS = {"1": "1.0", "0": "0.0", "=": "0.5", "+": "1.0", "-": "0.0", "W": "1.0", "L": "0.0", "D": "0.5"}


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [("1", "-"), ("-", "1"), ("+", "0"), ("0", "+"), ("W", "0"), ("1", "L"), ("+", "+"), ("=", "D")],
)
def test_contradictory_results_are_refused_naming_the_line_and_the_round(mine: str, theirs: str) -> None:
    text = two_players(f"   2 w {mine}", f"   1 b {theirs}", (POINTS[mine], POINTS[theirs]))
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert error.value.line == 3
    assert str(error.value).startswith("line 3: round 1: ")
    assert "does not match" in str(error.value)


@pytest.mark.parametrize("colour", ["w", "b"])
def test_both_players_with_the_same_colour_is_refused(colour: str) -> None:
    with pytest.raises(trf.TrfError) as error:
        trf.parse(two_players(f"   2 {colour} 1", f"   1 {colour} 0"))
    assert str(error.value).startswith("line 3: round 1: ")
    assert "both have" in str(error.value)


def test_a_colour_on_one_side_only_is_refused() -> None:
    with pytest.raises(trf.TrfError, match="line 3: round 1: .* disagree on the colours"):
        trf.parse(two_players("   2 w +", "   1 - -"))


def test_a_forfeit_without_colours_on_both_sides_is_read() -> None:
    parsed = trf.parse(two_players("   2 - +", "   1 - -"))
    assert [p.rounds[0].colour for p in parsed.players] == ["-", "-"]


def test_two_pairing_allocated_byes_in_one_round_are_refused() -> None:
    text = HEAD + line(1, "Anna", "1.0", "0000 - U") + "\n" + line(2, "Bert", "1.0", "0000 - U") + "\n"
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert error.value.line == 4
    assert "round 1: a second pairing-allocated bye (U)" in str(error.value)


def test_trf_2026_comment_lines_are_accepted_and_ignored() -> None:
    text = "### written by hand\n" + two_players().replace("XXR 2\n", "XXR 2\n###\n### round 1 of 2\n")
    parsed = trf.parse(text)
    assert parsed == trf.parse(two_players())


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_every_line_end_is_read(end: str) -> None:
    assert trf.parse(two_players().replace("\n", end)) == trf.parse(two_players())


@pytest.mark.parametrize("control", ["\x00", "\x1c", "\x0c", "\x85", "\u2028", "\t"])
def test_a_control_character_in_a_name_is_refused_naming_the_line(control: str) -> None:
    text = two_players().replace("Bert", f"Be{control}rt")
    with pytest.raises(trf.TrfError) as error:
        trf.parse(text)
    assert error.value.line == 4
    assert f"U+{ord(control):04X}" in str(error.value)


# --- Writing for rating ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fide"),
    [
        ("Yvonne de Haan", "De Haan, Yvonne"),
        ("Jan van den Berg", "Van den Berg, Jan"),
        ("Kees van der Wiel", "Van der Wiel, Kees"),
        ("Ton in 't Veld", "In 't Veld, Ton"),
        ("Jan Willem de Vries", "De Vries, Jan Willem"),
        ("Jorden van Foreest", "Van Foreest, Jorden"),
        ("Anna Bakker", "Bakker, Anna"),
        ("Giri, Anish", "Giri, Anish"),
        ("Cher", "Cher"),
        ("Anne Marie  Jansen", "Jansen, Anne Marie"),
    ],
)
def test_names_are_written_as_fide_lists_them_and_read_back_in_the_clubs_order(name: str, fide: str) -> None:
    assert trf.fide_name(name) == fide
    if "," not in name:
        assert trf.natural_name(fide) == " ".join(name.split())


def test_a_name_with_the_particle_after_the_first_names_reads_back_too() -> None:
    # The order this project wrote before FIDE's: files exported then still read right.
    assert trf.natural_name("Haan, Yvonne de") == "Yvonne de Haan"
    assert trf.natural_name("Van den Berg, Jan") == "Jan van den Berg"


def test_titles_and_dates_as_trf_writes_them() -> None:
    assert [trf.fide_title(c) for c in ("g", "m", "f", "c", "wg", "wm", "wf", "wc")] == [
        "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"]
    import datetime as dt

    assert trf.trf_date(dt.date(1990, 3, 7)) == "1990/03/07"
    assert trf.trf_date(None) == ""


@pytest.mark.parametrize("control", ["\n", "\r", "\x00", "\x1c", "\u2028", "\x85"])
def test_the_writer_refuses_control_characters_in_names_and_records(control: str) -> None:
    from core.singleline import NotSingleLine

    parsed = trf.parse(two_players())
    bad_name = trf.TrfFile(parsed.headers, (
        replace(parsed.players[0], name=f"Anna{control}001    3 Forged"), parsed.players[1]))
    with pytest.raises(NotSingleLine):
        trf.write(bad_name)
    with pytest.raises(NotSingleLine):
        trf.write(trf.TrfFile((("012", f"Blitz{control}001"),), parsed.players))


def test_nrs_records_are_read_when_172_announces_their_federation() -> None:
    nrs = "NED    1      " + " " * 33 + " 1950     " + "8000001".rjust(11)
    text = two_players().replace("XXR 2\n", "XXR 2\n172 NED NRO\n") + nrs + "\n"
    parsed = trf.parse(text)
    assert parsed.national == (trf.TrfNational("NED", 1, 1950, "8000001"),)
    assert trf.parse(trf.write(parsed)) == parsed
    # Without 172 the same line is an unknown record, kept as it is.
    assert trf.parse(two_players() + nrs + "\n").national == ()


def test_an_nrs_record_for_a_start_number_not_in_the_file_is_refused() -> None:
    text = two_players().replace("XXR 2\n", "XXR 2\n172 NED NRO\n") + "NED    7\n"
    with pytest.raises(trf.TrfError, match="line 6: NED record for start number 7"):
        trf.parse(text)


@pytest.mark.parametrize(
    ("record", "date"),
    [("2027/06/11", (2027, 6, 11)), ("2027.06.11", (2027, 6, 11)), ("2027-06-11", (2027, 6, 11)),
     (" 2027/06/11 ", (2027, 6, 11)), ("2027/13/40", None), ("2027/06-11", None),
     ("11/06/2027", None), ("", None), (None, None), ("２０２７/06/11", None)],
)
def test_a_date_record_is_read_as_trf_writes_it_or_not_at_all(record, date) -> None:
    import datetime as dt

    assert trf.read_trf_date(record) == (dt.date(*date) if date else None)
