"""Reads for the leader's member pages."""

from __future__ import annotations

from typing import Any

from competition.models import Player, Season, still_member
from competition.roster.services import season_has_games
from members.models import JoinKind, JoinRequest


def members_page(season: Season) -> dict[str, Any]:
    """The season's players in starting order (one who left the club marked so: his
    results stay), and whether the order may still change."""
    under_way = season_has_games(season)
    players = list(
        Player.objects.filter(season=season).select_related("member")
        .annotate(member_still=still_member()).order_by("start")
    )
    # Invitations to join the club not answered yet: as the leader typed them, after the
    # players, marked invited as a new person is until he sets his password. One that
    # would take over a player row (a corrected address) shows on that row instead.
    invited = list(JoinRequest.objects.filter(club_id=season.club_id, season=season,
                                              kind=JoinKind.INVITATION)
               .select_related("user").order_by("created", "pk"))
    taking_over = {j.player_id: j.user.email for j in invited if j.player_id is not None}
    for player in players:
        player.invited = not player.member.has_usable_password()  # type: ignore[attr-defined]
        player.shown_email = taking_over.get(player.pk, player.member.email)  # type: ignore[attr-defined]
    invited = [j for j in invited if j.player_id is None]
    return {
        "season": season,
        "players": players,
        "invitations": invited,
        "under_way": under_way,
        "can_reorder": not under_way or season.competition.is_ladder,
        "can_order_by_rating": not under_way,
        # Where the starting order can come from: the club's earlier seasons with games
        # (played here, or last season imported from a file).
        "earlier_seasons": [] if under_way else list(
            Season.objects.filter(club_id=season.club_id, start_date__lt=season.start_date,
                                  evenings__games__isnull=False)
            .distinct().order_by("-start_date")),
    }
