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

And the round is completed as bbpPairings 6 completes it (**C.4, no collapsed bracket**):
every bracket is paired in one matching with all the players below it, the completion of
the round (with the bye to a player who may have it) its first field, so the bracket's
downfloaters are always ones with which the round can be completed. 2017 (A.9): the
downfloaters were chosen first; when they left the round incomplete, all the brackets
below were collapsed into one and the bracket was paired again as the penultimate one.

The bracket loop with the criteria in their 2026 order is ``dutch_brackets.pair_brackets``.
"""

from __future__ import annotations

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.common import Float, Pairing, PairingError
from py4swiss.engines.dutch import Engine as DutchEngine2017
from py4swiss.engines.dutch.bracket import Bracket
from py4swiss.engines.dutch.criteria import QUALITY_CRITERIA
from py4swiss.engines.dutch.criteria.abstract import QualityCriterion
from py4swiss.engines.dutch.player import Player, get_player_infos_from_trf
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.trf import ParsedTrf
from py4swiss.trf.results import ResultToken, RoundResult, ScoringPointSystem

from .dutch_brackets import Criteria, Observer, pair_brackets


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
            # asked once per bracket (dutch_brackets._Matcher, explain._Weighing)
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


class Engine2026(DutchEngine2017):  # type: ignore[misc]  # py4swiss ships no type information
    """The Dutch system, 2026 edition (module docstring)."""

    @classmethod
    def generate_pairings(cls, trf: ParsedTrf, observer: Observer | None = None) -> list[Pairing]:
        round_number = min(len(section.results) for section in trf.player_sections) + 1
        forbidden = trf.x_section.forbidden_pairs
        players, _, criteria = prepare_2026(trf)
        return pair_brackets(players, round_number, trf.x_section.configuration.first_round_color,
                             forbidden, criteria, observer, complete=True)


def prepare_2026(trf: ParsedTrf) -> tuple[list[Player2026], int | None, Criteria]:
    """The round's players (best first, the bye restricted by C.5), the score the bye
    assignee must have (None: an even field) and the 2026 quality criteria in order."""
    forbidden = trf.x_section.forbidden_pairs
    players = players_2026(trf)
    players.sort(reverse=True)
    if not ValidityMatcher(players, forbidden).is_valid_matching():
        raise PairingError("Round can not be paired")
    bye_score = None
    if len(players) % 2:
        players, bye_score = restrict_bye(players, forbidden)
    criteria: Criteria = (*QUALITY_CRITERIA[:3], c9_criterion(bye_score, players, forbidden), *QUALITY_CRITERIA[3:])
    return players, bye_score, criteria
