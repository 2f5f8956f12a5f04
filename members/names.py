"""A member's name as the public pages show it: his choice, by name or by initials (AVG).

``public_name`` is the one function every public page, CSV, TRF, feed and API uses for a
member's name; the leader's pages, the arbiter's and e-mails to the member himself use
the full name. Pure Python: selectors, templates (``User.shown_name``) and the file
writers call it alike.
"""

from __future__ import annotations

from typing import Protocol

INITIALS = "initials"

# Dutch name particles (tussenvoegsels) stay written out and in lower case: "J. van der B."
PARTICLES = frozenset({
    "van", "de", "der", "den", "het", "'t", "t", "ter", "ten", "te", "in", "op", "aan",
    "la", "le", "du", "da", "di", "von", "vom", "zu", "d'", "'s", "s",
})


class Named(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def public_as(self) -> str: ...


def initials(name: str) -> str:
    """'Anna de Vries' -> 'A. de V.'; 'Jan-Willem van den Berg' -> 'J.-W. van den B.'"""
    parts = []
    for word in name.split():
        if word.lower() in PARTICLES:
            parts.append(word.lower())
        else:
            parts.append("-".join(f"{piece[0].upper()}." for piece in word.split("-") if piece))
    return " ".join(p for p in parts if p)


def public_name(member: Named) -> str:
    """The member's name on public pages: written out, or his initials if he chose so."""
    return public_name_of(member.name, member.public_as)


def public_name_of(name: str, public_as: str) -> str:
    """The same from the two stored values (a selector reading ``values_list``)."""
    name = name or ""
    return initials(name) if public_as == INITIALS else name
