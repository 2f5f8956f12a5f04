"""A whole season in and out of the database as a season file (docs/season-file.md).

`season_import` writes a validated `SeasonInput` in one transaction (all or nothing) and
stores its standings; `season_to_input` reads a season back through the same reading the
standings use (`competition.season.standings.load_season_data`); `season_export` dumps it.

File player ids are kept in the imported members' e-mail addresses
(``player-<id>@import.invalid``), so that exporting an imported season gives its file
back: ``season_export(season_import(load_season(f))) == dump_season(load_season(f))`` for
a file that lists its players in starting order.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from competition import audit
from competition.audit import Action
from competition.models import (
    Attendance,
    Bye,
    Competition,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Half,
    HalfKind,
    Player,
    PlayerKind,
    Registration,
    Season,
)
from competition.scoring import types as t
from competition.scoring.params import parameters_to_dict, preset
from competition.scoring.presets import COMPETITION_PRESETS
from competition.season.engine.calendar import evening_times
from competition.season.engine.seasonfile import SeasonFileError, dump_season, load_season
from competition.season.standings import load_season_data, recalculate_season
from core.dates import club_tz
from core.pagecache import pages_changed
from core.permissions import Perm, require
from core.singleline import is_single_line
from core.tenancy.context import club_in_hand
from members.clubs.roles import PLAYER
from members.models import Actor, Club, Membership, User

IMPORT_DOMAIN = "import.invalid"
_IMPORT_EMAIL = re.compile(r"^player-(-?\d+)(?:\.\d+)?@import\.invalid$")
_EVERY_EVENING = dt.date.max  # load_season_data(today=...): every published evening


class SeasonImportError(ValueError):
    """The season cannot be imported; the message says why, in one line."""


# --- Reading a season file from disk ------------------------------------------------------


def read_season_file(path: str | Path) -> t.SeasonInput:
    """Read, parse and validate a season file. Raises `SeasonFileError` with one line that
    starts with the path: unreadable file, invalid JSON (line and column), invalid season."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as error:
        raise SeasonFileError(f"{path}: cannot read the file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise SeasonFileError(f"{path}: the file is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SeasonFileError(
            f"{path}: invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise SeasonFileError(f"{path}: invalid JSON: nested too deeply") from None
    except ValueError:  # an integer of more than 4300 digits
        raise SeasonFileError(f"{path}: invalid JSON: a number too long to read") from None
    try:
        return load_season(data)
    except SeasonFileError as error:
        raise SeasonFileError(f"{path}: {error}") from None


# --- Import ------------------------------------------------------------------------------


def season_import(
    *, data: t.SeasonInput, name: str | None = None, actor: Actor | None, system: bool = False,
    club: Club | None = None,
) -> Season:
    """Create a season with everything the file holds, and its standings; all or nothing.

    The command line (the server's operator) says ``actor=None, system=True``; a person
    needs ``manage_season``. The season is ``club``'s, else the club of the work in hand
    (outside every club: ``NoClub``). Raises `SeasonImportError` with one line when the database cannot
    hold the file (see docs/season-file.md, "Import and export").
    """
    club = club or club_in_hand()
    require(actor, Perm.MANAGE_SEASON, of=club, system=system)
    name = name or _name_from_dates(data)
    _check_importable(data, name, club)
    try:
        with transaction.atomic():
            season = write_season(data, name, club)
            audit.record(
                actor=actor,
                action=Action.SEASON_IMPORT,
                season=season,
                after={"name": name, "players": len(data.players), "evenings": len(data.evenings)},
            )
            pages_changed()
            recalculate_season(season.pk, today=data.evenings[-1].date)
    except DatabaseError as error:  # a constraint the checks above did not foresee
        message = " ".join(str(error).split())
        raise SeasonImportError(f"the database refused the season: {message}") from None
    return season


def _name_from_dates(data: t.SeasonInput) -> str:
    if not data.evenings:
        return ""
    first, last = data.evenings[0].date.year, data.evenings[-1].date.year
    return f"{first}-{last}" if last != first else str(first)


def _check_importable(data: t.SeasonInput, name: str, club: Club) -> None:
    """What a valid season file may hold but the database cannot."""
    if not data.evenings:
        raise SeasonImportError("the season file has no evenings: nothing to date the season by")
    if not name.strip():
        raise SeasonImportError("the season needs a name (--name)")
    if not is_single_line(name):
        raise SeasonImportError(f"season name {name!r}: one line, without control characters")
    if len(name) > 40 or not slugify(name):
        raise SeasonImportError(f"season name {name!r}: at most 40 characters, with letters or digits")
    if club.seasons.filter(Q(name=name) | Q(slug=slugify(name))).exists():
        raise SeasonImportError(
            f"a season named {name!r} exists already; choose another name with --name"
        )
    for p in data.players:
        if p.rating is not None and not 0 <= p.rating <= 3500:
            raise SeasonImportError(f"rating {p.rating} of player {p.id} must be from 0 to 3500")
        if len(p.name) > 120:
            raise SeasonImportError(f"the name of player {p.id} is longer than 120 characters")
        if p.start_points is not None:
            _start_points(p)
    for e in data.evenings:
        if len(e.byes) > 1:
            raise SeasonImportError(
                f"evening {e.date} has {len(e.byes)} pairing byes; the database holds one an evening"
            )


def _start_points(player: t.Player) -> Decimal | None:
    if player.start_points is None:
        return None
    hundredths = player.start_points * 100
    if hundredths.denominator != 1 or abs(hundredths) >= 10**8:
        raise SeasonImportError(
            f"start points {player.start_points} of player {player.id}: the database keeps at "
            "most two decimals and six digits before the point"
        )
    return Decimal(hundredths.numerator) / 100


def write_season(data: t.SeasonInput, name: str, club: Club,
                 members: Mapping[int, User] | None = None) -> Season:
    """The season of ``data`` for ``club`` in the caller's transaction; its players are
    ``members`` (by file id, saved already: the history import's matched members and former
    players), or else the import's own members (``_members``)."""
    dates = [e.date for e in data.evenings]
    season = Season.objects.create(
        club=club,
        name=name,
        slug=slugify(name),
        start_date=dates[0],
        end_date=max(dates[-1], dates[0] + dt.timedelta(days=1)),
    )
    competition = Competition.objects.create(
        season=season,
        system=data.system,
        parameters=parameters_to_dict(data.params),
        **COMPETITION_PRESETS[data.system],
    )
    halves = _halves(season, data)
    members = members if members is not None else _members(data.players, season.club)
    players = Player.objects.bulk_create(
        Player(
            season=season,
            member=members[p.id],
            kind=PlayerKind.FIXED if p.fixed else PlayerKind.FLEXIBLE,
            rating=p.rating,
            start=p.start,
            start_points=_start_points(p),
        )
        for p in data.players
    )
    pk = {p.id: row.pk for p, row in zip(data.players, players, strict=True)}
    evenings = Evening.objects.bulk_create(
        _evening(season, competition, halves, e) for e in data.evenings
    )
    games, byes, registrations = [], [], []
    fixed = [p.id for p in data.players if p.fixed]
    for e, row in zip(data.evenings, evenings, strict=True):
        if row.status == EveningStatus.OPEN and (e.games or e.byes):
            raise SeasonImportError(f"evening {e.date} is still to come but has games or byes")
        games += [
            Game(evening=row, board=board, white_id=pk[g.white], black_id=pk[g.black], result=g.result)
            for board, g in enumerate(e.games, start=1)
        ]
        byes += [Bye(evening=row, player_id=pk[p]) for p in e.byes]
        registrations += _registrations(row, e, pk, fixed)
    Game.objects.bulk_create(games)
    Bye.objects.bulk_create(byes)
    Registration.objects.bulk_create(registrations)
    return season


def _halves(season: Season, data: t.SeasonInput) -> dict[str | None, Half]:
    """Winter from its first evening, summer from its first; the ladder: one period."""
    firsts: dict[str | None, dt.date] = {}
    for e in data.evenings:
        firsts.setdefault(e.half, e.date)
    return {
        half: Half.objects.create(
            season=season, kind=HalfKind.SEASON if half is None else half, start_date=first
        )
        for half, first in firsts.items()
    }


def _evening(
    season: Season, competition: Competition, halves: Mapping[str | None, Half], e: t.Evening
) -> Evening:
    starts_at, deadline = evening_times(
        e.date,
        start=competition.start_time,
        deadline_days_before=competition.deadline_days_before,
        deadline_time=competition.deadline_time,
        tz=club_tz(),
    )
    # An evening still to come is planned: sign-ups open, paired (and e-mailed) at its
    # deadline like any other; never published by the import, so nobody is e-mailed.
    planned = starts_at > timezone.now()
    return Evening(
        season=season,
        half=halves[e.half],
        date=e.date,
        kind=EveningKind.PLAYING,
        status=EveningStatus.OPEN if planned else EveningStatus.PUBLISHED,
        starts_at=starts_at,
        deadline=deadline,
        published_at=None if planned else deadline,
    )



def _registrations(
    evening: Evening, e: t.Evening, pk: Mapping[int, int], fixed: Iterable[int]
) -> list[Registration]:
    """The sign-ups the file implies: absences with notice and club duty as written, and
    fixed players the evening does not mention absent without notice (without a row a
    fixed player counts as present). Flexible players without a row are absent already."""
    rows = [
        Registration(evening=evening, player_id=pk[p], status=Attendance.ABSENT_WITH_NOTICE)
        for p in e.absent_with_notice
    ]
    rows += [Registration(evening=evening, player_id=pk[p], status=Attendance.CLUB_DUTY) for p in e.club_duty]
    mentioned = e.mentioned()
    rows += [
        Registration(evening=evening, player_id=pk[p], status=Attendance.ABSENT_WITHOUT_NOTICE)
        for p in fixed
        if p not in mentioned
    ]
    return rows


def _members(players: Iterable[t.Player], club: Club) -> dict[int, User]:
    """A member per file player, keyed by file id. The address ``player-<id>@import.invalid``
    is reused when its member has the same name (the same club's next season); another
    name gets ``player-<id>.2@import.invalid`` (then .3, ...), never touching the member.
    Only the file's own addresses are read (one query, and one more per suffix still in
    question), not every imported member of the installation."""
    players = list(players)
    found: dict[int, User] = {}
    pending = players
    n = 1
    while pending:
        emails = {_import_email(p.id, n): p for p in pending}
        existing = {u.email: u for u in User.objects.filter(email__in=list(emails))}
        pending = []
        for email, p in emails.items():
            user = existing.get(email)
            if user is None:
                found[p.id] = User(email=email, name=p.name, rating=p.rating, password=make_password(None))
            elif user.name == p.name:
                found[p.id] = user
            else:  # somebody else's address: try the next suffix
                pending.append(p)
        n += 1
    members = {p.id: found[p.id] for p in players}
    User.objects.bulk_create([u for u in members.values() if u.pk is None])
    # Every player is a member of the club the season is imported into (a player already
    # a member keeps his role).
    Membership.objects.bulk_create(
        [Membership(user_id=u.pk, club=club, role=PLAYER) for u in members.values()],
        ignore_conflicts=True,
    )
    return members


def _import_email(player_id: int, n: int) -> str:
    """The n-th address an imported player may get (``_members``)."""
    return f"player-{player_id}{'' if n == 1 else f'.{n}'}@{IMPORT_DOMAIN}"


# --- Export ------------------------------------------------------------------------------


def player_file_ids(season: Season) -> dict[int, int]:
    """Player pk -> id in the season file: the id in an import address, else the pk; an id
    taken already (by an imported player) becomes the next free number above all."""
    rows = list(
        Player.objects.filter(season=season).order_by("start").values_list("pk", "member__email")
    )
    from_email = {}
    for pk, email in rows:
        match = _IMPORT_EMAIL.match(email or "")
        if match:
            from_email[pk] = int(match.group(1))
    ids: dict[int, int] = {}
    taken: set[int] = set()
    for pk, _email in rows:  # imported ids first: they are what a round trip must keep
        if pk in from_email and from_email[pk] not in taken:
            ids[pk] = from_email[pk]
            taken.add(ids[pk])
    for pk, _email in rows:
        if pk not in ids:
            ids[pk] = pk if pk not in taken else max(taken | {pk}) + 1
            taken.add(ids[pk])
    return ids


def season_to_input(season: Season) -> t.SeasonInput:
    """The season as a season file holds it: every published playing evening (results not
    yet entered are postponed), players in starting order, ids as `player_file_ids`."""
    data = load_season_data(season, today=_EVERY_EVENING)
    ids = player_file_ids(season)
    # load_season_data reads sign-ups unordered; keep the order they were written in.
    written = {
        key: n
        for n, key in enumerate(
            Registration.objects.filter(
                evening__season=season,
                status__in=[Attendance.ABSENT_WITH_NOTICE, Attendance.CLUB_DUTY],
            )
            .order_by("pk")
            .values_list("evening__date", "player_id")
        )
    }

    def listed(date: dt.date, pks: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(ids[p] for p in sorted(pks, key=lambda p: written.get((date, p), 0)))

    players = tuple(
        t.Player(ids[p.id], p.name, p.rating, p.start, p.fixed, p.start_points)
        for p in data.players
    )
    evenings = tuple(
        t.Evening(
            date=e.date,
            half=e.half,
            games=tuple(t.Game(ids[g.white], ids[g.black], g.result) for g in e.games),
            byes=tuple(ids[p] for p in e.byes),
            absent_with_notice=listed(e.date, e.absent_with_notice),
            club_duty=listed(e.date, e.club_duty),
        )
        for e in data.evenings
    )
    full, base = parameters_to_dict(data.params), preset(data.system)
    overrides = {key: value for key, value in full.items() if base.get(key) != value}
    return t.SeasonInput(data.system, data.params, overrides, players, evenings)


def season_export(season: Season) -> dict[str, Any]:
    """The season file (`season/1`) of a season in the database, checked by `load_season`."""
    exported = dump_season(season_to_input(season))
    load_season(exported)  # what we write must read back
    return exported

