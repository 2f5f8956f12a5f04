"""Matching a list to the members: by number, and lookalikes by name for members
without a number."""

from competition.ratings.engine.lists import ListEntry, name_key
from competition.ratings.engine.matching import FIDE, KNSB, Matching, MemberRef, match, wanted_for


def entry(number, name, rating, line=2):
    return ListEntry(number, name, rating, line)


MEMBERS = [
    MemberRef(1, "Anna Bakker", 1900, knsb_number="8000001"),
    MemberRef(2, "Jan de Vries", 2100, knsb_number="08000002"),
    MemberRef(3, "Pieter Jansen", None),
    MemberRef(4, "Kees Mulder", 1600, knsb_number="8000004"),
]
LIST = [
    entry("8000001", "Bakker, Anna", 1995),
    entry("8000002", "Vries, Jan de", 2100),
    entry("8000003", "Jansen, Pieter", 1780),
    entry("8000009", "Jansen, Pieter", 1400),
]


def test_members_are_matched_by_number_with_old_and_new_rating():
    result = match(LIST, MEMBERS, KNSB)
    assert [(m.member_id, m.old, m.new, m.changed) for m in result.matched] == [
        (1, 1900, 1995, True), (2, 2100, 2100, False)]


def test_leading_zeros_of_a_number_do_not_matter():
    assert MEMBERS[1].number(KNSB) == "8000002"


def test_a_member_whose_number_is_missing_from_the_list_is_not_found():
    result = match(LIST, MEMBERS, KNSB)
    assert [(n.member_id, n.number) for n in result.not_found] == [(4, "8000004")]


def test_a_member_without_a_number_gets_every_lookalike_to_confirm():
    result = match(LIST, MEMBERS, KNSB)
    assert [(lk.member_id, lk.number, lk.new) for lk in result.lookalikes] == [
        (3, "8000003", 1780), (3, "8000009", 1400)]


def test_a_lookalike_whose_number_belongs_to_another_member_is_not_offered():
    members = [*MEMBERS, MemberRef(5, "Pieter Jansen", None, knsb_number="8000009")]
    result = match(LIST, members, KNSB)
    assert [lk.number for lk in result.lookalikes] == ["8000003"]


def test_fide_numbers_use_the_fide_id_field():
    members = [MemberRef(1, "Anna Bakker", 1900, knsb_number="8000001", fide_id="1000001")]
    result = match([entry("1000001", "Bakker, Anna", 1987)], members, FIDE)
    assert result.matched[0].new == 1987


def test_an_entry_without_a_rating_is_not_applied():
    result = match([entry("8000001", "Bakker, Anna", None)], MEMBERS[:1], KNSB)
    assert result.matched == () and result.not_found[0].unrated


def test_wanted_holds_numbers_and_the_names_of_members_without_one():
    wanted = wanted_for(MEMBERS, KNSB)
    assert wanted.numbers == {"8000001", "8000002", "8000004"}
    assert wanted.names == {name_key("Pieter Jansen")}


def test_the_matching_survives_a_round_trip_through_json():
    result = match(LIST, MEMBERS, KNSB)
    assert Matching.from_json(result.to_json()) == result


def test_fides_ascii_transliteration_is_offered_as_a_lookalike():
    members = [MemberRef(7, "Jürgen Müller", 1800)]
    entries = [entry("4600001", "Mueller, Juergen", 1950), entry("4600002", "Muller, Jurgen", 1700),
               entry("4600003", "Mueller, Jan", 2000)]
    wanted = wanted_for(members, FIDE)
    kept = [e for e in entries if wanted.keeps(e.number, e.name)]
    result = match(kept, members, FIDE)
    assert [(lk.member_id, lk.number, lk.list_name) for lk in result.lookalikes] == [
        (7, "4600001", "Mueller, Juergen"), (7, "4600002", "Muller, Jurgen")]


def test_unrated_in_the_list_is_not_a_new_rating():
    members = [MemberRef(1, "Anna Bakker", 1876, fide_id="1000001")]
    result = match([entry("1000001", "Bakker, Anna", None)], members, FIDE)
    assert result.matched == ()
    assert [(n.member_id, n.unrated) for n in result.not_found] == [(1, True)]
