"""API v1: every endpoint reads through the selectors the pages use, so page and API
never disagree; a view composes them and computes nothing."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import NinjaAPI, Router
from ninja.errors import HttpError

from competition.events import selectors as event_selectors
from competition.models import Evening, HalfKind, Player, Season, SwissEvent, SwissRound
from competition.prizes import selectors as prize_selectors
from competition.ratings import selectors as rating_selectors
from competition.season import selectors
from members.clubs.addresses import site_name

from . import schemas as s

NAMESPACE = "api_v1"
# The query parameters an endpoint reads; the page cache keys on these alone.
PARAMS = {"after": None}

api = NinjaAPI(
    title="Ranglijst API",
    version="1",
    description=(
        "The public data of the club's internal competition, read-only: seasons and "
        "halves, the standings after every evening, the evenings with their pairings and "
        "results, the players, the rapid and blitz events, the calendar. Exact numbers are "
        "strings (see the schemas). Every answer carries an ETag (send it back as "
        "If-None-Match for a 304) and may be read from any website (CORS, GET only)."
    ),
    urls_namespace=NAMESPACE,
    docs_url="/docs",
    openapi_url="/openapi.json",
)
router = Router()

# Every status an endpoint answers, with its body: the view's 200; a request refused before
# any view (400: a NUL character, config/middleware.py); a path that names nothing
# (404); a value spelled otherwise than the one way (422: ids are plain digits, dates
# YYYY-MM-DD; an id otherwise spelled matches no path and is a 404); too many requests
# (429, competition/api/http.py).
REFUSALS: dict[int, Any] = {400: s.Problem, 404: s.Problem, 422: s.Invalid, 429: s.Problem}


def answers(schema: Any) -> dict[int, Any]:
    return {200: schema, **REFUSALS}


def _url(name: str, *args: Any) -> str:
    return reverse(f"{NAMESPACE}:{name}", args=args)


def _exact(value: Decimal | Fraction | int | None) -> str | None:
    return None if value is None else _num(value)


def _num(value: Decimal | Fraction | int) -> str:
    """An exact number as a string: a decimal as stored, a fraction as a decimal when it
    has a finite one, else ``p/q``."""
    if isinstance(value, Decimal):
        return str(value)
    value = Fraction(value)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _player(player: Player) -> s.PlayerRef:
    return s.PlayerRef(id=player.pk, name=selectors.public_name(player.member),
                       rating=player.member.rating, api=_url("player", player.pk))


def _season(slug: str) -> Season:
    return get_object_or_404(Season.objects.select_related("competition"), slug=slug)


def _half(season: Season, kind: str):
    if kind not in HalfKind.values:
        raise Http404
    return get_object_or_404(season.halves, kind=kind)


def _halves(season: Season) -> list[s.HalfOut]:
    return [
        s.HalfOut(kind=h.kind, start_date=h.start_date,
                  standings=_url("standings", season.slug, h.kind))
        for h in season.halves.order_by("start_date")
    ]


@router.get("/", response=answers(s.Index), url_name="index", summary="Where everything is")
def index(request: HttpRequest):
    return s.Index(
        club=site_name(), version="1", seasons=_url("seasons"),
        feed=reverse("website:feed"), openapi=_url("openapi-json"), docs=_url("openapi-view"),
    )


@router.get("/seasons", response=answers(list[s.SeasonOut]), url_name="seasons",
            summary="Every season, newest first, with its halves")
def seasons(request: HttpRequest):
    current = selectors.current_season()
    found = Season.objects.select_related("competition").prefetch_related("halves").order_by(
        "-start_date")
    return [
        s.SeasonOut(
            slug=season.slug, name=season.name, start_date=season.start_date,
            end_date=season.end_date, competition=season.competition.name,
            system=season.competition.system, current=current is not None and season.pk == current.pk,
            halves=[s.HalfOut(kind=h.kind, start_date=h.start_date,
                              standings=_url("standings", season.slug, h.kind))
                    for h in sorted(season.halves.all(), key=lambda h: h.start_date)],
            links={"calendar": _url("calendar", season.slug), "events": _url("events", season.slug)},
        )
        for season in found
    ]


@router.get("/seasons/{season}/halves/{half}/standings", response=answers(s.StandingsOut),
            url_name="standings", summary="The standings of a half after an evening")
def standings(request: HttpRequest, season: str, half: str, after: s.Day | None = None):
    """The latest standings of the half, or with ``after`` those after that evening:
    every column of the standings page."""
    season_obj = _season(season)
    half_obj = _half(season_obj, half)
    snapshot, rows = selectors.standings_after(half_obj, after)
    if after is not None and snapshot is None:
        raise HttpError(404, "No standings after that evening.")
    # The prize marks are those of the latest standings: none for an earlier evening.
    marks = prize_selectors.eligibility_marks(half_obj) if after is None else None
    before = selectors.ranks_before(half_obj, snapshot.evening.date) if snapshot else {}
    return s.StandingsOut(
        season=season_obj.slug, half=half_obj.kind, system=season_obj.competition.system,
        after=snapshot.evening.date if snapshot else None,
        cycle_orders=snapshot.cycle_orders if snapshot else 0,
        evenings=[snap.evening.date for snap in selectors.standings_snapshots(half_obj)],
        rows=[_standing(row, None if marks is None else marks.get(row.player_id, True),
                        before.get(row.player_id))
              for row in rows],
        links=s.Link(page=reverse("competition:standings_half", args=[season_obj.slug, half_obj.kind]),
                     api=_url("standings", season_obj.slug, half_obj.kind)),
    )


def _standing(row: Any, eligible: bool | None, previous: tuple[int, Any] | None) -> s.StandingRow:
    percentage = row.percentage
    return s.StandingRow(
        rank=row.rank, player=_player(row.player), start=row.player.start,
        score=_num(row.score), score_exact=row.score_exact, value=_exact(row.value),
        points=_exact(row.points), pairing_points=_exact(row.pairing_points),
        games=row.games, won=row.won, drawn=row.drawn, lost=row.lost,
        percentage=int(percentage) if percentage is not None else None,
        colour_balance=row.colour_balance, whites=row.whites, blacks=row.blacks,
        byes=row.byes, absent_with_notice=row.absent_with_notice,
        absent_without_notice=row.absent_without_notice, club_duty=row.club_duty,
        game_points=_num(row.game_points), group=row.group, eligible=eligible,
        change=None if previous is None else previous[0] - row.rank,
    )


def _evening_summary(evening: Evening) -> dict[str, Any]:
    day = evening.date.isoformat()
    return dict(
        date=evening.date, kind=evening.kind, half=evening.half.kind if evening.half else None,
        status=evening.status, starts_at=evening.starts_at, deadline=evening.deadline,
        note=evening.note,
        links=s.Link(page=reverse("competition:evening", args=[day]),
                     api=_url("evening", evening.season.slug, day)),
    )


@router.get("/seasons/{season}/calendar", response=answers(s.CalendarOut), url_name="calendar",
            summary="The season's evenings: playing, rapid, closed, playoff")
def calendar(request: HttpRequest, season: str):
    season_obj = _season(season)
    return s.CalendarOut(
        season=season_obj.slug, halves=_halves(season_obj),
        evenings=[s.EveningSummary(**_evening_summary(e))
                  for e in selectors.season_evenings(season_obj).select_related("season")],
    )


@router.get("/seasons/{season}/evenings/{day:date}", response=answers(s.EveningOut), url_name="evening",
            summary="An evening: its pairing, bye, results and absences")
def evening(request: HttpRequest, season: str, date: s.Day):
    evening_obj = selectors.evening_by_date(date, season)
    if evening_obj is None:
        raise HttpError(404, "No evening on that date.")
    page = selectors.evening_page(evening_obj)
    published = page["published"]
    return s.EveningOut(
        **_evening_summary(evening_obj), season=evening_obj.season.slug, published=published,
        games=[
            s.Board(board=g.board, white=_player(g.white), black=_player(g.black),
                    result=g.result, tempo=g.tempo, note=g.note)
            for g in page["games"]
        ] if published else [],
        bye=_player(page["bye"].player) if published and page["bye"] else None,
        absent_with_notice=[_player(p) for p in page["absent_with_notice"]],
        absent_without_notice=[_player(p) for p in page["absent_without_notice"]],
        club_duty=[_player(p) for p in page["club_duty"]],
        signed_up=None if published else len(page["coming"]),
    )


@router.get("/players/{id:player_id}", response=answers(s.PlayerOut), url_name="player",
            summary="A player of a season: his games, how his total is made up, his TPR")
def player(request: HttpRequest, player_id: int):
    player_obj = get_object_or_404(
        Player.objects.select_related("member", "season__competition"), pk=player_id)
    page = selectors.player_page(player_obj)
    performances = rating_selectors.half_performances(player_obj)
    names = {p.pk: p for p in player_obj.season.players.select_related("member")}
    halves = []
    for entry in page["explained"]:
        row, half = entry["row"], entry["half"]
        detail = prize_selectors.eligibility_detail(half, player_obj)
        halves.append(s.PlayerHalf(
            half=half.kind, after=row.snapshot.evening.date, rank=row.rank,
            score=_num(row.score), value=_exact(row.value), points=_exact(row.points),
            tpr=performances.get(half.pk), cycle_orders=row.snapshot.cycle_orders,
            eligibility=s.EligibilityOut(
                eligible=detail.eligible, evenings=detail.evenings,
                absent_without_notice=detail.absent_without_notice, games=detail.games,
                exempted=detail.exempted, overridden=detail.overridden,
            ) if detail else None,
            rounding=_num(entry["rounding"]),
            lines=[_line(line, names) for line in entry["lines"]],
        ))
    games = []
    for g in page["games"]:
        white = g.white_id == player_obj.pk
        games.append(s.GameLine(
            date=g.evening.date, board=g.board, colour="white" if white else "black",
            opponent=_player(g.black if white else g.white), result=g.result,
        ))
    return s.PlayerOut(
        id=player_obj.pk, name=selectors.public_name(player_obj.member),
        season=player_obj.season.slug, kind=player_obj.kind, rating=player_obj.rating,
        start=player_obj.start, games=games, halves=halves,
        places=[s.PlaceAfter(date=d, half=kind, rank=rank) for d, rank, kind in page["places"]],
        links=s.Link(page=reverse("competition:player", args=[player_obj.pk]),
                     api=_url("player", player_obj.pk)),
    )


def _line(line: dict[str, Any], players: dict[int, Player]) -> s.ExplanationLine:
    opponent = players.get(line["opponent"]) if line.get("opponent") is not None else None
    return s.ExplanationLine(
        date=line.get("date"), outcome=line["outcome"],
        opponent=_player(opponent) if opponent else None,
        value=_exact(line.get("value")), points=_num(line["points"]),
        exact=line.get("exact"), delta=_exact(line.get("delta")), bonus=_exact(line.get("bonus")),
        over_limit=bool(line.get("over_limit")),
    )


def _event_summary(event: SwissEvent, entrants: int) -> dict[str, Any]:
    return dict(
        id=event.pk, name=event.name, kind=event.kind, date=event.date,
        half=event.half.kind if event.half else None, rounds=event.rounds, entrants=entrants,
        links=s.Link(page=reverse("events:event", args=[event.pk]), api=_url("event", event.pk)),
    )


@router.get("/seasons/{season}/events", response=answers(s.EventsOut), url_name="events",
            summary="The season's rapid and blitz events")
def events(request: HttpRequest, season: str):
    season_obj = _season(season)
    return s.EventsOut(season=season_obj.slug, events=[
        s.EventSummary(**_event_summary(e, e.entrant_count))  # type: ignore[attr-defined]
        for e in event_selectors.season_events(season_obj)
    ])


def _entrant(entrant: Any) -> s.EntrantRef:
    name = selectors.public_name(entrant.member) if entrant.member_id else entrant.guest_name
    return s.EntrantRef(number=entrant.number, name=name, guest=entrant.is_guest,
                        rating=entrant.rating)


@router.get("/events/{id:event_id}", response=answers(s.EventOut), url_name="event",
            summary="An event: its rounds and standings with the tie-breaks")
def event(request: HttpRequest, event_id: int):
    event_obj = get_object_or_404(SwissEvent.objects.select_related("season", "half"), pk=event_id)
    page = event_selectors.event_page(event_obj)
    return s.EventOut(
        **_event_summary(event_obj, len(page["entrants"])), season=event_obj.season.slug,
        tiebreak_order=event_obj.tiebreak_order, columns=list(page["columns"]),
        rounds_done=page["rounds_done"], finished=page["finished"],
        round_list=[
            s.RoundSummary(number=r.number, status=r.status,
                           date=r.evening.date if r.evening else None, starts_at=r.starts_at,
                           api=_url("round", event_obj.pk, r.number))
            for r in page["rounds"]
        ],
        standings=[
            s.EventStanding(rank=row.rank, entrant=_entrant(row.entrant),
                            points=_num(row.points), direct_encounter=row.de,
                            tiebreaks={code: _num(v) for code, v in row.tiebreaks},
                            needs_decider=row.needs_decider)
            for row in page["rows"]
        ],
    )


@router.get("/events/{id:event_id}/rounds/{id:number}", response=answers(s.RoundOut), url_name="round",
            summary="A round of an event: its boards and results")
def event_round(request: HttpRequest, event_id: int, number: int):
    rnd = get_object_or_404(SwissRound.objects.select_related("event__season", "evening"),
                            event_id=event_id, number=number)
    page = event_selectors.round_page(rnd)
    return s.RoundOut(
        event=event_id, number=rnd.number, status=rnd.status,
        games=[
            s.EventBoard(board=g.board, white=_entrant(g.white), black=_entrant(g.black),
                         white_points=_exact(g.white_points), black_points=_exact(g.black_points),
                         forfeit=g.forfeit, result=g.result_text)
            for g in page["games"]
        ],
        bye=_entrant(page["bye"].white) if page["bye"] else None,
        links=s.Link(page=reverse("events:round", args=[event_id, rnd.number]),
                     api=_url("round", event_id, rnd.number)),
    )


api.add_router("", router)
