"""Last season's names matched to the club's members (competition.history.matching)."""

from __future__ import annotations

from competition.history.matching import BY_NAME, BY_NUMBER, EXACT, Known, Wanted, match_names

MEMBERS = [
    Known(1, "Yvonne de Haan"),
    Known(2, "Jan van den Berg", knsb_number="8100001"),
    Known(3, "Jürgen Müller"),
    Known(4, "Piet Smit"),
    Known(5, "Piet Smit"),  # two members of one name
    Known(6, "Anna Bakker", fide_id="1234567"),
]


def _match(name: str, number: str = ""):
    [match] = match_names([Wanted(1, name, number)], MEMBERS)
    return (match.member.id if match.member else None), match.how


def test_the_exact_name_matches_first():
    assert _match("Yvonne de Haan") == (1, EXACT)


def test_surname_first_with_particles_case_and_accents():
    assert _match("de Haan, Yvonne") == (1, BY_NAME)
    assert _match("Haan, Yvonne de") == (1, BY_NAME)
    assert _match("YVONNE DE HAAN") == (1, BY_NAME)
    assert _match("Berg, Jan van den") == (2, BY_NAME)
    assert _match("Muller, Jurgen") == (3, BY_NAME)
    assert _match("Mueller, Juergen") == (3, BY_NAME)


def test_a_number_wins_over_the_name():
    assert _match("J. v.d. Berg", "08100001") == (2, BY_NUMBER)
    assert _match("Bakker, A.", "1234567") == (6, BY_NUMBER)


def test_a_name_two_members_share_is_left_to_the_leader():
    [match] = match_names([Wanted(1, "Smit, Piet")], MEMBERS)
    assert match.member is None and {m.id for m in match.ambiguous} == {4, 5}


def test_an_unknown_name_is_unmatched():
    assert _match("Klaas Vaak") == (None, "")


def test_two_names_of_the_file_never_get_one_member():
    first, second = match_names([Wanted(1, "Yvonne de Haan"), Wanted(2, "Haan, Yvonne de")],
                                MEMBERS)
    assert first.member.id == 1 and second.member is None
