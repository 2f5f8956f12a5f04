"""The deadline job (docs/rules.md 3, 5): at Thursday 18:00 the application closes the
sign-ups, pairs the evening and publishes it, once, however often or late the job runs."""

from __future__ import annotations

import contextvars
import datetime as dt
import threading
from collections import Counter
from contextlib import contextmanager
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.core import mail
from django.db import connection, connections

from competition.models import AuditRecord, Bye, Evening, Game, Result
from competition.season import services
from pairing.models import PairingNotice
from pairing.selectors import due_evenings
from pairing.services import evening_pair_and_publish
from pairing.tasks import close_due_evenings
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
AMS = ZoneInfo("Europe/Amsterdam")
MINUTE = dt.timedelta(minutes=1)


@contextmanager
def clock(now: dt.datetime):
    """The job reads the time from django.utils.timezone.now (freezegun is not installed)."""
    with mock.patch("django.utils.timezone.now", return_value=now):
        yield


def run_job(now: dt.datetime, capture) -> list[int]:
    """The beat entry at ``now``, with its after-commit work (e-mails) run; the evenings it
    queued of the test's club (it runs as the platform: the decoy club's are its too)."""
    with clock(now), capture(execute=True):
        return ours(close_due_evenings())


def ours(evening_ids: list[int]) -> list[int]:
    """Those of the test's club (the beat job queues every club's due evenings)."""
    mine = set(Evening.objects.filter(pk__in=evening_ids).values_list("pk", flat=True))
    return [pk for pk in evening_ids if pk in mine]


def paired_ids(evening: Evening) -> list[int]:
    ids = [pid for g in evening.games.all() for pid in (g.white_id, g.black_id)]
    bye = Bye.objects.filter(evening=evening).first()
    return ids + ([bye.player_id] if bye else [])


def test_job_pairs_exactly_the_evenings_whose_deadline_passed_and_not_yet_published(
    django_capture_on_commit_callbacks,
):
    s = f.season(players=6)
    e0, e1, e2 = f.playing_evenings(s)[:3]
    # The leader published the second evening early; the job must leave it as it is.
    evening_pair_and_publish(evening_id=e1.pk, actor=f.leader(), now=e0.deadline)
    e1_games = sorted(e1.games.values_list("pk", flat=True))

    assert due_evenings(e0.deadline - MINUTE) == []
    assert due_evenings(e0.deadline) == [e0.pk]
    assert run_job(e0.deadline + MINUTE, django_capture_on_commit_callbacks) == [e0.pk]
    assert run_job(e1.deadline + MINUTE, django_capture_on_commit_callbacks) == []

    e0.refresh_from_db(), e1.refresh_from_db(), e2.refresh_from_db()
    assert e0.status == "published" and e0.games.count() == 3
    assert sorted(e1.games.values_list("pk", flat=True)) == e1_games
    assert e2.status == "open" and not e2.games.exists()
    rapid = s.evenings.exclude(kind="playing").first()
    assert rapid.pk not in due_evenings(rapid.deadline + MINUTE)


def test_running_the_job_twice_pairs_once_and_sends_one_email_per_paired_player(
    django_capture_on_commit_callbacks,
):
    s = f.season(players=8)
    evening = f.playing_evenings(s)[0]
    assert run_job(evening.deadline + MINUTE, django_capture_on_commit_callbacks) == [evening.pk]
    games = sorted(evening.games.values_list("pk", "white_id", "black_id"))
    assert run_job(evening.deadline + 2 * MINUTE, django_capture_on_commit_callbacks) == []

    assert sorted(evening.games.values_list("pk", "white_id", "black_id")) == games
    assert AuditRecord.objects.filter(evening=evening, action="pairing.publish").count() == 1
    recipients = Counter(to for m in mail.outbox for to in m.to)
    emails = set(s.players.values_list("member__email", flat=True))
    assert set(recipients) == emails and set(recipients.values()) == {1}
    assert PairingNotice.objects.filter(evening=evening, state="sent").count() == 8


def test_catch_up_pairs_an_evening_whose_deadline_passed_long_ago(
    django_capture_on_commit_callbacks,
):
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    # The worker was down from Thursday 17:00 until Friday 20:00: the five-minute
    # catch-up pairs the evening as soon as it runs again.
    late = evening.starts_at - dt.timedelta(minutes=15)
    assert late - evening.deadline >= dt.timedelta(hours=26)
    assert run_job(late, django_capture_on_commit_callbacks) == [evening.pk]
    evening.refresh_from_db()
    assert evening.status == "published" and evening.published_at == late
    assert len(mail.outbox) == 4


def test_an_evening_that_has_begun_is_left_to_the_leader(django_capture_on_commit_callbacks):
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    # E-mails announcing games that are being played already would help nobody.
    assert run_job(evening.starts_at + MINUTE, django_capture_on_commit_callbacks) == []
    assert not evening.games.exists() and mail.outbox == []


def test_flexible_player_without_sign_up_and_fixed_player_who_signed_off_are_not_paired(
    django_capture_on_commit_callbacks,
):
    s = f.season(players=8, flexible=3)
    evening = f.playing_evenings(s)[0]
    players = list(s.players.order_by("start"))
    fixed = [p for p in players if p.is_fixed]
    flexible = [p for p in players if not p.is_fixed]
    early = evening.deadline - dt.timedelta(days=1)
    services.registration_set(actor=fixed[0].member, player=fixed[0], evenings=[evening],
                              status="absent_with_notice", now=early)
    services.registration_set(actor=flexible[0].member, player=flexible[0], evenings=[evening],
                              status="present", now=early)
    run_job(evening.deadline + MINUTE, django_capture_on_commit_callbacks)

    paired = set(paired_ids(evening))
    assert paired == {p.pk for p in fixed[1:]} | {flexible[0].pk}
    assert fixed[0].pk not in paired
    assert not paired & {p.pk for p in flexible[1:]}


def test_odd_number_present_gives_one_bye_recorded_with_its_lot(
    django_capture_on_commit_callbacks,
):
    s = f.season(players=7)
    evening = f.playing_evenings(s)[0]
    run_job(evening.deadline + MINUTE, django_capture_on_commit_callbacks)

    assert evening.games.count() == 3
    bye = Bye.objects.get(evening=evening)
    assert bye.player_id not in {pid for g in evening.games.all() for pid in (g.white_id, g.black_id)}
    assert bye.player_id in bye.drawn_from  # pion: drawn by lot, among whom is recorded
    record = AuditRecord.objects.get(evening=evening, action="pairing.publish")
    assert record.after["bye"] == bye.player_id
    assert record.after["bye_drawn_from"] == bye.drawn_from
    assert bye.player.member.email in {to for m in mail.outbox for to in m.to}
    assert len(mail.outbox) == 7


def test_beat_runs_the_job_every_minute_so_any_deadline_holds_across_dst():
    """One beat entry: each evening's deadline is a parameter of its competition, so the
    job runs every minute and pairs whatever is due, whatever the deadline is."""
    from config.celery import app

    assert settings.CELERY_TIMEZONE == "Europe/Amsterdam"
    jobs = [name for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
            if entry["task"] == "pairing.tasks.close_due_evenings"]
    assert jobs == ["close-due-evenings"]
    assert settings.CELERY_BEAT_SCHEDULE["close-due-evenings"]["schedule"] == crontab(minute="*")

    s = f.season(players=0)
    before_dst = Evening.objects.get(season=s, date=dt.date(2026, 10, 23))
    after_dst = Evening.objects.get(season=s, date=dt.date(2026, 10, 30))
    assert before_dst.deadline == dt.datetime(2026, 10, 22, 18, 0, tzinfo=AMS)
    assert before_dst.deadline.astimezone(AMS).utcoffset() == dt.timedelta(hours=2)
    assert after_dst.deadline == dt.datetime(2026, 10, 29, 18, 0, tzinfo=AMS)
    assert after_dst.deadline.isoformat() == "2026-10-29T17:00:00+00:00"  # 18:00+01:00

    # Celery's own computation of the next run, in the app's time zone, the week the
    # clocks go back (Sunday 25 October): half a minute before the deadline, the next run
    # is the deadline, 18:00+01:00; and so for a deadline at any other minute.
    schedule = settings.CELERY_BEAT_SCHEDULE["close-due-evenings"]["schedule"]

    def next_run(after: dt.datetime) -> dt.datetime:
        at = crontab(minute=schedule._orig_minute, app=app, nowfun=lambda: after)
        return after + at.remaining_estimate(after)

    assert next_run(after_dst.deadline - dt.timedelta(seconds=30)) == after_dst.deadline
    for minutes in range(1, 60):
        deadline = after_dst.deadline - dt.timedelta(minutes=minutes)
        assert next_run(deadline - dt.timedelta(seconds=30)) == deadline


def test_pairing_keeps_the_meeting_rules_over_the_winter_half(
    django_capture_on_commit_callbacks,
):
    """pion: the same two players meet at most once a half. Ten evenings of the winter
    half are signed, paired by the job and played through the services."""
    s = f.season(players=14)
    arbiter = f.arbiter()
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    winter = f.playing_evenings(s, "winter")
    players = list(s.players.order_by("start"))
    for i, evening in enumerate(winter):
        # Two players sign off each evening, a different pair every time.
        off = [players[(2 * i) % 14], players[(2 * i + 1) % 14]]
        for p in off:
            services.registration_set(actor=p.member, player=p, evenings=[evening],
                                      status="absent_with_notice",
                                      now=evening.deadline - dt.timedelta(days=2))
        with clock(evening.deadline + MINUTE):
            assert ours(close_due_evenings()) == [evening.pk]
        for n, game in enumerate(evening.games.all()):
            services.result_set(actor=arbiter, game=game, result=results[(n + i) % 3])
        assert not {p.pk for p in off} & set(paired_ids(evening))

    pairs = Counter(
        frozenset((g.white_id, g.black_id)) for g in Game.objects.filter(evening__in=winter)
    )
    assert sum(pairs.values()) == 10 * 6
    assert max(pairs.values()) == 1
    relaxed = AuditRecord.objects.filter(evening__in=winter, action="pairing.publish")
    assert all(r.after["relaxed"] == [] for r in relaxed)


@pytest.mark.django_db(transaction=True)
def test_concurrent_deadline_jobs_pair_an_evening_once_and_email_each_player_once(caplog):
    """Four workers run the job at the same moment. On PostgreSQL the four threads really
    race: the evening's row lock (SELECT ... FOR UPDATE) lets one pair it and the others
    wait, then find it published. SQLite has no row locks, and its in-memory test database
    (shared cache) refuses a second writer at once ("database table is locked") instead of
    waiting: threads there pass only by luck of timing, or through the job's own error
    handling. So on SQLite the four jobs run one after another; the same assertions then
    check the published-state guard without the race."""
    s = f.season(players=8)
    evening = f.playing_evenings(s)[0]
    now = evening.deadline + MINUTE
    outcomes: list[object] = []
    concurrent = connection.vendor == "postgresql"

    def job() -> None:
        try:
            outcomes.append(close_due_evenings())
        except Exception as exc:  # reported by the assertion below
            outcomes.append(exc)
        finally:
            if concurrent:
                connections.close_all()

    with clock(now):
        if concurrent:
            start = threading.Barrier(4)
            # Each thread in the test's club (a new thread starts with no club).
            threads = [
                threading.Thread(target=contextvars.copy_context().run,
                                 args=(lambda: (start.wait(), job()),))
                for _ in range(4)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
        else:
            for _ in range(4):
                job()

    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # nobody failed
    # Each job queues the evening's pairing task while it sees it due (on PostgreSQL up to
    # four at once); the tasks pair it once.
    assert all(o in ([], [evening.pk]) for o in outcomes) and [evening.pk] in outcomes
    assert Game.objects.filter(evening=evening).count() == 4
    assert AuditRecord.objects.filter(evening=evening, action="pairing.publish").count() == 1
    notices = Counter(PairingNotice.objects.filter(evening=evening).values_list("player_id", flat=True))
    assert set(notices) == set(s.players.values_list("pk", flat=True))
    assert set(notices.values()) == {1}
    recipients = Counter(to for m in mail.outbox for to in m.to)
    assert len(recipients) == 8 and set(recipients.values()) == {1}


# --- The deadline job is a dispatcher -------------------------------------------------------


def test_the_dispatcher_queues_one_pairing_task_per_due_evening_and_none_for_the_others(
    monkeypatch,
):
    """It pairs nothing itself: one task per due evening of every season (a later evening
    gets none; published and begun ones neither: ``due_evenings``)."""
    s1, s2 = f.season(players=4), f.season(players=4)
    a, later = f.playing_evenings(s1)[:2]
    b = f.playing_evenings(s2)[0]
    queued: list[tuple] = []
    monkeypatch.setattr("pairing.tasks.enqueue", lambda task, *args: queued.append((task, *args)) or True)
    now = max(a.deadline, b.deadline) + MINUTE
    with clock(now):
        assert sorted(ours(close_due_evenings())) == sorted([a.pk, b.pk])
    pair = "pairing.tasks.pair_and_publish_evening"
    assert sorted(queued) == sorted([(pair, a.pk), (pair, b.pk)])
    assert later.pk not in [args[1] for args in queued]
    assert not Game.objects.exists()  # the dispatcher itself paired nothing


def test_the_pairing_task_run_twice_pairs_once_and_leaves_a_begun_evening_alone(
    django_capture_on_commit_callbacks,
):
    from pairing.tasks import pair_and_publish_evening

    s = f.season(players=6)
    evening, begun = f.playing_evenings(s)[:2]
    with clock(evening.deadline + MINUTE), django_capture_on_commit_callbacks(execute=True):
        assert pair_and_publish_evening(evening.pk) is True
        assert pair_and_publish_evening(evening.pk) is False
    assert AuditRecord.objects.filter(evening=evening, action="pairing.publish").count() == 1
    assert len(mail.outbox) == 6
    with clock(begun.starts_at + MINUTE):
        assert pair_and_publish_evening(begun.pk) is False
    assert not begun.games.exists()


def test_the_withdrawal_check_locks_only_the_evenings_with_a_sign_off_nobody_was_told_of(
    django_capture_on_commit_callbacks, monkeypatch, django_assert_max_num_queries,
):
    from pairing.selectors import evenings_with_unnotified_withdrawals

    s = f.season(players=4)
    quiet, off = f.playing_evenings(s)[:2]
    for e in (quiet, off):
        evening_pair_and_publish(actor=None, system=True, evening_id=e.pk, now=e.deadline)
    game = off.games.select_related("white").first()
    now = quiet.deadline + MINUTE
    assert evenings_with_unnotified_withdrawals(now) == []
    services.registration_set(actor=game.white.member, player=game.white, evenings=[off],
                              status="absent_with_notice", now=now)  # its task: queued, lost
    with django_assert_max_num_queries(4):
        assert evenings_with_unnotified_withdrawals(now) == [off.pk]
    locked: list[int] = []
    monkeypatch.setattr("pairing.tasks.enqueue",
                        lambda task, *args: locked.append(args[0]) if "withdrawals" in task else True)
    with clock(now):
        close_due_evenings()
    assert locked == [off.pk]  # the quiet evening is not locked
    from pairing.notices import withdrawals
    withdrawals(off, ["leider@example.org"])
    assert evenings_with_unnotified_withdrawals(now) == []  # told: no more locking


# Locking and reading the evening, the history and standings it is paired from, its games in
# one INSERT, the bye (four with its savepoint, when the number is odd), the audit record and
# the e-mails (with one read of the club's members' e-mail preferences, members.models.
# club_part): the same for six players as for thirty-one.
PAIRING_QUERIES = 31


@pytest.mark.parametrize("players", [6, 31])
def test_pairing_and_publishing_an_evening_costs_queries_that_do_not_grow_with_players(
    players, django_assert_max_num_queries,
):
    """The deadline's pairing of the second evening (the first played: its games are the
    history and the standings): its games are written at once, its e-mails queued at once."""
    s = f.season(players=players)
    first, second = f.playing_evenings(s)[:2]
    evening_pair_and_publish(actor=None, system=True, evening_id=first.pk, now=first.deadline)
    for game in first.games.all():
        services.result_set(actor=f.leader(), game=game, result=Result.DRAW, before_start=True)
    with django_assert_max_num_queries(PAIRING_QUERIES):
        evening_pair_and_publish(actor=None, system=True, evening_id=second.pk, now=second.deadline)
    assert second.games.count() == players // 2
    assert PairingNotice.objects.filter(evening=second).count() == players
    # The audit records the pairing as stored (taken from the rows just written).
    from pairing.selectors import pairing_snapshot
    record = AuditRecord.objects.get(evening=second, action="pairing.publish")
    stored = pairing_snapshot(second)
    assert (record.after["games"], record.after["bye"]) == (stored["games"], stored["bye"])
    assert len(stored["games"]) == players // 2 and (stored["bye"] is None) == (players % 2 == 0)

