"""The outbox (core.Mail) is club-scoped like every club's table: a club's work sees its
own mails only (an invitation holds a live set-password link), the platform's own mails
(no club) are seen outside every club, and on PostgreSQL the application's role is held
to it by row-level security (migration core.0005_mail_row_level_security)."""

from __future__ import annotations

import pytest
from django.db import connection

from core import mail
from core.models import Mail
from members.clubs.context import club_context, platform_context
from members.models import Club
from tests.decoy import decoy
from tests.integration.conftest import app_role

pytestmark = pytest.mark.django_db
ROLE = "ranglijst_mail_probe"


def _mails():
    a = Club.objects.create(name="Club A", slug="club-a")
    b = decoy()
    with club_context(a):
        mine = mail.queue(key="invitation:a", subject="A", body="link A", to=["a@example.org"])
    with club_context(b):
        theirs = mail.queue(key="invitation:b", subject="B", body="link B", to=["b@example.org"])
    with club_context(None):
        platform = mail.queue(key="email_change_confirm:x", subject="P", body="link P",
                              to=["p@example.org"])
    return a, b, mine, theirs, platform


def test_a_clubs_mails_are_its_own_and_the_platforms_are_outside_every_club():
    a, b, mine, theirs, platform = _mails()
    assert (mine.club_id, theirs.club_id, platform.club_id) == (a.pk, b.pk, None)
    with club_context(a):
        assert set(Mail.objects.values_list("key", flat=True)) == {"invitation:a"}
        assert not Mail.objects.filter(pk=theirs.pk).exists()
    with club_context(None):
        assert set(Mail.objects.values_list("key", flat=True)) == {"email_change_confirm:x"}
    with platform_context():
        assert {mine.pk, theirs.pk, platform.pk} <= set(Mail.objects.values_list("pk", flat=True))


@pytest.fixture
def as_app_role():
    """The connection as a role that owns nothing (as production's application role)."""
    with app_role(ROLE):
        yield


@pytest.mark.postgres("row-level security")
def test_as_the_app_role_club_a_cannot_read_club_bs_mail_even_in_plain_sql(as_app_role):
    a, b, mine, theirs, platform = _mails()
    with club_context(a), connection.cursor() as cursor:
        cursor.execute("SELECT key FROM core_mail")
        assert {row[0] for row in cursor.fetchall()} == {"invitation:a"}
        cursor.execute("SELECT body FROM core_mail WHERE id = %s", [theirs.pk])
        assert cursor.fetchall() == []
        cursor.execute("UPDATE core_mail SET body = 'x' WHERE id = %s", [theirs.pk])
        assert cursor.rowcount == 0
    with club_context(None), connection.cursor() as cursor:
        cursor.execute("SELECT key FROM core_mail")
        assert {row[0] for row in cursor.fetchall()} == {"email_change_confirm:x"}
    with platform_context():
        assert Mail.objects.filter(pk__in=[mine.pk, theirs.pk, platform.pk]).count() == 3


def test_a_new_clubs_first_invitation_is_that_clubs_mail(settings):
    from members.platform.services import club_create
    from tests import factories as f

    operator = f.member(role=None)
    operator.is_superuser = operator.is_staff = True
    operator.save()
    with platform_context():
        club, leader = club_create(actor=operator, name="Schaakclub Nieuw", slug="nieuw",
                                   leader_email="nieuw@example.org", leader_name="Nieuwe Leider")
        invitation = Mail.objects.get(member=leader)
    assert invitation.club_id == club.pk
    with club_context(club):
        assert Mail.objects.filter(pk=invitation.pk).exists()
    with club_context(decoy()):
        assert not Mail.objects.filter(pk=invitation.pk).exists()
