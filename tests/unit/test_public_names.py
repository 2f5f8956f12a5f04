"""A member's public name (AVG): his name, or his initials with the Dutch particles
written out, from one function every public page, CSV and feed uses."""

from types import SimpleNamespace

from members.names import initials, public_name, public_name_of


def test_initials_keep_dutch_particles_in_lower_case():
    assert initials("Anna de Vries") == "A. de V."
    assert initials("Jan-Willem van den Berg") == "J.-W. van den B."
    assert initials("Pieter 't Hooft") == "P. 't H."
    assert initials("Yvonne   De  Haan") == "Y. de H."


def test_the_public_name_is_the_members_choice():
    assert public_name(SimpleNamespace(name="Anna de Vries", public_as="name")) == "Anna de Vries"
    assert public_name(SimpleNamespace(name="Anna de Vries", public_as="initials")) == "A. de V."
    assert public_name_of("Anna de Vries", "name") == "Anna de Vries"
