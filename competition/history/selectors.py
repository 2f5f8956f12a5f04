"""Reads for the club's history: a member's seasons, his record against each opponent
over all of them, and the archive of earlier seasons (docs/standings.md, "The club's
history"). Every function runs a fixed number of queries, however many seasons, players
and games the club has had.

A season's *final standings* of a half are its latest snapshot; while the half is still
being played that is the standings so far (``final`` says which).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from competition.events.selectors import points_text
from competition.models import (
    Evening,
    EveningKind,
    Game,
    Half,
    HalfKind,
    Player,
    Prize,
    PrizeKind,
    Season,
    Standing,
    StandingsSnapshot,
)
from competition.prizes.selectors import HALF_ORDER, KIND_ORDER, PrizeSection, prize_sections
from competition.scoring.headtohead import Board, Record, head_to_head
from competition.season.selectors import current_season
from members.models import club_part
from members.names import public_name_of

PODIUM = 3  # the archive's index shows the first three of each half


def final_snapshots() -> QuerySet[StandingsSnapshot]:
    """The latest snapshot of every half: its final standings (so far)."""
    latest = (
        StandingsSnapshot.objects.filter(half=OuterRef("half"))
        .order_by("-evening__date").values("pk")[:1]
    )
    return StandingsSnapshot.objects.filter(pk=Subquery(latest))


def _final_rows(**filters) -> QuerySet[Standing]:
    """Rows of the final standings, each with the size of its field and whether its
    half is over (the snapshot is after the half's last playing evening)."""
    field = (
        Standing.objects.filter(snapshot=OuterRef("snapshot"))
        .values("snapshot").annotate(n=Count("pk")).values("n")
    )
    last_evening = (
        Evening.objects.filter(half=OuterRef("snapshot__half"), kind=EveningKind.PLAYING)
        .order_by("-date").values("date")[:1]
    )
    return (
        Standing.objects.filter(snapshot__in=final_snapshots(), **filters)
        .defer("explanation")
        .annotate(field=Subquery(field), last_evening=Subquery(last_evening))
    )


def _is_final(row: Standing) -> bool:
    last = row.last_evening  # type: ignore[attr-defined]
    return last is None or row.snapshot.evening.date >= last


def _half_key(half: Half) -> tuple[int, dt.date]:
    return HALF_ORDER.get(HalfKind(half.kind), 0), half.start_date


# --- A member's seasons -----------------------------------------------------------------


@dataclass(frozen=True)
class SeasonLine:
    """One half a member played: his final place, points and games."""

    season: Season
    half: Half
    player_id: int
    rank: int
    field: int
    points: Decimal  # the Keizer total; the ladder's ladder points
    games: int
    final: bool  # False while the half is still being played
    ladder: bool


def member_seasons(player: Player) -> list[SeasonLine]:
    """Every half of every season the player's member took part in, newest season
    first, each half's final standings row (one query)."""
    rows = _final_rows(player__member_id=player.member_id).select_related(
        "snapshot__evening", "snapshot__half__season__competition"
    )
    lines = []
    for row in rows:
        half = row.snapshot.half
        ladder = half.season.competition.is_ladder
        lines.append(SeasonLine(
            season=half.season, half=half, player_id=row.player_id, rank=row.rank,
            field=row.field,  # type: ignore[attr-defined]
            points=(row.points if ladder and row.points is not None else row.score),
            games=row.games, final=_is_final(row), ladder=ladder,
        ))
    return sorted(lines, key=lambda line: (-line.season.start_date.toordinal(),
                                           _half_key(line.half)))


# --- Head-to-head -----------------------------------------------------------------------


@dataclass(frozen=True)
class OpponentLine:
    record: Record
    name: str
    player_id: int | None  # the opponent's page in the current season, if he plays

    @property
    def score_text(self) -> str:
        return points_text(self.record.score)


def member_head_to_head(player: Player) -> list[OpponentLine]:
    """The player's member against each opponent member over all seasons: two queries
    for the games and names, two for the opponents' current pages."""
    member = player.member_id
    rows = list(
        Game.objects.filter(Q(white__member_id=member) | Q(black__member_id=member))
        .values_list("evening__date", "white_id", "black_id", "white__member_id",
                     "black__member_id", "white__member__name", "black__member__name",
                     "result")
    )
    members: dict[int, int] = {}
    names: dict[int, str] = {}
    boards = []
    for (date, white, black, white_member, black_member, white_name, black_name, result) in rows:
        members[white], members[black] = white_member, black_member
        # how this club's pages show each (his choice here: members.models.club_part)
        names[white_member] = public_name_of(white_name, club_part(white_member).public_as)
        names[black_member] = public_name_of(black_name, club_part(black_member).public_as)
        boards.append(Board(date, white, black, result))
    records = head_to_head(member, boards, members)
    current = current_season()
    pages = dict(
        Player.objects.filter(season=current, member_id__in=[r.opponent for r in records])
        .values_list("member_id", "pk")
    ) if current and records else {}
    return [OpponentLine(r, names[r.opponent], pages.get(r.opponent)) for r in records]


# --- The archive ------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchivedHalf:
    half: Half
    rows: list[Standing]
    final: bool


@dataclass(frozen=True)
class ArchivedSeason:
    season: Season
    halves: list[ArchivedHalf]
    prizes: list[PrizeSection]

    @property
    def ladder(self) -> bool:
        return self.season.competition.is_ladder


def earlier_seasons() -> list[Season]:
    """The seasons before the current one, newest first (two queries)."""
    current = current_season()
    if current is None:
        return []
    return list(
        Season.objects.filter(start_date__lt=current.start_date)
        .select_related("competition").order_by("-start_date")
    )


def _archived(seasons: list[Season], *, podium: bool) -> list[ArchivedSeason]:
    """The seasons' final standings (the first three with ``podium``) and prize winners,
    each prize winner with his player page of that season: four queries."""
    ids = [s.pk for s in seasons]
    halves: dict[int, list[Half]] = defaultdict(list)
    for half in Half.objects.filter(season_id__in=ids):
        halves[half.season_id].append(half)
    rows: dict[int, list[Standing]] = defaultdict(list)
    final: dict[int, bool] = {}
    found = _final_rows(snapshot__half__season_id__in=ids).select_related(
        "snapshot__evening", "player__member"
    )
    if podium:
        found = found.filter(rank__lte=PODIUM)
    for row in found.order_by("rank"):
        rows[row.snapshot.half_id].append(row)
        final[row.snapshot.half_id] = _is_final(row)
    prizes: dict[int, list[Prize]] = defaultdict(list)
    all_prizes = list(Prize.objects.filter(season_id__in=ids).select_related("member", "half"))
    players = {
        (season, member): pk for season, member, pk in Player.objects.filter(
            season_id__in=ids, member_id__in={p.member_id for p in all_prizes}
        ).values_list("season_id", "member_id", "pk")
    }
    for prize in sorted(all_prizes, key=lambda p: (
        p.half is None, _half_key(p.half) if p.half else (0, dt.date.max),
        KIND_ORDER.get(PrizeKind(p.kind), 99), p.group,
    )):
        prize.player_id = players.get((prize.season_id, prize.member_id))  # type: ignore[attr-defined]
        prizes[prize.season_id].append(prize)
    return [
        ArchivedSeason(
            season=s,
            halves=[ArchivedHalf(h, rows[h.pk], final.get(h.pk, False))
                    for h in sorted(halves[s.pk], key=_half_key)],
            prizes=prize_sections(s, prizes[s.pk]),
        )
        for s in seasons
    ]


def archive_index() -> list[ArchivedSeason]:
    """The archive: every earlier season, the first three of each half and the prize
    winners. Six queries, whatever the number of seasons."""
    return _archived(earlier_seasons(), podium=True)


def archive_season(season: Season) -> ArchivedSeason:
    """One season's final standings of each half, in full, and its prize winners."""
    return _archived([season], podium=False)[0]
