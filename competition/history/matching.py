"""Names in a file of last season matched to the club's members (pure: no database).

In order, the first that finds exactly one member wins:
1. the KNSB relation number or FIDE id of the file, when both sides have it;
2. the name exactly as the member's;
3. the name in another order or case, with or without accents: "de Haan, Yvonne",
   "Haan, Yvonne de" and "YVONNE DE HAAN" are all Yvonne de Haan (the name's keys,
   ``competition.ratings.engine.lists.name_keys``: words sorted, no accents, no case).
A name that two members share, or that no member has, stays unmatched: the leader
chooses in the preview.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from competition.ratings.engine.lists import name_keys

BY_NUMBER, EXACT, BY_NAME = "number", "exact", "name"


@dataclass(frozen=True)
class Known:
    """A member of the club as the matching sees him."""

    id: int
    name: str
    knsb_number: str = ""
    fide_id: str = ""


@dataclass(frozen=True)
class Wanted:
    """A name of the file, with the numbers the file gives for it."""

    key: int
    name: str
    number: str = ""  # KNSB relation number or FIDE id, as digits


@dataclass(frozen=True)
class Match:
    wanted: Wanted
    member: Known | None
    how: str = ""  # BY_NUMBER, EXACT or BY_NAME; "" unmatched
    ambiguous: tuple[Known, ...] = ()  # unmatched because these members share the name


def _digits(value: str) -> str:
    value = value.strip()
    return str(int(value)) if value.isascii() and value.isdigit() and int(value) else ""


def match_names(wanted: Iterable[Wanted], members: Iterable[Known]) -> list[Match]:
    """Each wanted name with its member (or None), in the order given. Two names of the
    file never get the same member: the second is left for the leader."""
    members = list(members)
    by_number: dict[str, list[Known]] = defaultdict(list)
    by_exact: dict[str, list[Known]] = defaultdict(list)
    by_key: dict[str, list[Known]] = defaultdict(list)
    for m in members:
        for number in {_digits(m.knsb_number), _digits(m.fide_id)} - {""}:
            by_number[number].append(m)
        by_exact[" ".join(m.name.split())].append(m)
        for key in name_keys(m.name):
            if m not in by_key[key]:
                by_key[key].append(m)
    taken: set[int] = set()
    found = []
    for w in wanted:
        match = _one(w, by_number, by_exact, by_key, taken)
        if match.member is not None:
            taken.add(match.member.id)
        found.append(match)
    return found


def _one(w: Wanted, by_number: dict[str, list[Known]], by_exact: dict[str, list[Known]],
         by_key: dict[str, list[Known]], taken: set[int]) -> Match:
    number = _digits(w.number)
    ambiguous: tuple[Known, ...] = ()
    candidates = [
        (BY_NUMBER, by_number.get(number, []) if number else []),
        (EXACT, by_exact.get(" ".join(w.name.split()), [])),
        (BY_NAME, _unique(m for key in name_keys(w.name) for m in by_key.get(key, []))),
    ]
    for how, found in candidates:
        free = [m for m in found if m.id not in taken]
        if len(free) == 1:
            return Match(w, free[0], how)
        if len(free) > 1 and not ambiguous:
            ambiguous = tuple(free)
    return Match(w, None, "", ambiguous)


def _unique(members: Iterable[Known]) -> list[Known]:
    seen: dict[int, Known] = {}
    for m in members:
        seen.setdefault(m.id, m)
    return list(seen.values())
