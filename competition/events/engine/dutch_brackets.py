"""The Dutch system's bracket-by-bracket loop, shared by both editions (docs/swiss.md).

py4swiss pairs a round bracket by bracket (C.04.3 A.3, A.9): the players who remain
unpaired in a bracket move down as the next bracket's MDPs; when the downfloaters of a
bracket leave the round incomplete (C.4), every bracket below is collapsed into one and
the bracket is paired again as the PPB. Here that loop takes the edition's quality
criteria (in their order of priority) and an ``observer``, which sees every bracket
pairer before the players move on (``explain`` uses it to say why the round was paired
so); the pairing itself is py4swiss's.

``_Matcher`` builds the edge weights as py4swiss's ``BracketMatcher`` does (its
methods, MIT licence), taking the criteria from the instance instead of the module: for
the 2017 criteria it is py4swiss's own weighting, but for C.7 (below).

The 2017 edition's C.7 is py4swiss's but for a bracket whose following bracket is the
last one (``_C7``): there the pairs and the PSD of the following bracket are counted as
that bracket must be paired, the bye to a player who may have it (C.2), as bbpPairings 5
counts them.

The 2026 edition collapses no bracket (``complete=True``): every bracket is paired with
the players of all lower brackets in the same matching, where a pair that the bracket's
criteria do not weigh (players below the next bracket) counts only for the completion
of the round, the most important field of every weight. So the bracket's downfloaters
are always chosen among those with which the round can be completed, and the brackets
below are paired one by one as before (bbpPairings 6 pairs so).
"""

from __future__ import annotations

from collections.abc import Callable

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.common import Pairing, PairingError
from py4swiss.engines.dutch import Engine as DutchEngine
from py4swiss.engines.dutch.bracket import Bracket, BracketPairer, Brackets
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.criteria import QUALITY_CRITERIA
from py4swiss.engines.dutch.criteria.abstract import QualityCriterion
from py4swiss.engines.dutch.criteria.quality.c7 import C7
from py4swiss.engines.dutch.player import Player, PlayerRole, get_player_infos_from_trf
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.matching_computer import ComputerDutchOptimality
from py4swiss.trf import ParsedTrf

Criteria = tuple[type[QualityCriterion], ...]


class _Matcher(BracketMatcher):  # type: ignore[misc]  # py4swiss ships no type information
    def __init__(self, bracket: Bracket, validity_matcher: ValidityMatcher, criteria: Criteria,
                 beyond: list[Player] | None = None, complete: bool = False, apart_mdps: bool = False) -> None:
        self._criteria = criteria
        self._shifts: list[tuple[type[QualityCriterion], int]] | None = None
        # complete: the completion field in every bracket (2026), not only in the PPB and
        # the last one; beyond: the players below the next bracket, in the matching only
        # for the completion of the round; apart_mdps: no pair of two MDPs (pair_brackets'
        # first try of a 2026 bracket)
        self._complete = complete
        self._apart_mdps = apart_mdps
        self._beyond = set(beyond or ())
        self._mdps = set(bracket.mdp_list)
        self._bracket = bracket
        self._validity_matcher = validity_matcher
        self._player_list = bracket.mdp_list + bracket.resident_list + bracket.lower_list + list(beyond or ())
        # BracketMatcher.__init__ with the players below the next bracket in the graph
        self._max_weight = self._get_max_weight()
        self._zero_weight = self._max_weight & 0
        self._len = len(self._player_list)
        self._index_dict_reverse = dict(enumerate(self._player_list))
        self._index_dict = {player: i for i, player in self._index_dict_reverse.items()}
        self._computer = ComputerDutchOptimality(self._len, self._max_weight)
        self._weights = [[self._zero_weight] * self._len for _ in range(self._len)]
        self.matching: dict[Player, Player] = {}
        self._set_up_computer()
        self.update_matching()

    @property
    def players(self) -> list[Player]:
        """The matching's players: the bracket's, the next bracket's, and (2026) all below."""
        return list(self._player_list)

    def _criteria_shifts(self) -> list[tuple[type[QualityCriterion], int]]:
        """Each criterion with its field's width in this bracket, asked once per bracket
        (py4swiss asks for every edge)."""
        if self._shifts is None:
            self._shifts = [(criterion, criterion.get_shift(self._bracket)) for criterion in self._criteria]
        return self._shifts

    def _get_max_weight(self) -> DynamicUint:
        weight = DynamicUint(1)
        weight.shift_grow(2)
        for _, shift in self._criteria_shifts():
            weight.shift_grow(shift)
        weight.shift_grow(3 * self._bracket.bracket_bits)
        weight.shift_grow(2)
        weight >>= 1
        weight -= (weight & 0) | 1
        return weight

    def _get_weight(self, player_1: Player, player_2: Player) -> DynamicUint:
        weight = DynamicUint(self._zero_weight)
        if not self._validity_matcher.is_allowed_pair(player_1, player_2):
            return weight
        if self._apart_mdps and player_1 in self._mdps and player_2 in self._mdps:
            return weight
        if self._complete or self._bracket.penultimate_pairing_bracket or self._bracket.last_pairing_bracket:
            weight |= 1 + player_1.bye_received + player_2.bye_received
        if player_1 in self._beyond or player_2 in self._beyond or (
            self._complete and player_1 in self._mdps and player_2 in self._mdps
        ):
            # below the next bracket, or two MDPs (who floated because the round could
            # not be completed with them paired): only the completion of the round; the
            # criteria's fields are as wide as pairs with a resident or a lower player need
            weight <<= sum(shift for _, shift in self._criteria_shifts())
            weight <<= 3 * self._bracket.bracket_bits + 1
            return weight
        for criterion, shift in self._criteria_shifts():
            # a criterion without a field in this bracket (a topscorer rule before the last
            # round, a float rule in round 1) can add nothing: not asked
            if shift:
                weight <<= shift
                weight += criterion.get_weight(player_1, player_2, self._zero_weight, self._bracket)
        weight <<= 3 * self._bracket.bracket_bits + 1
        return weight


class _Pairer(BracketPairer):  # type: ignore[misc]  # py4swiss ships no type information
    def __init__(self, state: Bracket, validity_matcher: ValidityMatcher, initial_color: bool,
                 criteria: Criteria, keep_weights: bool = False, beyond: list[Player] | None = None,
                 complete: bool = False, apart_mdps: bool = False) -> None:
        self._bracket = state
        self._validity_matcher = validity_matcher
        self._initial_color = initial_color
        self._num = len(state.mdp_list + state.resident_list + state.lower_list)
        self._bracket_matcher = _Matcher(state, validity_matcher, criteria, beyond, complete, apart_mdps)
        self._heterogeneous_s1: list[Player] = []
        self._heterogeneous_s2: list[Player] = []
        self._homogeneous_s1: list[Player] = []
        self._homogeneous_s2: list[Player] = []
        self._exchanges = 0
        self.criteria = criteria
        # The edge weights before the pairing steps change them (``explain`` weighs the
        # alternatives with them): copies, since removing an edge zeroes its weight in place.
        self.weights: list[list[DynamicUint]] = (
            [[DynamicUint(w) for w in row] for row in self._bracket_matcher._weights] if keep_weights else []
        )

    @property
    def bracket(self) -> Bracket:
        return self._bracket

    @property
    def matcher(self) -> _Matcher:
        return self._bracket_matcher

    @property
    def matching(self) -> dict[Player, Player]:
        """The bracket's matching as chosen, the next bracket's players included."""
        return dict(self._bracket_matcher.matching)

    @property
    def validity_matcher(self) -> ValidityMatcher:
        return self._validity_matcher


# Called with each bracket's pairer after it chose (the chosen pairs, or None when the
# round could not be completed with its downfloaters and the brackets below collapse),
# while the players still have their roles in that bracket.
Observer = Callable[[_Pairer, list[tuple[Player, Player]] | None], None]


class _Validity(ValidityMatcher):  # type: ignore[misc]  # py4swiss ships no type information
    """py4swiss's validity matcher, each pair's absolute criteria asked once a round (the
    2026 loop builds one for the players left after a bracket)."""

    def __init__(self, players: list[Player], forbidden: set[tuple[int, int]],
                 allowed: dict[tuple[int, int], bool]) -> None:
        self._allowed = allowed
        super().__init__(players, forbidden)

    def is_allowed_pair(self, player_1: Player, player_2: Player) -> bool:
        key = (player_1.id, player_2.id) if player_1.id < player_2.id else (player_2.id, player_1.id)
        allowed = self._allowed.get(key)
        if allowed is None:
            allowed = self._allowed[key] = super().is_allowed_pair(player_1, player_2)
        return allowed

    def among(self, players: list[Player]) -> _Validity:
        """A validity matcher of these players only, nobody's pair fixed."""
        return _Validity(players, self._forbidden_pairs, self._allowed)


class _Bracket(Bracket):  # type: ignore[misc]  # py4swiss ships no type information
    """py4swiss's bracket, knowing whether its following bracket is the last one."""

    following_is_last: bool = False


class _C7(C7):  # type: ignore[misc]  # py4swiss ships no type information
    """C.7 (2017): choose the downfloaters first to maximise the number of pairs, then to
    minimise the PSD, in the following bracket.

    py4swiss counts as the following bracket's pairs every pair of the matching with one of
    its players, and its PSD from them. When the following bracket is the last one, that
    matching may leave unpaired a player who had a pairing-allocated bye (or a forfeit win),
    which that bracket cannot do: its one unpaired player gets the bye, and he may not have
    had one (C.2). So py4swiss chose downfloaters by a pairing of the last bracket that
    cannot be made: either no pairing of it completes the round, and the brackets below
    were collapsed (A.9), where C.7 does not apply; or the last bracket was paired otherwise
    than counted, the downfloater getting the bye, his SD taken to one point below the
    bracket's lowest score (A.8), a higher PSD than other downfloaters would have left
    (generated tournaments 765 round 6, and 437, 454, 620; docs/swiss.md).

    Here, when the following bracket is the last, every pair counts 1 and 1 more for each
    of its players who may not have the bye, as the completion of the round is weighed in
    the penultimate and last brackets: the best total pairs all of them whenever the round
    can be completed so, and the PSD is that of a pairing the last bracket can have.
    bbpPairings 5.0.1 weighs so."""

    @classmethod
    def get_shift(cls, bracket: Bracket) -> int:
        if not getattr(bracket, "following_is_last", False) or bracket.penultimate_pairing_bracket \
                or bracket.last_pairing_bracket:
            return int(C7.get_shift(bracket))
        players = len(bracket.mdp_list) + len(bracket.resident_list) + len(bracket.lower_list)
        # at most 3 for each of the (players / 2) pairs
        return (3 * players).bit_length() + int(bracket.score_difference_total_bits)

    @classmethod
    def get_weight(cls, player_1: Player, player_2: Player, zero: DynamicUint, bracket: Bracket) -> DynamicUint:
        if not getattr(bracket, "following_is_last", False) or bracket.penultimate_pairing_bracket \
                or bracket.last_pairing_bracket:
            return C7.get_weight(player_1, player_2, zero, bracket)
        weight = DynamicUint(zero)
        weight |= 1 + int(player_1.bye_received) + int(player_2.bye_received)
        weight <<= bracket.score_difference_total_bits
        # the PSD part as py4swiss's: the SDs of the bracket's players paired (with each
        # other or in the following bracket), so that those left to float have the least
        for player in (player_1, player_2):
            if player.role != PlayerRole.LOWER:
                difference = player.points_with_acceleration - bracket.min_bracket_score + 10
                weight += (zero | 1) << bracket.score_difference_bit_dict[difference]
        return weight


CRITERIA_2017: Criteria = tuple(_C7 if criterion is C7 else criterion for criterion in QUALITY_CRITERIA)


class _Brackets(Brackets):  # type: ignore[misc]  # py4swiss ships no type information
    def get_current_bracket(self) -> _Bracket:
        bracket: _Bracket = _Bracket.from_data(
            self._mdp_list, self._get_resident_list(), self._get_lower_list(), self._round_number, self._collapsed
        )
        bracket.following_is_last = bool(bracket.lower_list) and self._index + 2 == len(self._brackets)
        return bracket

    def beyond(self) -> list[Player]:
        """The players of the score groups below the next bracket, best first."""
        return [player for group in self._brackets[self._index + 2:] for player in group]


def pair_brackets(
    players: list[Player], round_number: int, initial_color: bool, forbidden: set[tuple[int, int]],
    criteria: Criteria, observer: Observer | None = None, complete: bool = False,
) -> list[Pairing]:
    """Pair the round bracket by bracket (py4swiss's ``Engine.generate_pairings`` with the
    edition's ``criteria``); ``players`` sorted best first. ``complete`` (2026): each
    bracket is paired with the completion of the round built in, no bracket collapses.

    A 2026 bracket with players below the next one is first paired without them (no pair
    of two MDPs): when the players its matching leaves unpaired can be paired with those
    below, that is the pairing the matching with all of them would choose (their pairs
    weigh only for the completion, the same in every complete round), and the larger
    matching is built only when they cannot. An ``observer`` sees the larger matching of
    every bracket."""
    validity_matcher = _Validity(players, forbidden, {}) if complete else ValidityMatcher(players, forbidden)
    if not validity_matcher.is_valid_matching():
        raise PairingError("Round can not be paired")
    brackets = _Brackets(players, round_number)
    player_pairs = []
    while not brackets.is_finished():
        bracket = brackets.get_current_bracket()
        beyond = brackets.beyond() if complete else []
        if beyond and observer is None:
            first = _Pairer(bracket, validity_matcher, initial_color, criteria, apart_mdps=True)
            bracket_pairings = DutchEngine._get_bracket_pairs(first)
            # taken when the players its matching leaves unpaired (the next bracket's
            # included) can be paired with those below: then the larger matching can
            # weigh as much, and chooses the same
            mate = first.matching
            left = [player for player in first.matcher.players if mate[player] == player] + beyond
            if bracket_pairings is not None and validity_matcher.among(left).is_valid_matching():
                brackets.apply_bracket_pairings(bracket_pairings)
                player_pairs.extend(bracket_pairings)
                continue
            # the pairing steps fixed the first try's pairs in the validity matcher
            validity_matcher = validity_matcher.among(
                bracket.mdp_list + bracket.resident_list + bracket.lower_list + beyond)
        for player in beyond:
            player.role = PlayerRole.LOWER
        pairer = _Pairer(bracket, validity_matcher, initial_color, criteria,
                         keep_weights=observer is not None, beyond=beyond, complete=complete)
        bracket_pairings = DutchEngine._get_bracket_pairs(pairer)
        if observer is not None:
            observer(pairer, bracket_pairings)
        if bracket_pairings is None:
            brackets.collapse()
        else:
            brackets.apply_bracket_pairings(bracket_pairings)
            player_pairs.extend(bracket_pairings)
    player_pairs.sort(key=DutchEngine._get_player_pair_score, reverse=True)
    return [DutchEngine._get_pairing(pair) for pair in player_pairs]


class Engine2017(DutchEngine):  # type: ignore[misc]  # py4swiss ships no type information
    """C.04.3 in the edition effective until 31 January 2026: py4swiss's engine, through
    the shared loop so that it can be observed."""

    @classmethod
    def generate_pairings(cls, trf: ParsedTrf, observer: Observer | None = None) -> list[Pairing]:
        round_number = min(len(section.results) for section in trf.player_sections) + 1
        players = get_player_infos_from_trf(trf)
        players.sort(reverse=True)
        return pair_brackets(players, round_number, trf.x_section.configuration.first_round_color,
                             trf.x_section.forbidden_pairs, CRITERIA_2017, observer)
