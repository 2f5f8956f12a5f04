"""Reads: the queries pages and services share. Each returns a fixed number of queries."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import (
    Attendance,
    AuditAction,
    AuditRecord,
    Bye,
    ClubDutyRequest,
    ClubDutyState,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Half,
    Player,
    PlayerKind,
    Registration,
    Result,
    Season,
    Standing,
    StandingsSnapshot,
    Tempo,
    still_member,
)
from competition.scoring.display import rounding_difference
from competition.scoring.params import parse_parameters
from competition.season.engine.calendar import evening_times
from competition.season.engine.signup import default_status
from core import mail
from core.dates import club_today, club_tz
from core.models import Mail, MailState
from core.pagecache import versioned
from members.clubs.context import club_context, current_club
from members.models import Club, JoinKind, User, club_part
from members.names import public_name as public_name  # the API, feed and embeds name members so
from members.names import public_name_of


def current_season(today: dt.date | None = None) -> Season | None:
    """The season running today; else the next one; else the latest."""
    today = today or club_today()
    season = (
        Season.objects.filter(start_date__lte=today, end_date__gte=today)
        .select_related("competition")
        .order_by("-start_date")
        .first()
    )
    if season is None:
        season = (
            Season.objects.filter(start_date__gt=today).order_by("start_date").first()
            or Season.objects.order_by("-start_date").first()
        )
    return season


def running_half(season: Season, today: dt.date | None = None) -> Half | None:
    """The half whose first evening has come; before the season, its first half."""
    today = today or club_today()
    halves = list(season.halves.order_by("start_date"))
    started = [h for h in halves if h.start_date <= today]
    return started[-1] if started else (halves[0] if halves else None)


def season_evenings(season: Season) -> QuerySet[Evening]:
    return season.evenings.select_related("half").order_by("date")


def next_playing_evening(season: Season, now: dt.datetime | None = None) -> Evening | None:
    today = (now or timezone.now()).astimezone(timezone.get_current_timezone()).date()
    return (
        season.evenings.filter(kind=EveningKind.PLAYING, date__gte=today)
        .order_by("date")
        .first()
    )


def upcoming_evenings(season: Season, today: dt.date | None = None) -> QuerySet[Evening]:
    today = today or club_today()
    return season.evenings.filter(kind=EveningKind.PLAYING, date__gte=today).order_by("date")


def latest_snapshot(half: Half) -> StandingsSnapshot | None:
    return (
        StandingsSnapshot.objects.filter(half=half)
        .select_related("evening")
        .order_by("-evening__date")
        .first()
    )


def player_for(user, season: Season) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(season=season, member=user).select_related("member").first()


# --- Standings --------------------------------------------------------------------------


def standings_table_rows(
    half: Half, limit: int | None = None, snapshot: StandingsSnapshot | None = None
) -> tuple[StandingsSnapshot | None, list[Standing]]:
    """The latest standings of a half (or those of ``snapshot``: after an earlier
    evening; the first ``limit`` rows), each row with its place change since the evening
    before (``change``: +2 up, -1 down, None for a newcomer or the first evening): four
    queries, whatever the number of players."""
    snapshot = snapshot or latest_snapshot(half)
    if snapshot is None:
        return None, []
    rows = list(snapshot.rows.select_related("player__member").defer("explanation").order_by("rank"))
    rows = rows[:limit] if limit else rows
    before = ranks_before(half, snapshot.evening.date)
    for row in rows:
        previous = before.get(row.player_id)
        row.change = None if previous is None else previous[0] - row.rank  # type: ignore[attr-defined]
    return snapshot, rows


def ranks_before(half: Half, day: dt.date) -> dict[int, tuple[int, Decimal]]:
    """Each player's place and points in the half's standings after the last evening
    before ``day`` (the standings an evening on ``day`` starts from): two queries."""
    previous = (StandingsSnapshot.objects.filter(half=half, evening__date__lt=day)
                .order_by("-evening__date").values_list("pk", flat=True).first())
    if previous is None:
        return {}
    return {player: (rank, score) for player, rank, score in
            Standing.objects.filter(snapshot_id=previous).values_list("player_id", "rank", "score")}


def standings_snapshots(half: Half) -> list[StandingsSnapshot]:
    """The standings of a half after each of its evenings, in evening order (one query)."""
    return list(
        StandingsSnapshot.objects.filter(half=half).select_related("evening").order_by("evening__date")
    )


def standings_after(
    half: Half, day: dt.date | None = None
) -> tuple[StandingsSnapshot | None, list[Standing]]:
    """The standings of a half after the evening of ``day`` (the latest without one), all
    rows: what the standings page shows with ``?all=1``, in a fixed number of queries."""
    if day is None:
        return standings_table_rows(half)
    snapshot = (
        StandingsSnapshot.objects.filter(half=half, evening__date=day)
        .select_related("evening").first()
    )
    if snapshot is None:
        return None, []
    rows = snapshot.rows.select_related("player__member").defer("explanation").order_by("rank")
    return snapshot, list(rows)


def standings_count(snapshot: StandingsSnapshot | None) -> int:
    return snapshot.rows.count() if snapshot else 0


def standings_rows(half: Half, limit: int | None = None) -> list[Standing]:
    _, rows = standings_table_rows(half, limit)
    return rows


# --- Evenings ---------------------------------------------------------------------------


def evening_by_date(day: dt.date, season_slug: str | None = None) -> Evening | None:
    qs = Evening.objects.filter(date=day).select_related("season__competition", "half")
    if season_slug:
        qs = qs.filter(season__slug=season_slug)
    return qs.order_by("-season__start_date").first()


def evening_page(evening: Evening) -> dict[str, Any]:
    """Everything the evening page shows, in a fixed number of queries."""
    games = list(
        evening.games.select_related("white__member", "black__member").order_by("board")
    )
    # Each player's place and points going into the evening, beside his name.
    places = ranks_before(evening.half, evening.date) if evening.half is not None else {}
    for g in games:  # who may ask for the alternative tempo
        g.member_ids = (g.white.member_id, g.black.member_id)  # type: ignore[attr-defined]
        g.white_standing = places.get(g.white_id)  # type: ignore[attr-defined]
        g.black_standing = places.get(g.black_id)  # type: ignore[attr-defined]
    bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
    registrations = list(
        evening.registrations.select_related("player__member").order_by("player__start")
    )
    seated = {g.white_id for g in games} | {g.black_id for g in games}
    if bye:
        seated.add(bye.player_id)
    by_status: dict[str, list[Player]] = defaultdict(list)
    registered = set()
    for r in registrations:
        registered.add(r.player_id)
        if r.player_id not in seated:
            by_status[r.status].append(r.player)
    published = evening.status == EveningStatus.PUBLISHED
    if published:
        # A fixed player who neither played nor signed off was absent without notice.
        left_since = Q() if evening.date < club_today() else Q(still_member())  # gone: not absent
        for p in Player.objects.filter(left_since, season_id=evening.season_id, kind=PlayerKind.FIXED).exclude(
            pk__in=seated | registered
        ).select_related("member"):
            by_status[Attendance.ABSENT_WITHOUT_NOTICE].append(p)
    coming: list[Player] = []
    if not published and evening.kind == EveningKind.PLAYING:
        # Who is coming so far (docs/rules.md 3): fixed players not signed off, flexible
        # players signed up.
        statuses = {r.player_id: r.status for r in registrations}
        coming = [
            p for p in Player.objects.filter(season_id=evening.season_id).filter(still_member())
            .select_related("member").order_by("member__name")
            if statuses.get(p.pk, default_status(p.is_fixed)) == Attendance.PRESENT
        ]
    return {
        "evening": evening,
        "season": evening.season,
        "games": games,
        "bye": bye,
        "published": published,
        "coming": coming,
        "absent_with_notice": by_status[Attendance.ABSENT_WITH_NOTICE],
        "absent_without_notice": by_status[Attendance.ABSENT_WITHOUT_NOTICE],
        "club_duty": by_status[Attendance.CLUB_DUTY],
        "present_unpaired": by_status[Attendance.PRESENT] if published else [],
        # A rapid evening links to the rounds its events play that evening.
        "rapid_rounds": list(
            evening.swiss_rounds.select_related("event").order_by("event__name", "number")
        ) if evening.kind == EveningKind.RAPID else [],
    }


def statuses_for(player: Player, evenings: list[Evening]) -> list[tuple[Evening, str, bool]]:
    """(evening, status, explicit) for each evening: the registration or the default."""
    regs = {
        r.evening_id: r
        for r in Registration.objects.filter(player=player, evening__in=evenings)
    }
    result = []
    for e in evenings:
        reg = regs.get(e.pk)
        status = reg.status if reg else default_status(player.is_fixed)
        result.append((e, status, reg is not None))
    return result


def club_duty_requests_of(player: Player, evenings: list[Evening]) -> dict[int, ClubDutyRequest]:
    """The player's club duty requests for these evenings, by evening id (one query)."""
    return {
        r.evening_id: r
        for r in ClubDutyRequest.objects.filter(player=player, evening__in=evenings)
    }


def club_duty_requests_pending(
    *, season: Season | None = None, evening: Evening | None = None
) -> QuerySet[ClubDutyRequest]:
    """Requests awaiting the leader's decision, in evening order (for his pages)."""
    pending = ClubDutyRequest.objects.filter(state=ClubDutyState.REQUESTED)
    if season is not None:
        pending = pending.filter(evening__season=season)
    if evening is not None:
        pending = pending.filter(evening=evening)
    return pending.select_related("evening", "player__member").order_by(
        "evening__date", "requested_at", "pk"
    )


def member_overview(player: Player) -> dict[str, Any]:
    """The signed-in member's own status and next game (home page)."""
    season = player.season
    upcoming = list(upcoming_evenings(season)[:4])
    signed_off = Registration.objects.filter(
        player=player, evening=OuterRef("evening"),
    ).exclude(status=Attendance.PRESENT)
    next_game = (
        Game.objects.filter(
            Q(white=player) | Q(black=player),
            evening__status=EveningStatus.PUBLISHED,
            evening__date__gte=club_today(),
        )
        .exclude(Exists(signed_off))  # he signed off after the pairing: no game to announce
        .select_related("evening", "white__member", "black__member")
        .order_by("evening__date")
        .first()
    )
    return {"my_statuses": statuses_for(player, upcoming), "next_game": next_game}


# --- Players ----------------------------------------------------------------------------


def player_page(player: Player) -> dict[str, Any]:
    """A player's games, the explanation of his totals and his place after each evening."""
    season = player.season
    games = list(
        Game.objects.filter(Q(white=player) | Q(black=player))
        .select_related("evening", "white__member", "black__member")
        .order_by("evening__date")
    )
    history = list(
        Standing.objects.filter(player=player, snapshot__half__season=season)
        .select_related("snapshot__evening", "snapshot__half")
        .order_by("snapshot__evening__date")
    )
    names = {  # as this club shows each (his choice here: members.models.club_part)
        pk: public_name_of(name, club_part(member).public_as) for pk, name, member in
        Player.objects.filter(season=season).values_list("pk", "member__name", "member_id")
    }
    # The chart spans the field: the most players any standings of the season had.
    field = (
        Standing.objects.filter(snapshot__half__season=season)
        .values("snapshot_id").annotate(n=Count("id")).order_by("-n")
        .values_list("n", flat=True).first()
    )
    halves: dict[int, dict[str, Any]] = {}
    places = []
    for row in history:
        half = row.snapshot.half
        places.append((row.snapshot.evening.date, row.rank, half.kind))
        halves[half.pk] = {"half": half, "row": row}  # the last one wins: the latest
    explained = []
    for entry in halves.values():
        row = entry["row"]
        lines = [_explanation_line(line, names) for line in row.lines()]
        total = row.score if row.score is not None else Decimal(0)
        rounding = rounding_difference([line["points"] for line in lines if "points" in line], total)
        explained.append({**entry, "lines": lines, "rounding": rounding})
    return {
        "player": player,
        "season": season,
        "games": games,
        "explained": explained,
        "places": places,
        "field": field or 0,
        "ladder": season.competition.is_ladder,
    }


# --- Audit ------------------------------------------------------------------------------


def audit_records(*, evening_id: int | None = None, player_id: int | None = None,
                  action: str | None = None, day: dt.date | None = None) -> QuerySet[AuditRecord]:
    """The audit trail, newest first, filtered by evening, player, kind of action and
    day (in the club's time zone); the caller pages it."""
    qs = AuditRecord.objects.select_related("actor", "evening", "player__member").order_by("-at", "-id")
    if evening_id is not None:
        qs = qs.filter(evening_id=evening_id)
    if player_id is not None:
        qs = qs.filter(player_id=player_id)
    if action:
        qs = qs.filter(action=action)
    if day is not None:
        start = timezone.make_aware(dt.datetime.combine(day, dt.time()))
        qs = qs.filter(at__gte=start, at__lt=start + dt.timedelta(days=1))
    return qs


def audit_filter_choices(season: Season | None) -> dict[str, Any]:
    """The evenings and players the audit page filters by (the current season's)."""
    if season is None:
        return {"evenings": [], "players": []}
    return {
        "evenings": list(season.evenings.filter(kind=EveningKind.PLAYING).order_by("date")),
        "players": list(season.players.select_related("member").order_by("member__name")),
    }


def _explanation_line(line: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A stored explanation line with numbers and dates as such, for formatting."""
    result = dict(line)
    for key in ("points", "value", "delta", "bonus"):
        if result.get(key) is not None:
            result[key] = Decimal(result[key])
    if result.get("date"):
        result["date"] = dt.date.fromisoformat(result["date"])
    opponent = line.get("opponent")
    result["opponent_name"] = names.get(opponent) if opponent is not None else None
    return result


# --- The leader's to-do -----------------------------------------------------------------

NEAR_LIMIT = 1  # "near" the absence limit: this many absences with notice to go


def absence_limit(season: Season) -> int | None:
    """The season's limit of absences with notice that score (None: no limit)."""
    params = parse_parameters(season.competition.system, season.competition.parameters)
    return getattr(params, "absent_with_notice_limit", None)  # the ladder has no such limit


def leader_todo(season: Season, now: dt.datetime) -> dict[str, Any]:
    """What needs the leader now, each item with what he needs to act on it; a fixed
    number of queries, however many players and evenings the season has (docs/rules.md 3-5).

    - boards of evenings already begun without a result, per evening;
    - postponed games still to play, oldest first, with their age in days;
    - paired players who signed off after the pairing was published (evening to come);
    - alternative tempo requests waiting for a decision (evening to come);
    - club duty requests waiting for a decision;
    - players at or near the season's limit of absences with notice;
    - the next deadline and how many are signed up for it;
    - pairing e-mails that could not be sent (given up after their attempts);
    - other e-mails to members that could not be sent (``failed_member_mail``: an
      invitation to a member who has no password yet, a club duty decision), to send again;
    - registrations waiting to be accepted or refused (when the club allows them).
    """
    today = now.astimezone(timezone.get_current_timezone()).date()
    games = Game.objects.filter(evening__season=season, evening__kind=EveningKind.PLAYING)
    unplayed = list(
        games.filter(result=Result.PENDING, evening__starts_at__lte=now)
        .values("evening_id", "evening__date")
        .annotate(boards=Count("pk"))
        .order_by("evening__date")
    )
    postponed = list(
        games.filter(result=Result.POSTPONED)
        .select_related("evening", "white__member", "black__member")
        .order_by("evening__date", "board")
    )
    for game in postponed:
        game.age_days = (today - game.evening.date).days  # type: ignore[attr-defined]
    coming = Q(evening__season=season, evening__status=EveningStatus.PUBLISHED,
               evening__starts_at__gt=now)
    signed_off = list(
        Registration.objects.filter(coming)
        .exclude(status=Attendance.PRESENT)
        .filter(Q(player__games_white__evening=F("evening")) | Q(player__games_black__evening=F("evening"))
                | Q(player__byes__evening=F("evening")))
        .select_related("player__member", "evening")
        .distinct()
        .order_by("evening__date", "player__start")
    )
    tempo = list(
        Game.objects.filter(coming, tempo=Tempo.REQUESTED)
        .select_related("evening", "white__member", "black__member")
        .order_by("evening__date", "board")
    )
    club_duty = list(club_duty_requests_pending(season=season))
    limit = absence_limit(season)
    absences: list[dict[str, Any]] = []
    if limit is not None:
        counted = (
            Registration.objects.filter(
                evening__season=season, evening__kind=EveningKind.PLAYING,
                status=Attendance.ABSENT_WITH_NOTICE,
            )
            .values("player_id", "player__member__name")
            .annotate(count=Count("pk"))
            .filter(count__gte=max(limit - NEAR_LIMIT, 1))
            .order_by("-count", "player__member__name")
        )
        absences = [
            {"player_id": row["player_id"], "name": row["player__member__name"],
             "count": row["count"], "limit": limit, "reached": row["count"] >= limit}
            for row in counted
        ]
    next_evening = (
        season.evenings.filter(kind=EveningKind.PLAYING, deadline__gt=now)
        .exclude(status=EveningStatus.PUBLISHED)
        .order_by("date")
        .first()
    )
    signed_up = present_count(next_evening) if next_evening else 0
    # Pairing e-mails given up (pairing.notices: a header the mail library refuses), read
    # through the evenings' reverse relation; "failed" is pairing.models.NoticeState.FAILED.
    failed_mail = list(
        season.evenings.filter(notices__state="failed")
        .values("pk", "date", name=F("notices__player__member__name"),
                recipient=F("notices__recipient"), error=F("notices__last_error"))
        .order_by("date", "notices__id")
    )
    # The accounts asking to join this club, and only this club (members.accounts.registration).
    registrations = list(User.objects.filter(join_requests__club_id=season.club_id,
                                             join_requests__kind=JoinKind.REGISTRATION,
                                             is_active=True)
                         .order_by("join_requests__created", "pk"))
    failed_member_mail = failed_member_mails()
    left = members_left(now)
    return {
        "left": left,
        "registrations": registrations,
        "unplayed": unplayed,
        "postponed": postponed,
        "signed_off": signed_off,
        "tempo_requests": tempo,
        "club_duty": club_duty,
        "absences": absences,
        "next_evening": next_evening,
        "signed_up": signed_up,
        "failed_mail": failed_mail,
        "failed_member_mail": failed_member_mail,
        "today": today,
        "empty": not (unplayed or postponed or signed_off or tempo or club_duty or absences
                      or failed_mail or failed_member_mail or registrations or left),
    }


LEFT_SHOWN = dt.timedelta(days=14)


def members_left(now: dt.datetime) -> list[dict[str, Any]]:
    """Who left the club (or was removed from it) in the last two weeks, newest first, and
    what it changed: the seasons he was a fixed player of, the boards of published
    pairings still to play he sat on (``members.accounts.profile.membership_end``). One query."""
    today = now.astimezone(timezone.get_current_timezone()).date()
    rows = (AuditRecord.objects.filter(action=AuditAction.MEMBER_LEAVE, at__gte=now - LEFT_SHOWN)
            .select_related("actor").order_by("-at", "-pk"))
    left = []
    for row in rows:
        after = row.after if isinstance(row.after, dict) else {}
        boards = [{"date": dt.date.fromisoformat(day), "board": board}
                  for day, board in after.get("boards", []) if dt.date.fromisoformat(day) >= today]
        left.append({"name": after.get("name", ""), "at": row.at, "own": after.get("own", False),
                     "by": row.actor.name if row.actor else "", "fixed_in": after.get("fixed_in", []),
                     "boards": boards})
    return left


def failed_member_mails() -> list[dict[str, Any]]:
    """The given-up ``core.Mail`` rows the leader must know of, oldest first, in one
    query: invitations of members who still have no password (one who set his since needs
    none) and club duty decisions. Each with the member's name, what kind of mail, since
    when, why in plain words and what the leader can do (``competition.roster.services.mail_retry``).
    E-mail address changes concern the member alone: never shown (``core.mail`` logs them)."""
    kinds = {mail.INVITATION: _("invitation to set his password"),
             mail.CLUB_DUTY: _("club duty decision")}
    rows = (
        Mail.objects.filter(state=MailState.FAILED, member__isnull=False, club=current_club())
        .filter(Q(key__startswith=f"{mail.CLUB_DUTY}:")
                | Q(key__startswith=f"{mail.INVITATION}:",
                    member__password__startswith=UNUSABLE_PASSWORD_PREFIX))
        .select_related("member")
        .order_by("created_at", "pk")
    )
    return [
        {"pk": row.pk, "name": row.member.name, "kind": row.kind, "what": kinds[row.kind],
         "since": row.created_at, "to": ", ".join(row.to or row.cc),
         "error": mail.error_in_words(row.last_error),
         "invitation": row.kind == mail.INVITATION}
        for row in rows if row.member is not None and row.kind in kinds
    ]


def present_count(evening: Evening) -> int:
    """How many are present by their status for ``evening``: fixed players not signed
    off and flexible players signed up (docs/rules.md 3), in two queries."""
    statuses = dict(evening.registrations.values_list("player_id", "status"))
    kinds = (Player.objects.filter(season_id=evening.season_id).filter(still_member())
             .values_list("pk", "kind"))
    return sum(
        1 for pk, kind in kinds
        if statuses.get(pk, default_status(kind == PlayerKind.FIXED)) == Attendance.PRESENT
    )


# --- Changing a result ------------------------------------------------------------------

UNDO_WINDOW = dt.timedelta(minutes=5)


def result_change_undoable(record: AuditRecord | None, game: Game, actor: Any,
                           now: dt.datetime) -> bool:
    """Whether ``actor`` may still undo the change ``record`` made to ``game`` in one tap:
    his own change of an existing result, at most UNDO_WINDOW ago, with nothing changed
    since (the evening page shows the button when this says yes; result_undo asks it too)."""
    if record is None or record.actor_id != getattr(actor, "pk", None):
        return False
    before, after = record.before or {}, record.after or {}
    return (
        bool(before.get("result")) and not after.get("undo")
        and after.get("game") == game.pk and after.get("version") == game.version
        and now - record.at <= UNDO_WINDOW
    )


def last_result_change(game: Game) -> AuditRecord | None:
    return (
        AuditRecord.objects.filter(action=AuditAction.GAME_RESULT, evening_id=game.evening_id,
                                   after__game=game.pk)
        .order_by("-at", "-pk").first()
    )


def result_changes(evening: Evening, games: list[Game], actor: Any,
                   now: dt.datetime) -> dict[int, dict[str, Any]]:
    """For the boards of an evening whose result was changed: the result before the last
    change and whether ``actor`` may still undo it (one query)."""
    latest: dict[int, AuditRecord] = {}
    for record in AuditRecord.objects.filter(action=AuditAction.GAME_RESULT, evening=evening).order_by("-at", "-pk"):
        game_id = (record.after or {}).get("game")
        if game_id is not None and game_id not in latest:
            latest[game_id] = record
    found: dict[int, dict[str, Any]] = {}
    for game in games:
        last = latest.get(game.pk)
        was = (last.before or {}).get("result") if last else None
        if last and was:
            found[game.pk] = {
                "was": str(dict(Result.choices).get(was, was)),
                "undo": result_change_undoable(last, game, actor, now),
            }
    return found


def _of_current_club(seasons: QuerySet[Season]) -> QuerySet[Season]:
    """A season slug is unique within its club only (two clubs may each have "2026-2027")."""
    club = current_club()
    return seasons.filter(club=club) if club is not None else seasons


def season_or_404(slug: str | None = None) -> Season:
    """The season named in the URL, or the current one; 404 when there is none."""
    season = (
        get_object_or_404(_of_current_club(Season.objects.select_related("competition")), slug=slug)
        if slug
        else current_season()
    )
    if season is None:
        raise Http404(_("No season has been set up yet."))
    return season


def shown_half_id(season: str | None, half: str | None) -> int | None:
    """The half a standings, cross-table or matrix address shows (by the season's slug
    and the half's kind; without them the current ones), for the page cache's version of
    that half. Remembered per version of the club's writes: no result moves it. None
    where the address shows no half (the page is a 404)."""

    def find() -> int | None:
        try:
            season_obj = season_or_404(season)
        except Http404:
            return None
        if half:
            return season_obj.halves.filter(kind=half).values_list("pk", flat=True).first()
        running = running_half(season_obj)
        return running.pk if running else None

    return versioned(("shown-half", season, half, club_today()), find,  # type: ignore[no-any-return]
                     standings=False)


def evening_half_id(day: str, season: str | None) -> int | None:
    """The half of the evening an evening address shows (``evening_by_date``), as
    ``shown_half_id``."""

    def find() -> int | None:
        try:
            evening = evening_by_date(dt.date.fromisoformat(day), season)
        except ValueError:
            return None
        return evening.half_id if evening is not None else None

    return versioned(("evening-half", day, season), find, standings=False)  # type: ignore[no-any-return]


# --- The sign-up deadline setting -------------------------------------------------------


@dataclass(frozen=True)
class DeadlineMove:
    """What a new deadline setting does to one open evening: its deadline now and the one
    the setting gives it (``passed``: that one is already past, so it keeps its own;
    ``after_start``: that one would come after the evening starts)."""

    evening: Evening
    before: dt.datetime
    after: dt.datetime | None
    passed: bool

    @property
    def after_start(self) -> bool:
        return self.after is None

    @property
    def moves(self) -> bool:
        return self.after is not None and not self.passed and self.after != self.before


def open_evenings(competition: Any, now: dt.datetime) -> QuerySet[Evening]:
    """The evenings a new deadline setting may move: playing evenings whose sign-up is
    open, whose deadline is still to come and that have no games (a paired or published
    evening keeps what its players had)."""
    return (
        Evening.objects.filter(season_id=competition.season_id, kind=EveningKind.PLAYING,
                               status=EveningStatus.OPEN, deadline__gt=now)
        .exclude(Exists(Game.objects.filter(evening=OuterRef("pk"))))
        .order_by("date")
    )


def deadline_moves(competition: Any, *, days_before: int, time: dt.time,
                   now: dt.datetime, evenings: Iterable[Evening] | None = None) -> list[DeadlineMove]:
    """For each open evening: its deadline now and under the setting ``days_before`` at
    ``time``, as wall-clock times in the club's zone (the same on both sides of a change
    to or from summer time)."""
    found = []
    for evening in (open_evenings(competition, now) if evenings is None else evenings):
        start = timezone.localtime(evening.starts_at).time()
        try:
            _start, after = evening_times(evening.date, start=start, deadline_days_before=days_before,
                                          deadline_time=time, tz=club_tz())
        except ValueError:
            found.append(DeadlineMove(evening, evening.deadline, None, False))
            continue
        found.append(DeadlineMove(evening, evening.deadline, after, after <= now))
    return found


def expected_elsewhere(member: User, dates: Iterable[dt.date]) -> dict[dt.date, list[str]]:
    """The other clubs of ``member`` that expect him on one of ``dates`` (he is signed up
    there, or a fixed player who has not signed off), by date: their names only, for the
    warning before he signs up here. Each club is read in its own context (its scoping
    and row security), two queries a club he also belongs to."""
    dates = set(dates)
    here = current_club()
    found: dict[dt.date, list[str]] = defaultdict(list)
    if not dates or here is None:
        return {}
    others = list(Club.objects.filter(memberships__user=member).exclude(pk=here.pk).order_by("name"))
    for club in others:
        with club_context(club):
            players = {p.pk: p for p in Player.objects.filter(member=member, season__end_date__gte=min(dates))}
            if not players:
                continue
            seasons = {p.season_id for p in players.values()}
            evenings = Evening.objects.filter(season_id__in=seasons, date__in=dates,
                                              kind=EveningKind.PLAYING).values_list("pk", "date", "season_id")
            statuses = {(r.player_id, r.evening_id): r.status for r in
                        Registration.objects.filter(player__in=list(players), evening__date__in=dates)}
            for evening, date, season_id in evenings:
                expected = any(
                    statuses.get((p.pk, evening), default_status(p.is_fixed)) == Attendance.PRESENT
                    for p in players.values() if p.season_id == season_id)
                if expected and club.shown_name not in found[date]:
                    found[date].append(club.shown_name)
    return dict(found)
