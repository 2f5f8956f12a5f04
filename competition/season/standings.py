"""The shell around the standings engine: read a season's inputs from the database in a
fixed number of queries, run the pure engine, store the standings after every evening.

The engine (``competition.scoring``) knows nothing of the database; this module only
translates rows into its frozen dataclasses and its results back into rows.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson
from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from competition import scoring
from competition.models import (
    Attendance,
    Bye,
    Competition,
    EligibilityOverride,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    GameQuerySet,
    Half,
    Player,
    PlayerKind,
    Registration,
    Season,
    Standing,
    StandingsSnapshot,
    StandingsState,
)
from competition.scoring import types as t
from competition.scoring.display import exact_text, units_text
from competition.scoring.eligibility import EligibilityRule
from competition.scoring.eligibility import half_eligibility as half_eligibility_rule
from competition.scoring.incremental import LADDER, LINK_LENGTH, input_links
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.ladder import compute_ladder
from competition.scoring.params import parse_parameters
from core import jobs
from core.dates import club_today
from core.jobs import on_commit_here
from core.pagecache import standings_changed
from core.tenancy.context import current_club_id, scoping_off, tenant_key


@dataclass(frozen=True)
class SeasonData:
    """A season read from the database, in the engine's terms."""

    system: str
    params: t.KeizerParams | t.LadderParams
    players: tuple[t.Player, ...]
    evenings: tuple[t.Evening, ...]
    evening_ids: dict[dt.date, int]
    halves: dict[str, Half]
    # The administrator's eligibility decisions by half kind: {player id: eligible}.
    overrides: dict[str, dict[int, bool]] = field(default_factory=dict)
    # With ``with_snapshots``: the stored snapshots, {(half id, evening id): (pk, digest)}
    # (read with the inputs, in the same statement on PostgreSQL); None when not asked.
    snapshots: dict[tuple[int, int], tuple[int, str]] | None = field(default=None, compare=False)


def counted_evenings(season: Season, today: dt.date | None = None, *, rows: Any = None):
    """Playing evenings that count: published, and either played (date reached) or with a
    result entered already. ``rows(model)`` gives the queryset to read from (the model's
    scoped manager unless told)."""
    rows = rows or (lambda model: model.objects)
    today = today or club_today()
    with_result = rows(Game).filter(GameQuerySet.HAS_RESULT, evening=OuterRef("pk"))
    return (
        rows(Evening).filter(
            season=season, kind=EveningKind.PLAYING, status=EveningStatus.PUBLISHED
        )
        .filter(Q(date__lte=today) | Exists(with_result))
        .order_by("date")
    )


def _season_rows(model: Any) -> Any:
    """The rows of ``model`` without the club's filter: for reads bounded by a season that
    was read in its club's scope (the caller's ``Season.objects``), which are that club's
    rows already. Each query of a recalculation then costs one filter, not the club's
    nested subqueries on top (built anew by the ORM every time); the row-level security
    still binds in production (docs/architecture.md)."""
    return model._base_manager


# The season's inputs as the ORM reads them: (name, queryset of a season and a day, the
# columns the rows are ordered by). On PostgreSQL one statement reads them all
# (``_inputs_statement``); elsewhere, one query each.
_ABSENCES = [Attendance.ABSENT_WITH_NOTICE, Attendance.CLUB_DUTY]


# Every column of a half, in the model's order (``Half.from_db``).
_HALF_COLUMNS = tuple(f.attname for f in Half._meta.concrete_fields)


def _input_queries(season: Any, today: Any, with_overrides: bool = True,
                   with_snapshots: bool = True) -> list[tuple[str, Any, tuple[str, ...]]]:
    rows = _season_rows
    counted = counted_evenings(season, today, rows=rows)
    # The season's games, byes and absences, of the counted evenings and the others (an
    # evening paired, not yet played): ``load_season_data`` keeps the counted evenings'.
    in_season = {"evening__season": season}
    queries = [
        ("halves", rows(Half).filter(season=season).order_by("id").values_list(*_HALF_COLUMNS),
         ("id",)),
        ("players", rows(Player).filter(season=season).order_by("start", "pk").values_list(
            "pk", "member__name", "rating", "start", "kind", "start_points"), ("start", "pk")),
        ("evenings", counted.values_list("pk", "date", "half_id"), ("date", "pk")),
        ("games", rows(Game).filter(**in_season).order_by("board", "pk").values_list(
            "evening_id", "white_id", "black_id", "result", "board", "pk"), ("board", "pk")),
        ("byes", rows(Bye).filter(**in_season).order_by("pk").values_list(
            "evening_id", "player_id", "pk"), ("pk",)),
        ("absences", rows(Registration).filter(**in_season, status__in=_ABSENCES)
         .order_by("pk").values_list("evening_id", "player_id", "status", "pk"), ("pk",)),
    ]
    if with_overrides:
        queries.append(
            ("overrides", rows(EligibilityOverride).filter(half__season=season).order_by("pk")
             .values_list("half_id", "player_id", "eligible", "pk"), ("pk",)))
    if with_snapshots:
        # What the recalculation compares its outcome with (``_store``).
        queries.append(
            ("snapshots", rows(StandingsSnapshot).filter(half__season=season).order_by("pk")
             .values_list("pk", "half_id", "evening_id", "digest"), ("pk",)))
    return queries


# Stand-ins for the season and the day while the statement is compiled: no real season or
# evening has them, so each of their places among the parameters is known.
_SEASON_STAND_IN = -7_300_001
_DAY_STAND_IN = dt.date(1901, 2, 3)


@dataclass(frozen=True)
class _Statement:
    sql: str
    params: tuple[Any, ...]  # with the stand-ins
    # Per input: its name and, per column, how its JSON value becomes the value the ORM
    # gives (None: as it is).
    columns: tuple[tuple[str, tuple[Any, ...]], ...]


@functools.cache
def _inputs_statement() -> _Statement:
    """One PostgreSQL statement that reads every input of a season (``_input_queries``),
    each query's rows as one JSON array in a column of its own: compiled by the ORM once
    per process and run with the season and the day in their places (``_inputs_read``).
    A results night recalculates a season per result; compiling its seven queries cost
    the ORM more CPU than the rest of the reading."""
    parts, params, columns = [], [], []
    for name, queryset, order in _input_queries(_SEASON_STAND_IN, _DAY_STAND_IN):
        sql, query_params = queryset.query.sql_with_params()
        paths = list(queryset.query.values_select)
        converts = tuple(_json_value(queryset.model, path) for path in paths)
        # The rows' columns renamed by place (c0, c1, ...): each row one JSON array, a
        # decimal as its text (JSON has no decimals: read as a number, it would be a float)
        renamed = ", ".join(f"c{i}" for i in range(len(paths)))
        values = ", ".join(f"c{i}::text" if convert is _decimal else f"c{i}"
                           for i, convert in enumerate(converts))
        ordered = ", ".join(f"q.c{paths.index(path)}" for path in order)
        parts.append(f"(SELECT coalesce(jsonb_agg(jsonb_build_array({values}) ORDER BY {ordered}),"
                     f" '[]') FROM ({sql}) AS q({renamed}))")
        params.extend(query_params)
        columns.append((name, converts))
    return _Statement("SELECT " + ", ".join(parts), tuple(params), tuple(columns))


def _json_value(model: Any, path: str) -> Any:
    """How a column's JSON value becomes the value the ORM gives: a date from its text, a
    decimal from its digits; None where JSON gives it as it is (numbers, text, booleans)."""
    *steps, last = path.split("__")
    for step in steps:
        model = model._meta.get_field(step).related_model
    kind = (model._meta.pk if last == "pk" else model._meta.get_field(last)).get_internal_type()
    if kind == "DateField":
        return _date
    if kind == "DecimalField":
        return _decimal
    if kind not in ("AutoField", "BigAutoField", "ForeignKey", "OneToOneField", "IntegerField",
                    "PositiveIntegerField",
                    "PositiveSmallIntegerField", "SmallIntegerField", "CharField", "BooleanField"):
        raise TypeError(f"{path}: a {kind} is not read from JSON here")
    return None


def _date(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value is not None else None


def _decimal(value: str | None) -> Decimal | None:
    """A decimal column's JSON value: its text (``_inputs_statement``), exact."""
    return Decimal(value) if value is not None else None


def _prepared_cursor(connection: Any) -> Any:
    """A cursor of Django's PostgreSQL connection (through its execute wrappers: the
    row-level security's guard, the query log and counts) that binds its parameters on
    the server and prepares each statement: for the recalculation's few statements of its
    own, run once per result on a results night. Django's cursors bind on the client,
    which quotes a snapshot's rows (some 70 kB of JSON) into the statement text for the
    server to parse again, and leave the server to plan the inputs' statement anew each
    time. A prepared statement lives as long as the connection; behind a pooler in
    transaction mode, the settings can turn preparing off (docs/operations.md)."""
    connection.ensure_connection()
    inner = _prepared_class()(connection.connection)
    return (connection.make_debug_cursor(inner) if connection.queries_logged
            else connection.make_cursor(inner))


@functools.cache
def _prepared_class() -> type:
    import psycopg

    class Prepared(psycopg.Cursor):  # type: ignore[type-arg]
        """psycopg's server-binding cursor, preparing every statement it runs (Django's
        wrapper passes no ``prepare``)."""

        def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None,
                    binary: bool | None = None) -> Any:
            done = super().execute(query, params, prepare=True, binary=binary)
            if self._query is None:  # run prepared: psycopg keeps no text of it
                self._query = _Shown(self.connection, query, params)  # type: ignore[assignment]
            return done

    class _Shown:
        """What Django's query log reads of the statement run (``cursor._query.query``,
        ``last_executed_query``): its text with the parameters quoted in, made only
        when read (tests, ``DEBUG``)."""

        def __init__(self, connection: Any, query: Any, params: Any) -> None:
            self.connection, self.sql, self.params = connection, query, params

        @property
        def query(self) -> bytes:
            return psycopg.ClientCursor(self.connection).mogrify(self.sql, self.params).encode()

    return Prepared


def _inputs_read(season_id: int, today: dt.date, with_overrides: bool,
                 with_snapshots: bool = False) -> dict[str, list[tuple[Any, ...]]]:
    """The season's inputs by name, each a list of rows in the order and with the
    columns of its queryset in ``_input_queries``: on PostgreSQL in one statement (which
    reads the overrides and the stored snapshots whether asked or not: a few rows)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return {name: list(queryset) for name, queryset, _ in
                _input_queries(season_id, today, with_overrides, with_snapshots)}
    statement = _inputs_statement()
    params = [season_id if type(p) is int and p == _SEASON_STAND_IN
              else today if type(p) is dt.date and p == _DAY_STAND_IN else p
              for p in statement.params]
    with _prepared_cursor(connection) as cursor:
        cursor.execute(statement.sql, params)
        found = cursor.fetchone()
    read: dict[str, list[tuple[Any, ...]]] = {}
    for (name, columns), objects in zip(statement.columns, found, strict=True):
        if isinstance(objects, str):  # Django reads jsonb as text; no decimals in it
            objects = orjson.loads(objects)
        if all(convert is None for convert in columns):
            read[name] = [tuple(o) for o in objects]
        else:
            read[name] = [tuple(v if convert is None else convert(v)
                                for v, convert in zip(o, columns, strict=True)) for o in objects]
    return read


def load_season_data(season: Season, today: dt.date | None = None, *,
                     with_overrides: bool = False, with_snapshots: bool = False) -> SeasonData:
    """The season's inputs in the engine's terms, in a fixed number of queries (one on
    PostgreSQL: ``_inputs_read``'s statement; six elsewhere, and one more each for the
    overrides and the snapshots).
    ``with_overrides``: with the administrator's eligibility decisions, which the
    recalculation stores with each half's last standings; ``with_snapshots``: with the
    stored snapshots' fingerprints, which it compares its outcome with."""
    competition = season.competition
    params = parse_parameters(competition.system, competition.parameters)
    read = _inputs_read(season.pk, today or club_today(), with_overrides, with_snapshots)
    players = tuple(
        t.Player(
            id=pk,
            name=name,
            rating=rating,
            start=start,
            fixed=kind == PlayerKind.FIXED,  # Player.is_fixed
            start_points=Fraction(start_points) if start_points is not None else None,
        )
        for pk, name, rating, start, kind, start_points in read["players"]
    )
    db = season._state.db or "default"
    halves = {h.kind: h for h in (Half.from_db(db, _HALF_COLUMNS, values)
                                  for values in read["halves"])}
    kinds = {h.pk: h.kind for h in halves.values()}
    evenings = read["evenings"]
    counted = {pk for pk, _, _ in evenings}
    games: dict[int, list[t.Game]] = defaultdict(list)
    for evening_id, white, black, result, _board, _pk in read["games"]:
        if evening_id in counted:
            # not yet entered: the player was there, no score
            games[evening_id].append(t.Game(white, black, result or "postponed"))
    byes: dict[int, list[int]] = defaultdict(list)
    for evening_id, player_id, _pk in read["byes"]:
        if evening_id in counted:
            byes[evening_id].append(player_id)
    absent: dict[int, list[int]] = defaultdict(list)
    duty: dict[int, list[int]] = defaultdict(list)
    for evening_id, player_id, status, _pk in read["absences"]:
        if evening_id in counted:
            (absent if status == Attendance.ABSENT_WITH_NOTICE else duty)[evening_id].append(player_id)
    overrides: dict[str, dict[int, bool]] = defaultdict(dict)
    for half_id, player_id, eligible, _pk in read.get("overrides", ()) if with_overrides else ():
        overrides[kinds[half_id]][player_id] = eligible
    ladder = competition.is_ladder
    engine_evenings = []
    for pk, date, half_id in evenings:
        in_game = {p for g in games[pk] for p in (g.white, g.black)} | set(byes[pk])
        engine_evenings.append(
            t.Evening(
                date=date,
                half=None if ladder else kinds[half_id],  # type: ignore[arg-type]
                games=tuple(games[pk]),
                byes=tuple(byes[pk]),
                # A player who was paired after all is not also absent.
                absent_with_notice=tuple(p for p in absent[pk] if p not in in_game),
                club_duty=tuple(p for p in duty[pk] if p not in in_game),
            )
        )
    return SeasonData(
        system=competition.system,
        params=params,
        players=players,
        evenings=tuple(engine_evenings),
        evening_ids={date: pk for pk, date, _ in evenings},
        halves=halves,
        overrides=overrides,
        snapshots=({(half_id, evening_id): (pk, digest)
                    for pk, half_id, evening_id, digest in read["snapshots"]}
                   if with_snapshots else None),
    )


SETTLED_CACHE = "settled"


class _CacheMemory:
    """The engine's memory of settled evenings (``keizer.SharedMemory``) in a cache of its
    own (settings' "settled": the evicting Redis beside the pages, else each process's
    memory), so a worker that did not compute a season before starts from what another
    worker settled; a lost entry is computed again. The key names the engine's code (a
    hash of the scoring package's source), so a new engine never reads an old one's
    outcomes, and the club."""

    TIMEOUT = 7 * 24 * 3600

    def __init__(self) -> None:
        source = hashlib.sha256()
        for path in sorted(Path(scoring.__file__).parent.glob("*.py")):
            source.update(path.read_bytes())
        self.version = source.hexdigest()[:16]

    def _names(self, keys: Sequence[bytes]) -> dict[str, bytes]:
        prefix = f"{tenant_key()}:settled:{self.version}:"
        return {prefix + key.hex(): key for key in keys}

    def get_many(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        names = self._names(keys)
        try:
            found = caches[SETTLED_CACHE].get_many(list(names))
        except jobs.BROKER_ERRORS:
            return {}
        return {names[name]: blob for name, blob in found.items()}

    def set_many(self, items: Mapping[bytes, bytes]) -> None:
        names = self._names(list(items))
        try:
            caches[SETTLED_CACHE].set_many({name: items[key] for name, key in names.items()},
                                           self.TIMEOUT)
        except jobs.BROKER_ERRORS:
            pass  # computed again next time


@functools.cache
def _cache_memory() -> _CacheMemory:
    return _CacheMemory()


def _settled_memory() -> _CacheMemory | None:
    """The shared memory, when the settings name its cache."""
    return _cache_memory() if SETTLED_CACHE in settings.CACHES else None


def compute(data: SeasonData) -> dict[str, Any]:
    """Run the engine: {half kind: HalfResult or LadderResult}."""
    if isinstance(data.params, t.LadderParams):
        return {"season": compute_ladder(data.params, data.players, data.evenings)}
    halves = compute_keizer_season(data.params, data.players, data.evenings,
                                   shared=_settled_memory())
    return {str(kind): result for kind, result in halves.items()}


def points_text(value: Fraction) -> str:
    """An exact value as a stored row writes it: rounded to two decimals, as text."""
    return units_text(value.numerator, value.denominator)


def _line_json(line: Any, shown: dict[Any, Any]) -> list[Any]:
    """One explanation line as stored: an array of ``KEIZER_LINE``'s or ``LADDER_LINE``'s
    fields, in their order (``Standing.lines`` reads it back). ``shown`` keeps the numbers as text by their exact
    values: a snapshot's thousands of lines repeat few distinct numbers (a ladder's
    deltas and bonuses above all), each rounded and formatted once. They are known by
    their numerators and denominators, whose hash is an integer's (a fraction's own hash
    takes a modular inverse: a millisecond per snapshot). The few dates and outcomes are
    written once per snapshot too."""
    date, outcome = line.date, line.outcome
    if isinstance(line, t.LadderLine):
        delta, bonus = line.delta, line.bonus
        ladder_key = (delta.numerator, delta.denominator, bonus.numerator, bonus.denominator)
        numbers = shown.get(ladder_key)
        if numbers is None:
            numbers = shown[ladder_key] = (points_text(delta), points_text(bonus),
                                           points_text(delta + bonus))
        # date, outcome, opponent, delta, bonus, points (LADDER_LINE)
        return [_shown_date(date, shown), _shown_outcome(outcome, shown), line.opponent,
                numbers[0], numbers[1], numbers[2]]
    value, points = line.value, line.points
    key: tuple[int | None, ...] = (value.numerator if value is not None else None, value.denominator if value is not None else None,
           points.numerator, points.denominator)
    numbers = shown.get(key)
    if numbers is None:
        numbers = shown[key] = (points_text(value) if value is not None else None,
                                points_text(points), str(points))
    # date, outcome, opponent, value, points, exact, over_limit (KEIZER_LINE)
    return [_shown_date(date, shown) if date else None, _shown_outcome(outcome, shown),
            line.opponent, numbers[0], numbers[1], numbers[2], line.over_limit]


def _shown_date(date: dt.date, shown: dict[Any, Any]) -> str:
    text = shown.get(date)
    if text is None:
        text = shown[date] = date.isoformat()
    return text  # type: ignore[no-any-return]


def _shown_outcome(outcome: Any, shown: dict[Any, Any]) -> str:
    key = ("outcome", outcome)
    text = shown.get(key)
    if text is None:
        text = shown[key] = str(outcome)
    return text  # type: ignore[no-any-return]


def _row_values(row: Any, with_lines: bool, shown: dict[Any, Any] | None = None) -> dict[str, Any]:
    """A standings row as its ``Standing`` stores it (every field but the snapshot), its
    decimals as text ('125.67'): what the digest fingerprints and what is written, made
    once. ``shown``: see ``_line_json`` (shared by a snapshot's rows)."""
    s = row.stats
    shown = {} if shown is None else shown
    values: dict[str, Any] = {
        "player_id": row.player_id,
        "rank": row.rank,
        "games": s.games,
        "won": s.won,
        "drawn": s.drawn,
        "lost": s.lost,
        "whites": s.whites,
        "blacks": s.blacks,
        "byes": s.byes,
        "absent_with_notice": s.absent_with_notice,
        "absent_without_notice": s.absent_without_notice,
        "club_duty": s.club_duty,
        "game_points": points_text(s.game_points),
        "explanation": [_line_json(line, shown) for line in row.lines] if with_lines else [],
    }
    if isinstance(row, t.LadderStanding):
        values.update(score=points_text(row.score), score_exact=str(row.score),
                      points=points_text(row.points),
                      pairing_points=points_text(row.pairing_points), group=row.group)
    else:
        values.update(score=points_text(row.total), score_exact=str(row.total),
                      value=points_text(row.value))
    return values


def _table_values(table: t.StandingsTable | t.LadderTable) -> list[dict[str, Any]]:
    """A history evening's rows as ``_row_values`` makes them (without lines), from its
    columns: no row object is made (docs/standings.md, "History as columns")."""
    columns = dict(zip(t.PlayerStats.__dataclass_fields__, table.counts, strict=True))
    won, drawn, lost = columns["won"], columns["drawn"], columns["lost"]
    common = zip(table.player_ids, won, drawn, lost, columns["whites"], columns["blacks"], columns["byes"],
                 columns["absent_with_notice"], columns["absent_without_notice"], columns["club_duty"],
                 strict=True)
    rows = [{
        "player_id": player_id, "rank": rank, "games": w + d + lo, "won": w, "drawn": d, "lost": lo,
        "whites": whites, "blacks": blacks, "byes": byes, "absent_with_notice": notice,
        "absent_without_notice": absent, "club_duty": duty, "game_points": units_text(2 * w + d, 2),
        "explanation": [],
    } for rank, (player_id, w, d, lo, whites, blacks, byes, notice, absent, duty) in enumerate(common, start=1)]
    if isinstance(table, t.LadderTable):
        unit = table.unit
        for row, start, points, pairing, group in zip(rows, table.start_points, table.points,
                                                      table.pairing_points, table.groups, strict=True):
            row.update(score=units_text(points - start, unit), score_exact=exact_text(points - start, unit),
                       points=units_text(points, unit), pairing_points=units_text(pairing, unit), group=group)
    else:
        denominator, value_unit = table.denominator, table.value_unit
        for row, total, value in zip(rows, table.totals, table.values, strict=True):
            row.update(score=units_text(total, denominator), score_exact=exact_text(total, denominator),
                       value=units_text(value, value_unit))
    return rows


def half_eligibility(data: SeasonData, kind: str, result: Any,
                     rule: EligibilityRule) -> dict[str, dict[str, Any]]:
    """Who competes for a prize after the half's last counted evening (docs/rules.md 6), with
    the administrator's overrides: stored with the latest snapshot, so a page reads it
    with the standings instead of computing it."""
    found = half_eligibility_rule(data.params, result.standings, data.evenings, kind, rule,
                                  data.overrides.get(kind, {}))
    return {str(player_id): e.to_json() for player_id, e in found.items()}


def _rows_json(values: Sequence[Mapping[str, Any]]) -> str:
    """A snapshot's rows (``_row_values``) as one JSON array: what the digest fingerprints
    and what PostgreSQL's single INSERT reads (``_insert_standings``), made once. Every
    value is a plain JSON value (the decimals are text), so no fallback runs per number;
    orjson writes what ``json.dumps(values, separators=(",", ":"))`` would (ASCII here),
    a dozen times faster: a snapshot with its lines is some 90 kB."""
    return orjson.dumps(values).decode()


def _digest(rows_json: str, cycle: bool, with_lines: bool, cycle_orders: int = 0) -> str:
    """A fingerprint of what a snapshot stores: its rows as written (``_rows_json``) and
    its flags (deterministic across processes, unlike hash)."""
    head = repr((cycle, with_lines, cycle_orders))
    return hashlib.sha256(f"{head}\n{rows_json}".encode()).hexdigest()


# The form of what a snapshot's digest fingerprints (``_rows_json``: the decimals as text).
# Part of every stored link: a new form makes each stored snapshot's link differ once, so
# the next recalculation of a season writes all its snapshots in the new form, and a fresh
# digest is never compared with one of an older form (``standings_current``).
STORE_FORM = "rows as JSON text, explanation lines as arrays, 2026-12"


def stored_link(link: str) -> str:
    """An evening's inputs link (``incremental.input_links``) as a snapshot stores it:
    with the store's form (``STORE_FORM``)."""
    return hashlib.sha256(f"{STORE_FORM}\n{link}".encode()).hexdigest()[:LINK_LENGTH]


def last_link(link: str, rule: EligibilityRule, overrides: Mapping[int, bool]) -> str:
    """The link of a half's last snapshot: besides the inputs of its standings, it holds
    the explanation lines (made from the same inputs) and the prize eligibility, which
    also reads the competition's eligibility numbers and the administrator's overrides.
    Never the link of the same evening stored while it was not the last (without lines)."""
    part = f"last {link} {rule!r} {sorted(overrides.items())!r}"
    return hashlib.sha256(part.encode()).hexdigest()[:LINK_LENGTH]


def _planned_snapshots(
    season: Season, data: SeasonData, stored: dict[tuple[int, int], str] | None = None,
) -> list[tuple[Half, int, tuple[list[dict[str, Any]], str] | None, dict]]:
    """What the recalculation stores, snapshot by snapshot: (half, evening id, (rows as
    ``_row_values``, the same as ``_rows_json``), {cycle, cycle_orders, digest,
    eligibility, with_lines}); the rows are None for a snapshot whose stored digest
    ``stored[(half id, evening id)]`` still holds.

    A digest is two fingerprints of 32 hex digits: of the inputs the snapshot depends on
    (``incremental.input_links``; for a half's last, ``last_link``), then of what it
    stores. A snapshot whose inputs are unchanged is reused without making its rows (the
    engine makes history rows and explanation lines when first read): a result on evening
    k recomputes evening k and the later ones, and a half none of whose evenings changed
    is not even explained."""
    stored = stored or {}
    links = input_links(data.params, data.players, data.evenings)
    rule = season.competition.eligibility_rule
    planned: list[tuple[Half, int, tuple[list[dict[str, Any]], str] | None, dict[str, Any]]] = []
    for kind, result in compute(data).items():
        half = data.halves[kind]
        history = result.history
        for i, evening_rows in enumerate(history):
            last = i == len(history) - 1
            evening_id = data.evening_ids[evening_rows.date]
            link = stored_link(links[(LADDER if kind == "season" else kind, evening_rows.date)])
            if last:
                link = last_link(link, rule, data.overrides.get(kind, {}))
            cycle = getattr(evening_rows, "cycle", False)
            cycle_orders = getattr(evening_rows, "cycle_orders", 0)
            fields: dict[str, Any] = {"cycle": cycle, "cycle_orders": cycle_orders,
                                      "eligibility": {}, "with_lines": last}
            old = stored.get((half.pk, evening_id), "")
            if old[:LINK_LENGTH] == link:
                planned.append((half, evening_id, None, dict(fields, digest=old)))
                continue
            shown: dict[Any, Any] = {}
            rows = ([_row_values(row, True, shown) for row in result.standings] if last
                    else _table_values(evening_rows.table()))
            rows_json = _rows_json(rows)
            digest = _digest(rows_json, cycle, last, cycle_orders)
            if last:
                eligible = half_eligibility(data, kind, result, rule)
                fields["eligibility"] = eligible
                digest = hashlib.sha256((digest + repr(sorted(eligible.items()))).encode()
                                        ).hexdigest()
            planned.append((half, evening_id, (rows, rows_json),
                            dict(fields, digest=link + digest[:LINK_LENGTH])))
    return planned


def _store(season: Season, data: SeasonData) -> tuple[int, set[int]]:
    """Store what changed: (snapshots kept or written, the halves whose standings or
    their inputs' fingerprints were written or deleted). A recalculation whose outcome equals what is stored writes no rows: a
    snapshot whose inputs changed but whose rows did not only takes the new fingerprint."""
    snapshots = _season_rows(StandingsSnapshot)
    stored = data.snapshots if data.snapshots is not None else {
        (half_id, evening_id): (pk, digest)
        for pk, half_id, evening_id, digest in snapshots.filter(
            half__season=season
        ).values_list("pk", "half_id", "evening_id", "digest")
    }
    kept: list[int] = []
    changed: set[int] = set()
    now = timezone.now()
    planned = _planned_snapshots(season, data, {key: d for key, (_, d) in stored.items()})
    for half, evening_id, rows, fields in planned:
        fields.pop("with_lines")
        pk, old_digest = stored.get((half.pk, evening_id), (None, ""))
        if pk is None:
            pk = snapshots.create(half=half, evening_id=evening_id, **fields).pk
            kept.append(pk)
        else:
            kept.append(pk)
            if old_digest == fields["digest"]:
                continue  # its inputs are what they were
            if old_digest[LINK_LENGTH:] == fields["digest"][LINK_LENGTH:]:
                # New inputs, the same standings (a correction that moved nobody): only
                # the fingerprint moves on, and the half's pages, which show the inputs
                # (the corrected game) beside the standings.
                snapshots.filter(pk=pk).update(digest=fields["digest"], computed_at=now)
                changed.add(half.pk)
                continue
            _rewrite_snapshot(pk, now, fields)
        _insert_standings(pk, *(rows or ([], "[]")))
        changed.add(half.pk)
    if len(kept) != len(stored):
        kept_set = set(kept)
        changed.update(half_id for (half_id, _), (pk, _) in stored.items() if pk not in kept_set)
        snapshots.filter(half__season=season).exclude(pk__in=kept).delete()
    return len(kept), changed


def _rewrite_snapshot(pk: int, now: dt.datetime, fields: dict[str, Any]) -> None:
    """A snapshot whose standings changed: its fields updated and its rows deleted (the
    new ones are inserted next); on PostgreSQL in one statement."""
    from django.db import connection

    # Both ways write the same four fields, so both refuse any other set alike.
    if set(fields) != {"cycle", "cycle_orders", "eligibility", "digest"}:
        raise TypeError(f"a snapshot's fields are {sorted(fields)}: _rewrite_sql writes four")
    if connection.vendor != "postgresql":
        _season_rows(StandingsSnapshot).filter(pk=pk).update(computed_at=now, **fields)
        _season_rows(Standing).filter(snapshot_id=pk).delete()
        return
    with _prepared_cursor(connection) as cursor:
        cursor.execute(_rewrite_sql(), [fields["cycle"], fields["cycle_orders"],
                                        json.dumps(fields["eligibility"]), fields["digest"],
                                        now, pk, pk])


@functools.cache
def _rewrite_sql() -> str:
    """``_rewrite_snapshot``'s statement: the UPDATE of the snapshot in a WITH, the DELETE
    of its rows (two tables, so neither sees the other's change)."""
    from django.db import connection

    qn = connection.ops.quote_name
    meta = StandingsSnapshot._meta
    column = {name: qn(meta.get_field(name).column)  # type: ignore[union-attr,arg-type]
              for name in ("cycle", "cycle_orders", "eligibility", "digest", "computed_at")}
    return (f"WITH changed AS (UPDATE {qn(meta.db_table)} SET {column['cycle']} = %s, "
            f"{column['cycle_orders']} = %s, {column['eligibility']} = %s::jsonb, "
            f"{column['digest']} = %s, {column['computed_at']} = %s "
            f"WHERE {qn(meta.pk.column)} = %s RETURNING 1) "
            f"DELETE FROM {qn(Standing._meta.db_table)} WHERE {qn('snapshot_id')} = %s")


@functools.cache
def _standings_insert_sql() -> str:
    """One INSERT of a snapshot's rows from a single JSON parameter (PostgreSQL's
    ``jsonb_to_recordset``), its columns read from the model."""
    from django.db import connection

    qn = connection.ops.quote_name
    fields = [f for f in Standing._meta.concrete_fields if f.attname not in ("id", "snapshot_id")]
    columns = ", ".join(qn(f.column) for f in fields)
    types = ", ".join(f"{qn(f.attname)} {f.db_type(connection)}" for f in fields)
    return (f"INSERT INTO {qn(Standing._meta.db_table)} ({qn('snapshot_id')}, {columns}) "
            f"SELECT %s, {', '.join(qn(f.attname) for f in fields)} "
            f"FROM jsonb_to_recordset(%s::jsonb) AS r({types})")


def _insert_standings(snapshot_id: int, rows: list[dict[str, Any]], rows_json: str) -> None:
    """Write a snapshot's rows (``_row_values``, and the same as ``_rows_json``). On
    PostgreSQL in one statement with one parameter, the rows as JSON: a results night
    writes a snapshot of 60 rows and their explanation lines per result, and Django's bulk
    insert spends most of a recalculation's CPU preparing and quoting its 1.300 parameters
    one by one. The row-level security policies check these rows as any INSERT's.
    Elsewhere (SQLite) the ORM's bulk insert, which takes the decimals' text as decimals."""
    from django.db import connection

    if connection.vendor != "postgresql":
        Standing.objects.bulk_create(Standing(snapshot_id=snapshot_id, **row) for row in rows)
        return
    if not rows:
        return
    with _prepared_cursor(connection) as cursor:
        cursor.execute(_standings_insert_sql(), [snapshot_id, rows_json])


# How long a "recalculation waiting" mark holds at most: a task lost in a way the broker
# did not report (the beat's catch-up recalculates it anyway) stops coalescing after this.
WAITING_SECONDS = 60


def _waiting_key(half_id: int) -> str:
    return f"{tenant_key()}:standings-waiting:{half_id}"


def queue_recalculation(half_id: int) -> bool:
    """After a committed change: queue the half's recalculation, unless one is queued
    and not yet started (it will read the change: it reads the inputs after it starts).
    So a season has one recalculation running and one waiting at most, however many
    results come in meanwhile. Returns whether a task was sent. Without the cache the
    task is sent all the same."""
    key = _waiting_key(half_id)
    try:
        if not cache.add(key, 1, WAITING_SECONDS):
            return False
    except jobs.BROKER_ERRORS:
        return bool(jobs.enqueue("competition.tasks.recalculate_half", half_id))
    if not jobs.enqueue("competition.tasks.recalculate_half", half_id):
        cache.delete(key)  # not queued: the next change tries again
        return False
    return True


def recalculation_started(half_id: int) -> None:
    """The task's first step: from now on a change needs a task of its own (this one may
    have read the inputs before it)."""
    try:
        cache.delete(_waiting_key(half_id))
    except jobs.BROKER_ERRORS:
        pass  # the mark expires by itself


def _recalculate_once(season_id: int, today: dt.date | None, if_behind: bool = False, *,
                      half_id: int | None = None) -> tuple[int, int, int] | None:
    """One pass in its own transaction: (snapshots kept or written, the inputs version
    computed from, the season), or None when another recalculation of the season holds
    its lock (or, by ``half_id``, there is no such half). ``if_behind``: nothing to do (0)
    when the stored standings were computed from the season's inputs version already (a
    recalculation ran since this one was queued). ``half_id``: the season of that half,
    read in the same query."""
    with transaction.atomic():
        # A plain read in the club's scope (another club's season is not found): no lock
        # on the season row, so no writer waits for this transaction. The version is read
        # before the inputs, so it is never newer than what is computed (at worst older:
        # then the pass runs once more). Every later query is bounded by this season.
        found = _season_read(season_id, half_id)
        if found is None:
            if half_id is not None:
                return None  # the half is gone: nothing to recalculate
            raise Season.DoesNotExist(f"no season {season_id} in this club")
        season = found
        season_id = season.pk
        version = season.inputs_version
        computed = _lock(season_id)
        if computed is None:
            return None  # the holder runs again once it sees the version moved
        if if_behind and computed >= version:
            return 0, version, season_id
        written, changed = _store(season, load_season_data(season, today, with_overrides=True,
                                                           with_snapshots=True))
        _computed_from(season_id, version)
        if changed:
            # Visitors' pages move on once, after the new standings are committed: the
            # changed halves' pages and the club's pages that show every half. A
            # recalculation from the inputs it computed before leaves every page alone.
            standings_changed(changed)
    return written, version, season_id


def _season_read(season_id: int, half_id: int | None) -> Season | None:
    """The season (by its id, or by the id of one of its halves) with its competition,
    in the club's scope: ``Season.objects.select_related("competition")``. On PostgreSQL
    in a club, one plain statement written once per process (the ORM built and compiled
    the query anew for every result); the rows become the models as the ORM makes them.
    Anywhere else (the platform's work, no club: refused) the ORM's own query."""
    from django.db import connection

    club_id = current_club_id()
    if connection.vendor != "postgresql" or club_id is None or scoping_off():
        seasons = Season.objects.select_related("competition")
        return (seasons.filter(halves=half_id) if half_id is not None
                else seasons.filter(pk=season_id)).first()
    sql = _plain_sql()["season_by_half" if half_id is not None else "season"]
    with connection.cursor() as cursor:
        cursor.execute(sql, [half_id if half_id is not None else season_id, club_id])
        row = cursor.fetchone()
    if row is None:
        return None
    db = connection.alias
    converted = _converted(connection, Season, row[:len(_SEASON_COLUMNS)])
    season = Season.from_db(db, _SEASON_COLUMNS, converted)
    values = row[len(_SEASON_COLUMNS):]
    competition = (None if values[0] is None else Competition.from_db(
        db, _COMPETITION_COLUMNS, _converted(connection, Competition, values)))
    # As select_related sets a reverse one-to-one: both ends cached (None: none there).
    field = Competition._meta.get_field("season")
    field.remote_field.set_cached_value(season, competition)
    if competition is not None:
        field.set_cached_value(competition, season)
    return season


def _converted(connection: Any, model: Any, values: Sequence[Any]) -> list[Any]:
    """A row's values as the ORM gives them to ``from_db``: through each column's
    converters, the backend's and the field's (a JSON column's text parsed), as its
    compiler applies them."""
    converters = _converters(connection.vendor, model)
    out = list(values)
    for i, functions in converters:
        for convert in functions:
            out[i] = convert(out[i], None, connection)
    return out


@functools.cache
def _converters(vendor: str, model: Any) -> tuple[tuple[int, tuple[Any, ...]], ...]:
    """(column index, its converters) of a model's columns that have any, per database
    kind (each is called with the connection in hand)."""
    from django.db import connection

    found = []
    for i, column in enumerate(model._meta.concrete_fields):
        functions = (*connection.ops.get_db_converters(column.get_col(model._meta.db_table)),
                     *column.get_db_converters(connection))
        if functions:
            found.append((i, functions))
    return tuple(found)


# Every column of a season and of a competition, in their models' order (``from_db``).
_SEASON_COLUMNS = tuple(f.attname for f in Season._meta.concrete_fields)
_COMPETITION_COLUMNS = tuple(f.attname for f in Competition._meta.concrete_fields)


def _computed_from(season_id: int, version: int) -> None:
    """Record the inputs version the stored standings now reflect (also when nothing in
    them changed: they are not behind)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        _season_rows(StandingsState).filter(pk=season_id).update(
            inputs_version=version, computed_at=timezone.now())
        return
    with connection.cursor() as cursor:
        cursor.execute(_plain_sql()["computed_from"], [version, timezone.now(), season_id])


@functools.cache
def _plain_sql() -> dict[str, str]:
    """The recalculation's smallest statements, written once per process (the ORM
    compiled each anew per result): bounded by a season read in its club's scope, as
    ``_season_rows``; the row-level security binds them as any query."""
    from django.db import connection

    qn = connection.ops.quote_name
    state, season, competition, half = StandingsState._meta, Season._meta, Competition._meta, Half._meta

    def columns(meta: Any, table: str) -> str:
        return ", ".join(f"{table}.{qn(f.column)}" for f in meta.concrete_fields)

    # ``_season_read``: a season in a club with its competition (a LEFT JOIN, as
    # select_related joins a reverse one-to-one), by its id or by one of its halves.
    season_select = (
        f"SELECT {columns(season, 's')}, {columns(competition, 'c')} FROM {qn(season.db_table)} s "
        f"LEFT OUTER JOIN {qn(competition.db_table)} c "
        f"ON c.{qn(competition.get_field('season').column)} = s.{qn(season.pk.column)} ")
    in_club = f"AND s.{qn(season.get_field('club').column)} = %s"
    return {
        "season": f"{season_select}WHERE s.{qn(season.pk.column)} = %s {in_club}",
        "season_by_half": (
            f"{season_select}WHERE s.{qn(season.pk.column)} = (SELECT "
            f"{qn(half.get_field('season').column)} FROM {qn(half.db_table)} "
            f"WHERE {qn(half.pk.column)} = %s) {in_club}"),
        "computed_from": (
            f"UPDATE {qn(state.db_table)} SET {qn(state.get_field('inputs_version').column)} = %s, "
            f"{qn(state.get_field('computed_at').column)} = %s WHERE {qn(state.pk.column)} = %s"),
        "inputs_version": (
            f"SELECT {qn(season.get_field('inputs_version').column)} FROM {qn(season.db_table)} "
            f"WHERE {qn(season.pk.column)} = %s"),
        "lock": (
            f"SELECT {qn(state.get_field('inputs_version').column)} FROM {qn(state.db_table)} "
            f"WHERE {qn(state.pk.column)} = %s FOR UPDATE SKIP LOCKED"),
    }


def _lock(season_id: int) -> int | None:
    """Take the season's StandingsState row for this transaction, without waiting: the
    inputs version its stored standings were computed from, or None when another
    transaction holds it. The row is created by the first recalculation; only then an
    INSERT (ON CONFLICT DO NOTHING, which would wait for a holder that updated the row,
    so never tried while the row exists). Called for a season read in its club's scope."""
    from django.db import connection

    states = _season_rows(StandingsState)

    def take() -> int | None:
        if connection.vendor == "postgresql":  # the ORM compiled it anew for every result
            with connection.cursor() as cursor:
                cursor.execute(_plain_sql()["lock"], [season_id])
                row = cursor.fetchone()
            return None if row is None else int(row[0])
        found = states.select_for_update(skip_locked=True).filter(
            season_id=season_id).values_list("inputs_version", flat=True).first()
        return found  # type: ignore[no-any-return]

    computed = take()
    if computed is not None:
        return computed
    if states.filter(season_id=season_id).exists():
        return None  # there, but locked
    states.bulk_create([StandingsState(season_id=season_id)], ignore_conflicts=True)
    return take()


def _inputs_version(season_id: int) -> int:
    """The inputs version of a season read in its club's scope (the recalculation's)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return Season.objects.filter(pk=season_id).values_list("inputs_version", flat=True).get()
    with connection.cursor() as cursor:
        cursor.execute(_plain_sql()["inputs_version"], [season_id])
        found = cursor.fetchone()
    if found is None:
        raise Season.DoesNotExist(f"no season {season_id}")
    return int(found[0])


def recalculate_season(season_id: int, today: dt.date | None = None, *,
                       if_behind: bool = False) -> int:
    """Compute and store the standings after every counted evening; returns the number of
    snapshots kept or written. Idempotent: the same inputs give the same rows.
    ``if_behind`` (the tasks): only when the season's inputs moved since its stored
    standings were computed.

    One recalculation of a season at a time (a lock row the writers never touch); one that
    finds another running returns 0 at once, since the other runs again while the
    season's inputs version moved, checked after each commit. Inside a caller's
    transaction (an import) that check runs at the caller's commit."""
    return _recalculate(season_id, today, if_behind)


def recalculate_half_season(half_id: int) -> int:
    """``recalculate_season(..., if_behind=True)`` of a half's season (the summer half
    depends on the winter one), the season read by its half in the same query: the task's
    way in. 0 when the half is gone."""
    return _recalculate(0, None, True, half_id=half_id)


def _recalculate(season_id: int, today: dt.date | None, if_behind: bool, *,
                 half_id: int | None = None) -> int:
    written = 0
    while True:
        outcome = _recalculate_once(season_id, today, if_behind, half_id=half_id)
        if outcome is None:
            return written
        written, version, season_id = outcome
        half_id = None  # the next passes know the season
        if transaction.get_connection().in_atomic_block:
            on_commit_here(functools.partial(_again_if_moved, season_id, version, today))
            return written
        if _inputs_version(season_id) == version:
            return written
        if_behind = False  # it moved meanwhile: computed again, whatever the state says


def _again_if_moved(season_id: int, version: int, today: dt.date | None) -> None:
    if _inputs_version(season_id) != version:
        recalculate_season(season_id, today)


def standings_behind(season_id: int) -> bool:
    """Whether the season's inputs changed since its stored standings were computed."""
    computed = (StandingsState.objects.filter(season_id=season_id)
                .values_list("inputs_version", flat=True).first())
    version = Season.objects.filter(pk=season_id).values_list("inputs_version", flat=True).get()
    return computed is None or computed < version


def seasons_behind(changed_before: dt.datetime) -> list[int]:
    """Seasons whose stored standings were computed from an older inputs version than
    the season's now, and whose last change was before ``changed_before`` (a burst of
    results still coming in is left to its own tasks)."""
    behind = Q(standings_state__isnull=True) | Q(
        standings_state__inputs_version__lt=F("inputs_version"))
    return list(
        Season.objects.filter(behind)
        .filter(Q(inputs_changed_at__isnull=True) | Q(inputs_changed_at__lt=changed_before))
        .order_by("pk").values_list("pk", flat=True)
    )


def standings_current(season_id: int, today: dt.date | None = None) -> bool:
    """Whether the stored standings are what a fresh computation from the data now gives
    (the same snapshots with the same fingerprints); reads only."""
    season = Season.objects.select_related("competition").get(pk=season_id)
    fresh = {
        (half.pk, evening_id): fields["digest"]
        for half, evening_id, _rows, fields in _planned_snapshots(
            season, load_season_data(season, today, with_overrides=True))
    }
    stored = {
        (half_id, evening_id): digest
        for half_id, evening_id, digest in StandingsSnapshot.objects.filter(
            half__season=season).values_list("half_id", "evening_id", "digest")
    }
    return fresh == stored
