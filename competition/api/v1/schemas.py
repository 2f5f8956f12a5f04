"""The typed shapes of API v1 (pydantic, through django-ninja): the OpenAPI document is
generated from these.

Numbers: counts and places are integers. Points, values and tie-breaks are exact and so
are strings: a decimal as the engine stores it (``"41.67"``: the two decimals the pages
show; ``score_exact`` keeps the exact fraction, ``"125/3"``), an event's points and
tie-breaks as their exact value (``"3.5"``; a fraction that has no finite decimal as
``"p/q"``). Dates are ISO 8601 (``2026-11-27``), times with their UTC offset.
Codes (``kind``, ``status``, ``result``, ``outcome``) are the same in every language.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any

from ninja import Schema
from pydantic import BeforeValidator, Field

Exact = str  # an exact number as a string (see above)

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _one_spelling(value: Any) -> Any:
    """A date in a path or query is written YYYY-MM-DD only: pydantic alone also takes
    ``2026-11-27T00:00`` and ``1795737600``, each a cache key of its own for one answer."""
    if not (isinstance(value, str) and _DAY.fullmatch(value)):
        raise ValueError("a date is written YYYY-MM-DD")
    return value


Day = Annotated[dt.date, BeforeValidator(_one_spelling)]


class Problem(Schema):
    """The answer of a refusal: a request refused before any view (400), not found (404),
    too many requests (429)."""

    detail: str


class InvalidValue(Schema):
    loc: list[str | int] = Field(description="Where: the part of the request and the name.")
    msg: str
    type: str


class Invalid(Schema):
    """The answer to a value the endpoint does not take (422): a date not written
    YYYY-MM-DD, for one."""

    detail: list[InvalidValue]


class Link(Schema):
    page: str | None = Field(None, description="The page on the site that shows the same.")
    api: str | None = Field(None, description="This resource in the API.")


class Index(Schema):
    club: str
    version: str
    seasons: str = Field(description="Where the seasons are listed.")
    feed: str = Field(description="The Atom feed of published pairings and results.")
    openapi: str
    docs: str


class HalfOut(Schema):
    kind: str = Field(description="winter or summer (the ladder's one period: season).")
    start_date: dt.date
    standings: str = Field(description="The latest standings of this half in the API.")


class SeasonOut(Schema):
    slug: str
    name: str
    start_date: dt.date
    end_date: dt.date
    competition: str
    system: str = Field(description="pion, classic, keizer1956 or ladder")
    current: bool
    halves: list[HalfOut]
    links: dict[str, str]


class PlayerRef(Schema):
    id: int
    name: str = Field(description="The member's public name.")
    rating: int | None = Field(description="His KNSB rating, as the pages show it beside his name.")
    api: str


class StandingRow(Schema):
    rank: int
    player: PlayerRef
    start: int = Field(description="Starting position in the season (ladder: van).")
    score: Exact = Field(description="Keizer: the total; ladder: progress since the start.")
    score_exact: Exact
    value: Exact | None = Field(description="Keizer value of the place (ladder: null).")
    points: Exact | None = Field(description="Ladder points (Keizer: null).")
    pairing_points: Exact | None = Field(description="Ladder points without bonuses.")
    games: int
    won: int
    drawn: int
    lost: int
    percentage: int | None = Field(description="Game points over games, in percent.")
    colour_balance: int = Field(description="Whites minus blacks.")
    whites: int
    blacks: int
    byes: int
    absent_with_notice: int
    absent_without_notice: int
    club_duty: int
    game_points: Exact
    group: int | None = Field(description="Ladder group 1-4.")
    eligible: bool | None = Field(
        description="Competes for a prize (the page's mark); null for earlier standings.")
    change: int | None = Field(
        description="Places gained since the evening before (▲2 is 2, ▼1 is -1); null for a "
                    "newcomer or the half's first evening.")


class StandingsOut(Schema):
    season: str
    half: str
    system: str
    after: dt.date | None = Field(description="The evening these standings follow.")
    cycle_orders: int = Field(
        description="When the recalculation alternated between orders: how many (the "
                    "totals are the average); 0 otherwise.")
    evenings: list[dt.date] = Field(description="Every evening with standings: ?after= one of these.")
    rows: list[StandingRow]
    links: Link


class EveningSummary(Schema):
    date: dt.date
    kind: str = Field(description="playing, rapid, closed, playoff or free")
    half: str | None
    status: str = Field(description="open, closed or published (the pairing)")
    starts_at: dt.datetime
    deadline: dt.datetime = Field(description="The sign-up deadline.")
    note: str
    links: Link


class CalendarOut(Schema):
    season: str
    halves: list[HalfOut]
    evenings: list[EveningSummary]


class Board(Schema):
    board: int
    white: PlayerRef
    black: PlayerRef
    result: str = Field(description="1-0, 1/2-1/2, 0-1, 1-0F, 0-1F, 0-0F, postponed; '' not yet.")
    tempo: str
    note: str


class EveningOut(EveningSummary):
    season: str
    published: bool
    games: list[Board]
    bye: PlayerRef | None
    absent_with_notice: list[PlayerRef]
    absent_without_notice: list[PlayerRef]
    club_duty: list[PlayerRef]
    signed_up: int | None = Field(
        description="Before the pairing: how many are coming so far; null once published.")


class GameLine(Schema):
    date: dt.date
    board: int
    colour: str = Field(description="white or black")
    opponent: PlayerRef
    result: str


class ExplanationLine(Schema):
    date: dt.date | None
    outcome: str
    opponent: PlayerRef | None
    value: Exact | None = Field(description="Keizer: the value scored against.")
    points: Exact
    exact: Exact | None = Field(description="Keizer: the exact points of the line.")
    delta: Exact | None = Field(description="Ladder: the game's delta.")
    bonus: Exact | None = Field(description="Ladder: the attendance bonus.")
    over_limit: bool


class EligibilityOut(Schema):
    eligible: bool
    evenings: int
    absent_without_notice: int
    games: int
    exempted: int
    overridden: bool = Field(description="Decided by the administrator.")


class PlayerHalf(Schema):
    half: str
    after: dt.date
    rank: int
    score: Exact
    value: Exact | None
    points: Exact | None
    tpr: int | None = Field(description="Performance rating (FIDE) over the half's games.")
    cycle_orders: int
    eligibility: EligibilityOut | None
    rounding: Exact = Field(description="The lines' rounded points minus the total.")
    lines: list[ExplanationLine]


class PlaceAfter(Schema):
    date: dt.date
    half: str
    rank: int


class PlayerOut(Schema):
    id: int
    name: str
    season: str
    kind: str = Field(description="fixed or flexible")
    rating: int | None
    start: int
    games: list[GameLine]
    halves: list[PlayerHalf]
    places: list[PlaceAfter]
    links: Link


class EventSummary(Schema):
    id: int
    name: str
    kind: str = Field(description="rapid, blitz or blitz_playoff")
    date: dt.date | None
    half: str | None
    rounds: int
    entrants: int
    links: Link


class EventsOut(Schema):
    season: str
    events: list[EventSummary]


class RoundSummary(Schema):
    number: int
    status: str
    date: dt.date | None
    starts_at: dt.datetime | None
    api: str


class EntrantRef(Schema):
    number: int
    name: str
    guest: bool
    rating: int | None


class EventStanding(Schema):
    rank: int
    entrant: EntrantRef
    points: Exact
    direct_encounter: int | None
    tiebreaks: dict[str, Exact] = Field(description="By FIDE code: BH-M1, SB, BH, ...")
    needs_decider: bool


class EventOut(EventSummary):
    season: str
    tiebreak_order: str
    columns: list[str] = Field(description="The tie-breaks the standings show, in order.")
    rounds_done: int
    finished: bool
    round_list: list[RoundSummary]
    standings: list[EventStanding]


class EventBoard(Schema):
    board: int
    white: EntrantRef
    black: EntrantRef
    white_points: Exact | None
    black_points: Exact | None
    forfeit: bool
    result: str = Field(description="As the page writes it: 1-0, 1½-½; … while not in.")


class RoundOut(Schema):
    event: int
    number: int
    status: str
    games: list[EventBoard]
    bye: EntrantRef | None
    links: Link
