"""Writes for prizes, eligibility, the playoffs and the next season (docs/rules.md 6).

Each function checks permission, locks what it changes, validates, writes and records an
audit row, in one transaction, like ``competition.season.services``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import (
    EligibilityOverride,
    Evening,
    EveningKind,
    Game,
    Half,
    HalfKind,
    Player,
    PlayerKind,
    PlayoffBracket,
    PlayoffDate,
    PlayoffResult,
    Prize,
    PrizeKind,
    Season,
)
from competition.scoring import types as t
from competition.scoring.display import round_points
from competition.scoring.ladder import start_points
from competition.season import services
from competition.season.engine.calendar import evening_times
from competition.season.standings import compute, load_season_data
from core.dates import club_today, club_tz, short_day
from core.pagecache import pages_changed
from core.permissions import Perm, require
from core.validators import require_single_line
from members.models import Actor, person

from . import selectors as prize_selectors
from .engine import awards as pure
from .engine import playoffs as engine

# The Competition fields a new season copies from the old one (besides system and
# parameters): pairing, calendar and prize numbers.
# Starting the next season is the leader's (his home page offers it) as well as the
# administrator's: both hold the calendar permission.
NEXT_SEASON_PERM = Perm.MANAGE_CALENDAR
COPIED_FIELDS = (
    "name", "max_meetings_per_season", "max_meetings_per_half", "min_evenings_between",
    "bye_policy", "start_time", "deadline_days_before", "deadline_time", "evenings_per_half",
    "eligibility_percentage", "eligibility_min_games", "eligibility_max_exempted",
    "start_rating", "trf_rating",
)
ONE_PER_HALF = {"champion", "silver", "bronze", "best_of_rest", "summer_champion"}
EVERY_EVENING = dt.date.max  # load_season_data(today=...): every published evening



def _locked_half(half: Half) -> Half:
    return Half.objects.select_for_update(of=("self",)).select_related("season__competition").get(pk=half.pk)


# --- Eligibility overrides --------------------------------------------------------------


@transaction.atomic(durable=True)
def eligibility_override_set(
    *, actor: Actor, half: Half, player: Player, eligible: bool, reason: str
) -> EligibilityOverride:
    """The administrator decides a player's eligibility in a half, with a reason."""
    require(actor, Perm.OVERRIDE_ELIGIBILITY, of=half)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason for the decision.")})
    require_single_line(reason, field="reason")
    half = _locked_half(half)
    if player.season_id != half.season_id:
        raise ValidationError(_("%(p)s does not take part in this season.") % {"p": player})
    existing = EligibilityOverride.objects.filter(half=half, player=player).first()
    before = {"eligible": existing.eligible, "reason": existing.reason} if existing else None
    override, _created = EligibilityOverride.objects.update_or_create(
        half=half,
        player=player,
        defaults={"eligible": eligible, "reason": reason[:200],
                  "decided_by": person(actor)},
    )
    audit.record(
        actor=actor, action=Action.ELIGIBILITY_OVERRIDE, season=half.season, player=player,
        before=before, after={"half": half.kind, "eligible": eligible, "reason": override.reason},
    )
    pages_changed()
    services.schedule_recalculation(half.pk)  # the eligibility is stored with the standings
    return override


@transaction.atomic(durable=True)
def eligibility_override_clear(*, actor: Actor, half: Half, player: Player) -> None:
    """Withdraw the decision: the rule decides again."""
    require(actor, Perm.OVERRIDE_ELIGIBILITY, of=half)
    half = _locked_half(half)
    existing = EligibilityOverride.objects.filter(half=half, player=player).first()
    if existing is None:
        return
    audit.record(
        actor=actor, action=Action.ELIGIBILITY_OVERRIDE_CLEAR, season=half.season, player=player,
        before={"half": half.kind, "eligible": existing.eligible, "reason": existing.reason},
    )
    pages_changed()
    existing.delete()
    services.schedule_recalculation(half.pk)


# --- Confirming the prizes of a half ----------------------------------------------------


@transaction.atomic(durable=True)
def prizes_confirm(*, actor: Actor, half: Half) -> list[Prize]:
    """Write the half's prizes as the rules give them now, replacing an earlier
    confirmation of the half. Refused while evenings or results are outstanding."""
    require(actor, Perm.MANAGE_SEASON, of=half)
    half = _locked_half(half)
    blockers = prize_selectors.half_blockers(half)
    if blockers:
        raise ValidationError(
            [_("The prizes of the %(half)s cannot be confirmed yet.") % {"half": half.get_kind_display()},
             *blockers]
        )
    proposal = prize_selectors.proposed_prizes(half)
    if not proposal.prizes:
        raise ValidationError(_("No player is eligible for a prize in this half."))
    _check_one_prize_per_player(proposal.prizes)
    previous = Prize.objects.filter(half=half, kind__in=prize_selectors.HALF_PRIZE_KINDS)
    before = [_prize_json(p.kind, p.group, p.member_id) for p in previous]
    previous.delete()
    rows = [
        Prize(season=half.season, half=half, kind=p.kind, group=p.group,
              member=p.player.member, confirmed_by=person(actor))
        for p in proposal.prizes
    ]
    try:
        with transaction.atomic():
            created = Prize.objects.bulk_create(rows)
    except IntegrityError as exc:
        raise ValidationError(_("A player can win only one prize per half.")) from exc
    audit.record(
        actor=actor, action=Action.PRIZES_CONFIRM, season=half.season, before=before or None,
        after={"half": half.kind,
               "prizes": [_prize_json(p.kind, p.group, p.member_id) for p in created],
               "playoff_groups": [[p.pk for p in g] for g in proposal.playoff_groups]},
    )
    pages_changed()
    return created


def _check_one_prize_per_player(prizes: Iterable[prize_selectors.ProposedPrize]) -> None:
    seen: dict[int, str] = {}
    for p in prizes:
        if p.kind not in ONE_PER_HALF:
            continue
        if p.player.member_id in seen:
            raise ValidationError(
                _("%(name)s would win two prizes in one half (%(a)s and %(b)s); a player can "
                  "win only one prize per half.")
                % {"name": p.player, "a": PrizeKind(seen[p.player.member_id]).label,
                   "b": PrizeKind(p.kind).label}
            )
        seen[p.player.member_id] = p.kind


def _prize_json(kind: str, group: int, member_id: int) -> dict[str, Any]:
    return {"kind": kind, "group": group, "member": member_id}


# --- The playoffs -----------------------------------------------------------------------


def _summer(season: Season) -> Half:
    half = Half.objects.filter(season=season, kind=HalfKind.SUMMER).first()
    if half is None:
        raise ValidationError(_("This season has no summer half, so no playoffs."))
    return half


@transaction.atomic(durable=True)
def playoffs_create(*, actor: Actor, season: Season) -> PlayoffBracket:
    """Draw the playoffs after the summer half: the eligible players in summer final
    order, in groups (`prizes.playoff_groups`), colours from a recorded, reproducible lot."""
    require(actor, Perm.MANAGE_PAIRINGS, of=season)
    season = Season.objects.select_for_update(of=("self",)).select_related("competition").get(pk=season.pk)
    if PlayoffBracket.objects.filter(season=season).exists():
        raise ValidationError(_("The playoffs of this season have been drawn already."))
    blockers = prize_selectors.playoffs_blockers(season)
    if blockers:
        raise ValidationError(blockers)
    summer = _summer(season)
    state = prize_selectors.season_state(season)
    eligible = {p for p, e in state.eligibility(summer).items() if e.eligible}
    players = pure.playoff_players(state.standings(summer), eligible)
    if not players:
        raise ValidationError(_("No player is eligible for the playoffs."))
    groups = pure.playoff_groups(players)
    seed = f"{season.slug}:playoffs"
    engine.build_bracket(groups, seed)  # refuses impossible groups before anything is saved
    row = PlayoffBracket.objects.create(
        season=season, seed=seed, groups=[list(g) for g in groups], created_by=person(actor)
    )
    audit.record(actor=actor, action=Action.PLAYOFFS_CREATE, season=season,
                 after={"seed": seed, "groups": row.groups})
    pages_changed()
    return row


def _locked_bracket(season: Season) -> PlayoffBracket:
    row = PlayoffBracket.objects.select_for_update().filter(season=season).first()
    if row is None:
        raise ValidationError(_("The playoffs of this season have not been drawn yet."))
    return row


def _open_match(built: engine.Bracket, match_id: str) -> engine.Match:
    try:
        match = built.match(match_id)
    except KeyError:
        raise ValidationError(
            _("Match %(m)s is not open: its players are not known yet, or there is no such match.")
            % {"m": match_id}
        ) from None
    if match.result is not None:
        raise ValidationError(
            _("Match %(m)s has its result already (%(r)s).") % {"m": match_id, "r": match.result}
        )
    return match


@transaction.atomic(durable=True)
def playoff_result_set(*, actor: Actor, season: Season, match: str, result: str) -> engine.Bracket:
    """Enter the result of an open playoff match. A drawn match gets its decider at once
    (same evening, reduced tempo); a drawn decider is won by the player with black."""
    require(actor, Perm.ENTER_RESULTS, of=season)
    row = _locked_bracket(season)
    built = prize_selectors.replayed_bracket(row, row.results.order_by("entered_at", "pk"))
    found = _open_match(built, match)
    if result not in engine.RESULTS:
        raise ValidationError(
            _("Unknown playoff result '%(r)s' (one of %(all)s).")
            % {"r": result, "all": ", ".join(engine.RESULTS)}
        )
    moved = dict(row.dates.values_list("match", "date"))
    played_on = prize_selectors.match_date(
        found, prize_selectors.playoff_evening_dates(season), moved
    ) or club_today()
    PlayoffResult.objects.create(
        bracket=row, match=match, result=result, played_on=played_on, entered_by=person(actor)
    )
    updated = engine.record_result(built, match, result)
    audit.record(
        actor=actor, action=Action.PLAYOFFS_RESULT, season=season,
        after={"match": match, "result": result, "white": found.white, "black": found.black,
               "unlocked": [m.id for m in updated.matches if m not in built.matches and m.id != match]},
    )
    pages_changed()
    return updated


@transaction.atomic(durable=True)
def playoff_result_withdraw(*, actor: Actor, season: Season, match: str) -> engine.Bracket:
    """Take back a wrongly entered playoff result (the leader). Refused while a later
    result follows from it (a decider, the next round): withdraw those first."""
    require(actor, Perm.MANAGE_PAIRINGS, of=season)
    row = _locked_bracket(season)
    results = list(row.results.order_by("entered_at", "pk"))
    wrong = next((r for r in results if r.match == match), None)
    if wrong is None:
        raise ValidationError(_("Match %(m)s has no result to withdraw.") % {"m": match})
    try:
        rebuilt = prize_selectors.replayed_bracket(row, [r for r in results if r is not wrong])
    except (KeyError, ValueError):
        raise ValidationError(
            _("A later result follows from %(m)s; withdraw that one first.") % {"m": match}
        ) from None
    wrong.delete()
    audit.record(
        actor=actor, action=Action.PLAYOFFS_RESULT_WITHDRAW, season=season,
        before={"match": match, "result": wrong.result}, after=None,
    )
    pages_changed()
    return rebuilt


@transaction.atomic(durable=True)
def playoff_date_set(*, actor: Actor, season: Season, match: str, date: dt.date) -> PlayoffDate:
    """Move a match that has not been played to another date agreed with the leader.
    The top group's final is not moved, nor a decider (it follows its match at once)."""
    require(actor, Perm.MANAGE_PAIRINGS, of=season)
    row = _locked_bracket(season)
    if match == "G1-F":
        raise ValidationError(
            _("The final of the top group is played on its playoff evening; it cannot be moved.")
        )
    built = prize_selectors.replayed_bracket(row, row.results.order_by("entered_at", "pk"))
    found = _open_match(built, match)
    if found.round == "decider":
        raise ValidationError(_("A decider is played at once after its match; move that match instead."))
    dates = prize_selectors.playoff_evening_dates(season)
    moved = dict(row.dates.values_list("match", "date"))
    if found.round != "final":
        final = engine.Match(f"G{found.group}-F", found.group, "final", engine.FINAL_EVENING, 0, 0)
        final_date = prize_selectors.match_date(final, dates, moved)
        if final_date is not None and date >= final_date:
            raise ValidationError(
                _("Match %(m)s must be played before its group's final on %(d)s.")
                % {"m": match, "d": short_day(final_date)}
            )
    before = moved.get(match)
    moved_row, _created = PlayoffDate.objects.update_or_create(
        bracket=row, match=match, defaults={"date": date}
    )
    audit.record(
        actor=actor, action=Action.PLAYOFFS_DATE, season=season,
        before={"match": match, "date": before.isoformat()} if before else None,
        after={"match": match, "date": date.isoformat()},
    )
    pages_changed()
    return moved_row


@transaction.atomic(durable=True)
def playoff_prizes_confirm(*, actor: Actor, season: Season) -> list[Prize]:
    """The playoff prizes once every group is decided: club champion (the top group's
    winner) and a group prize for the winner of every other group."""
    require(actor, Perm.MANAGE_SEASON, of=season)
    row = _locked_bracket(season)
    built = prize_selectors.replayed_bracket(row, row.results.order_by("entered_at", "pk"))
    decided = engine.winners(built)
    found = [w for w in decided if w is not None]
    if len(found) < len(decided):
        open_ids = ", ".join(m.id for m in built.open_matches()) or "–"
        raise ValidationError(
            _("Not every playoff group is decided yet (open: %(m)s).") % {"m": open_ids}
        )
    members = dict(Player.objects.filter(pk__in=found).values_list("pk", "member_id"))
    previous = Prize.objects.filter(season=season, half__isnull=True,
                                    kind__in=prize_selectors.PLAYOFF_PRIZE_KINDS)
    before = [_prize_json(p.kind, p.group, p.member_id) for p in previous]
    previous.delete()
    rows = [
        Prize(season=season, half=None,
              kind=PrizeKind.CLUB_CHAMPION if number == 1 else PrizeKind.PLAYOFF_GROUP,
              group=0 if number == 1 else number, member_id=members[winner],
              confirmed_by=person(actor))
        for number, winner in enumerate(found, start=1)
    ]
    created = Prize.objects.bulk_create(rows)
    audit.record(actor=actor, action=Action.PLAYOFFS_PRIZES, season=season, before=before or None,
                 after=[_prize_json(p.kind, p.group, p.member_id) for p in created])
    pages_changed()
    return created


# --- The next season --------------------------------------------------------------------


@transaction.atomic(durable=True)
def player_set_kind(*, actor: Actor, player: Player, kind: str) -> Player:
    """Fixed or flexible (a fixed player opts in again for the new season)."""
    require(actor, Perm.MANAGE_SEASON, of=player)
    if kind not in PlayerKind.values:
        raise ValidationError(_("Unknown kind of player '%(k)s'.") % {"k": kind})
    player = Player.objects.select_for_update(of=("self",)).select_related("member").get(pk=player.pk)
    if player.kind == kind:
        return player
    before = {"kind": player.kind}
    player.kind = kind
    player.save(update_fields=["kind"])
    audit.record(actor=actor, action=Action.PLAYER_KIND, player=player, before=before, after={"kind": kind})
    pages_changed()
    services.schedule_recalculation(
        Half.objects.filter(season_id=player.season_id).order_by("start_date").values_list("pk", flat=True).first()
    )
    return player


YEAR = dt.timedelta(weeks=52)  # a year on, on the same weekday: Friday stays Friday


def next_season_proposal(season: Season) -> dict[str, Any]:
    """The old season's dates a year on (52 weeks: the same weekday) as the proposal: its
    opening, last day and the evenings it had closed (the hall, holidays)."""
    closed = Evening.objects.filter(season=season, kind=EveningKind.CLOSED).values_list("date", flat=True)
    return {"opening": season.start_date + YEAR, "last_day": season.end_date + YEAR,
            "closed": sorted(d + YEAR for d in closed)}


@dataclass(frozen=True)
class NextPlayer:
    player: Player
    kind: str
    start: int
    start_points: Any = None


def next_season_players(season: Season, *, keep_fixed: bool = True) -> list[NextPlayer]:
    """Who the next season starts with and in which order: the active members of this
    one who are still members of the club (a season imported from a file has former
    players too: they stay in its archive); fixed players stay fixed (``keep_fixed``);
    Keizer in the final standings' order (a player without a standing after them, in his
    old order), the ladder by its final points, which become the start points. Reads only."""
    old = Season.objects.select_related("competition").get(pk=season.pk)
    members = list(Player.objects.filter(season=old, member__is_active=True,
                                         member__memberships__club_id=old.club_id)
                   .select_related("member").order_by("start"))

    def kind(p: Player) -> str:
        return p.kind if keep_fixed else PlayerKind.FLEXIBLE

    if old.competition.is_ladder:
        points = _final_ladder_points(old)
        ordered = sorted(members, key=lambda p: (-points[p.pk], p.start))
        return [NextPlayer(p, kind(p), n, round_points(points[p.pk]))
                for n, p in enumerate(ordered, start=1)]
    rank = _final_ranks(old)
    ordered = sorted(members, key=lambda p: (rank.get(p.pk, len(rank) + 1), p.start))
    return [NextPlayer(p, kind(p), n) for n, p in enumerate(ordered, start=1)]


def _final_ranks(season: Season) -> dict[int, int]:
    """Player id -> place in the season's final standings: those of its last half that
    has any (a winter/summer season ends with the summer's); none before a game."""
    played = set(Game.objects.filter(evening__season=season)
                 .values_list("evening__half__kind", flat=True))
    if not played:
        return {}
    results = compute(load_season_data(season, today=EVERY_EVENING))
    for kind in (HalfKind.SEASON, HalfKind.SUMMER, HalfKind.WINTER):
        result = results.get(str(kind))
        if kind in played and result is not None and result.standings:
            rows = sorted(result.standings, key=lambda r: r.rank)
            return {row.player_id: n for n, row in enumerate(rows, start=1)}
    return {}


@transaction.atomic(durable=True)
def starting_order_from_season(*, actor: Actor, season: Season, source: Season) -> tuple[list[Player], int]:
    """``season``'s starting order from the final standings of ``source``, an earlier season
    of the club (played here, or last season imported from a file by a club moving in):
    its players who are in those standings in that order (as ``next_season_players``
    gives it), the others after them by rating, highest first (docs/rules.md 4.1). Before
    the first game only. Returns the players in their new order and how many of them
    took their place from ``source``. The leader's, as the rest of the starting order on
    the members page (``competition.roster.services.starting_order_by_rating``)."""
    require(actor, Perm.MANAGE_REGISTRATIONS, of=season)
    season = Season.objects.select_for_update(of=("self",)).select_related("competition").get(pk=season.pk)
    if source.club_id != season.club_id or source.start_date >= season.start_date:
        raise ValidationError(_("The starting order comes from an earlier season of the club."))
    if Game.objects.filter(evening__season=season).exists():
        raise ValidationError(
            _("The season has games already: its starting order decides the standings and "
              "no longer changes.")
        )
    if not Game.objects.filter(evening__season=source).exists():
        raise ValidationError(_("%(season)s has no final standings to take the order from.")
                              % {"season": source})
    place = {c.player.member_id: c.start for c in next_season_players(source)}
    players = list(Player.objects.select_for_update(of=("self",)).filter(season=season)
                   .select_related("member"))
    before = {str(p.pk): p.start for p in players}

    def key(p: Player) -> tuple[Any, ...]:
        if p.member_id in place:
            return (0, place[p.member_id], "", p.pk)
        return (1, -(p.rating or 0), p.member.name, p.pk)

    ordered = sorted(players, key=key)
    services.renumber(ordered, "start")
    taken = sum(1 for p in players if p.member_id in place)
    audit.record(actor=actor, action=Action.PLAYERS_ORDER_FROM_SEASON, season=season,
                 before=before, after={"from": source.slug, "taken": taken,
                                       "order": {str(p.pk): p.start for p in ordered}})
    pages_changed()
    return ordered, taken


@transaction.atomic(durable=True)
def season_start_next(
    *,
    actor: Actor,
    season: Season,
    name: str,
    opening: dt.date,
    last_day: dt.date,
    knsb_rounds: Iterable[dt.date] = (),
    closed: Iterable[dt.date] | None = None,
    keep_fixed: bool = True,
) -> Season:
    """The next season, by the leader (or the administrator): the calendar proposal, the
    same system and parameters, and every player of this season carried over
    (``next_season_players``: fixed players stay fixed unless ``keep_fixed`` is off; the
    final standings give the starting order). ``closed`` None: the old season's closed
    evenings a year on. The old season is only read."""
    require(actor, NEXT_SEASON_PERM, of=season)
    old = Season.objects.select_related("competition").get(pk=season.pk)
    if opening <= old.start_date:
        raise ValidationError(_("The next season must open after %(d)s.") % {"d": old.start_date})
    if closed is None:
        closed = [d for d in next_season_proposal(old)["closed"] if opening <= d <= last_day]
    system = old.competition.system
    carried = next_season_players(old, keep_fixed=keep_fixed)
    new = services.season_create(
        actor=actor, name=name, opening=opening, last_day=last_day, system=system,
        knsb_rounds=knsb_rounds, closed=closed, club=old.club,
    )
    competition = new.competition
    competition.parameters = old.competition.parameters
    for name_ in COPIED_FIELDS:
        setattr(competition, name_, getattr(old.competition, name_))
    competition.save()
    _retime_evenings(new, competition)
    Player.objects.bulk_create(
        Player(season=new, member=c.player.member, kind=c.kind,
               rating=c.player.member.rating_of(competition.start_rating), start=c.start,
               start_points=c.start_points)
        for c in carried
    )
    audit.record(
        actor=actor, action=Action.SEASON_START_NEXT, season=new,
        after={"from": old.slug, "players": len(carried), "system": system,
               "fixed": sum(1 for c in carried if c.kind == PlayerKind.FIXED)},
    )
    pages_changed()
    return new


def _final_ladder_points(season: Season) -> dict[int, Any]:
    """Each player's final ladder points; a player who never played keeps his start
    points (what the ladder gave him)."""
    data = load_season_data(season, today=EVERY_EVENING)
    result = compute(data)["season"]
    assert isinstance(data.params, t.LadderParams)
    final = {row.player_id: row.points for row in result.standings}
    return {
        p.id: final.get(p.id, start_points(data.params, p, len(data.players)))
        for p in data.players
    }


def _retime_evenings(season: Season, competition: Any) -> None:
    """The calendar was proposed with the preset times; use the copied ones."""
    evenings = list(Evening.objects.filter(season=season))
    for e in evenings:
        e.starts_at, e.deadline = evening_times(
            e.date, start=competition.start_time,
            deadline_days_before=competition.deadline_days_before,
            deadline_time=competition.deadline_time, tz=club_tz(),
        )
    Evening.objects.bulk_update(evenings, ["starts_at", "deadline"])
