"""Who competes for a prize (docs/rules.md 6), read from the standings: the mark beside a
name and the numbers behind it. Pure; the recalculation stores it with the standings, and
the prize rules (``competition.prizes.engine``) build on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from .presets import PERCENTAGE
from .types import LadderStanding, PlayerStats, Standing

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
        return asdict(self)

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
        eligible = present * 100 >= percentage * evenings
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
        games = row.stats.games
        exempted = min(row.stats.club_duty, max_exempted)
        eligible = games + exempted >= min_games
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
