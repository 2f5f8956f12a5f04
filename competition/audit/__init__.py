"""The audit trail: every write that matters records who, when, before and after.

It only records; what the write changes on the pages is the write's own business
(``core.pagecache.pages_changed``)."""

from __future__ import annotations

from typing import Any

from competition.models import AuditAction, AuditRecord

Action = AuditAction


def record(
    *,
    actor: Any,
    action: AuditAction,
    season: Any = None,
    evening: Any = None,
    player: Any = None,
    before: Any = None,
    after: Any = None,
) -> AuditRecord:
    if evening is not None and season is None:
        season = evening.season_id
    if player is not None and season is None:
        if isinstance(player, int):
            raise TypeError("a player given by id needs its season or evening")
        season = player.season_id
    # The season's club (a service acting on a season); else the club of the work in hand.
    club = getattr(season, "club_id", None)
    return AuditRecord.objects.create(
        **({"club_id": club} if club is not None else {}),
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        season_id=season if isinstance(season, int) or season is None else season.pk,
        evening=evening,
        # a player by id: the caller has the id, not the row (a result's white player)
        **({"player_id": player} if isinstance(player, int) else {"player": player}),
        before=before,
        after=after,
    )
