"""The recalculation after a change: exact, complete, and no more work than needed."""

import pytest
from django.db.models import F

from competition.models import Game, Season, Standing, StandingsSnapshot, StandingsState
from competition.season import services, standings
from competition.season.standings import recalculate_season, standings_behind
from competition.season.tasks import recalculate_half
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def _compared(monkeypatch) -> list[bool]:
    """The snapshots whose rows the recalculation makes and compares, as they are compared:
    True for a half's last (with its lines)."""
    compared: list[bool] = []
    digest = standings._digest
    monkeypatch.setattr(standings, "_digest", lambda rows, cycle, with_lines, cycle_orders=0: (
        compared.append(with_lines) or digest(rows, cycle, with_lines, cycle_orders)))
    return compared


@pytest.fixture
def two_evenings(django_capture_on_commit_callbacks):
    s = f.season(players=6)
    arbiter = f.arbiter()
    first, second = f.playing_evenings(s)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        for evening in (first, second):
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
            for game in evening.games.all():
                services.result_set(actor=arbiter, game=game, result="1-0")
    return s, first, second, arbiter


def test_a_result_of_the_last_evening_leaves_the_earlier_snapshot_untouched(
    two_evenings, django_capture_on_commit_callbacks
):
    s, first, second, arbiter = two_evenings
    earlier = set(Standing.objects.filter(snapshot__evening=first).values_list("pk", flat=True))
    later = set(Standing.objects.filter(snapshot__evening=second).values_list("pk", flat=True))
    game = second.games.order_by("board").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=game, result="0-1")
    assert set(Standing.objects.filter(snapshot__evening=first).values_list("pk", flat=True)) == earlier
    assert set(Standing.objects.filter(snapshot__evening=second).values_list("pk", flat=True)) != later
    assert Standing.objects.get(snapshot__evening=second, player=game.black).won >= 1


def test_a_result_of_an_earlier_evening_rewrites_it_and_every_later_one(
    two_evenings, django_capture_on_commit_callbacks
):
    s, first, second, arbiter = two_evenings
    before = {e: set(Standing.objects.filter(snapshot__evening=e).values_list("pk", flat=True))
              for e in (first, second)}
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=first.games.order_by("board").first(),
                            result="0-1")
    for e in (first, second):
        assert set(Standing.objects.filter(snapshot__evening=e).values_list("pk", flat=True)) != before[e]


def test_stored_standings_equal_a_fresh_computation_after_skipped_rewrites(two_evenings):
    s, first, second, _ = two_evenings
    stored = sorted(Standing.objects.values_list("snapshot__evening", "player", "rank", "score"))
    StandingsSnapshot.objects.all().delete()
    recalculate_season(s.pk)
    assert sorted(Standing.objects.values_list("snapshot__evening", "player", "rank", "score")) == stored


def test_the_task_does_nothing_when_a_later_recalculation_already_ran(two_evenings):
    s, first, _, _ = two_evenings
    assert not standings_behind(s.pk)
    assert recalculate_half(first.half_id) == 0
    Season.objects.filter(pk=s.pk).update(inputs_version=F("inputs_version") + 1)
    assert standings_behind(s.pk)
    assert recalculate_half(first.half_id) == 2
    assert not standings_behind(s.pk)
    assert StandingsState.objects.get(season=s).inputs_version == (
        Season.objects.get(pk=s.pk).inputs_version)


def test_the_task_reads_the_season_by_its_half_and_a_gone_half_is_nothing_to_do(
    two_evenings, django_assert_max_num_queries
):
    """The task's recalculation of a half's season reads the season by the half, in the
    query that reads it anyway (no query of the half first); the half deleted since it
    was queued: nothing to do, no error."""
    from competition.models import Half

    s, first, _, _ = two_evenings
    Season.objects.filter(pk=s.pk).update(inputs_version=F("inputs_version") + 1)
    with django_assert_max_num_queries(13) as queries:  # 6 on PostgreSQL
        assert standings.recalculate_half_season(first.half_id) == 2
    # (PostgreSQL's one statement of the season's inputs reads its halves by the season.)
    assert not any("FROM \"competition_half\" WHERE" in q["sql"] and "LIMIT" in q["sql"]
                   and "competition_season" not in q["sql"] and "jsonb_agg" not in q["sql"]
                   for q in queries.captured_queries)
    assert not standings_behind(s.pk)
    gone = Half.objects.order_by("-pk").first().pk + 1
    assert recalculate_half(gone) == 0


def test_a_change_committed_while_a_recalculation_computes_makes_it_run_again(
    two_evenings, monkeypatch, django_capture_on_commit_callbacks
):
    """The recalculation records the inputs version it read before the inputs; a write
    that moved the version meanwhile makes it run once more after its commit (here inside
    the test's transaction: at its commit)."""
    s, _first, second, _arbiter = two_evenings
    game = second.games.order_by("board").first()
    original = standings.load_season_data
    passes: list[int] = []

    def meanwhile(season, today=None, **options):
        passes.append(season.inputs_version)
        if len(passes) == 1:  # another arbiter's correction, committed during this pass
            Game.objects.filter(pk=game.pk).update(result="0-1")
            Season.objects.filter(pk=s.pk).update(inputs_version=F("inputs_version") + 1)
        return original(season, today, **options)

    monkeypatch.setattr(standings, "load_season_data", meanwhile)
    with django_capture_on_commit_callbacks(execute=True):
        recalculate_season(s.pk)
    assert passes == [passes[0], passes[0] + 1]
    assert not standings_behind(s.pk) and standings.standings_current(s.pk)


def test_a_recalculation_that_changes_nothing_writes_nothing_and_keeps_the_pages(
    two_evenings, monkeypatch
):
    """Same inputs, same outcome: no snapshot or standing written or deleted, and no
    cache bump (the cached pages stay); the state records that nothing is behind."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    s, first, second, _ = two_evenings
    bumps: list[int] = []
    monkeypatch.setattr(standings, "standings_changed", lambda halves: bumps.append(sorted(halves)))
    rows = sorted(Standing.objects.values_list("pk", "snapshot_id", "rank", "score"))
    Season.objects.filter(pk=s.pk).update(inputs_version=F("inputs_version") + 1)
    with CaptureQueriesContext(connection) as queries:
        assert recalculate_season(s.pk) == 2
    writes = [q["sql"] for q in queries.captured_queries
              if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")
              and ("standing" in q["sql"].lower().split("set")[0])]
    assert [w for w in writes if "standingsstate" not in w.lower()] == []
    assert bumps == []
    assert sorted(Standing.objects.values_list("pk", "snapshot_id", "rank", "score")) == rows
    assert not standings_behind(s.pk)


def test_a_result_on_a_later_evening_reuses_the_earlier_standings_without_making_their_rows(
    django_capture_on_commit_callbacks, monkeypatch
):
    """Three evenings; a correction on the third: the standings after the first two are
    reused by their inputs' fingerprint (their rows are not even compared), only the
    third's are computed and rewritten."""
    s = f.season(players=6)
    arbiter = f.arbiter()
    evenings = f.playing_evenings(s)[:3]
    with django_capture_on_commit_callbacks(execute=True):
        for evening in evenings:
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                     now=evening.deadline)
            for game in evening.games.all():
                services.result_set(actor=arbiter, game=game, result="1-0")
    before = {e.pk: set(Standing.objects.filter(snapshot__evening=e).values_list("pk", flat=True))
              for e in evenings}
    compared = _compared(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=evenings[2].games.order_by("board").first(),
                            result="0-1")
    assert compared == [True]  # the last evening's rows only
    after = {e.pk: set(Standing.objects.filter(snapshot__evening=e).values_list("pk", flat=True))
             for e in evenings}
    assert after[evenings[0].pk] == before[evenings[0].pk]
    assert after[evenings[1].pk] == before[evenings[1].pk]
    assert after[evenings[2].pk] != before[evenings[2].pk]
    assert standings.standings_current(s.pk)


def test_a_halfs_recalculations_coalesce_one_running_and_one_waiting_at_most(
    two_evenings, monkeypatch, django_capture_on_commit_callbacks
):
    """Results while a recalculation waits in the queue send no task of their own (the
    waiting one reads them all when it starts); once it has started, the next result
    queues one again."""
    s, first, second, arbiter = two_evenings
    queued: list[tuple] = []
    monkeypatch.setattr("core.jobs.enqueue", lambda task, *args: queued.append((task, *args)) or True)
    games = list(second.games.order_by("board"))
    for game in games:
        with django_capture_on_commit_callbacks(execute=True):
            services.result_set(actor=arbiter, game=game, result="0-1")
    assert queued == [("competition.tasks.recalculate_half", second.half_id)]
    standings.recalculation_started(second.half_id)  # the waiting task begins
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=games[0], result="1/2-1/2")
    assert queued == [("competition.tasks.recalculate_half", second.half_id)] * 2
    # Not queued (the broker down): the next change tries again.
    monkeypatch.setattr("core.jobs.enqueue", lambda task, *args: False)
    standings.recalculation_started(second.half_id)
    assert standings.queue_recalculation(second.half_id) is False
    monkeypatch.setattr("core.jobs.enqueue", lambda task, *args: queued.append((task, *args)) or True)
    assert standings.queue_recalculation(second.half_id) is True
    # The task ran to its end all the same, and the standings hold every result.
    assert recalculate_half(second.half_id) == 2
    assert standings.standings_current(s.pk)


def test_recalculations_have_a_queue_of_their_own_that_every_worker_consumes():
    from pathlib import Path

    from django.conf import settings

    for name in ("competition.tasks.recalculate_half", "competition.tasks.recalculate_stale_seasons"):
        assert settings.CELERY_TASK_ROUTES[name] == {"queue": "standings"}
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    root = Path(settings.BASE_DIR)
    for command in ("scripts/serve.py", "docker-compose.yml", "bench/bench_federation.py",
                    "scripts/loadtest.py"):
        assert '"standings,celery,mail"' in (root / command).read_text(), command


def test_a_half_none_of_whose_evenings_changed_is_neither_explained_nor_compared(
    django_capture_on_commit_callbacks, monkeypatch
):
    """Two winter evenings and one summer evening played; a correction in the summer:
    the winter half's last standings (lines and eligibility) are reused by their inputs'
    fingerprint, so the only rows made and compared are the summer's."""
    s = f.season(players=6)
    arbiter = f.arbiter()
    evenings = f.playing_evenings(s, "winter")[:2] + f.playing_evenings(s, "summer")[:1]
    with django_capture_on_commit_callbacks(execute=True):
        for evening in evenings:
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                     now=evening.deadline)
            for game in evening.games.all():
                services.result_set(actor=arbiter, game=game, result="1-0")
    winter = set(Standing.objects.filter(snapshot__half__kind="winter").values_list("pk", flat=True))
    compared = _compared(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=evenings[2].games.order_by("board").first(),
                            result="0-1")
    assert compared == [True]  # the summer's last evening only
    assert set(Standing.objects.filter(snapshot__half__kind="winter").values_list("pk", flat=True)) == winter
    assert standings.standings_current(s.pk)


def test_new_inputs_with_the_same_standings_move_only_the_fingerprints(two_evenings, monkeypatch):
    """A player's name is among the inputs the fingerprints read, and no standings change
    with it: every snapshot takes its new fingerprint and no row is written or deleted;
    the half's pages move on once (they show the inputs beside the standings)."""
    s, first, second, _ = two_evenings
    bumps: list[int] = []
    monkeypatch.setattr(standings, "standings_changed", lambda halves: bumps.append(sorted(halves)))
    rows = sorted(Standing.objects.values_list("pk", "snapshot_id", "rank", "score", "explanation"))
    digests = dict(StandingsSnapshot.objects.values_list("pk", "digest"))
    member = s.players.order_by("start").first().member
    member.name = "Een Andere Naam"
    member.save(update_fields=["name"])
    assert recalculate_season(s.pk) == 2
    assert sorted(Standing.objects.values_list("pk", "snapshot_id", "rank", "score",
                                               "explanation")) == rows
    after = dict(StandingsSnapshot.objects.values_list("pk", "digest"))
    assert after.keys() == digests.keys()
    for pk, old in digests.items():
        assert after[pk] != old and after[pk][32:] == old[32:]  # the inputs' part moved
    assert bumps == [sorted(set(StandingsSnapshot.objects.values_list("half_id", flat=True)))]
    assert standings.standings_current(s.pk)


def test_both_ways_of_writing_a_snapshots_rows_store_the_same_values(two_evenings, monkeypatch):
    """PostgreSQL takes a snapshot's rows in one statement from JSON; any other database
    through the ORM's bulk insert. Both store the same values, to the last decimal."""
    from django.db import connection

    s, first, second, _ = two_evenings
    snapshot = StandingsSnapshot.objects.get(evening=second)
    fields = [f.attname for f in Standing._meta.concrete_fields if f.attname not in ("id", "snapshot_id")]
    season = Season.objects.select_related("competition").get(pk=s.pk)
    data = standings.load_season_data(season, with_overrides=True)
    written = {}
    for vendor in ("sqlite", connection.vendor):
        (half, _, rows, _), = [p for p in standings._planned_snapshots(season, data)
                               if p[1] == second.pk]
        Standing.objects.filter(snapshot=snapshot).delete()
        monkeypatch.setattr(connection, "vendor", vendor)
        standings._insert_standings(snapshot.pk, *rows)
        monkeypatch.undo()
        written[vendor] = list(Standing.objects.filter(snapshot=snapshot).order_by("rank")
                               .values_list(*fields))
        assert len(written[vendor]) == 6
    assert written["sqlite"] == written[connection.vendor]
    assert standings.standings_current(s.pk)


def test_both_ways_of_rewriting_a_snapshot_store_the_same_values(two_evenings, monkeypatch):
    """A snapshot whose standings changed: PostgreSQL updates it and deletes its rows in
    one statement, any other database in two; both store the same fields and leave no
    row of it (its new rows are inserted next)."""
    import datetime as dt

    from django.db import connection

    s, _first, second, _ = two_evenings
    snapshot = StandingsSnapshot.objects.get(evening=second)
    columns = ("cycle", "cycle_orders", "eligibility", "digest", "computed_at")
    stored = {}
    for n, vendor in enumerate(("sqlite", connection.vendor)):
        now = dt.datetime(2026, 12, 4, 22, 30, n, tzinfo=dt.UTC)
        fields = {"cycle": True, "cycle_orders": 2 + n, "eligibility": {"7": {"eligible": n == 1}},
                  "digest": f"{n}" * 64}
        monkeypatch.setattr(connection, "vendor", vendor)
        standings._rewrite_snapshot(snapshot.pk, now, dict(fields))
        monkeypatch.undo()
        assert not Standing.objects.filter(snapshot=snapshot).exists()
        stored[vendor] = StandingsSnapshot.objects.values_list(*columns).get(pk=snapshot.pk)
        assert stored[vendor] == (*fields.values(), now)
    with pytest.raises(TypeError, match="four"):
        standings._rewrite_snapshot(snapshot.pk, now, dict(fields, with_lines=True))


@pytest.mark.postgres("the fixed number is PostgreSQL's: one statement reads the inputs")
def test_a_recalculation_runs_the_same_few_queries_whatever_the_seasons_size(
    django_capture_on_commit_callbacks
):
    """A result on a season's last evening, recalculated: the season, its lock, one
    statement of its inputs (with the halves and the stored snapshots' fingerprints), the
    snapshot rewritten and its rows inserted, the state, and the version after the
    commit: the same seven queries for 6 players after two evenings as for 24 after six."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players, played in ((6, 2), (24, 6)):
        s = f.season(players=players)
        arbiter = f.arbiter()
        evenings = f.playing_evenings(s)[:played]
        with django_capture_on_commit_callbacks(execute=True):
            for evening in evenings:
                evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                         now=evening.deadline)
                for game in evening.games.all():
                    services.result_set(actor=arbiter, game=game, result="1-0")
        game = evenings[-1].games.order_by("board").first()
        with django_capture_on_commit_callbacks(execute=False):
            services.result_set(actor=arbiter, game=game, result="0-1")
        with CaptureQueriesContext(connection) as queries, \
                django_capture_on_commit_callbacks(execute=True):
            assert standings.recalculate_half_season(evenings[-1].half_id) > 0
        assert standings.standings_current(s.pk)
        counts.append(len([q for q in queries.captured_queries
                           if "SAVEPOINT" not in q["sql"]]))  # the test's transaction's
    assert counts == [7, 7]


@pytest.mark.postgres("the season read in one statement; elsewhere both ways are one")
@pytest.mark.parametrize("system", ["pion", "ladder"])
def test_both_ways_of_reading_a_seasons_inputs_read_the_same(system, monkeypatch,
                                                             django_assert_max_num_queries):
    """PostgreSQL reads a season's inputs in one statement (the ORM's queries compiled
    once, each one's rows as JSON); any other database runs the ORM's queries. Both read
    the same: players with start points, counted evenings (one with a result before its
    day), pending results, byes, absences with notice and club duty, overrides; an
    evening paired but not played and a sign-off for an evening to come are not read."""
    from decimal import Decimal
    from fractions import Fraction

    from django.db import connection

    from competition.models import Attendance, EligibilityOverride, Evening, Player, Registration
    from competition.season.seasonio import season_import
    from tests.generate import random_season

    season = season_import(actor=None, system=True, name=f"read-{system}",
                           data=random_season(7, players=10, evenings=6, system=system))
    players = list(Player.objects.filter(season=season).order_by("start"))
    # A decimal JSON cannot hold as a number without a float (12.1 is not one): read exactly.
    Player.objects.filter(pk=players[0].pk).update(start_points=Decimal("12.10"))
    evenings = list(Evening.objects.filter(season=season, kind="playing").order_by("date"))
    today = evenings[-3].date  # the next evening has its results already: counted
    # One board of that evening was not played after all: one of its two on club duty,
    # the other absent with notice.
    game = Game.objects.filter(evening=evenings[-3]).order_by("board").last()
    game.delete()
    for player_id, status in ((game.white_id, Attendance.CLUB_DUTY),
                              (game.black_id, Attendance.ABSENT_WITH_NOTICE)):
        Registration.objects.update_or_create(evening=evenings[-3], player_id=player_id,
                                              defaults={"status": status})
    # The last evening paired, its results not in, a sign-off for it: not counted.
    Game.objects.filter(evening=evenings[-1]).update(result="")
    Registration.objects.update_or_create(evening=evenings[-1], player=players[4],
                                          defaults={"status": Attendance.ABSENT_WITH_NOTICE})
    half = evenings[-3].half or season.halves.first()
    EligibilityOverride.objects.create(half=half, player=players[2], eligible=False, reason="Te laat")
    EligibilityOverride.objects.create(half=half, player=players[3], eligible=True, reason="Akkoord")
    s = Season.objects.select_related("competition").get(pk=season.pk)
    with django_assert_max_num_queries(2):
        fast = standings.load_season_data(s, today, with_overrides=True)
    monkeypatch.setattr(connection, "vendor", "sqlite")
    plain = standings.load_season_data(s, today, with_overrides=True)
    monkeypatch.undo()
    assert fast == plain
    assert fast.players[0].start_points == Fraction(121, 10)
    assert [e.date for e in fast.evenings] == [e.date for e in evenings[:-1]]
    assert fast.evenings[-2].club_duty == (game.white_id,)
    assert game.black_id in fast.evenings[-2].absent_with_notice
    assert sorted(fast.overrides[half.kind].items()) == [(players[2].pk, False), (players[3].pk, True)]


def test_snapshots_stored_in_an_older_form_take_the_new_form_once(two_evenings, monkeypatch):
    """A snapshot's link carries the store's form (``standings.STORE_FORM``): every
    snapshot stored in another form takes a digest of the new one at the season's next
    recalculation, even where no input changed (its rows written again where what they
    fingerprint changed, else kept), and then the stored standings are current again."""
    s, first, second, _ = two_evenings
    snapshots = StandingsSnapshot.objects.filter(half__season=s)
    monkeypatch.setattr(standings, "STORE_FORM", "an older form")
    recalculate_season(s.pk)
    older = dict(snapshots.values_list("pk", "digest"))
    assert standings.standings_current(s.pk)
    monkeypatch.undo()
    assert not standings.standings_current(s.pk)
    recalculate_season(s.pk)
    newer = dict(snapshots.values_list("pk", "digest"))
    assert newer.keys() == older.keys()
    assert all(newer[pk] != older[pk] for pk in newer)
    assert standings.standings_current(s.pk)
    rows = set(Standing.objects.filter(snapshot__half__season=s).values_list("pk", flat=True))
    recalculate_season(s.pk)  # once: the next recalculation changes nothing
    assert dict(snapshots.values_list("pk", "digest")) == newer
    assert set(Standing.objects.filter(snapshot__half__season=s).values_list("pk", flat=True)) == rows


@pytest.mark.postgres("prepared statements are PostgreSQL's")
def test_the_recalculations_own_statements_are_prepared_once_per_connection(two_evenings):
    """The season's inputs, a snapshot's rewrite and its rows' insert are prepared on the
    server once per connection and then run by name, their parameters bound on the server
    (the rows' JSON is no longer quoted into the statement); the standings are what a
    fresh computation gives."""
    from django.db import connection

    s, _, second, arbiter = two_evenings
    game = second.games.order_by("board").first()

    def runs() -> dict[str, int]:
        """The connection's prepared statements, by their first words: times run."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
            return {" ".join(sql.split()[:2]): n for sql, n in cursor.fetchall()}

    before = runs()
    for result in ("0-1", "1/2-1/2", "1-0"):
        services.result_set(actor=arbiter, game=game, result=result)
        assert standings.recalculate_half_season(second.half_id) > 0
    after = runs()
    ran = {name: n - before.get(name, 0) for name, n in after.items() if n != before.get(name, 0)}
    assert ran == {"SELECT (SELECT": 3, "WITH changed": 3, 'INSERT INTO': 3}, ran
    assert standings.standings_current(s.pk)


@pytest.mark.postgres("prepared statements are PostgreSQL's")
def test_with_preparing_turned_off_the_recalculation_stores_the_same(two_evenings, monkeypatch):
    """Behind a pooler that cannot keep prepared statements the settings turn preparing
    off (psycopg's threshold None, as Django's default has it): the statements run
    unprepared, still bound on the server, and store the same standings."""
    from django.db import connection

    s, _, second, arbiter = two_evenings
    game = second.games.order_by("board").first()
    def runs() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT sum(generic_plans + custom_plans) FROM pg_prepared_statements")
            return int(cursor.fetchone()[0] or 0)

    connection.ensure_connection()
    monkeypatch.setattr(connection.connection, "prepare_threshold", None)
    before = runs()
    services.result_set(actor=arbiter, game=game, result="0-1")
    assert standings.recalculate_half_season(second.half_id) > 0
    assert standings.standings_current(s.pk)
    assert runs() == before  # nothing run prepared


@pytest.mark.postgres("the season read in one plain statement is PostgreSQL's")
def test_both_ways_of_reading_the_season_read_the_same_and_only_the_clubs_own(two_evenings, monkeypatch):
    """The recalculation reads its season with the competition, by the season's id or by
    one of its halves: on PostgreSQL in a club one plain statement, elsewhere the ORM's
    select_related; both give the same models, joined both ways. Another club's season or
    half is not found (None), nor is a half that is gone."""
    from django.db import connection

    from competition.models import Competition, Half
    from members.clubs.context import club_context, platform_context

    s, first, _, _ = two_evenings
    half_id = first.half_id

    def read() -> list:
        return [standings._season_read(s.pk, None), standings._season_read(0, half_id)]

    fast = read()
    monkeypatch.setattr(connection, "vendor", "sqlite")
    plain = read()
    monkeypatch.undo()

    def fields(obj) -> dict:
        return {k: v for k, v in vars(obj).items() if not k.startswith("_")}

    for a, b in zip(fast, plain, strict=True):
        assert fields(a) == fields(b) and a.pk == s.pk
        assert fields(a.competition) == fields(b.competition) and a.competition.system
        assert a.competition.season is a  # the other end of the join, no query
    decoy = f.decoy_club(s)
    with club_context(decoy["club"]):
        assert standings._season_read(s.pk, None) is None
        assert standings._season_read(0, half_id) is None
        theirs = decoy["season"]
        assert standings._season_read(theirs.pk, None).competition.season_id == theirs.pk
    assert standings._season_read(decoy["season"].pk, None) is None
    with platform_context():  # an id no half of any club has
        gone_id = Half.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    assert standings._season_read(0, gone_id) is None
    assert Competition.objects.filter(season=s).exists()
