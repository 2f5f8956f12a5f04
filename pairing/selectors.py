"""Reads of the Keizer evening: who is present, the standings order and history the
engine pairs from, the evening's deadline state, and the leader's evening page."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any, Literal, cast

from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.audit import Action
from competition.models import (
    Attendance,
    AuditRecord,
    Bye,
    ClubDutyState,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Player,
    Registration,
    Result,
    Tempo,
    still_member,
)
from competition.season.engine.signup import (
    default_status,
    is_late,
    sign_up_open_after_publication,
)
from competition.season.selectors import club_duty_requests_pending
from competition.season.standings import compute, load_season_data
from core.permissions import Perm
from members.clubs.context import current_club
from members.clubs.roles import LEADER
from members.models import Actor, Club, User

from .engine import types as pt
from .engine.corrections import Seat, broken_by, seat_changes
from .engine.keizer import pair_evening, place_newcomers
from .models import NoticeKind, NoticeState, PairingNotice

FORFEITS = {Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT}
# What changes a player's status for an evening, for the "last change" line.
SIGN_UP_ACTIONS = (Action.REGISTRATION_SET, Action.CLUB_DUTY_REQUEST, Action.CLUB_DUTY_DECIDE)


def half_kind(evening: Evening) -> Literal["winter", "summer"]:
    """The half of a playing evening (every playing evening has one)."""
    assert evening.half is not None
    return cast(Literal["winter", "summer"], evening.half.kind)


def requesting_player(actor: Actor | None, game: Game) -> Player | None:
    """The player of the game the actor is, if he is one of the two."""
    if actor is None or not actor.is_authenticated:
        return None
    for player in (game.white, game.black):
        if player.member_id == actor.pk:
            return player
    return None


# --- What the engine needs --------------------------------------------------------------


def present_players(evening: Evening) -> list[Player]:
    """Fixed players not signed off and flexible players signed up (docs/rules.md 5),
    members of the club still: one who left is never paired, whatever he signed."""
    regs = dict(evening.registrations.values_list("player_id", "status"))
    players = (Player.objects.filter(season_id=evening.season_id).filter(still_member())
               .select_related("member"))
    return [
        p for p in players
        if regs.get(p.pk, default_status(p.is_fixed)) == Attendance.PRESENT
    ]


def standings_order(evening: Evening) -> list[int]:
    """The current standings before this evening, as the pairing order.

    Keizer: the standings of the evening's half after the last counted evening before it
    (first summer evening: the final winter standings; first winter evening: the starting
    order). Ladder: by ladder points without bonuses. Players not yet in it are left out;
    the caller places them by rating.
    """
    data = load_season_data(evening.season)
    earlier = tuple(e for e in data.evenings if e.date < evening.date)
    data = type(data)(**{**data.__dict__, "evenings": earlier})
    results = compute(data) if earlier else {}
    half = evening.half.kind  # type: ignore[union-attr]
    if half == "season":
        result = results.get("season")
        if result is None:
            return [p.id for p in sorted(data.players, key=lambda p: p.start)]
        rows = sorted(result.standings, key=lambda r: (-r.pairing_points, r.start))
        return [r.player_id for r in rows]
    if half in results:
        return [r.player_id for r in results[half].standings]
    if half == "summer" and "winter" in results:
        return [r.player_id for r in results["winter"].standings]
    return [p.id for p in sorted(data.players, key=lambda p: p.start)]


def history(
    evening: Evening,
) -> tuple[list[pt.Meeting], dict[int, list[Literal["W", "B"]]], dict[int, int], pt.PairingRules, int]:
    """This season's meetings, colours and byes before the evening, its playing-evening
    index and the competition's rules: what the rules and colours are checked against.

    Only playing evenings count: playoff, rapid or blitz games are not meetings of the
    competition (and have no half)."""
    season = evening.season
    playing = list(
        Evening.objects.filter(season=season, kind=EveningKind.PLAYING)
        .order_by("date")
        .values_list("pk", "date")
    )
    index = {pk: i + 1 for i, (pk, _d) in enumerate(playing)}
    games = (
        Game.objects.filter(
            evening__season=season, evening__kind=EveningKind.PLAYING,
            evening__date__lt=evening.date,
        )
        .order_by("evening__date", "board")
        .values_list("white_id", "black_id", "result", "evening_id", "evening__half__kind")
    )
    colours: dict[int, list[Literal["W", "B"]]] = defaultdict(list)
    meetings: list[pt.Meeting] = []
    for white, black, result, evening_id, half in games:
        if result in FORFEITS:
            continue
        assert half is not None  # every playing evening has a half
        colours[white].append("W")
        colours[black].append("B")
        meetings.append(pt.Meeting(white, black, index[evening_id],
                                   cast(Literal["winter", "summer"], half)))
    byes: dict[int, int] = defaultdict(int)
    for player_id in Bye.objects.filter(
        evening__season=season, evening__kind=EveningKind.PLAYING,
        evening__date__lt=evening.date,
    ).values_list("player_id", flat=True):
        byes[player_id] += 1
    competition = season.competition
    rules = pt.PairingRules(
        max_meetings_per_season=competition.max_meetings_per_season,
        max_meetings_per_half=competition.max_meetings_per_half,
        min_evenings_between=competition.min_evenings_between,
        bye_policy=cast(Literal["random", "lowest"], competition.bye_policy),
    )
    return meetings, colours, byes, rules, index[evening.pk]


def pairing_input(
    evening: Evening, present: list[Player]
) -> tuple[list[pt.PresentPlayer], list[pt.Meeting], pt.PairingRules, int]:
    """The engine's input: present players in order, this season's meetings and colours."""
    meetings, colours, byes, rules, index = history(evening)
    by_id = {p.pk: p for p in present}
    order = [pid for pid in standings_order(evening) if pid in by_id]
    newcomers = [pid for pid in by_id if pid not in set(order)]
    if newcomers:
        ratings = {pid: by_id[pid].rating for pid in by_id}
        order = place_newcomers(order, ratings, sorted(newcomers, key=lambda pid: by_id[pid].start))
    players = [
        pt.PresentPlayer(pid, tuple(colours[pid]), byes[pid], by_id[pid].rating) for pid in order
    ]
    return players, meetings, rules, index




def pairing_snapshot(
    evening: Evening, written: tuple[list[Game], Bye | None] | None = None,
) -> dict[str, Any]:
    """The evening's pairing as the audit records it; ``written``: its games and bye as
    the caller has just written them (not read again)."""
    if written is None:
        rows = list(evening.games.order_by("board").values_list(
            "board", "white_id", "black_id", "tempo"))
        bye = Bye.objects.filter(evening=evening).values_list("player_id", flat=True).first()
    else:
        rows = sorted((g.board, g.white_id, g.black_id, g.tempo) for g in written[0])
        bye = written[1].player_id if written[1] is not None else None
    games = [{"board": b, "white": w, "black": bl, "tempo": t} for b, w, bl, t in rows]
    return {"games": games, "bye": bye}




def due_evenings(now: dt.datetime | None = None) -> list[int]:
    """Playing evenings whose deadline has passed, that are not yet published and have
    not begun. However late the job runs (a worker that was down), it still pairs them;
    an evening that has already begun is left to the leader: the pairing e-mails would
    arrive after the games."""
    now = now or timezone.now()
    return list(
        Evening.objects.filter(kind=EveningKind.PLAYING, deadline__lte=now, starts_at__gt=now)
        .exclude(status=EveningStatus.PUBLISHED)
        .order_by("date")
        .values_list("pk", flat=True)
    )


def evening_is_due(evening_id: int, now: dt.datetime | None = None) -> bool:
    """Whether the deadline job still has to pair this evening (``due_evenings``)."""
    now = now or timezone.now()
    return Evening.objects.filter(
        pk=evening_id, kind=EveningKind.PLAYING, deadline__lte=now, starts_at__gt=now,
    ).exclude(status=EveningStatus.PUBLISHED).exists()


def evenings_with_unnotified_withdrawals(now: dt.datetime | None = None) -> list[int]:
    """Published evenings still to come where a seated player (a game without result, or
    the bye) signed off himself and no withdrawal e-mail about him has been queued: the
    only ones the withdrawal check must lock. Four queries, however many evenings."""
    now = now or timezone.now()
    evenings = Evening.objects.filter(
        kind=EveningKind.PLAYING, status=EveningStatus.PUBLISHED, starts_at__gt=now)
    off = set(
        Registration.objects.filter(evening__in=evenings, changed_by_id=F("player__member_id"))
        .exclude(status=Attendance.PRESENT).values_list("evening_id", "player_id")
    )
    if not off:
        return []
    ids = {e for e, _p in off}
    seated: set[tuple[int, int]] = set()
    for e, w, b in Game.objects.filter(evening_id__in=ids).filter(result=Result.PENDING).values_list(
            "evening_id", "white_id", "black_id"):
        seated |= {(e, w), (e, b)}
    seated |= set(Bye.objects.filter(evening_id__in=ids).values_list("evening_id", "player_id"))
    told = {
        (e, int(sig.split(":")[1]))
        for e, sig in PairingNotice.objects.filter(
            evening_id__in=ids, kind=NoticeKind.WITHDRAWAL,
        ).exclude(state=NoticeState.SUPERSEDED).values_list("evening_id", "signature")
    }
    return sorted({e for e, p in (off & seated) - told})


def leader_emails(club: Club | int | None = None) -> list[str]:
    """The competition leaders of ``club`` (the current club when not given) to tell of a
    late withdrawal: never another club's."""
    club = club if club is not None else current_club()
    if club is None:
        return []
    return sorted(set(
        User.objects.filter(memberships__club=club, memberships__role=LEADER, is_active=True)
        .exclude(email="").values_list("email", flat=True)
    ))


def current_pairing(evening: Evening) -> tuple[tuple[pt.PairedGame, ...], int | None]:
    """The evening's games (by board) and bye as the engine's values."""
    games = tuple(pt.PairedGame(b, w, bl) for b, w, bl in
                  evening.games.order_by("board").values_list("board", "white_id", "black_id"))
    bye = Bye.objects.filter(evening=evening).values_list("player_id", flat=True).first()
    return games, bye


def pairing_check(
    evening: Evening, proposed: tuple[pt.PairedGame, ...] | None = None,
) -> list[pt.Relaxation]:
    """Which rules the evening's pairing breaks (shown to the leader), or the pairing a
    correction would make (``proposed``, the same bye): the engine decides
    (``corrections.broken_by``). Reads the season's earlier games and byes only: no
    standings are computed."""
    if evening.kind != EveningKind.PLAYING:
        return []
    games, bye = current_pairing(evening)
    meetings, _colours, byes, rules, index = history(evening)
    return broken_by(proposed if proposed is not None else games, bye, byes, meetings, rules,
                     index, half_kind(evening))


# --- What the leader's actions will do (said before he confirms) ---------------------------

CORRECTIONS = (
    Action.PAIRING_SWAP_COLOURS, Action.PAIRING_SWAP_OPPONENTS,
    Action.PAIRING_REMOVE_PLAYER, Action.PAIRING_ADD_PLAYER, Action.PAIRING_UNDO,
)
UNDOABLE = (Action.PAIRING_SWAP_COLOURS, Action.PAIRING_SWAP_OPPONENTS)
PAIRING_CHANGES = (Action.PAIRING_PUBLISH, Action.PAIRING_REPAIR, *CORRECTIONS)


def corrections_since_publish(evening: Evening) -> int:
    """The leader's corrections of the pairing since it was last (re)published: what a
    re-pairing throws away."""
    last = (
        AuditRecord.objects.filter(
            evening=evening, action__in=(Action.PAIRING_PUBLISH, Action.PAIRING_REPAIR)
        ).order_by("-at", "-id").values_list("id", flat=True).first()
    )
    if last is None:
        return 0
    return AuditRecord.objects.filter(evening=evening, action__in=CORRECTIONS, id__gt=last).count()


def publish_consequences(evening: Evening, repair: bool, now: dt.datetime | None = None) -> list[str]:
    now = now or timezone.now()
    if repair:
        n = corrections_since_publish(evening)
        return [
            ngettext(
                "Re-pairing replaces the whole pairing: %(n)s manual correction since it "
                "was published will be lost.",
                "Re-pairing replaces the whole pairing: %(n)s manual corrections since it "
                "was published will be lost.", n,
            ) % {"n": n},
            _("Every player whose game changes gets an e-mail."),
        ]
    n = len(present_players(evening))
    lines = []
    if not is_late(now, evening.deadline):
        at = {"deadline": timezone.localtime(now).strftime("%H:%M"),
              "at": date_format(timezone.localtime(evening.deadline), _("D j M H:i"))}
        lines.append(_(
            "The deadline has not passed: signing up online closes now, %(deadline)s, "
            "instead of at %(at)s; a player who wants to join after that asks you."
        ) % at)
        if sign_up_open_after_publication(Attendance.ABSENT_WITH_NOTICE):
            lines.append(_(
                "Players can still sign off online: until %(at)s that counts as absent with "
                "notice, after it as absent without notice. A paired player who signs off "
                "is shown on this evening's page and his opponent gets an e-mail."
            ) % at)
    lines.append(ngettext(
        "%(n)s player is present: he is paired and gets an e-mail now.",
        "%(n)s players are present: they are paired and each gets an e-mail now.", n,
    ) % {"n": n})
    return lines


def remove_consequences(evening: Evening, player: Player | None = None) -> list[str]:
    name = player.member.name if player else _("The player")
    return [
        _("%(name)s leaves the pairing and counts as absent without notice, "
          "unless you recorded force majeure or another absence for him.") % {"name": name},
        _("His opponent plays whoever has the bye on the same board, or takes the bye; "
          "the opponent (and the player who had the bye) get an e-mail."),
        _("No other board moves."),
    ]


def seat_in_words(seat: Seat | None, names: dict[int, str]) -> str:
    """A player's seat as the preview and the e-mail write it."""
    if seat is None:
        return _("not in the pairing")
    if seat.is_bye:
        return _("the pairing bye")
    text = (_("board %(b)s against %(o)s with white") if seat.colour == "W"
            else _("board %(b)s against %(o)s with black"))
    return text % {"b": seat.board, "o": names.get(seat.opponent or 0, "?")}


def correction_preview(evening: Evening, proposed: tuple[pt.PairedGame, ...]) -> dict[str, Any]:
    """What a correction would make of the pairing, before it is saved: every player whose
    board, opponent or colour changes (was, now), every rule the corrected pairing breaks
    (those it breaks already marked), and the corrected pairing itself."""
    games, bye = current_pairing(evening)
    changes = seat_changes(games, bye, proposed, bye)
    ids = {pid for g in proposed for pid in (g.white, g.black)} | set(changes)
    players = Player.objects.filter(pk__in=ids).select_related("member")
    names = {p.pk: p.member.name for p in players}
    emails = {p.pk for p in players if p.member.email and p.member.pairing_mail}
    already = {(r.white, r.black, r.rule) for r in pairing_check(evening)}
    competition = evening.season.competition
    broken = [
        {"white": names.get(r.white), "black": names.get(r.black) if r.black is not None else None,
         "rule": r.rule, "words": rule_in_words(r.rule, competition), "bye": r.black is None,
         "new": (r.white, r.black, r.rule) not in already}
        for r in pairing_check(evening, proposed)
    ]
    return {
        "changes": [{"player": pid, "name": names.get(pid, "?"),
                     "was": seat_in_words(was, names), "now": seat_in_words(now, names)}
                    for pid, (was, now) in changes.items()],
        "broken": broken,
        "games": [{"board": g.board, "white": names[g.white], "black": names[g.black],
                   "changed": g.white in changes or g.black in changes} for g in proposed],
        "mailed": sorted(names[pid] for pid in changes if pid in emails),
    }


def last_correction(evening: Evening, now: dt.datetime | None = None) -> AuditRecord | None:
    """The correction the leader can still undo: the evening's last change of its pairing,
    if it is a swap (colours or black players), the pairing is as that swap left it and
    the evening has not begun. A removal is undone by adding the player again (and the
    other way round); a re-pairing or an undo itself is not undone."""
    now = now or timezone.now()
    if evening.status != EveningStatus.PUBLISHED or now >= evening.starts_at:
        return None
    record = (AuditRecord.objects.filter(evening=evening, action__in=PAIRING_CHANGES)
              .order_by("-at", "-id").first())
    if record is None or record.action not in UNDOABLE:
        return None
    games, _bye = current_pairing(evening)
    left = [(g["board"], g["white"], g["black"]) for g in (record.after or {}).get("games", [])]
    if left != [(g.board, g.white, g.black) for g in games]:
        return None
    if evening.games.with_result().exists():
        return None
    return record


# --- The leader's evening page ----------------------------------------------------------


def rule_in_words(rule: str, competition: Any) -> str:
    if rule == "fewest_byes":
        return _("the pairing bye goes to a player with the fewest byes this season")
    if rule == "max_meetings_per_season":
        n = competition.max_meetings_per_season
        return ngettext(
            "at most %(n)s meeting of the same two players in a season",
            "at most %(n)s meetings of the same two players in a season", n,
        ) % {"n": n}
    if rule == "max_meetings_per_half":
        n = competition.max_meetings_per_half
        return ngettext(
            "at most %(n)s meeting of the same two players in a half",
            "at most %(n)s meetings of the same two players in a half", n,
        ) % {"n": n}
    n = competition.min_evenings_between
    return ngettext(
        "at least %(n)s playing evening between two meetings",
        "at least %(n)s playing evenings between two meetings", n,
    ) % {"n": n}


def _audit_in_words(record: AuditRecord | None) -> str:
    if record is None:
        return ""
    labels = dict(Attendance.choices)
    if record.action == Action.REGISTRATION_SET:
        before = (record.before or {}).get("status")
        after = (record.after or {}).get("status")
        text = f"{labels.get(str(before), _('default'))} → {labels.get(str(after), after)}"
        if (record.after or {}).get("late"):
            text += " " + _("(after the deadline)")
        if (record.after or {}).get("force_majeure"):
            text += " " + _("(force majeure)")
        return text
    if record.action == Action.CLUB_DUTY_REQUEST:
        return _("club duty requested") + f" → {labels.get(str((record.after or {}).get('status')), '')}"
    if record.action == Action.CLUB_DUTY_DECIDE:
        approved = (record.after or {}).get("state") == ClubDutyState.APPROVED
        return _("club duty approved") if approved else _("club duty refused")
    return record.action


def evening_page(evening: Evening, user: Actor) -> dict[str, Any]:
    """Everything the leader's evening page shows, in a fixed number of queries. A player
    who left the club is listed only where he has a seat (a board of a published pairing)."""
    players = list(Player.objects.filter(season_id=evening.season_id).select_related("member")
                   .annotate(member_still=still_member()))
    regs = {
        r.player_id: r
        for r in evening.registrations.select_related("changed_by")
    }
    latest: dict[int, AuditRecord] = {}
    for entry in (
        AuditRecord.objects.filter(
            evening=evening, player__isnull=False, action__in=SIGN_UP_ACTIONS
        ).select_related("actor").order_by("-at", "-id")
    ):
        if entry.player_id is not None:
            latest.setdefault(entry.player_id, entry)
    games = list(
        evening.games.select_related(
            "white__member", "black__member", "tempo_requested_by__member"
        ).order_by("board")
    )
    bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
    seat: dict[int, str] = {}
    for g in games:
        seat[g.white_id] = _("board %(b)s, white") % {"b": g.board}
        seat[g.black_id] = _("board %(b)s, black") % {"b": g.board}
    if bye:
        seat[bye.player_id] = _("pairing bye")
    rows = []
    for p in players:
        if not p.member_still and p.pk not in seat:  # type: ignore[attr-defined]
            continue
        reg = regs.get(p.pk)
        record = latest.get(p.pk)
        rows.append({
            "player": p,
            "status": reg.status if reg else default_status(p.is_fixed),
            "explicit": reg is not None,
            "registration": reg,
            "audit": record,
            "audit_text": _audit_in_words(record),
            # A pairing correction (remove, add) changes the status after the last sign-up.
            "corrected": reg is not None and (
                record is None or (reg.changed_at - record.at).total_seconds() > 1
            ),
            "seat": seat.get(p.pk, ""),
        })
        rows[-1]["withdrawn"] = bool(rows[-1]["seat"]) and rows[-1]["status"] != "present"
    published = evening.status == EveningStatus.PUBLISHED
    competition = evening.season.competition
    names = {p.pk: p.member.name for p in players}
    broken = []
    if published:
        for r in pairing_check(evening):
            broken.append({
                "white": names.get(r.white),
                "black": names.get(r.black) if r.black is not None else None,
                "rule": r.rule, "words": rule_in_words(r.rule, competition),
                "bye": r.rule == "fewest_byes",
            })
    paired_ids = set(seat)
    removable = [p for p in players if p.pk in paired_ids]
    editable_games = [g for g in games if not g.has_result]
    return {
        "evening": evening,
        "season": evening.season,
        "rows": rows,
        "games": games,
        "bye": bye,
        "published": published,
        "has_results": any(g.has_result for g in games),
        "broken": broken,
        "tempo_requests": [g for g in games if g.tempo == Tempo.REQUESTED],
        "club_duty_requests": list(club_duty_requests_pending(evening=evening)),
        "can_decide_club_duty": user.has_perm(Perm.MANAGE_REGISTRATIONS),
        "statuses": Attendance.choices,
        "removable": removable,
        "addable": [p for p in players if p.pk not in paired_ids],
        "can_swap": len(editable_games) >= 2,
        "undo": last_correction(evening) if published else None,
        "confirm_publish": " ".join(publish_consequences(evening, repair=False)) if not published else "",
        "confirm_repair": " ".join(publish_consequences(evening, repair=True)) if published else "",
        "confirm_remove": " ".join(remove_consequences(evening)),
        "can_pair": user.has_perm(Perm.MANAGE_PAIRINGS),
        "can_register": user.has_perm(Perm.MANAGE_REGISTRATIONS),
        "can_tempo": user.has_perm(Perm.APPROVE_TEMPO),
    }


# --- The preview before the deadline ------------------------------------------------------


def pairing_preview(evening: Evening) -> dict[str, Any]:
    """The pairing the deadline job would make now, from the same input and seed, with
    the rules it had to relax; nothing is saved and nobody is told."""
    present = present_players(evening)
    players, meetings, rules, index = pairing_input(evening, present)
    seed = f"{evening.season.slug}:{evening.date.isoformat()}"
    result = pair_evening(
        players, meetings, rules, evening_index=index, half=half_kind(evening), seed=seed
    )
    names = {p.pk: p.member.name for p in present}
    competition = evening.season.competition
    return {
        "present": len(present),
        "games": [{"board": g.board, "white": names[g.white], "black": names[g.black]}
                  for g in result.games],
        "bye": names.get(result.bye) if result.bye is not None else None,
        "relaxed": [
            {"white": names.get(r.white), "black": names.get(r.black) if r.black is not None else None,
             "rule": r.rule, "words": rule_in_words(r.rule, competition)}
            for r in result.relaxed
        ],
    }
