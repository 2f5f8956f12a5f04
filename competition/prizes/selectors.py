"""Reads for prizes, eligibility and the playoffs (docs/rules.md 6; docs/prizes.md).

The numbers come from the standings engine (``standings.load_season_data`` + ``compute``)
and the pure prize and bracket functions; this module adds the database's decisions: the
administrator's eligibility overrides, the confirmed prizes, the playoff bracket's lot,
results and moved dates. Every function runs a fixed number of queries.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, Subquery
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from competition.models import (
    EligibilityOverride,
    Evening,
    EveningKind,
    EveningStatus,
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
    Result,
    Season,
    StandingsSnapshot,
)
from competition.scoring import types as t
from competition.scoring.display import round_points
from competition.scoring.eligibility import Eligibility, eligibility_evenings, half_eligibility
from competition.season.standings import SeasonData, compute, load_season_data
from core.dates import club_today, short_day

from .engine import awards as pure
from .engine.playoffs import (
    Bracket,
    Match,
    build_bracket,
    match_winner,
    record_result,
    winners,
)

# The prizes ``prizes_confirm`` writes for a half; playoff prizes belong to the season.
HALF_PRIZE_KINDS = (
    PrizeKind.CHAMPION,
    PrizeKind.SILVER,
    PrizeKind.BRONZE,
    PrizeKind.BEST_OF_REST,
    PrizeKind.SUMMER_CHAMPION,
    PrizeKind.PERIOD_CHAMPION,
)
PLAYOFF_PRIZE_KINDS = (PrizeKind.CLUB_CHAMPION, PrizeKind.PLAYOFF_GROUP)
KIND_ORDER = {
    kind: n
    for n, kind in enumerate(
        (*HALF_PRIZE_KINDS[:5], PrizeKind.CLUB_CHAMPION, PrizeKind.PLAYOFF_GROUP,
         PrizeKind.PERIOD_CHAMPION, PrizeKind.RAPID_CHAMPION, PrizeKind.BLITZ_CHAMPION)
    )
}
HALF_ORDER = {HalfKind.WINTER: 0, HalfKind.SUMMER: 1, HalfKind.SEASON: 0}
PENDING = (Result.PENDING, Result.POSTPONED)


# --- The season's engine results, read once ---------------------------------------------


@dataclass(frozen=True)
class SeasonState:
    """A season's engine results with everything the prize pages add to them."""

    season: Season
    data: SeasonData
    results: Mapping[str, Any]  # half kind -> HalfResult or LadderResult
    players: Mapping[int, Player]  # with their members
    overrides: Mapping[int, Mapping[int, EligibilityOverride]]  # half id -> player id -> row

    def standings(self, half: Half) -> tuple[Any, ...]:
        result = self.results.get(half.kind)
        return result.standings if result is not None else ()

    def evening_count(self, half: Half) -> int:
        return eligibility_evenings(self.data.evenings, half.kind,
                                    ladder=isinstance(self.data.params, t.LadderParams))

    def eligibility(self, half: Half) -> dict[int, Eligibility]:
        overrides = {p: o.eligible for p, o in self.overrides.get(half.pk, {}).items()}
        return half_eligibility(self.data.params, self.standings(half), self.data.evenings,
                                half.kind, self.season.competition.eligibility_rule, overrides)


def season_state(season: Season, today: dt.date | None = None) -> SeasonState:
    """The engine's results for the whole season (both halves at once): 9 queries."""
    data = load_season_data(season, today)
    results = compute(data)
    players = {p.pk: p for p in Player.objects.filter(season=season).select_related("member")}
    overrides: dict[int, dict[int, EligibilityOverride]] = defaultdict(dict)
    for o in EligibilityOverride.objects.filter(half__season=season).select_related(
        "decided_by", "player__member"
    ):
        overrides[o.half_id][o.player_id] = o
    return SeasonState(season, data, results, players, dict(overrides))


def _season_of(half: Half) -> Season:
    return Season.objects.select_related("competition").get(pk=half.season_id)


# --- Eligibility ------------------------------------------------------------------------


def eligibility(half: Half, today: dt.date | None = None) -> dict[int, Eligibility]:
    """{player id: Eligibility} for the half's standings so far, overrides applied.

    The evenings counted are the half's playing evenings the standings count (published,
    and played or with a result); once the half is over that is all of them."""
    return season_state(_season_of(half), today).eligibility(half)


def _stored_eligibility(half: Half) -> dict[int, Eligibility]:
    """The eligibility the recalculation stored with the half's latest standings (one
    query); empty before the half's first counted evening."""
    stored = (
        StandingsSnapshot.objects.filter(half=half).order_by("-evening__date")
        .values_list("eligibility", flat=True).first()
    )
    return {int(pid): Eligibility.from_json(e) for pid, e in (stored or {}).items()}


def eligibility_marks(half: Half) -> dict[int, bool]:
    """{player id: eligible} for the mark beside the names in the standings."""
    return {player_id: e.eligible for player_id, e in _stored_eligibility(half).items()}


def eligibility_detail(half: Half, player: Player) -> Eligibility | None:
    """The numbers behind one player's eligibility (player page); None when he is not in
    the half's standings."""
    return _stored_eligibility(half).get(player.pk)


@dataclass(frozen=True)
class EligibilityRow:
    rank: int
    player: Player
    eligibility: Eligibility
    override: EligibilityOverride | None

    @property
    def present(self) -> int:
        """Evenings not absent without notice."""
        return self.eligibility.evenings - self.eligibility.absent_without_notice


def eligibility_table(state: SeasonState, half: Half) -> list[EligibilityRow]:
    """The half's standings with the numbers behind each verdict (administrator's page)."""
    found = state.eligibility(half)
    overrides = state.overrides.get(half.pk, {})
    return [
        EligibilityRow(row.rank, state.players[row.player_id], found[row.player_id],
                       overrides.get(row.player_id))
        for row in state.standings(half)
    ]


# --- What stands between a half and its prizes ------------------------------------------


def playoffs_blockers(season: Season) -> list[str]:
    """Why the playoffs cannot be drawn yet: the summer half is missing or not complete
    (the playoffs page offers the button only when this is empty; the service asks it
    too)."""
    summer = Half.objects.filter(season=season, kind=HalfKind.SUMMER).first()
    if summer is None:
        return [_("This season has no summer half, so no playoffs.")]
    blockers = half_blockers(summer)
    return [_("The summer half is not finished yet."), *blockers] if blockers else []


def half_blockers(half: Half, today: dt.date | None = None) -> list[str]:
    """Why the half's prizes cannot be confirmed yet: evenings not played, results not
    entered (pending or postponed). Empty when the half is complete. Two queries."""
    today = today or club_today()
    evenings = list(
        Evening.objects.filter(half=half, kind=EveningKind.PLAYING)
        .annotate(entered=Count("games", filter=~Q(games__result=Result.PENDING)))
        .order_by("date")
    )
    if not evenings:
        return [_("The half has no playing evenings.")]
    unplayed = [
        e.date for e in evenings
        if e.status != EveningStatus.PUBLISHED or (e.date > today and not e.entered)
    ]
    pending = list(
        Game.objects.filter(evening__half=half, evening__kind=EveningKind.PLAYING,
                            evening__status=EveningStatus.PUBLISHED, result__in=PENDING)
        .select_related("evening")
        .order_by("evening__date", "board")
    )
    messages = []
    if unplayed:
        messages.append(
            _("Evenings not played yet: %(dates)s.")
            % {"dates": ", ".join(short_day(d) for d in unplayed)}
        )
    if pending:
        messages.append(
            _("Results not entered yet (pending or postponed): %(games)s.")
            % {"games": ", ".join(
                _("%(date)s, board %(board)s") % {"date": short_day(g.evening.date), "board": g.board}
                for g in pending
            )}
        )
    return messages


# --- Proposed prizes --------------------------------------------------------------------


@dataclass(frozen=True)
class ProposedPrize:
    kind: str
    group: int
    player: Player
    note: str = ""

    @property
    def label(self) -> str:
        return str(PrizeKind(self.kind).label)


@dataclass(frozen=True)
class HalfProposal:
    half: Half
    prizes: tuple[ProposedPrize, ...]
    playoff_groups: tuple[tuple[Player, ...], ...] = ()
    blockers: tuple[str, ...] = ()

    @property
    def confirmable(self) -> bool:
        return bool(self.prizes) and not self.blockers


def proposal_for(state: SeasonState, half: Half, blockers: list[str] | None = None) -> HalfProposal:
    """The prizes of a half by the rules: winter champion, silver, bronze and best of the
    rest; summer champion and the playoff places; the ladder's three season prizes and its
    period champion per group."""
    standings = state.standings(half)
    eligible = {p for p, e in state.eligibility(half).items() if e.eligible}
    players = state.players
    proposed: list[ProposedPrize] = []
    groups: tuple[tuple[Player, ...], ...] = ()
    if half.kind == HalfKind.SEASON:
        for prize in pure.ladder_prizes(standings, eligible):
            proposed.append(ProposedPrize(prize.prize, 0, players[prize.player_id]))
        dates = pure.period_dates(state.data.evenings)
        if dates is not None and isinstance(state.data.params, t.LadderParams):
            for c in pure.period_championship(state.data.params, state.data.players,
                                              state.data.evenings, *dates):
                gain = round_points(c.progress)  # "+12,39" in Dutch, as every number
                note = _("progress %(p)s") % {
                    "p": ("+" if gain > 0 else "") + number_format(gain, decimal_pos=2)}
                proposed.append(ProposedPrize(PrizeKind.PERIOD_CHAMPION, c.group,
                                              players[c.player_id], note))
    elif half.kind == HalfKind.SUMMER:
        proposed = [ProposedPrize(p.prize, 0, players[p.player_id])
                    for p in pure.summer_prizes(standings, eligible)]
        groups = tuple(
            tuple(players[p] for p in group)
            for group in pure.playoff_groups(pure.playoff_players(standings, eligible))
        )
    else:
        scores = {row.player_id: pure.game_score(row.stats) for row in standings}
        for p in pure.winter_prizes(standings, eligible):
            note = ""
            if p.prize == "best_of_rest":
                note = _("game score %(s)s") % {"s": _game_points(scores[p.player_id])}
            proposed.append(ProposedPrize(p.prize, 0, players[p.player_id], note))
    if blockers is None:
        blockers = half_blockers(half)
    return HalfProposal(half, tuple(proposed), groups, tuple(blockers))


def _game_points(score: Any) -> str:
    whole, half = divmod(score * 2, 2)
    return f"{int(whole)}½" if half else str(int(whole))


def proposed_prizes(half: Half) -> HalfProposal:
    """The prizes of the half by the rules, and what keeps them from being confirmed."""
    return proposal_for(season_state(_season_of(half)), half)


# --- Confirmed prizes -------------------------------------------------------------------


def confirmed_prizes(season: Season) -> list[Prize]:
    """The season's confirmed prizes: by half, then in the order of importance."""
    prizes = Prize.objects.filter(season=season).select_related("member", "half", "confirmed_by")
    return sorted(
        prizes,
        key=lambda p: (
            p.half is None,
            p.half.start_date if p.half else dt.date.max,
            KIND_ORDER.get(PrizeKind(p.kind), 99),
            p.group,
        ),
    )


@dataclass
class PrizeSection:
    title: str
    half: Half | None
    prizes: list[Prize] = field(default_factory=list)


def prize_sections(season: Season, prizes: list[Prize]) -> list[PrizeSection]:
    sections: dict[int | None, PrizeSection] = {}
    for prize in prizes:
        key = prize.half_id
        if key not in sections:
            title = prize.half.get_kind_display() if prize.half else _("Playoffs")
            sections[key] = PrizeSection(str(title), prize.half)
        sections[key].prizes.append(prize)
    return list(sections.values())


def prizes_page(season: Season) -> dict[str, Any]:
    """The public prizes page of a season: five queries, whatever the club's size."""
    prizes = confirmed_prizes(season)
    player_ids = dict(
        Player.objects.filter(season=season, member_id__in=[p.member_id for p in prizes])
        .values_list("member_id", "pk")
    )
    for prize in prizes:
        prize.player_id = player_ids.get(prize.member_id)  # type: ignore[attr-defined]
    return {
        "season": season,
        "sections": prize_sections(season, prizes),
        "seasons": list(Season.objects.order_by("-start_date")),
        "has_playoffs": PlayoffBracket.objects.filter(season=season).exists(),
    }


# --- The playoffs -----------------------------------------------------------------------


def bracket(season: Season) -> Bracket | None:
    """The season's playoff bracket: built from its lot, the results replayed in the
    order they were entered; None before the playoffs are drawn. Two queries."""
    row = PlayoffBracket.objects.filter(season=season).first()
    if row is None:
        return None
    return replayed_bracket(row, PlayoffResult.objects.filter(bracket=row).order_by("entered_at", "pk"))


def replayed_bracket(row: PlayoffBracket, results: Any) -> Bracket:
    built = build_bracket(row.groups, row.seed)
    for result in results:
        built = record_result(built, result.match, result.result)
    return built


def playoff_evening_dates(season: Season) -> list[dt.date]:
    """Bracket evening n is the season's n-th playoff evening."""
    return list(
        Evening.objects.filter(season=season, kind=EveningKind.PLAYOFF)
        .order_by("date")
        .values_list("date", flat=True)
    )


def match_date(
    match: Match, evening_dates: list[dt.date], moved: Mapping[str, dt.date]
) -> dt.date | None:
    """A moved match's agreed date; else its playoff evening's. A decider is played at
    once, on the date of the match it decides."""
    own = match.decides or match.id
    if own in moved:
        return moved[own]
    if 1 <= match.evening <= len(evening_dates):
        return evening_dates[match.evening - 1]
    return None


@dataclass(frozen=True)
class MatchView:
    match: Match
    white: Player
    black: Player
    date: dt.date | None
    moved: bool
    winner: Player | None
    result: str


@dataclass(frozen=True)
class GroupView:
    number: int
    seeds: tuple[Player, ...]
    matches: tuple[MatchView, ...]
    winner: Player | None
    bye: Player | None  # a group of three: its first goes straight to the final


ROUND_ORDER = {"qualifier": 0, "semi": 1, "decider": 2, "final": 3}
RESULT_LABELS = {"1/2-1/2": "½-½", "1-0F": "1-0 (forfeit)", "0-1F": "0-1 (forfeit)"}


def playoff_page(season: Season) -> dict[str, Any]:
    """The bracket per group with seeds, dates, colours, results, deciders, the group
    winners and the club champion: six queries, whatever the number of players."""
    row = PlayoffBracket.objects.filter(season=season).select_related("created_by").first()
    context: dict[str, Any] = {"season": season, "bracket_row": row, "groups": [],
                               "champion": None, "open_matches": [], "evening_dates": []}
    if row is None:
        return context
    built = replayed_bracket(row, PlayoffResult.objects.filter(bracket=row).order_by("entered_at", "pk"))
    players = {p.pk: p for p in Player.objects.filter(season=season).select_related("member")}
    dates = playoff_evening_dates(season)
    moved = dict(PlayoffDate.objects.filter(bracket=row).values_list("match", "date"))
    group_winners = winners(built)
    groups = []
    for number, seeds in enumerate(built.groups, start=1):
        matches = sorted(
            (m for m in built.matches if m.group == number),
            key=lambda m: (m.evening, ROUND_ORDER[m.round] if m.round != "decider" else 1.5, m.id),
        )
        views = []
        for m in matches:
            won = match_winner(built, m)
            views.append(MatchView(
                m, players[m.white], players[m.black], match_date(m, dates, moved),
                (m.decides or m.id) in moved, players.get(won) if won else None,
                RESULT_LABELS.get(m.result or "", m.result or ""),
            ))
        winner = group_winners[number - 1]
        groups.append(GroupView(
            number, tuple(players[p] for p in seeds), tuple(views),
            players.get(winner) if winner else None,
            players[seeds[0]] if len(seeds) == 3 else None,
        ))
    context.update(
        bracket=built,
        groups=groups,
        champion=groups[0].winner if groups else None,
        open_matches=[v for g in groups for v in g.matches if v.match.result is None],
        movable=[v for g in groups for v in g.matches
                 if v.match.result is None and v.match.round != "decider" and v.match.id != "G1-F"],
        evening_dates=dates,
        decided=all(w is not None for w in group_winners),
    )
    return context


# --- The administrator's page -----------------------------------------------------------


def previously_fixed(season: Season) -> list[Player]:
    """This season's flexible players who were fixed players in the season before: the
    players to ask again whether they play as fixed players. One query."""
    previous = (
        Season.objects.filter(start_date__lt=season.start_date).order_by("-start_date").values("pk")[:1]
    )
    fixed_before = Player.objects.filter(season__in=Subquery(previous), kind=PlayerKind.FIXED)
    return list(
        Player.objects.filter(season=season, kind=PlayerKind.FLEXIBLE,
                              member__in=fixed_before.values("member"))
        .select_related("member")
        .order_by("start")
    )


def manage_page(season: Season) -> dict[str, Any]:
    """Each half's eligibility table and proposed prizes, the confirmed prizes and the
    overrides with who, when and why: a fixed number of queries."""
    state = season_state(season)
    halves = sorted(state.data.halves.values(), key=lambda h: h.start_date)
    confirmed = confirmed_prizes(season)
    by_half: dict[int | None, list[Prize]] = defaultdict(list)
    for prize in confirmed:
        by_half[prize.half_id].append(prize)
    parts = []
    for half in halves:
        proposal = proposal_for(state, half)
        mine = [p for p in by_half.get(half.pk, []) if p.kind in HALF_PRIZE_KINDS]
        proposed = {(p.kind, p.group, p.player.member_id) for p in proposal.prizes}
        stored = {(p.kind, p.group, p.member_id) for p in mine}
        parts.append({
            "half": half,
            "rows": eligibility_table(state, half),
            "evenings": state.evening_count(half),
            "overrides": sorted(state.overrides.get(half.pk, {}).values(),
                                key=lambda o: o.decided_at, reverse=True),
            "proposal": proposal,
            "confirmed": mine,
            "outdated": bool(mine) and stored != proposed,
        })
    return {
        "season": season,
        "competition": season.competition,
        "ladder": season.competition.is_ladder,
        "parts": parts,
        "playoff_prizes": by_half.get(None, []),
        "has_playoffs": PlayoffBracket.objects.filter(season=season).exists(),
        "previously_fixed": previously_fixed(season),
        "players": sorted(state.players.values(), key=lambda p: p.start),
    }
