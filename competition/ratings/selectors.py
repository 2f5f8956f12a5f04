"""Reads for rating lists, the TRF export and the performance rating."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from competition.events.engine.trf import fide_name
from competition.models import (
    Evening,
    EveningKind,
    Game,
    Half,
    Player,
    RatingImport,
    Result,
    Season,
)

from .engine.matching import Matching
from .engine.tpr import RatedGame, performance
from .engine.trf_export import Export, ExportGame, ExportPlayer, ExportRound, export_trf

PLAYED_POINTS = {
    Result.WHITE_WINS: (Fraction(1), Fraction(0)),
    Result.DRAW: (Fraction(1, 2), Fraction(1, 2)),
    Result.BLACK_WINS: (Fraction(0), Fraction(1)),
}


def recent_imports(limit: int = 10) -> QuerySet[RatingImport]:
    return RatingImport.objects.select_related("created_by")[:limit]


def import_list_date(ri: RatingImport) -> dt.date:
    """The month of the list: from its label or name, else the first of the month it was
    uploaded in (the KNSB and FIDE both publish a list on the first of every month)."""
    return ri.list_date or timezone.localdate(ri.created_at).replace(day=1)


def import_preview(ri: RatingImport) -> dict[str, Any]:
    """What the leader checks before saving: the list's kind and month, which rating it
    writes, and the three lists of the matching."""
    if not ri.matching:
        return {}
    matching = Matching.from_json(ri.matching)
    return {
        "matching": matching,
        "list_date": import_list_date(ri),
        "other_kind": ri.list_kind != "standard",
        "unrated": [m for m in matching.not_found if m.unrated],
        "changed": [m for m in matching.matched if m.changed],
        "unchanged": [m for m in matching.matched if not m.changed],
        "not_found": matching.not_found,
        "lookalikes": matching.lookalikes,
    }


# --- TRF export --------------------------------------------------------------------------


@dataclass(frozen=True)
class LeftOutGame:
    date: dt.date
    white: str
    black: str
    reason: str


@dataclass(frozen=True)
class SeasonExport:
    export: Export
    left_out: tuple[LeftOutGame, ...]
    rounds: int
    players: int
    filename: str


def _evenings(season: Season, half: Half | None, start: dt.date | None,
              end: dt.date | None) -> list[Evening]:
    qs = season.evenings.filter(kind=EveningKind.PLAYING)
    if half is not None:
        qs = qs.filter(half=half)
    if start:
        qs = qs.filter(date__gte=start)
    if end:
        qs = qs.filter(date__lte=end)
    qs = qs.filter(Q(games__isnull=False) | Q(bye__isnull=False)).distinct().order_by("date")
    return list(qs.select_related("bye").prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("board"))
    ))


def export_player(pk: int, member: Any) -> ExportPlayer:
    """A member as the TRF export needs him: FIDE and KNSB ratings and numbers kept apart."""
    return ExportPlayer(
        pk, member.name, fide_rating=member.fide_rating, knsb_rating=member.rating,
        fide_id=member.fide_id, knsb_number=member.knsb_number, federation=member.federation,
        sex=member.sex, title=member.title, birth_date=member.birth_date,
    )


# A Dutch postcode before a city ("1234 AB Utrecht").
_POSTCODE = re.compile(r"^\d{4}\s?[A-Za-z]{2}\s+")


def trf_club_defaults(season: Season) -> dict[str, str]:
    """What the TRF's records 022 (city) and 102 (chief arbiter) could say when the leader
    has not filled them in, from data the club has: the city of the club's venue (its
    last part after a comma, without a postcode) and the name of the club's arbiter when
    it has exactly one, as FIDE lists it ("De Haan, Yvonne"). Empty where nothing is known."""
    from members.models import Membership

    venue = (season.club.venue or "").strip()
    city = _POSTCODE.sub("", venue.rsplit(",", 1)[-1].strip()) if "," in venue else ""
    arbiters = list(Membership.objects.filter(club_id=season.club_id, role="arbiter")
                    .values_list("user__name", flat=True)[:2])
    return {"city": city.strip(), "arbiter": fide_name(arbiters[0]) if len(arbiters) == 1 else ""}


def trf_missing(season: Season) -> list[str]:
    """The records a TRF file for rating leaves out because the leader has not filled
    them in: "022" (the venue's city) and "102" (the chief arbiter)."""
    competition = season.competition
    return [record for record, value in (("022", competition.venue_city),
                                         ("102", competition.chief_arbiter)) if not value]


def season_export(
    season: Season, *, half: Half | None = None, start: dt.date | None = None,
    end: dt.date | None = None, rating: str | None = None,
) -> SeasonExport:
    """The TRF of a half or a date range, with the games left out and why; for the rating
    ``rating`` (default: the competition's ``trf_rating``)."""
    competition = season.competition
    rating = rating or competition.trf_rating
    evenings = _evenings(season, half, start, end)
    players = list(Player.objects.filter(season=season).select_related("member").order_by("start"))
    names = {p.pk: p.member.name for p in players}
    rounds = []
    for ev in evenings:
        bye = getattr(ev, "bye", None)
        rounds.append(ExportRound(
            date=ev.date,
            games=tuple(ExportGame(g.white_id, g.black_id, g.result, g.board) for g in ev.games.all()),
            bye=bye.player_id if bye else None,
        ))
    export = export_trf(
        name=f"{season.competition.name} {season.name}" + (f" {half.get_kind_display()}" if half else ""),
        players=[export_player(p.pk, p.member) for p in players],
        rounds=rounds,
        rating=rating,
        start_rating=competition.start_rating,
        city=competition.venue_city,
        arbiter=competition.chief_arbiter,
        kind="Ladder" if season.competition.is_ladder else "Keizer",
        time_control="90 min/40 moves + 30 min, 30 s/move",
    )
    left_out = tuple(
        LeftOutGame(lo.date, names.get(lo.white, "?"), names.get(lo.black, "?"), lo.reason)
        for lo in export.left_out
    )
    part = half.kind if half else f"{start or ''}_{end or ''}"
    return SeasonExport(export, left_out, len(rounds), len(export.numbers),
                        f"{season.slug}-{part}.trf")


# --- Performance rating --------------------------------------------------------------------


def half_performances(player: Player) -> dict[int, int | None]:
    """The player's TPR in each half he played a game in (half id -> TPR). An opponent's
    rating is his rating on the season's rating date (``Player.rating``, 1 September):
    without one he is unrated for the TPR, whatever his member's rating is today."""
    games = (
        Game.objects.filter(Q(white=player) | Q(black=player), result__in=list(PLAYED_POINTS))
        .select_related("evening", "white", "black")
    )
    by_half: dict[int, list[RatedGame]] = defaultdict(list)
    for g in games:
        white = g.white_id == player.pk
        opponent = g.black if white else g.white
        points = PLAYED_POINTS[Result(g.result)][0 if white else 1]
        if g.evening.half_id:
            by_half[g.evening.half_id].append(RatedGame(opponent.rating, points))
    return {half_id: performance(rated) for half_id, rated in by_half.items()}
