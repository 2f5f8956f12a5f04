"""`backup` writes a complete club and nothing of another; `restore` loads it into an
empty database with identical standings, or beside the installation's other clubs without
touching them (docs/operations.md, "Backups")."""

import datetime as dt
import gzip
import importlib
import json
from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from competition.demo import build_demo
from competition.management.clubcopy import in_dependency_order
from competition.models import AuditAction, AuditRecord, Game, Season, Standing
from core.models import Mail
from members.clubs.context import club_context, platform_context
from members.clubs.memo import home_club
from members.models import Club, ClubDomain, Membership, User
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = pytest.mark.usefixtures("in_home_club")


def _standings():
    return sorted(
        Standing.objects.values_list(
            "snapshot__half__kind", "snapshot__evening__date", "player__member__email",
            "rank", "score", "value",
        )
    )


def _wipe():
    """An empty, migrated database: what a new server has before the restore (made by the
    owner, as ``migrate`` is; the restore then runs as the test's role)."""
    from tests.approle import as_owner

    with as_owner():
        call_command("flush", interactive=False, verbosity=0)
    assert not Season.objects.exists() and not AuditRecord.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_into_an_empty_database_gives_identical_standings(tmp_path, one_club):
    build_demo(today=dt.date(2026, 11, 30))
    before = _standings()
    games = sorted(Game.objects.values_list("evening__date", "board", "result"))
    path = tmp_path / "club.json.gz"
    call_command("backup", str(path))
    _wipe()
    assert not Standing.objects.exists()
    call_command("restore", str(path))
    assert _standings() == before
    assert sorted(Game.objects.values_list("evening__date", "board", "result")) == games
    user = User.objects.get(email="speler1@demo.club")
    assert user.check_password("schaken123")
    assert user.memberships.filter(role="player").exists()  # his role in the club


@pytest.mark.django_db
def test_restore_refuses_a_club_whose_address_is_taken_and_saves_nothing(tmp_path, one_club):
    build_demo(today=dt.date(2026, 10, 1))
    path = tmp_path / "club.json"
    call_command("backup", str(path))
    before = _rows()
    with pytest.raises(CommandError, match="address 'schaakclub-de-pion' exists already"):
        call_command("restore", str(path))
    assert _rows() == before


@pytest.mark.django_db
def test_restore_refuses_an_unreadable_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="not a readable backup"):
        call_command("restore", str(bad))


RIGHTS = ("is_staff", "is_superuser")  # an account's platform rights: never restored


def _rows() -> dict[str, list[tuple]]:
    """Every table of the backed-up apps, row by row, primary keys and all (many-to-many
    tables too); permissions by name, since content types are rebuilt on migrate. An
    account's platform rights are left out: a restore never takes them from its file
    (tests/integration/test_restore_is_data.py)."""
    tables: dict[str, list[tuple]] = {}  # (the links' own ids are left out)
    for label in ("members", "account", "competition", "pairing"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            if model._meta.db_table.startswith("account_") and model.__name__ != "EmailAddress":
                continue
            rows = [tuple(sorted((k, v) for k, v in row.items() if k not in RIGHTS))
                    for row in model.objects.order_by("pk").values()]
            if model._meta.auto_created:  # a many-to-many link: its own id is not data
                rows = sorted(tuple(c for c in row if c[0] != "id") for row in rows)
            tables[model._meta.db_table] = rows
    # The role groups are the installation's (a restore does not load the file's): by name.
    tables["auth_group"] = sorted(Group.objects.values_list("name", flat=True))
    tables["auth_group_permissions"] = sorted(
        Group.permissions.through.objects.values_list("group__name", "permission__codename"))
    return tables


@pytest.mark.django_db(transaction=True)
def test_restore_gives_identical_rows_table_by_table_keys_and_microseconds_kept(tmp_path, one_club):
    build_demo(today=dt.date(2026, 11, 30))
    # Keys that a renumbering would change: members created after some were deleted.
    User.objects.filter(email__in=["speler29@demo.club"]).update(name="Renamed")
    gap = f.member(name="Gone")
    gap.delete()
    late = f.member(name="Late Member", email="late@example.org")
    AuditRecord.objects.create(action=AuditAction.MEMBER_CHANGE, after={"member": late.pk, "marker": True})
    operators = sorted(User.objects.filter(is_superuser=True).values_list("email", flat=True))
    assert operators  # the demo's operator: the copy names his rights
    before = _rows()
    assert any(isinstance(v, dt.datetime) and v.microsecond % 1000
               for rows in before.values() for row in rows for _, v in row), "microseconds"
    path = tmp_path / "club.json"
    call_command("backup", str(path))
    _wipe()
    err = StringIO()
    call_command("restore", str(path), stderr=err)
    after = _rows()
    assert after.keys() == before.keys()
    for table in before:
        assert after[table] == before[table], table
    # Everything but the platform's rights, which no restore takes from a file (the
    # operator gives them again: `createsuperuser`, the admin).
    assert not User.objects.filter(is_superuser=True).exists()
    assert not User.objects.filter(is_staff=True).exists()
    assert f"the copy gave {', '.join(operators)}" in err.getvalue()
    marker = AuditRecord.objects.get(after__marker=True)
    assert User.objects.get(pk=marker.after["member"]).email == "late@example.org"


# --- Per club: club B, the decoy, beside club A -----------------------------------------

CLUB_APPS = ("competition", "pairing")


def _club_models():
    return [m for app in CLUB_APPS for m in apps.get_app_config(app).get_models()]


def _club_rows(club) -> dict[str, list]:
    """Everything of ``club``: its rows in every club-scoped table (read in its context),
    its Club row, host names, memberships, e-mails and its members' accounts."""
    with club_context(club):
        rows = {m._meta.label: sorted((tuple(sorted(r.items())) for r in m.objects.values()), key=repr)
                for m in _club_models()}
        rows["club"] = list(Club.objects.filter(pk=club.pk).values())
        rows["domains"] = list(ClubDomain.objects.filter(club=club).order_by("pk").values())
        rows["memberships"] = sorted(Membership.objects.filter(club=club).values_list(
            "user__email", "role", "joined"))
        rows["mails"] = list(Mail.objects.filter(club=club).order_by("pk").values())
        rows["accounts"] = list(User.objects.filter(memberships__club=club).order_by("pk").values())
    return rows


def _standings_of(club):
    with club_context(club):
        return _standings()


def _ids(club) -> set[tuple[str, int]]:
    """(model, id) of every row that is club ``club``'s alone."""
    with club_context(club):
        ids = {(m._meta.label_lower, pk) for m in _club_models()
               for pk in m.objects.values_list("pk", flat=True)}
        ids |= {("members.membership", pk) for pk in
                Membership.objects.filter(club=club).values_list("pk", flat=True)}
        ids |= {("core.mail", pk) for pk in Mail.objects.filter(club=club).values_list("pk", flat=True)}
    ids.add(("members.club", club.pk))
    return ids


def _read(path) -> tuple[str, list[dict]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        text = handle.read()
    return text, json.loads(text)


@pytest.fixture
def two_clubs(django_capture_on_commit_callbacks):
    """Club A (the demo, played) and B, the decoy (same season name, dates and player
    names, one member in both), B with a host name, an e-mail and an audit record of its own."""
    season = build_demo(today=dt.date(2026, 11, 30))
    decoy = f.decoy_club(season)
    b = decoy["club"]
    ClubDomain.objects.create(club=b, host="intern.deloper.example")
    with club_context(b):
        evening = f.playing_evenings(decoy["season"])[0]
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        Mail.objects.create(key="loper-only:1", subject="Loper", body="b", to=["x@loper.example"])
    return {"a": home_club(), "season_a": season, **decoy}


def _b_only_accounts(two_clubs) -> list[User]:
    b = two_clubs["club"]
    return list(User.objects.filter(memberships__club=b).exclude(memberships__club=two_clubs["a"]))


@pytest.mark.django_db(transaction=True)
def test_a_clubs_backup_holds_its_rows_and_nothing_of_another_club(tmp_path, two_clubs):
    a, b, shared = two_clubs["a"], two_clubs["club"], two_clubs["shared"]
    b_before, b_standings = _club_rows(b), _standings_of(b)
    path = tmp_path / "a.json.gz"
    call_command("backup", "--club", a.slug, str(path))
    text, objects = _read(path)
    written = {(o["model"], o["pk"]) for o in objects}
    # All of A: every row of every club-scoped table, its club, memberships, e-mails.
    assert _ids(a) <= written
    # Nothing of B: no row, no reference to one of its rows, no name, address or slug.
    b_ids = _ids(b) | {("members.user", u.pk) for u in _b_only_accounts(two_clubs)}
    b_ids |= {("members.clubdomain", d.pk) for d in ClubDomain.objects.filter(club=b)}
    assert not written & b_ids
    for o in objects:
        model = apps.get_model(o["model"])
        for name, value in o["fields"].items():
            field = model._meta.get_field(name)
            if field.is_relation and isinstance(value, int):
                assert (field.related_model._meta.label_lower, value) not in b_ids, (o, name)
    for word in [b.name, b.slug, "intern.deloper.example", "loper-only",
                 *(u.email for u in _b_only_accounts(two_clubs))]:
        assert word not in text, word
    # The shared member's account is there, with his membership of A and not of B.
    memberships = [o for o in objects if o["model"] == "members.membership"]
    assert {tuple(o["fields"]["club"] if isinstance(o["fields"]["club"], list) else [o["fields"]["club"]])
            for o in memberships} == {(a.pk,)}
    assert [shared.email] in [o["fields"]["user"] for o in memberships]
    assert shared.email in {o["fields"]["email"] for o in objects if o["model"] == "members.user"}
    # Club B is as it was.
    assert _club_rows(b) == b_before and _standings_of(b) == b_standings


@pytest.mark.django_db
def test_with_several_clubs_backup_asks_which_and_lists_them(tmp_path, two_clubs):
    path = tmp_path / "x.json"
    with pytest.raises(CommandError, match="name one with --club") as caught:
        call_command("backup", str(path))
    assert two_clubs["a"].slug in str(caught.value) and "de-loper" in str(caught.value)
    assert not path.exists()
    with pytest.raises(CommandError, match="no club with the address 'nergens'"):
        call_command("backup", "--club", "nergens", str(path))


def _remove(club) -> None:
    """Club ``club`` gone from the installation, and the accounts that were only its."""
    with club_context(club):
        for model in reversed(in_dependency_order(_club_models())):
            model.objects.all().delete()
    with platform_context():
        Mail.objects.filter(club=club).delete()
        members = list(User.objects.filter(memberships__club=club))
        club.delete()
        User.objects.filter(pk__in=[u.pk for u in members], memberships__isnull=True).delete()


@pytest.mark.django_db(transaction=True)
def test_a_club_restored_beside_another_club_is_whole_and_touches_nothing_of_it(tmp_path, two_clubs):
    a, b, shared = two_clubs["a"], two_clubs["club"], two_clubs["shared"]
    a_standings = _standings_of(a)
    a_games = _games_of(a)
    assert a_standings and _standings_of(b) is not None
    path = tmp_path / "a.json.gz"
    call_command("backup", "--club", a.slug, str(path))
    _remove(a)
    assert not Club.objects.filter(slug=a.slug).exists()
    b_before, b_standings = _club_rows(b), _standings_of(b)
    # The accounts that are here already (in B) join A only as the operator confirms.
    existing = sorted(User.objects.filter(
        email__in=[o["fields"]["email"] for o in _read(path)[1] if o["model"] == "members.user"]
    ).values_list("email", flat=True))
    assert shared.email in existing
    with pytest.raises(CommandError, match=f"exist here already: .*{shared.email}"):
        call_command("restore", str(path))
    call_command("restore", str(path), *(f"--link-existing={e}" for e in existing))
    restored = Club.objects.get(slug=a.slug)
    assert _standings_of(restored) == a_standings
    assert _games_of(restored) == a_games
    assert _club_rows(b) == b_before and _standings_of(b) == b_standings
    # The shared member is one account, in both clubs.
    assert User.objects.filter(email=shared.email).count() == 1
    assert set(User.objects.get(email=shared.email).memberships.values_list("club__slug", flat=True)) == {
        a.slug, b.slug}


def _ids_as_in(objects) -> None:
    """Every table of the apps gives out next the first id the copy's rows have there:
    the installation's new rows take the copy's ids."""
    first: dict[str, int] = {}
    for o in objects:
        model = apps.get_model(o["model"])
        if model._meta.app_label != "auth" and not model._meta.pk.is_relation:
            first[model._meta.db_table] = min(o["pk"], first.get(model._meta.db_table, o["pk"]))
    from tests.approle import as_owner

    with as_owner(), connection.cursor() as cursor:  # the test arranges the sequences
        for table, pk in first.items():
            if connection.vendor == "postgresql":
                cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, false)", [table, pk])
            else:
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, pk - 1])


def _assert_every_row_has_its_club(club) -> None:
    """On PostgreSQL every club-owned row carries its club (the row security's column,
    copied from the parent row as it is inserted: parents first)."""
    if connection.vendor != "postgresql":
        return
    rls = importlib.import_module("competition.migrations.0033_row_level_security")
    # Straight SQL over every club's rows: the platform's view (the row security shows a
    # connection with no club nothing).
    with platform_context(), connection.cursor() as cursor:
        for table in (*rls.NATIVE, *rls.PARENTS):
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE club_id IS NULL')
            assert cursor.fetchone()[0] == 0, table
        cursor.execute('SELECT count(*) FROM "competition_game" WHERE club_id = %s', [club.pk])
        games = cursor.fetchone()[0]
    with club_context(club):
        assert games == Game.objects.count() > 0


def _games_of(club):
    with club_context(club):
        return sorted(Game.objects.values_list("evening__date", "board", "white__member__email",
                                               "black__member__email", "result"))


@pytest.mark.django_db(transaction=True)
def test_a_club_restored_where_its_ids_are_taken_is_renumbered_and_the_shared_account_reused(tmp_path, one_club):
    season = build_demo(today=dt.date(2026, 11, 30))
    a = home_club()
    a_standings, a_games = _standings_of(a), _games_of(a)
    with club_context(a):
        a_audit = sorted(AuditRecord.objects.values_list("action", "at", "actor__email"))
        a_players = sorted(season.players.values_list("start", "member__email", "kind"))
    shared_email = "speler1@demo.club"
    path = tmp_path / "a.json.gz"
    call_command("backup", str(path))  # one club: no --club needed
    _wipe()
    _ids_as_in(_read(path)[1])
    # Another installation: club B holds the ids A had, and the shared member's account
    # (another password, another name: the installation's account is his).
    decoy = f.decoy_club(None)
    b = decoy["club"]
    with club_context(b):
        f.member(name="Gedeeld Lid", email=shared_email, club=b, password="Eigen-wachtwoord-1")
    b_before, b_standings = _club_rows(b), _standings_of(b)
    assert Club.objects.filter(pk=a.pk).exists()  # B took A's id
    call_command("restore", str(path), "--link-existing", shared_email)
    restored = Club.objects.get(slug=a.slug)
    assert restored.pk != b.pk
    assert _standings_of(restored) == a_standings
    assert _games_of(restored) == a_games
    with club_context(restored):
        assert sorted(AuditRecord.objects.values_list("action", "at", "actor__email")) == a_audit
        season_r = Season.objects.get(slug=season.slug)
        assert sorted(season_r.players.values_list("start", "member__email", "kind")) == a_players
    assert _club_rows(b) == b_before and _standings_of(b) == b_standings
    _assert_every_row_has_its_club(restored)
    account = User.objects.get(email=shared_email)
    assert account.name == "Gedeeld Lid" and account.check_password("Eigen-wachtwoord-1")
    assert set(account.memberships.values_list("club__slug", flat=True)) == {a.slug, b.slug}
    # A new account of the copy comes without the operator's rights here.
    admin = User.objects.get(email="beheer@demo.club")
    assert admin.check_password("schaken123") and not admin.is_superuser
    assert admin.memberships.get().role == "administrator"


@pytest.mark.django_db
def test_restore_refuses_an_account_it_cannot_tell_from_another_and_saves_nothing(tmp_path):
    club = Club.objects.create(name="Schaakclub Toren", slug="toren")
    with club_context(club):
        member = f.member(name="Tom", email="tom@toren.example", club=club)
    path = tmp_path / "toren.json"
    call_command("backup", "--club", "toren", str(path))
    club.delete()
    member.delete()
    # Here the address is another account's second address.
    other = f.member(name="Someone Else", email="else@example.org")
    EmailAddress.objects.create(user=other, email="tom@toren.example", verified=True, primary=False)
    before = _rows()
    with pytest.raises(CommandError, match="tom@toren.example.*cannot be told apart"):
        call_command("restore", str(path))
    assert _rows() == before and not Club.objects.filter(slug="toren").exists()


def _toren(tmp_path, **mail):
    """Club Toren with a member, a host name and an e-mail, backed up and then removed."""
    club = Club.objects.create(name="Schaakclub Toren", slug="toren")
    ClubDomain.objects.create(club=club, host="intern.toren.example")
    with club_context(club):
        member = f.member(name="Tom", email="tom@toren.example", club=club)
        Mail.objects.create(key="invitation:1:abc", subject="Welkom", body="b", to=[member.email])
    path = tmp_path / "toren.json"
    call_command("backup", "--club", "toren", str(path))
    with platform_context():
        Mail.objects.filter(club=club).delete()
        club.delete()
        member.delete()
    return path


@pytest.mark.django_db
def test_restore_refuses_a_host_name_that_is_another_clubs_and_saves_nothing(tmp_path):
    path = _toren(tmp_path)
    ClubDomain.objects.create(club=home_club(), host="intern.toren.example")
    before = _rows()
    with pytest.raises(CommandError, match="host name 'intern.toren.example' is another club's"):
        call_command("restore", str(path))
    assert _rows() == before


@pytest.mark.django_db
def test_an_email_whose_key_is_taken_here_is_restored_under_a_key_of_its_own(tmp_path):
    path = _toren(tmp_path)
    theirs = Mail.objects.create(key="invitation:1:abc", subject="Other", body="x", to=["x@example.org"])
    call_command("restore", str(path))
    toren = Club.objects.get(slug="toren")
    with club_context(toren):  # the outbox is club-scoped: the club's mail is seen in it
        restored = Mail.objects.get(club=toren)
    assert (restored.key, restored.subject) == ("invitation:1:abc@restored", "Welkom")
    theirs.refresh_from_db()
    assert (theirs.key, theirs.subject, theirs.club_id) == ("invitation:1:abc", "Other", home_club().pk)
    assert ClubDomain.objects.get(host="intern.toren.example").club == toren


@pytest.mark.django_db
def test_a_clubs_pending_requests_to_join_are_in_its_backup_and_restored_never_anothers(tmp_path):
    """Issue 28: a club's registrations and invitations not answered yet are the club's:
    its backup holds them (with the accounts they name) and a restore brings them back;
    another club's requests are neither written nor touched, and the invited person's
    other club keeps him as he was."""
    from members.models import JoinKind, JoinRequest

    club = Club.objects.create(name="Schaakclub Toren", slug="toren")
    with club_context(club):
        f.member(name="Tom", email="tom@toren.example", club=club)
    rita = User.objects.create_user(email="rita@aanmelding.example", name="Rita", registration_pending=True)
    JoinRequest.objects.create(user=rita, club=club, kind=JoinKind.REGISTRATION)
    ans = f.member(name="Ans Elders", email="ans@elders.example")  # the home club's member
    JoinRequest.objects.create(user=ans, club=club, kind=JoinKind.INVITATION, name="Ans")
    piet = User.objects.create_user(email="piet@thuis.example", name="Piet", registration_pending=True)
    theirs = JoinRequest.objects.create(user=piet, club=home_club(), kind=JoinKind.REGISTRATION)
    path = tmp_path / "toren.json"
    call_command("backup", "--club", "toren", str(path))
    text = path.read_text()
    assert "rita@aanmelding.example" in text and "piet@thuis.example" not in text
    assert sorted(o["fields"]["kind"] for o in json.loads(text) if o["model"] == "members.joinrequest") == [
        "invitation", "registration"]
    with platform_context():
        club.delete()
        User.objects.filter(email__in=["tom@toren.example", "rita@aanmelding.example"]).delete()
    ans_clubs = sorted(Membership.objects.filter(user=ans).values_list("club_id", "role"))
    call_command("restore", str(path), "--link-existing=ans@elders.example")
    toren = Club.objects.get(slug="toren")
    assert sorted(JoinRequest.objects.filter(club=toren).values_list("user__email", "kind", "name")) == [
        ("ans@elders.example", "invitation", "Ans"), ("rita@aanmelding.example", "registration", "")]
    assert User.objects.get(email="rita@aanmelding.example").registration_pending
    assert sorted(Membership.objects.filter(user=ans).values_list("club_id", "role")) == ans_clubs
    assert list(JoinRequest.objects.filter(club=home_club()).values_list("pk", "user_id", "kind")) == [
        (theirs.pk, piet.pk, "registration")]
