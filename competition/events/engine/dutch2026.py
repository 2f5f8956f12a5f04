"""C.04.3 FIDE (Dutch) System in the edition in force from 1 February 2026 (approved 2025).

py4swiss 0.3 implements the edition effective until 31 January 2026 (the 2017 rules). The
2026 edition differs from it in four places (docs/swiss.md, "Dutch editions"); this module
applies them on top of py4swiss's engine, without changing the library:

* **A.5 / C.2, bye eligibility** (C.04.1 f): a player who already received a pairing-allocated
  bye, or who already scored as many points as a win *without playing* (a forfeit win, a
  full-point bye), gets no pairing-allocated bye. 2017: the PAB or a forfeit win only.
* **A.4 b, floats of an unplayed round**: a player who did not play a round has a downfloat
  only when that round scored points (a forfeit win, a bye worth points). 2017: every
  unplayed round was a downfloat, also an absence, a zero-point bye or a forfeit loss.
* **C.5 (new), the bye assignee's score**: minimise the score of the player who receives the
  pairing-allocated bye. Applied as bbpPairings 6 does: the lowest score with which the round
  can still be completed is found first, and nobody scoring more can get the bye.
* **C.9 (new), the bye assignee's unplayed games**: among those, the bye goes to a player
  with the fewest unplayed rounds (the most games played). It ranks after the criteria of
  the next bracket (old C.7) and before the colour criteria.

The later quality criteria keep their order; only their numbers moved (old C.5-C.19 are
C.6-C.8 and C.10-C.21 in the 2026 text).

The two methods of BracketMatcher that build the edge weights are py4swiss's own (MIT
licence), taking the criteria from the instance instead of the module.
"""

from __future__ import annotations

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.common import Float, Pairing, PairingError
from py4swiss.engines.dutch import Engine as DutchEngine2017
from py4swiss.engines.dutch.bracket import Bracket, BracketPairer, Brackets
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.criteria import QUALITY_CRITERIA
from py4swiss.engines.dutch.criteria.abstract import QualityCriterion
from py4swiss.engines.dutch.player import Player, get_player_infos_from_trf
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.trf import ParsedTrf
from py4swiss.trf.results import ResultToken, RoundResult, ScoringPointSystem

Criteria = tuple[type[QualityCriterion], ...]


class Player2026(Player):  # type: ignore[misc]  # py4swiss ships no type information
    """py4swiss's player with the 2026 fields: games played (C.9) and, while the bye is
    being placed, the player's C.9 weight (0 unless he scores what the bye assignee must)."""

    played_games: int = 0
    bye_weight: int = 0


def _float(results: list[RoundResult], index: int, played: Float, points: ScoringPointSystem) -> Float:
    """A.4 b (2026): an unplayed round is a downfloat only when it scored points; a played
    one keeps py4swiss's float (``played``)."""
    if index < 0 or results[index].result.is_played():
        return played
    return Float.DOWN if points.get_points_times_ten(results[index]) > 0 else Float.NONE


def players_2026(trf: ParsedTrf) -> list[Player2026]:
    """The pairing players as py4swiss reads them, with the 2026 bye eligibility and floats."""
    points = trf.x_section.scoring_point_system
    sections = {s.starting_number: s for s in trf.player_sections}
    round_number = min(len(s.results) for s in trf.player_sections)
    win = points.score_dict[(ResultToken.WIN, next(iter(points.score_dict))[1])]
    out = []
    for p in get_player_infos_from_trf(trf):
        results = sections[p.id].results
        unplayed_points = [
            (r, points.get_points_times_ten(r)) for r in results if not r.result.is_played()
        ]
        bye_received = any(
            r.result is ResultToken.PAIRING_ALLOCATED_BYE or value >= win for r, value in unplayed_points
        )

        out.append(Player2026(
            **{**p.model_dump(), "color_preference": p.color_preference},
            played_games=len(p.colors),
        ).model_copy(update={
            "bye_received": bye_received,
            "float_1": _float(results, round_number - 1, p.float_1, points),
            "float_2": _float(results, round_number - 2, p.float_2, points),
        }))
    return out


def restrict_bye(players: list[Player2026], forbidden: set[tuple[int, int]]) -> tuple[list[Player2026], int]:
    """C.5: the lowest score the bye assignee can have in a complete pairing; everybody who
    scores more is made ineligible for the bye (the returned copies), with that score."""
    scores = sorted({p.points_with_acceleration for p in players if not p.bye_received})
    for score in scores:
        trial = [
            p.model_copy(update={"bye_received": p.bye_received or p.points_with_acceleration > score})
            for p in players
        ]
        if ValidityMatcher(trial, forbidden).is_valid_matching():
            # C.9's weight: the fewer games a player has played, the more his being paired
            # is worth, so the pairing that leaves the most experienced one unpaired wins.
            most = max(p.played_games for p in trial)
            return [
                p.model_copy(update={"bye_weight": most - p.played_games + 1})
                if p.points_with_acceleration == score and not p.bye_received else p
                for p in trial
            ], score
    raise PairingError("Round can not be paired")


def c9_criterion(
    bye_score: int | None, players: list[Player2026], forbidden: set[tuple[int, int]]
) -> type[QualityCriterion]:
    """C.9 (2026): minimise the number of unplayed games of the bye assignee, in the bracket
    where the bye assignee is chosen: its residents score no more than he must, and the
    players below it can be paired among themselves, so that the bracket's one unpaired
    player is the one who gets the bye (bbpPairings 6 applies it so)."""
    below_pairable: dict[int, bool] = {}

    def pairable_below(score: int) -> bool:
        if score not in below_pairable:
            below = [p for p in players if p.points_with_acceleration < score]
            below_pairable[score] = len(below) % 2 == 0 and (
                not below or ValidityMatcher(below, forbidden).is_valid_matching()
            )
        return below_pairable[score]

    class C9(QualityCriterion):  # type: ignore[misc]  # py4swiss ships no type information
        @classmethod
        def _active(cls, bracket: Bracket) -> bool:
            if bye_score is None or bracket.min_bracket_score > bye_score:
                return False
            return bracket.last_pairing_bracket or pairable_below(bracket.min_bracket_score)

        @classmethod
        def get_shift(cls, bracket: Bracket) -> int:
            if not cls._active(bracket):
                return 0
            players = bracket.mdp_list + bracket.resident_list + bracket.lower_list
            return (sum(getattr(p, "bye_weight", 0) for p in players) + 1).bit_length() + 1

        @classmethod
        def get_weight(cls, player_1: Player, player_2: Player, zero: DynamicUint, bracket: Bracket) -> DynamicUint:
            weight = DynamicUint(zero)
            if not cls._active(bracket) or player_1 == player_2:
                return weight
            return weight | (getattr(player_1, "bye_weight", 0) + getattr(player_2, "bye_weight", 0))

    return C9


class _Matcher(BracketMatcher):  # type: ignore[misc]  # py4swiss ships no type information
    def __init__(self, bracket: Bracket, validity_matcher: ValidityMatcher, criteria: Criteria) -> None:
        self._criteria = criteria
        super().__init__(bracket, validity_matcher)

    def _get_max_weight(self) -> DynamicUint:
        weight = DynamicUint(1)
        weight.shift_grow(2)
        for criterion in self._criteria:
            weight.shift_grow(criterion.get_shift(self._bracket))
        weight.shift_grow(3 * self._bracket.bracket_bits)
        weight.shift_grow(2)
        weight >>= 1
        weight -= (weight & 0) | 1
        return weight

    def _get_weight(self, player_1: Player, player_2: Player) -> DynamicUint:
        weight = DynamicUint(self._zero_weight)
        if not self._validity_matcher.is_allowed_pair(player_1, player_2):
            return weight
        if self._bracket.penultimate_pairing_bracket or self._bracket.last_pairing_bracket:
            weight |= 1 + player_1.bye_received + player_2.bye_received
        for criterion in self._criteria:
            weight <<= criterion.get_shift(self._bracket)
            weight += criterion.get_weight(player_1, player_2, self._zero_weight, self._bracket)
        weight <<= 3 * self._bracket.bracket_bits + 1
        return weight


class _Pairer(BracketPairer):  # type: ignore[misc]  # py4swiss ships no type information
    def __init__(self, state: Bracket, validity_matcher: ValidityMatcher, initial_color: bool,
                 criteria: Criteria) -> None:
        self._bracket = state
        self._validity_matcher = validity_matcher
        self._initial_color = initial_color
        self._num = len(state.mdp_list + state.resident_list + state.lower_list)
        self._bracket_matcher = _Matcher(state, validity_matcher, criteria)
        self._heterogeneous_s1: list[Player] = []
        self._heterogeneous_s2: list[Player] = []
        self._homogeneous_s1: list[Player] = []
        self._homogeneous_s2: list[Player] = []
        self._exchanges = 0


class Engine2026(DutchEngine2017):  # type: ignore[misc]  # py4swiss ships no type information
    """The Dutch system, 2026 edition (module docstring)."""

    @classmethod
    def generate_pairings(cls, trf: ParsedTrf) -> list[Pairing]:
        round_number = min(len(section.results) for section in trf.player_sections) + 1
        initial_color = trf.x_section.configuration.first_round_color
        forbidden = trf.x_section.forbidden_pairs

        players = players_2026(trf)
        players.sort(reverse=True)
        if not ValidityMatcher(players, forbidden).is_valid_matching():
            raise PairingError("Round can not be paired")
        bye_score = None
        if len(players) % 2:
            players, bye_score = restrict_bye(players, forbidden)
        criteria: Criteria = (*QUALITY_CRITERIA[:3], c9_criterion(bye_score, players, forbidden), *QUALITY_CRITERIA[3:])

        validity_matcher = ValidityMatcher(players, forbidden)
        brackets = Brackets(players, round_number)
        player_pairs = []
        while not brackets.is_finished():
            pairer = _Pairer(brackets.get_current_bracket(), validity_matcher, initial_color, criteria)
            bracket_pairings = cls._get_bracket_pairs(pairer)
            if bracket_pairings is None:
                brackets.collapse()
            else:
                brackets.apply_bracket_pairings(bracket_pairings)
                player_pairs.extend(bracket_pairings)

        player_pairs.sort(key=cls._get_player_pair_score, reverse=True)
        return [cls._get_pairing(pair) for pair in player_pairs]
