"""Rating lists: FIDE text, FIDE XML and CSV read as a stream; bad files refused."""

from __future__ import annotations

import datetime as dt
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
    csv_header,
    detect,
    guess_mapping,
    list_date,
    list_kind,
    name_key,
    name_keys,
    open_list,
    read_list,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "ratings"
ALL = Wanted(keep_all=True)
HEADER_SEP25 = (DATA / "fide_standard.txt").read_text().splitlines()[0]
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


def test_a_zero_in_a_csv_is_no_rating_as_in_fides_lists(tmp_path):
    # Before: a KNSB CSV's 0 was read as rating 0, and the member's 1824 became 0.
    knsb = tmp_path / "knsb.csv"
    knsb.write_text("Relatienummer,Naam,Rating\n8000001,Jan de Vries,0\n8000002,Anna Bakker,1824\n")
    entries = read(str(knsb), mapping={"number": "Relatienummer", "name": "Naam", "rating": "Rating"})
    assert [(e.number, e.rating) for e in entries] == [("8000001", None), ("8000002", 1824)]


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


# --- Bad files and bounded memory (docs/trust.md "Uploads") -----------------------------


def patched_zip(tmp_path, *, flags: int = 0, method: int | None = None):
    """A zip of the standard list with its header bits changed the way an encrypting or
    an exotic zip program writes them (Python's zipfile writes neither)."""
    archive = tmp_path / "list.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(DATA / "fide_standard.txt", "standard_sep25frl.txt")
    data = bytearray(archive.read_bytes())
    central = data.index(b"PK\x01\x02")
    for flag_at, method_at in ((6, 8), (central + 8, central + 10)):
        data[flag_at] |= flags
        if method is not None:
            data[method_at:method_at + 2] = method.to_bytes(2, "little")
    archive.write_bytes(bytes(data))
    return archive


@pytest.mark.parametrize(("kw", "code"), [
    ({"flags": 0x1}, errors.ENCRYPTED_ZIP),
    ({"method": 99}, errors.UNSUPPORTED_ZIP),  # 99: WinZip's AES
])
def test_an_encrypted_or_exotic_zip_is_refused_by_name(tmp_path, kw, code):
    with pytest.raises(RatingListError) as caught:
        read(str(patched_zip(tmp_path, **kw)))
    assert caught.value.code == code


def test_one_endless_line_in_a_small_zip_is_refused_in_bounded_memory(tmp_path):
    import tracemalloc

    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("list.txt", (DATA / "fide_standard.txt").read_bytes() + b"1" * 40 * 2**20)
    assert archive.stat().st_size < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(RatingListError) as caught:
            read(str(archive))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.code == errors.ENTRY_TOO_LONG and caught.value.params["line"] == 10
    assert peak < 8 * 2**20  # the whole line would be 40 MB


def test_an_endless_xml_element_is_refused_in_bounded_memory():
    xml = b"<playerslist><player><fideid>1</fideid><name>" + b"a" * 8 * 2**20
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO(xml), wanted=ALL)
    assert caught.value.code == errors.ENTRY_TOO_LONG


def test_more_unpacked_bytes_than_the_bound_are_refused(tmp_path):
    with pytest.raises(RatingListError) as caught:
        open_list(str(DATA / "fide_standard.txt"), max_bytes=500)
    assert caught.value.params == {"limit": 0} and caught.value.code == errors.TOO_LARGE
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO((DATA / "fide_standard.txt").read_bytes()), wanted=ALL, max_bytes=1000)
    assert caught.value.code == errors.TOO_LARGE


ENTITY = b'<!DOCTYPE playerslist [<!ENTITY a "Bakker, Anna">]>'
PLAYER = b"<player><fideid>1</fideid><name>&a;</name><rating>1900</rating></player>"


@pytest.mark.parametrize("xml", [
    b'<?xml version="1.0"?><!--' + b"x" * 9000 + b"-->" + ENTITY
    + b"<playerslist>" + PLAYER + b"</playerslist>",
    ('<?xml version="1.0" encoding="utf-16"?>' + ENTITY.decode() + "<playerslist>"
     + PLAYER.decode() + "</playerslist>").encode("utf-16"),
], ids=["after-8-kb-of-comment", "utf-16"])
def test_a_dtd_is_refused_by_the_parser_wherever_it_stands(xml):
    assert detect(xml[:8192]) == FIDE_XML
    for fmt in (None, FIDE_XML):  # the task reads with the format found at the upload
        with pytest.raises(RatingListError) as caught:
            read_list(io.BytesIO(xml), wanted=ALL, fmt=fmt)
        assert caught.value.code == errors.UNKNOWN_FORMAT


def test_excels_unicode_text_csv_is_read():
    text = (DATA / "knsb.csv").read_text(encoding="utf-8").replace(";", "\t")
    data = text.replace("Anna Bakker", "Anna Bäkker").encode("utf-16")  # with its BOM
    assert data[:2] == b"\xff\xfe"
    assert detect(data[:8192]) == CSV
    assert csv_header(data[:8192]) == ["Relatienummer", "Naam", "Rating", "Geboortejaar", "Federatie"]
    entries = read_list(io.BytesIO(data), wanted=ALL, mapping=KNSB_MAPPING)
    assert [(e.number, e.name, e.rating) for e in entries][:2] == [
        ("8000001", "Anna Bäkker", 1995), ("8000002", "Jan de Vries", 2120)]


def test_a_nul_in_the_csv_header_is_refused():
    data = b"Relatienummer;Na\x00am;Rating\n8000001;Anna Bakker;1995\n"
    with pytest.raises(RatingListError) as caught:
        csv_header(data)
    assert caught.value.params == {"line": 1, "codes": "U+0000"}
    with pytest.raises(RatingListError):
        read_list(io.BytesIO(data), wanted=ALL, mapping={"number": "Relatienummer",
                                                          "name": "Naam", "rating": "Rating"})


def test_a_nul_in_a_kept_name_is_refused():
    data = b"Nr;Naam;Rating\n8000001;Anna\x00Bakker;1995\n"
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO(data), wanted=ALL, mapping={"number": "Nr", "name": "Naam", "rating": "Rating"})
    assert caught.value.code == errors.CONTROL_CHARACTER and caught.value.params["line"] == 2


CSV_MAPPING = {"number": "Nr", "name": "Naam", "rating": "Rating"}


@pytest.mark.parametrize(("row", "code", "params"), [
    ("8000001²;Anna Bakker;1995", errors.BAD_NUMBER, {"line": 2, "value": "8000001²"}),
    ("8000001;Anna Bakker;٣", errors.RATING_OUT_OF_RANGE, {"line": 2, "rating": "٣"}),
    ("8000001;Anna Bakker;١٩٠٠", errors.RATING_OUT_OF_RANGE, {"line": 2, "rating": "١٩٠٠"}),
    ("8000001;" + "A" * 200_000 + ";1995", errors.FIELD_TOO_LONG, {"line": 2}),
])
def test_numbers_are_ascii_digits_and_fields_are_bounded(row, code, params):
    data = f"Nr;Naam;Rating\n{row}\n".encode()
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO(data), wanted=ALL, mapping=CSV_MAPPING)
    assert (caught.value.code, caught.value.params) == (code, params)


def test_a_long_field_in_quotes_over_many_lines_is_refused_too():
    data = ('Nr;Naam;Rating\n8000001;"' + "A\n" * 70_000 + '";1995\n').encode()
    with pytest.raises(RatingListError) as caught:
        read_list(io.BytesIO(data), wanted=ALL, mapping=CSV_MAPPING)
    assert caught.value.code == errors.FIELD_TOO_LONG


# --- What the list says (issue: never write a wrong rating) -----------------------------


def test_fides_zero_means_unrated_in_text_and_xml():
    text = (DATA / "fide_standard.txt").read_text().replace(" 1987   0", "    0   0")
    xml = (DATA / "fide_standard.xml").read_text().replace("<rating>1987<", "<rating>0<")
    for data in (text, xml):
        entries = read_list(io.BytesIO(data.encode()), wanted=ALL)
        assert (entries[0].name, entries[0].rating) == ("Bakker, Anna", None)
        assert entries[1].rating == 2104


def test_the_german_transliteration_is_a_lookalike():
    assert name_keys("Mueller, Juergen") & name_keys("Jürgen Müller")
    assert name_keys("Muller, Jurgen") & name_keys("Jürgen Müller")
    assert name_keys("Strauss, Grete") & name_keys("Grete Strauß")
    assert not name_keys("Mueller, Jan") & name_keys("Jürgen Müller")
    wanted = Wanted(names=name_keys("Jürgen Müller"))
    assert wanted.keeps("", "Mueller, Juergen") and not wanted.keeps("", "Muller, Jan")


@pytest.mark.parametrize(("names", "kind", "date"), [
    (("standard_sep25frl.zip", "standard_sep25frl.txt", HEADER_SEP25), "standard", (2025, 9, 1)),
    (("rapid_sep25frl.zip", "rapid_sep25frl.txt", HEADER_SEP25), "rapid", (2025, 9, 1)),
    (("blitz_oct25frl_xml.zip", "", ""), "blitz", (2025, 10, 1)),
    (("KNSB-rating-2025-11.csv", "", "Relatienummer;Naam;Rating"), "standard", (2025, 11, 1)),
    (("leden.csv", "", "Relatienummer;Naam;Rating"), "standard", None),
])
def test_the_list_kind_and_month_come_from_its_names_and_header(names, kind, date):
    assert list_kind(*names) == kind
    assert list_date(*names) == (dt.date(*date) if date else None)
