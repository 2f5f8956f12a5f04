"""The season calendar proposal (docs/rules.md 2), pure Python.

From the season's opening date, its last day, the KNSB round dates, the closed dates and
any extra rapid evenings, propose every Friday's kind and the two halves. The leader may
correct the proposal afterwards; this is only the rule.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

FRIDAY = 4


class CalendarRefusal(enum.Enum):
    """Why a calendar cannot be made: a code the shell words in the member's language
    (``competition.season.texts``); the value is the English text."""

    ENDS_BEFORE_OPENING = "The season must end after its opening."
    HALF_WITHOUT_EVENINGS = "A half needs at least one playing evening."
    DEADLINE_AFTER_START = "The sign-up deadline must be before the evening starts."


class CalendarError(ValueError):
    """A calendar the rules refuse; ``code`` says why."""

    def __init__(self, code: CalendarRefusal) -> None:
        self.code = code
        super().__init__(code.value)

CLUB_TZ = ZoneInfo("Europe/Amsterdam")

PLAYING = "playing"
RAPID = "rapid"
CLOSED = "closed"
PLAYOFF = "playoff"
FREE = "free"  # a Friday between or after the halves: no competition that evening


@dataclass(frozen=True)
class ProposedEvening:
    date: dt.date
    kind: str  # playing, rapid, closed, playoff, free
    half: str | None  # "winter", "summer", "season" or None
    reason: str = ""  # a code: see REASONS
    playoff_evening: int = 0  # 1, 2, 3 for the playoff evenings


# Why a Friday got its kind (translated for the note by the application).
VENUE_CLOSED = "venue_closed"
RAPID_EVENING = "rapid_evening"
FIRST_FRIDAY_OF_JANUARY = "first_friday_of_january"
PLAYOFFS = "playoffs"
AFTER_THE_COMPETITION = "after_the_competition"


@dataclass(frozen=True)
class CalendarProposal:
    evenings: tuple[ProposedEvening, ...]
    winter_start: dt.date | None
    summer_start: dt.date | None

    def playing(self, half: str) -> list[ProposedEvening]:
        return [e for e in self.evenings if e.kind == PLAYING and e.half == half]


def fridays(start: dt.date, end: dt.date) -> list[dt.date]:
    """Every Friday strictly after ``start`` up to and including ``end``."""
    first = start + dt.timedelta(days=(FRIDAY - start.weekday()) % 7 or 7)
    return [first + dt.timedelta(weeks=i) for i in range((end - first).days // 7 + 1)]


def rapid_fridays(knsb_rounds: Iterable[dt.date]) -> set[dt.date]:
    """The Friday before each KNSB round (the last Friday strictly before it)."""
    result = set()
    for day in knsb_rounds:
        back = (day.weekday() - FRIDAY) % 7 or 7
        result.add(day - dt.timedelta(days=back))
    return result


def _is_first_friday_of_january(day: dt.date) -> bool:
    return day.month == 1 and day.day <= 7


def propose_calendar(
    *,
    opening: dt.date,
    last_day: dt.date,
    knsb_rounds: Iterable[dt.date] = (),
    closed: Iterable[dt.date] = (),
    extra_rapid: Iterable[dt.date] = (),
    evenings_per_half: int = 10,
    playoff_evenings: int = 3,
    single_period: bool = False,
) -> CalendarProposal:
    """Propose the season's Fridays and its halves.

    Winter starts on the first Friday after the opening that is not a rapid evening (nor
    closed). Summer starts on the first Friday after ``evenings_per_half`` winter playing
    evenings that is not the first Friday of January and not a rapid evening. Summer spans
    as many playing evenings; the playoff evenings follow it. ``single_period`` (the
    ladder) makes every available Friday a playing evening of one period, ``season``.
    """
    if last_day <= opening:
        raise CalendarError(CalendarRefusal.ENDS_BEFORE_OPENING)
    if evenings_per_half < 1:
        raise CalendarError(CalendarRefusal.HALF_WITHOUT_EVENINGS)
    rapid = rapid_fridays(knsb_rounds) | set(extra_rapid)
    closed_days = set(closed)
    evenings: list[ProposedEvening] = []
    winter_start = summer_start = None
    winter_count = summer_count = playoffs = 0

    for day in fridays(opening, last_day):
        if day in closed_days:
            evenings.append(ProposedEvening(day, CLOSED, None, VENUE_CLOSED))
            continue
        if day in rapid:
            evenings.append(ProposedEvening(day, RAPID, None, RAPID_EVENING))
            continue
        if single_period:
            winter_start = winter_start or day
            evenings.append(ProposedEvening(day, PLAYING, "season"))
            continue
        if winter_count < evenings_per_half:
            winter_start = winter_start or day
            winter_count += 1
            evenings.append(ProposedEvening(day, PLAYING, "winter"))
        elif summer_count == 0 and _is_first_friday_of_january(day):
            evenings.append(ProposedEvening(day, FREE, None, FIRST_FRIDAY_OF_JANUARY))
        elif summer_count < evenings_per_half:
            summer_start = summer_start or day
            summer_count += 1
            evenings.append(ProposedEvening(day, PLAYING, "summer"))
        elif playoffs < playoff_evenings:
            playoffs += 1
            evenings.append(ProposedEvening(day, PLAYOFF, None, PLAYOFFS, playoffs))
        else:
            evenings.append(ProposedEvening(day, FREE, None, AFTER_THE_COMPETITION))
    return CalendarProposal(tuple(evenings), winter_start, summer_start)


def evening_times(
    day: dt.date,
    *,
    start: dt.time = dt.time(20, 15),
    deadline_days_before: int = 1,
    deadline_time: dt.time = dt.time(18, 0),
    tz: dt.tzinfo = CLUB_TZ,
) -> tuple[dt.datetime, dt.datetime]:
    """The evening's start and sign-up deadline as aware datetimes in the club's zone
    ``tz`` (``Club.time_zone``, which every service passes; Amsterdam only for a season
    file, which carries none).

    Built from wall-clock times with zoneinfo, so Thursday 18:00 stays 18:00 on both sides
    of the change to and from summer time.
    """
    starts_at = dt.datetime.combine(day, start, tzinfo=tz)
    deadline_day = day - dt.timedelta(days=deadline_days_before)
    deadline = dt.datetime.combine(deadline_day, deadline_time, tzinfo=tz)
    if deadline > starts_at:
        raise CalendarError(CalendarRefusal.DEADLINE_AFTER_START)
    return starts_at, deadline
