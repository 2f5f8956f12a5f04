"""Rating lists: FIDE text, FIDE XML and CSV read as a stream; bad files refused."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from competition.ratings.engine import errors
from competition.ratings.engine.errors import RatingListError
from competition.ratings.engine.lists import (
    CSV,
    FIDE_TXT,
    FIDE_XML,
    Wanted,
    detect,
    guess_mapping,
    name_key,
    open_list,
    read_list,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "ratings"
ALL = Wanted(keep_all=True)
KNSB_MAPPING = {"number": "Relatienummer", "name": "Naam", "rating": "Rating",
                "birth_year": "Geboortejaar", "federation": "Federatie"}


def read(name: str, wanted: Wanted = ALL, **kw):
    stream, size = open_list(str(DATA / name))
    with stream:
        return read_list(stream, wanted=wanted, total=size, **kw)


@pytest.mark.parametrize(("name", "fmt"), [("fide_standard.txt", FIDE_TXT),
                                           ("fide_standard.xml", FIDE_XML), ("knsb.csv", CSV)])
def test_the_format_is_recognised_from_the_first_bytes(name, fmt):
    assert detect((DATA / name).read_bytes()[:8192]) == fmt


def test_fide_text_list_columns_come_from_the_header_line():
    entries = read("fide_standard.txt")
    assert len(entries) == 8
    jan = entries[1]
    assert (jan.number, jan.name, jan.rating, jan.federation, jan.birth_year) == (
        "1000002", "Vries, Jan de", 2104, "NED", 1975)


def test_fide_xml_list_gives_the_same_players_as_the_text_list():
    as_text = [(e.number, e.name, e.rating, e.birth_year) for e in read("fide_standard.txt")]
    as_xml = [(e.number, e.name, e.rating, e.birth_year) for e in read("fide_standard.xml")]
    assert as_xml == as_text


def test_csv_is_read_through_the_leaders_column_mapping():
    entries = read("knsb.csv", mapping=KNSB_MAPPING)
    assert [(e.number, e.rating) for e in entries][:2] == [("8000001", 1995), ("8000002", 2120)]
    assert entries[0].line == 2


def test_a_zipped_list_is_read_without_unpacking(tmp_path):
    archive = tmp_path / "standard_sep25frl.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(DATA / "fide_standard.txt", "standard_sep25frl.txt")
    assert len(read(str(archive))) == 8


def test_only_wanted_numbers_and_names_are_kept():
    wanted = Wanted(numbers=frozenset({"1000003"}), names=frozenset({name_key("Anna Bakker")}))
    kept = read("fide_standard.txt", wanted)
    assert sorted(e.name for e in kept) == ["Bakker, Anna", "Jansen, Pieter"]


def test_name_key_matches_fide_order_and_particles():
    assert name_key("Vries, Jan de") == name_key("Jan de Vries")
    assert name_key("Müller, Jürgen") == name_key("jurgen muller")
    assert name_key("Jan de Vries") != name_key("Jan Vries")


def test_progress_is_reported_up_to_the_end():
    seen: list[float] = []
    read("fide_standard.txt", progress=seen.append)
    assert seen[-1] == 1.0


@pytest.mark.parametrize(("name", "code"), [
    ("bad_rating.txt", errors.RATING_OUT_OF_RANGE),
    ("bad_missing_column.txt", errors.MISSING_COLUMN),
    ("bad_truncated.xml", errors.DAMAGED),
    ("bad_duplicate.csv", errors.DUPLICATE_NUMBER),
    ("bad_missing_column.csv", errors.MISSING_COLUMN),
    ("bad_unknown_format.dat", errors.UNKNOWN_FORMAT),
])
def test_a_bad_file_raises_one_error_naming_the_defect(name, code):
    with pytest.raises(RatingListError) as caught:
        read(name, mapping=KNSB_MAPPING)
    assert caught.value.code == code


def test_the_rating_error_names_the_line_and_the_rating():
    with pytest.raises(RatingListError) as caught:
        read("bad_rating.txt")
    assert caught.value.params == {"line": 4, "rating": 3600}


def test_a_duplicate_number_names_both_lines():
    with pytest.raises(RatingListError) as caught:
        read("bad_duplicate.csv", mapping=KNSB_MAPPING)
    assert caught.value.params == {"line": 4, "number": "8000002", "first": 3}


def test_a_doctype_is_refused_so_no_entity_is_expanded():
    xml = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><playerslist></playerslist>'
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO(xml), wanted=ALL)
    assert caught.value.code == errors.UNKNOWN_FORMAT


def test_an_xml_list_without_a_rating_tag_misses_a_column():
    xml = b"<playerslist><player><fideid>1</fideid><name>A, B</name></player></playerslist>"
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO(xml), wanted=ALL)
    assert (caught.value.code, caught.value.params) == (errors.MISSING_COLUMN, {"column": "rating"})


def test_an_empty_file_holds_no_players():
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO(b"  \n"), wanted=ALL)
    assert caught.value.code == errors.EMPTY


def test_a_letter_with_a_comma_is_not_taken_for_a_csv():
    with pytest.raises(RatingListError) as caught:
        detect(b"Dear members, the list follows next week.\n")
    assert caught.value.code == errors.UNKNOWN_FORMAT


def test_the_mapping_is_guessed_from_dutch_and_english_column_names():
    assert guess_mapping(["Relatienummer", "Naam", "Rating", "Geboortejaar"]) == {
        "number": "Relatienummer", "name": "Naam", "rating": "Rating", "birth_year": "Geboortejaar"}
    assert guess_mapping(["FIDE id", "Name", "Elo"]) == {"number": "FIDE id", "name": "Name", "rating": "Elo"}
