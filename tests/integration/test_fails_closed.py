"""Outside every club a club-scoped query refuses, whichever way it is run
(docs/architecture.md, "Many clubs", "Fails closed"): every club-scoped model (read from
its declaration, ``core.tenancy.scoping.club_path``, as tests/architecture/test_club_models.py
does) and every way of running its query raise django-scopes' ``ScopeError``, on SQLite as
on PostgreSQL. Row security (PostgreSQL, as the application's role) hides the other
clubs' rows too, but it is the backstop, never the only wall: a query that answers an
empty list there answers every club's rows on SQLite, or for the table owner.

The walk is a function that returns the leaks (``leaks``), so a test can show that it
reports a model whose scoping is taken away: it cannot pass by walking nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from django.apps import apps
from django.db import models, transaction
from django.db.models import Count, F, prefetch_related_objects
from django_scopes import ScopeError

from competition.models import Evening, Player, Season
from core.tenancy.context import club_context, platform_context
from core.tenancy.scoping import club_path
from members.clubs.memo import home_club
from members.models import Club
from tests import factories as f
from tests.decoy import decoy

pytestmark = pytest.mark.django_db

# Every club-scoped model, by its declaration.
CLUB_SCOPED = {m._meta.label: m for m in apps.get_models() if club_path(m) is not None}
# Club-scoped, or the platform's own where the club is empty (core.Mail, the outbox): with
# no club in scope its manager answers the platform's rows only (a test below).
PLATFORM_ROWS = {label for label, m in CLUB_SCOPED.items()
                 if getattr(m._default_manager, "_platform_rows", False)}
REFUSING = {label: m for label, m in CLUB_SCOPED.items() if label not in PLATFORM_ROWS}


def _table(model: type[models.Model]) -> str:
    return model._meta.db_table


# Every way of running a query on a club-scoped model's default manager. Each case runs
# the query to the end (a lazy queryset is read), so a refusal later than the call counts
# as much as one at the call.
QUERIES: dict[str, Callable[[type[models.Model]], object]] = {
    "exists": lambda m: m._default_manager.exists(),
    "count": lambda m: m._default_manager.count(),
    "iterate": lambda m: list(m._default_manager.all()),
    "iterator": lambda m: list(m._default_manager.iterator()),
    "bool": lambda m: bool(m._default_manager.all()),
    "first": lambda m: m._default_manager.first(),
    "last": lambda m: m._default_manager.last(),
    "get": lambda m: m._default_manager.get(pk=0),
    "aggregate": lambda m: m._default_manager.aggregate(n=Count("pk")),
    "values": lambda m: list(m._default_manager.values("pk")),
    "values_list": lambda m: list(m._default_manager.values_list("pk", flat=True)),
    "in_bulk": lambda m: m._default_manager.in_bulk(),
    "in_bulk_ids": lambda m: m._default_manager.in_bulk([0]),
    "exclude": lambda m: list(m._default_manager.exclude(pk=0)),
    "distinct": lambda m: list(m._default_manager.distinct()),
    "select_related": lambda m: list(m._default_manager.select_related()),
    "prefetch_related": lambda m: list(m._default_manager.prefetch_related()),
    "defer": lambda m: list(m._default_manager.defer("pk")),
    "contains": lambda m: m._default_manager.contains(m(pk=0)),
    "explain": lambda m: m._default_manager.explain(),
    "subquery": lambda m: list(Club.objects.filter(pk__in=m._default_manager.exclude(pk=0))),
    "update": lambda m: m._default_manager.update(pk=F("pk")),
    "delete": lambda m: m._default_manager.all().delete(),
    "get_or_create": lambda m: m._default_manager.get_or_create(pk=0),
    "update_or_create": lambda m: m._default_manager.update_or_create(pk=0),
    "bulk_create": lambda m: m._default_manager.bulk_create([]),
    "bulk_update": lambda m: m._default_manager.bulk_update([], ["pk"]),
    "select_for_update": lambda m: list(m._default_manager.select_for_update()),
    "raw": lambda m: list(m._default_manager.raw(f"SELECT * FROM {_table(m)}")),  # noqa: S608
}


def relations(into: Iterable[str]) -> list[tuple[type[models.Model], str, str]]:
    """Every related manager of every model (platform-wide ones too: a club's seasons, a
    member's players) whose rows are a club-scoped model's: (source model, accessor, its
    model's label). Django builds them from the target's default manager's class."""
    found = []
    for source in apps.get_models():
        for rel in source._meta.get_fields():
            if not rel.is_relation or not (rel.one_to_many or rel.many_to_many):
                continue
            target = rel.related_model
            label = target._meta.label
            accessor = rel.get_accessor_name() if rel.auto_created and not rel.concrete else rel.name
            if label in into and accessor:
                found.append((source, accessor, label))
    return found


RELATIONS = relations(REFUSING)


def related_rows(into: Iterable[str]) -> list[tuple[type[models.Model], str, dict[str, int]]]:
    """Every foreign key and one-to-one, both ways, whose row is a club-scoped model's
    (``player.season``, ``season.competition``, ``club.website``): (source model, accessor,
    the key a row in hand needs to reach it). Django reads these through ``_base_manager``."""
    found = []
    for source in apps.get_models():
        for rel in source._meta.get_fields():
            if not rel.is_relation or rel.related_model is None or rel.related_model._meta.label not in into:
                continue
            if rel.concrete and (rel.many_to_one or rel.one_to_one):
                found.append((source, rel.name, {rel.attname: 1}))
            elif rel.one_to_one and not rel.concrete and rel.get_accessor_name():
                found.append((source, rel.get_accessor_name(), {"pk": 1}))
    return found


ROWS = related_rows(REFUSING)
ROW_WAYS: dict[str, Callable[[models.Model, str], object]] = {
    "related_row": lambda row, name: getattr(row, name),
    "prefetch_related_row": lambda row, name: prefetch_related_objects([row], name),
}

# Every way of reading a related manager from a row in hand (read earlier in the
# platform's context) and of prefetching across the relation.
RELATED: dict[str, Callable[[models.Model, str], object]] = {
    "related_iterate": lambda row, name: list(getattr(row, name).all()),
    "related_exists": lambda row, name: getattr(row, name).exists(),
    "related_count": lambda row, name: getattr(row, name).count(),
    "related_first": lambda row, name: getattr(row, name).first(),
    "related_values": lambda row, name: list(getattr(row, name).values_list("pk")),
    "prefetch_related": lambda row, name: prefetch_related_objects([row], name),
}


class _Undo(Exception):
    """Leaves the savepoint of one case: a query that wrote (a leak) writes nothing."""


def _outcome(run: Callable[..., object], *args: object) -> str | None:
    """None if ``run(*args)`` refused with ``ScopeError``; else what it did."""
    try:
        with transaction.atomic():  # a database error or a write of one case stays in it
            result = run(*args)
            raise _Undo(f"answered {result!r:.60}")
    except ScopeError:
        return None
    except _Undo as undone:
        return str(undone)
    except Exception as error:  # noqa: BLE001 - any other ending is a leak to name
        return f"raised {type(error).__name__}: {error}"[:120]


def leaks(model_labels: Iterable[str], *, queries: Iterable[str] = QUERIES,
          related: Iterable[str] = RELATED, rows: Iterable[str] = ROW_WAYS) -> dict[tuple[str, str], str]:
    """Every query of the given club-scoped models, run in no club, that does not refuse:
    (model or "model.accessor", way) -> what it did instead."""
    wanted = set(model_labels)
    found: dict[tuple[str, str], str] = {}
    with club_context(None):
        for label in sorted(wanted):
            model = apps.get_model(label)
            for name in queries:
                if (what := _outcome(QUERIES[name], model)) is not None:
                    found[(label, name)] = what
        for source, accessor, _ in relations(wanted):
            row = source(pk=1)  # a row in hand: its key is all a related manager reads
            for name in related:
                if (what := _outcome(RELATED[name], row, accessor)) is not None:
                    found[(f"{source._meta.label}.{accessor}", name)] = what
        for source, accessor, key in related_rows(wanted):
            for name in rows:
                if (what := _outcome(ROW_WAYS[name], source(**key), accessor)) is not None:
                    found[(f"{source._meta.label}.{accessor}", name)] = what
    return found


def test_the_walk_finds_the_club_scoped_models_and_their_relations():
    """The walk covers what the declaration says: every club-scoped model (26 when
    written) and the relations into them, the platform-wide models' among them."""
    assert {"competition.Season", "competition.Player", "pairing.PairingNotice"} <= set(REFUSING)
    assert PLATFORM_ROWS == {"core.Mail"}
    walked = {(s._meta.label, a) for s, a, _ in RELATIONS}
    assert {("competition.Season", "players"), ("members.Club", "seasons"),
            ("competition.SwissRound", "present"), ("competition.SwissEntrant", "present_in")} <= walked
    assert any(s._meta.label == "members.User" for s, _, _ in RELATIONS)


@pytest.mark.parametrize(("label", "way"), [(label, way) for label in sorted(REFUSING) for way in QUERIES])
def test_every_query_of_a_club_scoped_model_refuses_outside_every_club(label, way):
    assert leaks([label], queries=[way], related=[], rows=[]) == {}


@pytest.mark.parametrize(
    ("relation", "way"),
    [((s, a), way) for s, a, _ in RELATIONS for way in RELATED],
    ids=[f"{s._meta.label}.{a}-{way}" for s, a, _ in RELATIONS for way in RELATED],
)
def test_every_related_manager_and_prefetch_into_a_club_scoped_model_refuses_outside_every_club(relation, way):
    source, accessor = relation
    row = source(pk=1)
    with club_context(None):
        assert _outcome(RELATED[way], row, accessor) is None


@pytest.mark.parametrize(
    ("relation", "way"),
    [((s, a, k), way) for s, a, k in ROWS for way in ROW_WAYS],
    ids=[f"{s._meta.label}.{a}-{way}" for s, a, _ in ROWS for way in ROW_WAYS],
)
def test_every_related_row_of_a_club_scoped_model_refuses_outside_every_club(relation, way):
    """``player.season``, ``season.competition``, ``club.website`` and their prefetch,
    from a row in hand whose related row is not read yet."""
    source, accessor, key = relation
    with club_context(None):
        assert _outcome(ROW_WAYS[way], source(**key), accessor) is None


def test_the_walk_reports_a_model_whose_scoping_is_taken_away(monkeypatch):
    """The walk cannot pass by seeing nothing: the season's manager swapped for a plain
    one, every way of querying it answers, and the walk names the season and each way."""
    plain = models.Manager()
    plain.model, plain.name = Season, "objects"
    monkeypatch.setattr(Season._meta, "default_manager", plain)
    monkeypatch.setattr(Season, "objects", plain)
    found = leaks(["competition.Season", "competition.Player"], related=[], rows=[])
    assert {label for label, _ in found} == {"competition.Season"}
    assert {way for _, way in found} == set(QUERIES)


def test_the_walk_reports_a_related_manager_whose_scoping_is_taken_away(monkeypatch):
    """The same for the related managers: the season's players built from a plain
    manager's class, the walk names that relation, every way, and no other."""
    from django.db.models.fields.related_descriptors import create_reverse_many_to_one_manager

    descriptor = Season.__dict__["players"]
    monkeypatch.setattr(descriptor, "related_manager_cls",
                        create_reverse_many_to_one_manager(models.Manager, descriptor.rel))
    found = leaks(["competition.Player"], queries=[], rows=[])
    assert set(found) == {("competition.Season.players", way) for way in RELATED}


def test_related_managers_of_rows_read_in_the_platforms_context_refuse_after_leaving_it():
    """A season and its players read by the platform's work (a beat job, the operator),
    then used with no club in scope: the season's players, evenings and prefetches across
    them refuse, they do not answer every club's rows."""
    with platform_context():
        season = Season.objects.filter(club=decoy()).first()
        club = Club.objects.get(pk=decoy().pk)
        assert season is not None and season.players.exists()  # the platform sees them
    with club_context(None):
        for read in (lambda: list(season.players.all()), lambda: season.players.exists(),
                     lambda: season.players.count(), lambda: season.evenings.first(),
                     lambda: list(club.seasons.all()),
                     lambda: prefetch_related_objects([season], "players"),
                     lambda: list(Club.objects.filter(pk=club.pk).prefetch_related("seasons")),
                     lambda: list(Club.objects.prefetch_related("seasons__players"))):
            with pytest.raises(ScopeError):
                read()


@pytest.mark.usefixtures("in_home_club")
def test_inside_a_club_the_same_ways_answer_the_clubs_rows():
    """In a club every way answers, and the club's rows only (the decoy club B's season
    has the same name pattern, dates and player names as A's)."""
    club = home_club()
    season = f.season(players=4)
    assert Season.objects.exists() and Season.objects.count() == 1
    assert Season.objects.first() == Season.objects.last() == season
    assert Season.objects.in_bulk() == {season.pk: season}
    assert set(Season.objects.values_list("club", flat=True)) == {club.pk}
    assert Season.objects.exclude(pk=0).distinct().select_related("club").get() == season
    assert list(Season.objects.select_for_update()) == [season]
    players = set(season.players.all())
    assert len(players) == 4 and players == set(Player.objects.all())
    assert season.players.count() == 4 and season.evenings.exists()
    fresh = Season.objects.prefetch_related("players", "evenings").get()
    assert set(fresh.players.all()) == players
    clubs = list(Club.objects.filter(pk__in=[club.pk, decoy().pk]).prefetch_related("seasons"))
    assert {c.pk: list(c.seasons.all()) for c in clubs} == {club.pk: [season], decoy().pk: []}
    assert Evening.objects.update(date=F("date")) == season.evenings.count()
    raw = Season.objects.raw(f"SELECT * FROM {_table(Season)} WHERE club_id = %s", [club.pk])  # noqa: S608
    assert list(raw) == [season]
    assert Season.objects.get_or_create(pk=season.pk) == (season, False)


def test_the_platforms_own_rows_answer_outside_every_club_and_no_clubs():
    """core.Mail holds a club's e-mails and the platform's own (club empty): with no club
    in scope its manager answers the platform's rows only, every way."""
    from core.models import Mail

    with club_context(home_club()):
        Mail.objects.create(key="club-mail", to=["a@example.org"], subject="club", body="club")
    with club_context(None):
        Mail.objects.create(key="platform-mail", to=["p@example.org"], subject="platform", body="platform")
        mine = set(Mail.objects.values_list("key", flat=True))
        assert "platform-mail" in mine and "club-mail" not in mine
        assert Mail.objects.exists() and Mail.objects.count() == len(mine)
        assert {m.key for m in Mail.objects.in_bulk().values()} == mine
        assert {m.key for m in Mail.objects.all()} == mine
        assert Mail.objects.update(subject=F("subject")) == len(mine)
    with platform_context():
        assert Mail.objects.filter(key="club-mail", club=home_club()).exists()
