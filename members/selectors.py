"""Reads for the leader's member pages."""

from __future__ import annotations

from typing import Any

from competition.models import Player, Season, still_member

from .services import season_has_games


def members_page(season: Season) -> dict[str, Any]:
    """The season's players in starting order (one who left the club marked so: his
    results stay), and whether the order may still change."""
    under_way = season_has_games(season)
    players = list(
        Player.objects.filter(season=season).select_related("member")
        .annotate(member_still=still_member()).order_by("start")
    )
    for player in players:
        player.invited = not player.member.has_usable_password()  # type: ignore[attr-defined]
    return {
        "season": season,
        "players": players,
        "under_way": under_way,
        "can_reorder": not under_way or season.competition.is_ladder,
        "can_order_by_rating": not under_way,
    }
