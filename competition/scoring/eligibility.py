"""Who competes for a prize (docs/rules.md 6), read from the standings: the mark beside a
name and the numbers behind it. Pure; the recalculation stores it with the standings, and
the prize rules (``competition.prizes.engine``) build on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .presets import PERCENTAGE
from .types import Evening, LadderParams, LadderStanding, PlayerStats, Standing

MIN_GAMES = 14  # ladder: games for a season prize
MAX_EXEMPTED = 4  # ladder: Friday club-team matches that count as games


# ---------------------------------------------------------------------------
# Eligibility


@dataclass(frozen=True)
class Eligibility:
    """Whether a player competes for a prize, with the numbers behind it.

    `evenings`: playing evenings of the half (ladder: of the season);
    `absent_without_notice`: of those, the evenings counted as absent without notice;
    `games`: games played over the board; `exempted`: club-team matches counted as games
    (ladder only); `reason`: one sentence for the standings page.
    """

    player_id: int
    eligible: bool
    evenings: int
    absent_without_notice: int
    games: int
    exempted: int
    reason: str
    overridden: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "eligible": self.eligible,
                "evenings": self.evenings, "absent_without_notice": self.absent_without_notice,
                "games": self.games, "exempted": self.exempted, "reason": self.reason,
                "overridden": self.overridden}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Eligibility:
        return cls(**data)


def evenings_in_standings(stats: PlayerStats) -> int:
    """The evenings a row accounts for: every evening has exactly one outcome."""
    return (
        stats.games
        + stats.forfeit_wins
        + stats.forfeit_losses
        + stats.postponed
        + stats.byes
        + stats.absent_with_notice
        + stats.absent_without_notice
        + stats.club_duty
    )


def absences_without_notice(stats: PlayerStats, evenings: int) -> int:
    """Absent without notice, for eligibility: the recorded absences, forfeit losses (he
    was expected and did not come), and the evenings before he entered the standings
    (a flexible player who had not signed up)."""
    before_entry = max(0, evenings - evenings_in_standings(stats))
    return stats.absent_without_notice + stats.forfeit_losses + before_entry


@dataclass(frozen=True)
class EligibilityRule:
    """The competition's numbers for prize eligibility (docs/rules.md 6): Keizer, the
    percentage of the half's evenings not absent without notice; the ladder, the games
    needed, of which up to ``max_exempted`` club-team matches."""

    percentage: int = PERCENTAGE
    min_games: int = MIN_GAMES
    max_exempted: int = MAX_EXEMPTED


def present_enough(present: int, evenings: int, percentage: int) -> bool:
    """Keizer: not absent without notice on at least ``percentage``% of ``evenings``
    (exactly the percentage is enough)."""
    return present * 100 >= percentage * evenings


def most_absences_allowed(evenings: int, percentage: int) -> int:
    """Keizer: the most evenings of ``evenings`` a player may be absent without notice
    and still compete for a prize, by ``present_enough`` itself."""
    return max(a for a in range(evenings + 1) if present_enough(evenings - a, evenings, percentage))


def counted_games(games: int, club_duty: int, max_exempted: int) -> tuple[int, int]:
    """Ladder: (games played, club-team matches counted as games): at most
    ``max_exempted`` club duties count."""
    return games, min(club_duty, max_exempted)


def enough_games(games: int, exempted: int, min_games: int) -> bool:
    """Ladder: games over the board plus the exempted club-team matches reach ``min_games``."""
    return games + exempted >= min_games


def eligibility_evenings(evenings: Sequence[Evening], half: str, *, ladder: bool) -> int:
    """The evenings eligibility counts: the half's (the ladder: the season's)."""
    if ladder:
        return len(evenings)
    return sum(1 for e in evenings if e.half == half)


def half_eligibility(
    params: object,
    standings: Sequence[Any],
    evenings: Sequence[Evening],
    half: str,
    rule: EligibilityRule,
    overrides: Mapping[int, bool] | None = None,
) -> dict[int, Eligibility]:
    """Who competes for a prize in a half, by the system's rule: the one entry the
    recalculation (which stores it) and the prize pages (which propose the prizes) call."""
    ladder = isinstance(params, LadderParams)
    count = eligibility_evenings(evenings, half, ladder=ladder)
    if ladder:
        return ladder_eligibility(standings, count, min_games=rule.min_games,
                                  max_exempted=rule.max_exempted, overrides=overrides)
    return keizer_eligibility(standings, count, percentage=rule.percentage, overrides=overrides)


def keizer_eligibility(
    standings: Sequence[Standing],
    evenings: int,
    *,
    percentage: int = PERCENTAGE,
    overrides: Mapping[int, bool] | None = None,
) -> dict[int, Eligibility]:
    """Eligible if not absent without notice on at least `percentage`% of the half's
    `evenings` (exactly the percentage is enough); `overrides` win."""
    out: dict[int, Eligibility] = {}
    for row in standings:
        absent = absences_without_notice(row.stats, evenings)
        present = evenings - absent
        eligible = present_enough(present, evenings, percentage)
        verdict = "" if eligible else f"; at least {percentage}% needed"
        reason = f"not absent without notice on {present} of {evenings} evenings{verdict}"
        out[row.player_id] = Eligibility(row.player_id, eligible, evenings, absent, row.stats.games, 0, reason)
    return _overridden(out, overrides)


def ladder_eligibility(
    standings: Sequence[LadderStanding],
    evenings: int,
    *,
    min_games: int = MIN_GAMES,
    max_exempted: int = MAX_EXEMPTED,
    overrides: Mapping[int, bool] | None = None,
) -> dict[int, Eligibility]:
    """Eligible with at least `min_games` games played over the board, where up to
    `max_exempted` club duties (Friday club-team matches) count as games."""
    out: dict[int, Eligibility] = {}
    for row in standings:
        games, exempted = counted_games(row.stats.games, row.stats.club_duty, max_exempted)
        eligible = enough_games(games, exempted, min_games)
        verdict = "" if eligible else f"; at least {min_games} needed"
        reason = f"{games} games + {exempted} exempted club-team matches{verdict}"
        absent = absences_without_notice(row.stats, evenings)
        out[row.player_id] = Eligibility(row.player_id, eligible, evenings, absent, games, exempted, reason)
    return _overridden(out, overrides)


def _overridden(computed: dict[int, Eligibility], overrides: Mapping[int, bool] | None) -> dict[int, Eligibility]:
    for player_id, eligible in (overrides or {}).items():
        if player_id in computed:
            rule = computed[player_id]
            verdict = "eligible" if eligible else "not eligible"
            reason = f"{verdict} by the administrator's decision (by the rule: {rule.reason})"
            computed[player_id] = replace(rule, eligible=eligible, reason=reason, overridden=True)
    return computed
