"""The playoffs after the summer half (docs/rules.md 6): one knock-out bracket per group.

Pure: `build_bracket` creates the first matches, `record_result` returns a new bracket
with the result and whatever it unlocks (a decider, a semi-final after a qualifier, the
final), `winners` reads the group winners. Colours are drawn by lot from the bracket's
seed and the match id, so replaying the same results from the same seed gives the same
bracket (that is also how a result is corrected).

Brackets by group size (seeds 1..n in summer final order; evening = playing evening after
the summer half):

* 4: semi-finals 1 v 4 and 2 v 3 (evening 1), final of the winners (evening 3).
* 3: seed 1 has a bye to the final; semi-final 2 v 3 (evening 1).
* 5: qualifier 4 v 5 (evening 1), semi-finals 1 v winner (evening 2) and 2 v 3 (evening 1).
* 6: qualifiers 4 v 5 and 3 v 6 (evening 1), semi-finals 1 v winner(4 v 5) and
  2 v winner(3 v 6) (evening 2).
* 2: the final only; 1: the player wins the group without playing.

A drawn qualifier, semi-final or final is followed at once (same evening) by a decider at
reduced tempo; a drawn decider is won by the player with black.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

Round = Literal["qualifier", "semi", "decider", "final"]
RESULTS: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2", "1-0F", "0-1F")
WHITE_WINS = ("1-0", "1-0F")
BLACK_WINS = ("0-1", "0-1F")
DRAW = "1/2-1/2"
FINAL_EVENING = 3

# A slot of a match: ("seed", index into the group) or ("winner", local match id).
Slot = tuple[str, int | str]


@dataclass(frozen=True)
class _Spec:
    local: str  # "Q1", "S1", "F"
    round: Round
    evening: int
    a: Slot  # the better seeded side
    b: Slot


def _seed(i: int) -> Slot:
    return ("seed", i)


def _winner(local: str) -> Slot:
    return ("winner", local)


_FINAL_OF_SEMIS = _Spec("F", "final", FINAL_EVENING, _winner("S1"), _winner("S2"))
SPECS: dict[int, tuple[_Spec, ...]] = {
    1: (),
    2: (_Spec("F", "final", FINAL_EVENING, _seed(0), _seed(1)),),
    3: (
        _Spec("S1", "semi", 1, _seed(1), _seed(2)),
        _Spec("F", "final", FINAL_EVENING, _seed(0), _winner("S1")),
    ),
    4: (
        _Spec("S1", "semi", 1, _seed(0), _seed(3)),
        _Spec("S2", "semi", 1, _seed(1), _seed(2)),
        _FINAL_OF_SEMIS,
    ),
    5: (
        _Spec("Q1", "qualifier", 1, _seed(3), _seed(4)),
        _Spec("S1", "semi", 2, _seed(0), _winner("Q1")),
        _Spec("S2", "semi", 1, _seed(1), _seed(2)),
        _FINAL_OF_SEMIS,
    ),
    6: (
        _Spec("Q1", "qualifier", 1, _seed(3), _seed(4)),
        _Spec("Q2", "qualifier", 1, _seed(2), _seed(5)),
        _Spec("S1", "semi", 2, _seed(0), _winner("Q1")),
        _Spec("S2", "semi", 2, _seed(1), _winner("Q2")),
        _FINAL_OF_SEMIS,
    ),
}


@dataclass(frozen=True)
class Match:
    """One playoff game. `id` is "G<group>-<S1|S2|Q1|Q2|F>", a decider adds "-D";
    `decides` is the id of the drawn match a decider settles."""

    id: str
    group: int  # 1 = the top group
    round: Round
    evening: int  # playing evening after the summer half (a decider: that of its match)
    white: int
    black: int
    result: str | None = None
    decides: str | None = None


@dataclass(frozen=True)
class Bracket:
    groups: tuple[tuple[int, ...], ...]  # player ids in seeding order, top group first
    seed: str  # the lot's seed: colours are reproducible from it
    matches: tuple[Match, ...] = ()

    def match(self, match_id: str) -> Match:
        for match in self.matches:
            if match.id == match_id:
                return match
        raise KeyError(match_id)

    def open_matches(self) -> tuple[Match, ...]:
        """Matches created and waiting for a result."""
        return tuple(m for m in self.matches if m.result is None)


def _match_id(group: int, local: str) -> str:
    return f"G{group}-{local}"


def _colours(seed: str, match_id: str, a: int, b: int) -> tuple[int, int]:
    """(white, black) by lot, reproducible from the seed and the match id."""
    rng = random.Random(f"{seed}/{match_id}")
    return (a, b) if rng.random() < 0.5 else (b, a)


def build_bracket(groups: Sequence[Sequence[int]], seed: int | str) -> Bracket:
    """The bracket with the first evening's matches (and a group of two's final)."""
    frozen = tuple(tuple(group) for group in groups)
    everybody = [p for group in frozen for p in group]
    if len(set(everybody)) != len(everybody):
        raise ValueError("a player appears in two places")
    for number, group in enumerate(frozen, start=1):
        if len(group) not in SPECS:
            raise ValueError(f"group {number} has {len(group)} players; a group has 1 to 6")
    return _advance(Bracket(frozen, str(seed)))


def match_winner(bracket: Bracket, match: Match) -> int | None:
    """The winner of a match, through its decider if it was drawn; None while open."""
    if match.result in WHITE_WINS:
        return match.white
    if match.result in BLACK_WINS:
        return match.black
    if match.result == DRAW:
        if match.round == "decider":
            return match.black  # a drawn decider is won by the player with black
        decider = _decider_of(bracket, match.id)
        return match_winner(bracket, decider) if decider is not None else None
    return None


def _decider_of(bracket: Bracket, match_id: str) -> Match | None:
    return next((m for m in bracket.matches if m.decides == match_id), None)


def _slot_player(bracket: Bracket, group: int, slot: Slot) -> int | None:
    kind, key = slot
    if kind == "seed":
        assert isinstance(key, int)
        return bracket.groups[group - 1][key]
    assert isinstance(key, str)
    match = _find(bracket, _match_id(group, key))
    return match_winner(bracket, match) if match is not None else None


def _find(bracket: Bracket, match_id: str) -> Match | None:
    return next((m for m in bracket.matches if m.id == match_id), None)


def _advance(bracket: Bracket) -> Bracket:
    """Add every match whose players are now known, and a decider for every draw."""
    new: list[Match] = []
    for match in bracket.matches:
        if match.result == DRAW and match.round != "decider" and _decider_of(bracket, match.id) is None:
            decider_id = f"{match.id}-D"
            white, black = _colours(bracket.seed, decider_id, match.white, match.black)
            new.append(Match(decider_id, match.group, "decider", match.evening, white, black, decides=match.id))
    bracket = replace(bracket, matches=bracket.matches + tuple(new))
    for group, players in enumerate(bracket.groups, start=1):
        for spec in SPECS[len(players)]:
            match_id = _match_id(group, spec.local)
            if _find(bracket, match_id) is not None:
                continue
            a = _slot_player(bracket, group, spec.a)
            b = _slot_player(bracket, group, spec.b)
            if a is not None and b is not None:
                white, black = _colours(bracket.seed, match_id, a, b)
                match = Match(match_id, group, spec.round, spec.evening, white, black)
                bracket = replace(bracket, matches=bracket.matches + (match,))
    return bracket


def record_result(bracket: Bracket, match_id: str, result: str) -> Bracket:
    """A new bracket with the result recorded and the matches it unlocks added.
    A recorded result is final here; to correct one, rebuild from the seed and replay."""
    if result not in RESULTS:
        raise ValueError(f"unknown playoff result {result!r} (expected one of {', '.join(RESULTS)})")
    match = bracket.match(match_id)
    if match.result is not None:
        raise ValueError(f"match {match_id} already has the result {match.result}")
    matches = tuple(replace(m, result=result) if m.id == match_id else m for m in bracket.matches)
    return _advance(replace(bracket, matches=matches))


def winners(bracket: Bracket) -> tuple[int | None, ...]:
    """Each group's winner (None while undecided), top group first."""
    out: list[int | None] = []
    for group, players in enumerate(bracket.groups, start=1):
        if len(players) == 1:
            out.append(players[0])
            continue
        final = _find(bracket, _match_id(group, "F"))
        out.append(match_winner(bracket, final) if final is not None else None)
    return tuple(out)


def club_champion(bracket: Bracket) -> int | None:
    """The winner of the top group."""
    found = winners(bracket)
    return found[0] if found else None
