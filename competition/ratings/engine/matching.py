"""Matching a rating list to the club's members: by federation number first (the KNSB
relation number or the FIDE id, whichever the list carries), and for members without that
number, by name, as lookalikes the leader confirms one by one. Names are compared by their
keys (``name_keys``): accents stripped and the German transliteration, so FIDE's ASCII
"Mueller, Juergen" looks like the club's "Jürgen Müller"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from .lists import ListEntry, Wanted, name_keys

KNSB = "knsb"
FIDE = "fide"
NUMBER_KINDS = (KNSB, FIDE)


@dataclass(frozen=True)
class MemberRef:
    """A member as the matching sees him; ``rating`` is his rating of the list's kind
    (his FIDE rating for a FIDE list, his KNSB rating for a KNSB list)."""

    id: int
    name: str
    rating: int | None
    knsb_number: str = ""
    fide_id: str = ""

    def number(self, kind: str) -> str:
        raw = (self.knsb_number if kind == KNSB else self.fide_id).strip()
        return str(int(raw)) if raw.isdigit() else ""


@dataclass(frozen=True)
class Matched:
    member_id: int
    name: str
    number: str
    old: int | None
    new: int
    list_name: str

    @property
    def changed(self) -> bool:
        return self.old != self.new


@dataclass(frozen=True)
class NotFound:
    member_id: int
    name: str
    number: str  # "" when the member has no number of this kind
    unrated: bool = False  # in the list, without a rating


@dataclass(frozen=True)
class Lookalike:
    """A list entry with a member's name, for a member without a number: the leader
    confirms it (then the rating and the number are taken over) or leaves it."""

    member_id: int
    name: str
    old: int | None
    number: str
    new: int
    list_name: str
    birth_year: int | None = None
    federation: str = ""

    @property
    def key(self) -> str:
        return f"{self.member_id}:{self.number}"


@dataclass(frozen=True)
class Matching:
    number_kind: str
    matched: tuple[Matched, ...] = ()
    not_found: tuple[NotFound, ...] = ()
    lookalikes: tuple[Lookalike, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "number_kind": self.number_kind,
            "matched": [asdict(m) for m in self.matched],
            "not_found": [asdict(m) for m in self.not_found],
            "lookalikes": [asdict(m) for m in self.lookalikes],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Matching:
        return cls(
            number_kind=data["number_kind"],
            matched=tuple(Matched(**m) for m in data["matched"]),
            not_found=tuple(NotFound(**m) for m in data["not_found"]),
            lookalikes=tuple(Lookalike(**m) for m in data["lookalikes"]),
        )


def wanted_for(members: Iterable[MemberRef], number_kind: str) -> Wanted:
    """What to keep of a list for these members: their numbers, and the names of those
    without a number."""
    numbers: set[str] = set()
    names: set[str] = set()
    for m in members:
        number = m.number(number_kind)
        if number:
            numbers.add(number)
        else:
            names.update(name_keys(m.name))
    return Wanted(numbers=frozenset(numbers), names=frozenset(names))


def match(
    entries: Iterable[ListEntry], members: Iterable[MemberRef], number_kind: str
) -> Matching:
    """Members matched by number (old and new rating), members with a number the list
    lacks, and list entries that look like a member without a number."""
    if number_kind not in NUMBER_KINDS:
        raise ValueError(f"unknown number kind {number_kind!r}")
    members = sorted(members, key=lambda m: (m.name, m.id))
    by_number: dict[str, ListEntry] = {}
    by_name: dict[str, list[ListEntry]] = {}
    for entry in entries:
        if entry.number:
            by_number[entry.number] = entry
        for key in name_keys(entry.name):
            by_name.setdefault(key, []).append(entry)
    claimed = {m.number(number_kind) for m in members} - {""}
    matched, not_found, lookalikes = [], [], []
    for m in members:
        number = m.number(number_kind)
        if number:
            found = by_number.get(number)
            if found is None or found.rating is None:
                not_found.append(NotFound(m.id, m.name, number, unrated=found is not None))
            else:
                matched.append(Matched(m.id, m.name, number, m.rating, found.rating, found.name))
            continue
        seen: set[int] = set()
        alike = []
        for key in sorted(name_keys(m.name)):
            for e in by_name.get(key, []):
                if id(e) in seen or e.rating is None or not e.number or e.number in claimed:
                    continue
                seen.add(id(e))
                alike.append(e)
        alike.sort(key=lambda e: e.line)
        for e in alike:
            lookalikes.append(Lookalike(
                m.id, m.name, m.rating, e.number, e.rating or 0, e.name,
                birth_year=e.birth_year, federation=e.federation,
            ))
        if not alike:
            not_found.append(NotFound(m.id, m.name, ""))
    return Matching(number_kind, tuple(matched), tuple(not_found), tuple(lookalikes))
