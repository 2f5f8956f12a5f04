"""A restore is data, never rights (issue 30; docs/trust.md, "A restore is data, never
rights"; docs/operations.md, "Backups"): crafted copies of a club, each restored with
``manage.py restore`` on PostgreSQL as the application's role (row security on, no owner
rights, the grants of ``manage.py database_app_role``), beside the decoy club B. On SQLite,
which has no roles, each is restored by the test's connection: the checks of the data are
the restore's own, and run there too.

Club "De Toren" (a season with its first evening published, so pairing e-mails wait in
the outbox; a leader; a host name; an e-mail of the club's own) is backed up, removed, and
its copy edited as an attacker would before it is handed to the operator."""

from __future__ import annotations

import json
from contextlib import contextmanager, nullcontext
from email.utils import parseaddr
from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.core import mail as outbox
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from competition.management.clubcopy import club_backup, in_dependency_order
from competition.models import ClubWebsite, Season
from core import mail as core_mail
from core.models import Mail, MailState
from members.clubs.context import club_context, platform_context
from members.models import Club, ClubDomain, Membership, User
from pairing import notices
from pairing.models import NoticeState, PairingNotice
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.decoy import NAME as DECOY_NAME
from tests.decoy import decoy

pytestmark = [pytest.mark.django_db]

ROLE = "ranglijst_restore_probe"
CLUB_APPS = ("competition", "pairing")
SLUG = "toren"
FORGED = "phisher@evil.example"


@pytest.fixture
def app_role(monkeypatch):
    """A context in which the connection is the application's role, made by the command
    production uses (``database_app_role``), inside the test's transaction (so rolled back
    with it). SQLite has no roles: there the context changes nothing, and the restore's
    checks of the data, which are the restore's own, are tested as they are."""
    from tests.approle import as_owner, current_role

    if connection.vendor != "postgresql":
        return nullcontext

    monkeypatch.setenv("APP_DB_PASSWORD", "probe0only0inside0a0test")
    with as_owner():  # as production runs it: the owner, after migrate
        call_command("database_app_role", ROLE, stdout=StringIO())

    @contextmanager
    def switched():
        before = current_role()
        with connection.cursor() as cursor:
            cursor.execute(f"SET ROLE {ROLE}")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute(f'SET ROLE "{before}"')

    return switched


@pytest.fixture
def copy():
    """Club Toren's copy, as ``backup`` writes it (read as JSON); the club removed."""
    club = Club.objects.create(name="Schaakclub De Toren", slug=SLUG, reply_to="bestuur@toren.example")
    ClubDomain.objects.create(club=club, host="intern.toren.example")
    with club_context(club):
        season = f.season(players=6, club=club)
        f.leader(club)
        evening = f.playing_evenings(season)[0]
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        ClubWebsite.objects.create(embed_origins=["https://www.toren.example"])
        Mail.objects.create(key="invitation:toren:1", subject="Welkom", body="Welkom bij De Toren",
                            to=["speler@toren.example"])
        assert PairingNotice.objects.filter(state=NoticeState.PENDING).exists()
    objects = json.loads(club_backup(club))
    _remove(club)
    return objects


def _remove(club) -> None:
    with club_context(club):
        club_models = [m for app in CLUB_APPS for m in apps.get_app_config(app).get_models()]
        for model in reversed(in_dependency_order(club_models)):
            model.objects.all().delete()
    with platform_context():
        Mail.objects.filter(club=club).delete()
        members = list(User.objects.filter(memberships__club=club))
        club.delete()
        User.objects.filter(pk__in=[u.pk for u in members], memberships__isnull=True).delete()


def _tables() -> dict[str, list[str]]:
    """Every table's rows (as the owner sees them: every club's): what "nothing saved"
    compares."""
    tables = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            if table.startswith("django_session"):
                continue
            cursor.execute(f'SELECT * FROM "{table}"')
            tables[table] = sorted(repr(row) for row in cursor.fetchall())
    return tables


def _restore(app_role, tmp_path, objects, *flags) -> str:
    path = tmp_path / "toren.json"
    path.write_text(json.dumps(objects))
    err = StringIO()
    with app_role():
        call_command("restore", str(path), *flags, stderr=err)
    return err.getvalue()


def _refused(app_role, tmp_path, objects, *flags) -> str:
    before = _tables()
    with pytest.raises(CommandError) as refused:
        _restore(app_role, tmp_path, objects, *flags)
    assert _tables() == before  # nothing saved, anywhere
    message = str(refused.value)
    assert "not restored, nothing saved" in message and "Traceback" not in message
    return message


def _rows(objects, model):
    return [o for o in objects if o["model"] == model]


def _user_row(objects, email):
    return next(o for o in objects if o["model"] == "members.user" and o["fields"]["email"] == email)


def _toren():
    return Club.objects.get(slug=SLUG)


# --- As the application's role ----------------------------------------------------------


def test_restore_runs_as_the_application_role_and_moves_the_sequences_on(app_role, tmp_path, copy):
    out = _restore(app_role, tmp_path, copy)
    assert "Restored the club toren" in out
    toren = _toren()
    with club_context(toren):
        assert Season.objects.count() == 1
    # The ids given by the copy are behind the sequences: new rows take new ids, as the role.
    highest = max(o["pk"] for o in _rows(copy, "members.user"))
    with app_role(), club_context(toren):
        newcomer = f.member(name="Nieuw Lid", club=toren)
    assert newcomer.pk > highest


# --- Rights ---------------------------------------------------------------------------------


def test_a_restored_account_comes_without_staff_superuser_groups_or_permissions(app_role, tmp_path, copy):
    leader = next(o for o in _rows(copy, "members.user") if o["fields"]["name"] == "Leader")
    every = [[p.codename, p.content_type.app_label, p.content_type.model]
             for p in Permission.objects.select_related("content_type")[:3]]
    leader["fields"].update(is_staff=True, is_superuser=True, groups=[["administrator"]],
                            user_permissions=every)
    # And a group of the file's own, with every permission: the role groups are the
    # installation's.
    copy.append({"model": "auth.group", "pk": 999, "fields": {"name": "beheerders", "permissions": every}})
    out = _restore(app_role, tmp_path, copy)
    account = User.objects.get(email=leader["fields"]["email"])
    assert (account.is_staff, account.is_superuser) == (False, False)
    assert not account.groups.exists() and not account.user_permissions.exists()
    assert not Group.objects.filter(name="beheerders").exists()
    assert account.memberships.get().role == "leader"  # his role in the club is data
    assert f"the copy gave {account.email}" in out


def test_an_existing_account_is_never_linked_from_the_file_without_the_operators_word(
        app_role, tmp_path, copy):
    b = decoy()
    with club_context(b):
        victim = Membership.objects.get(club=b, role="administrator").user
    victim_before = User.objects.filter(pk=victim.pk).values().get()
    addresses_before = list(EmailAddress.objects.filter(user=victim).values())
    # The file names B's administrator (another password, an address of the attacker's)
    # and makes him the restored club's administrator.
    copy.append({"model": "members.user", "pk": 4242, "fields": {
        **_user_row(copy, next(o["fields"]["email"] for o in _rows(copy, "members.user")))["fields"],
        "email": victim.email, "password": "pbkdf2_sha256$1$salt$forged", "name": "Overgenomen",
        "is_staff": True}})
    copy.append({"model": "account.emailaddress", "pk": 4242, "fields": {
        "user": [victim.email], "email": FORGED, "verified": True, "primary": True}})
    club_pk = _rows(copy, "members.club")[0]["pk"]
    copy.append({"model": "members.membership", "pk": 4242, "fields": {
        "user": [victim.email], "club": club_pk, "role": "administrator",
        "joined": "2026-11-01T12:00:00Z"}})

    message = _refused(app_role, tmp_path, copy)
    assert f"{victim.email} (member of {DECOY_NAME})" in message
    assert "--link-existing" in message
    assert not Membership.objects.filter(user=victim).exclude(club=b).exists()

    # Confirmed by the operator: linked, and still his own account.
    out = _restore(app_role, tmp_path, copy, "--link-existing", victim.email.upper())
    assert f"Linked to it, as you confirmed: {victim.email}" in out
    assert set(victim.memberships.values_list("club__slug", flat=True)) == {b.slug, SLUG}
    assert User.objects.filter(pk=victim.pk).values().get() == victim_before
    assert list(EmailAddress.objects.filter(user=victim).values()) == addresses_before
    assert not EmailAddress.objects.filter(email=FORGED).exists()


def test_a_link_for_an_account_the_copy_does_not_name_is_refused(app_role, tmp_path, copy):
    message = _refused(app_role, tmp_path, copy, "--link-existing", "niemand@elders.example")
    assert "niemand@elders.example" in message


# --- E-mail -----------------------------------------------------------------------------------


def _forged_mail(copy):
    club_pk = _rows(copy, "members.club")[0]["pk"]
    copy.append({"model": "core.mail", "pk": 777, "fields": {
        "key": "invitation:forged:1", "member": None, "club": club_pk,
        "from_email": "Bank <security@bank.example>", "reply_to": [FORGED],
        "to": ["slachtoffer@example.org"], "cc": [], "subject": "Je account",
        "body": "Klik hier", "state": "pending", "created_at": "2026-11-01T12:00:00Z",
        "claimed_at": None, "sent_at": None, "attempts": 0, "last_error": ""}})


def test_the_copys_unsent_mails_are_held_back_never_sent(app_role, tmp_path, copy):
    _forged_mail(copy)
    out = _restore(app_role, tmp_path, copy)
    toren = _toren()
    outbox.outbox.clear()
    core_mail.deliver()
    with club_context(toren):
        for evening in toren_evenings():
            notices.deliver(evening.pk)
    assert outbox.outbox == []
    assert not Mail.objects.filter(club=toren, state=MailState.PENDING).exists()
    with club_context(toren):
        assert not PairingNotice.objects.filter(state=NoticeState.PENDING).exists()
        held = PairingNotice.objects.filter(state=NoticeState.SUPERSEDED).count()
    assert held and "Held back, never sent" in out


def toren_evenings():
    return list(Season.objects.get().evenings.all())


def test_released_mails_go_out_from_the_clubs_address_never_the_files(app_role, tmp_path, copy, settings):
    _forged_mail(copy)
    out = _restore(app_role, tmp_path, copy, "--release-mail")
    assert "Released" in out
    outbox.outbox.clear()
    with club_context(_toren()):  # the worker sends a club's mail in its club (core.jobs)
        core_mail.deliver()
    # The club's name goes before the subject and the sender's address (members.clubs.addresses).
    forged = next(m for m in outbox.outbox if m.subject.endswith("Je account"))
    assert parseaddr(forged.from_email)[1] == parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
    assert forged.reply_to == ["bestuur@toren.example"]  # the club's own setting
    assert FORGED not in repr(forged.message().as_string())
    assert "security@bank.example" not in forged.message().as_string()


# --- Every field as the forms would take it ------------------------------------------------


def _club(copy):
    return _rows(copy, "members.club")[0]["fields"]


CRAFTED = {
    "an address that is no e-mail address": (lambda c: c.append(
        {**_rows(c, "members.user")[0], "pk": 4343,
         "fields": {**_rows(c, "members.user")[0]["fields"], "email": "geen-adres"}}), "email"),
    "a time zone that is a path": (lambda c: _club(c).update(time_zone="../../etc/passwd"), "time_zone"),
    "a time zone of another planet": (lambda c: _club(c).update(time_zone="Mars/Olympus"), "time_zone"),
    "a club address that is no slug": (lambda c: _club(c).update(slug="De Toren!"), "slug"),
    "a club address that is the site's own": (lambda c: _club(c).update(slug="admin"), "slug"),
    "a reply-to that is no address": (lambda c: _club(c).update(reply_to="bestuur"), "reply_to"),
    "a name with a line break": (lambda c: _club(c).update(name="Toren\r\nBcc: x@evil.example"), "name"),
    "a role that is none": (
        lambda c: _rows(c, "members.membership")[0]["fields"].update(role="superuser"), "role"),
    "a host name that is none": (
        lambda c: _rows(c, "members.clubdomain")[0]["fields"].update(host="evil host/"), "host"),
    "an embed site that adds a directive": (
        lambda c: _rows(c, "competition.clubwebsite")[0]["fields"].update(
            embed_origins=["https://www.toren.example; script-src *"]), "embed_origins"),
    "an embed site under a public suffix": (
        lambda c: _rows(c, "competition.clubwebsite")[0]["fields"].update(
            embed_origins=["https://*.co.uk"]), "embed_origins"),
    "a mail subject that adds a header": (
        lambda c: _rows(c, "core.mail")[0]["fields"].update(subject="Hoi\nBcc: x@evil.example"), "subject"),
    "a mail recipient that adds a header": (
        lambda c: _rows(c, "core.mail")[0]["fields"].update(to=["a@toren.example\nBcc: x@evil.example"]), "to"),
    "a pairing e-mail to no address": (
        lambda c: _rows(c, "pairing.pairingnotice")[0]["fields"].update(recipient="nobody"), "recipient"),
}


@pytest.mark.parametrize("case", list(CRAFTED))
def test_every_field_is_checked_as_the_forms_would_and_a_bad_one_refuses_the_file(
        app_role, tmp_path, copy, case):
    craft, field = CRAFTED[case]
    craft(copy)
    message = _refused(app_role, tmp_path, copy)
    assert f": {field}: " in message, message
    assert not Club.objects.filter(name__startswith="Toren").exists()


# --- Nothing outside its club ------------------------------------------------------------------


def _outside_cases():
    def other_table(c):
        c.append({"model": "auth.permission", "pk": 9999, "fields": {
            "name": "x", "content_type": ["members", "user"], "codename": "take_over"}})

    def session(c):
        c.append({"model": "sessions.session", "pk": 1, "fields": {
            "session_data": "x", "expire_date": "2030-01-01T00:00:00Z"}})

    def platform_mail(c):
        _rows(c, "core.mail")[0]["fields"]["club"] = None

    def other_clubs_row(c):
        _rows(c, "competition.season")[0]["fields"]["club"] = decoy().pk

    def other_club_by_key(c):
        _rows(c, "members.membership")[0]["fields"]["club"] = [decoy().slug]

    def unknown_account(c):
        _rows(c, "competition.player")[0]["fields"]["member"] = ["onbekend@elders.example"]

    return {"a table no club's copy holds": (other_table, "auth.permission"),
            "a session": (session, "sessions.session"),
            "an e-mail of no club": (platform_mail, "club"),
            "a row of another club": (other_clubs_row, "members.club"),
            "another club by its address": (other_club_by_key, "members.club"),
            "an account the copy does not hold": (unknown_account, "onbekend@elders.example")}


OUTSIDE = _outside_cases()


@pytest.mark.parametrize("case", list(OUTSIDE))
def test_a_file_that_names_anything_outside_its_club_is_refused_whole(app_role, tmp_path, copy, case):
    craft, named = OUTSIDE[case]
    craft(copy)
    message = _refused(app_role, tmp_path, copy)
    assert named in message
    assert message.count("not restored") == 1  # one message, not a traceback


def test_a_file_with_one_account_twice_is_refused_in_one_message(app_role, tmp_path, copy):
    twin = _rows(copy, "members.user")[0]
    copy.append({**twin, "pk": 4444, "fields": {**twin["fields"], "name": "Tweeling"}})
    message = _refused(app_role, tmp_path, copy)
    assert f"the copy names the account {twin['fields']['email']} twice" in message
