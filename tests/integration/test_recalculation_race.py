"""A result saved while a recalculation runs reaches the standings (issue 19, section 1).

On PostgreSQL, threads really interleave: a recalculation is held at a point of its
transaction (just after it read the season, or with every row written, just before its
commit) while another thread saves a result on another board. The save must not wait for
the held recalculation, and once everything is released and the queue is empty (tasks run
at once in the tests, in the thread whose commit queued them) the stored standings must
equal a fresh computation. SQLite has one writer at a time, so these tests need
PostgreSQL (``DATABASE_URL``; CI runs the suite there).
"""

from __future__ import annotations

import contextvars
import functools
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.db import connections, transaction

from competition.models import Game, Season, Standing, StandingsSnapshot
from competition.season import services, standings
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.postgres("concurrent writers; SQLite has one at a time"), pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("in_home_club")]
# Seconds: reached only when something waits that should not. A held recalculation waits
# for its release longer than a save is given to end.
WAIT = 30  # generous: the shared machine is slow, and only a real wait reaches it
HOLD = 4 * WAIT
RESULTS = ("1-0", "1/2-1/2", "0-1")


def stored_rows(season_id: int) -> list[tuple]:
    return list(
        Standing.objects.filter(snapshot__half__season_id=season_id)
        .order_by("snapshot__half_id", "snapshot__evening__date", "rank", "player_id")
        .values_list("snapshot__half_id", "snapshot__evening_id", "player_id", "rank",
                     "score_exact", "games", "won", "drawn", "lost", "explanation")
    ) + sorted(
        StandingsSnapshot.objects.filter(half__season_id=season_id)
        .values_list("half_id", "evening_id", "cycle", "eligibility")
    , key=repr)


def fresh_rows(season_id: int) -> list[tuple]:
    """The standings computed from scratch from the data now (written, read, rolled back)."""
    with transaction.atomic():
        StandingsSnapshot.objects.filter(half__season_id=season_id).delete()
        standings.recalculate_season(season_id)
        rows = stored_rows(season_id)
        transaction.set_rollback(True)
    return rows


class Holds:
    """Holds a thread's recalculation at a named point of its first pass: ``read`` (just
    after it read the season, before it reads the evenings) or ``written`` (every row
    written, before the commit). Other threads' recalculations pass freely."""

    POINTS = {"read": "load_season_data", "written": "_computed_from"}

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.armed: dict[int, tuple[str, threading.Event, threading.Event]] = {}
        for point, name in self.POINTS.items():
            monkeypatch.setattr(standings, name, self._wrap(point, getattr(standings, name)))

    def _wrap(self, point: str, original: Callable) -> Callable:
        @functools.wraps(original)
        def held(*args, **kwargs):
            hold = self.armed.get(threading.get_ident())
            if hold is not None and hold[0] == point:
                del self.armed[threading.get_ident()]  # the first pass only
                reached, release = hold[1], hold[2]
                reached.set()
                assert release.wait(HOLD), "never released"
            return original(*args, **kwargs)

        return held

    def arm(self, point: str) -> tuple[threading.Event, threading.Event]:
        reached, release = threading.Event(), threading.Event()
        self.armed[threading.get_ident()] = (point, reached, release)
        return reached, release

    def disarm(self) -> None:
        """This thread's hold is gone, reached or not: a recalculation that found another
        running never reaches its point, and a later thread may get the same ident."""
        self.armed.pop(threading.get_ident(), None)


class Worker(threading.Thread):
    """Runs one step in a thread of its own, with its own database connection."""

    def __init__(self, step: Callable[[], object]) -> None:
        super().__init__(daemon=True)
        self.step, self.error, self.done = step, None, threading.Event()
        self.context = contextvars.copy_context()  # the test's club (a new thread has none)

    def run(self) -> None:
        try:
            self.context.run(self.step)
        except BaseException as exc:  # reported by finish()
            self.error = exc
        finally:
            connections.close_all()
            self.done.set()

    def finish(self) -> None:
        self.join(HOLD)
        assert not self.is_alive(), "a step never ended"
        if self.error is not None:
            raise self.error


@contextmanager
def threads() -> Iterator[list[Worker]]:
    started: list[Worker] = []
    try:
        yield started
    finally:
        for worker in started:
            worker.join(HOLD)


def held_or_done(worker: Worker, ready: list) -> bool:
    """Wait until the worker's recalculation is held at its point, or has ended."""
    for _ in range(WAIT * 100):
        if worker.done.is_set() or (ready and ready[0][0].is_set()):
            return True
        worker.done.wait(0.01)
    return False


def paired_evening(players: int = 8):
    s = f.season(players=players)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    return s, list(Game.objects.filter(evening=evening).order_by("board"))


def save(arbiter, game_id: int, result: str) -> Callable[[], object]:
    return lambda: services.result_set(actor=arbiter, game=Game.objects.get(pk=game_id),
                                       result=result)


def test_a_result_saved_while_a_recalculation_is_held_reaches_the_standings(monkeypatch):
    """The interleaving of the production probe: the first result's recalculation is held
    just after it read the season; a second result is saved on another board (without
    waiting for it); on release the second result is in the standings."""
    s, games = paired_evening()
    arbiter = f.arbiter()
    holds = Holds(monkeypatch)
    armed: list[tuple[threading.Event, threading.Event]] = []

    def first_result_and_its_recalculation():
        armed.append(holds.arm("read"))
        services.result_set(actor=arbiter, game=games[0], result="1-0")  # its task: held

    with threads() as started:
        first = Worker(first_result_and_its_recalculation)
        started.append(first)
        first.start()
        assert held_or_done(first, armed), "the recalculation was neither held nor done"
        reached, release = armed[0]
        assert reached.is_set(), "the recalculation was never held"
        second = Worker(save(arbiter, games[1].pk, "0-1"))
        started.append(second)
        second.start()
        # The save (and its own queued recalculation) ends while the first is still held.
        saved = second.done.wait(WAIT)
        release.set()
        first.finish()
        second.finish()

    assert Game.objects.get(pk=games[1].pk).result == "0-1"
    assert stored_rows(s.pk) == fresh_rows(s.pk)
    assert saved, "the result save waited for the held recalculation"
    black = Standing.objects.filter(snapshot__half__season=s, player=games[1].black_id)
    assert black.order_by("-snapshot__evening__date").first().won == 1


STEPS = ("save", "save", "save", "hold read", "hold written", "release", "release")


@pytest.mark.parametrize("seed", range(6))
def test_after_any_interleaving_the_stored_standings_equal_a_fresh_computation(
    monkeypatch, seed
):
    """A seeded random schedule of result saves (each on a random board, in a thread of
    its own, with its own queued recalculation), recalculations held after reading the
    season or before committing, and releases in any order. Every save ends while
    recalculations are held; once all are released and the queue is empty, the stored
    standings equal a fresh computation."""
    s, games = paired_evening(players=10)
    arbiter = f.arbiter()
    holds = Holds(monkeypatch)
    rng = random.Random(seed)
    held: list[tuple[Worker, threading.Event]] = []

    def recalculation(point: str, ready: list) -> Callable[[], object]:
        def step():
            ready.append(holds.arm(point))
            try:
                standings.recalculate_season(s.pk)
            finally:
                holds.disarm()

        return step

    with threads() as started:
        for _ in range(14):
            step = rng.choice(STEPS)
            if step == "save":
                game = rng.choice(games)
                current = Game.objects.get(pk=game.pk).result
                worker = Worker(save(arbiter, game.pk, rng.choice(
                    [r for r in RESULTS if r != current])))
                started.append(worker)
                worker.start()
                assert worker.done.wait(WAIT), f"a save waited for a recalculation ({step})"
                worker.finish()
            elif step.startswith("hold"):
                ready: list = []
                worker = Worker(recalculation(step.split()[1], ready))
                started.append(worker)
                worker.start()
                assert held_or_done(worker, ready), "a recalculation waited for another"
                if worker.done.is_set():  # another recalculation holds the season: it ran again
                    worker.finish()
                else:
                    held.append((worker, ready[0][1]))
            elif held:
                worker, release = held.pop(rng.randrange(len(held)))
                release.set()
                worker.finish()
        for worker, release in held:
            release.set()
            worker.finish()

    assert stored_rows(s.pk) == fresh_rows(s.pk)
    season = Season.objects.get(pk=s.pk)
    assert standings.standings_behind(season.pk) is False


def two_played_evenings(players: int = 8):
    """A season whose first two evenings are paired with every result entered."""
    s = f.season(players=players)
    arbiter = f.arbiter()
    evenings = f.playing_evenings(s)[:2]
    for evening in evenings:
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                 now=evening.deadline)
        for game in Game.objects.filter(evening=evening).order_by("board"):
            services.result_set(actor=arbiter, game=game, result="1-0")
    return s, arbiter, [list(Game.objects.filter(evening=e).order_by("board")) for e in evenings]


@pytest.mark.parametrize("point", ["read", "written"])
@pytest.mark.parametrize(("held", "saved"), [(0, 1), (1, 0)])
def test_an_incremental_recalculation_held_while_another_evening_is_corrected(
    monkeypatch, point, held, saved
):
    """The incremental path under a race: a correction on one evening starts a
    recalculation that reuses the standings before that evening; it is held (after
    reading the season, or with its rows written) while a result of the other evening is
    corrected. Once released, the stored standings equal a fresh computation: a reuse
    never keeps standings that the other correction changed."""
    s, arbiter, games = two_played_evenings()
    holds = Holds(monkeypatch)
    armed: list[tuple[threading.Event, threading.Event]] = []

    def correction_and_its_recalculation():
        armed.append(holds.arm(point))
        try:
            services.result_set(actor=arbiter, game=games[held][0], result="0-1")
        finally:
            holds.disarm()

    with threads() as started:
        first = Worker(correction_and_its_recalculation)
        started.append(first)
        first.start()
        assert held_or_done(first, armed), "the recalculation was neither held nor done"
        assert armed[0][0].is_set(), "the recalculation was never held"
        second = Worker(save(arbiter, games[saved][-1].pk, "1/2-1/2"))
        started.append(second)
        second.start()
        finished = second.done.wait(WAIT)
        armed[0][1].set()
        first.finish()
        second.finish()

    assert finished, "the correction waited for the held recalculation"
    assert stored_rows(s.pk) == fresh_rows(s.pk)
    assert standings.standings_behind(s.pk) is False
