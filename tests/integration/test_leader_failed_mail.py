"""Nothing happens to a player silently: an e-mail to a member that the outbox gave up
(``core.Mail``: an invitation, a club duty decision) is on the leader's to-do list with
who, what, since when and why, and a button to send it again; an e-mail address change
concerns the member alone and is logged, shown to nobody."""

from __future__ import annotations

import datetime as dt
import logging

import pytest
from django.core import mail as outbox
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import BadHeaderError
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.models import AuditAction, AuditRecord
from competition.roster import services
from competition.season import selectors
from competition.season import services as season_services
from core import mail
from core.models import MAX_ATTEMPTS, Mail, MailState
from members.accounts import profile
from tests import factories as f
from tests.mailfakes import patch_send

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

SITE = "http://testserver"


class Refusing:
    """The mail library refusing the messages to one address (a header it will not send),
    until told to stop; every other message goes."""

    def __init__(self, refused: str) -> None:
        self.refused: str | None = refused

    def __call__(self, subject, body, sender, to, **kwargs):
        if self.refused in to:
            raise BadHeaderError("Header values can't contain newlines (got 'x\\ny')")
        outbox.outbox.append(outbox.EmailMessage(subject, body, sender, to))
        return 1


def _give_up(monkeypatch, address: str) -> Refusing:
    refusing = Refusing(address)
    patch_send(monkeypatch, refusing)
    for _attempt in range(MAX_ATTEMPTS):
        mail.deliver()
    return refusing


@pytest.fixture
def club(monkeypatch):
    season = f.season(players=6, flexible=2)
    monkeypatch.setattr(selectors, "current_season", lambda today=None: season)
    return season, f.leader()


def _todo_page(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("competition:leader")).content.decode()


def _again(client, user, mail_id: int):
    client.force_login(user)
    return client.post(reverse("members:mail_again", args=[mail_id]), {"confirm": "1"}, follow=True)


def test_a_failed_invitation_is_on_the_todo_with_the_members_name_and_goes_again(club, client, monkeypatch):
    season, leader = club
    player = services.member_add(actor=leader, season=season, name="Anna de Vries",
                                 email="anna@example.org", site_url=SITE)
    refusing = _give_up(monkeypatch, "anna@example.org")
    failed = Mail.objects.get(member=player.member)
    assert failed.state == MailState.FAILED and failed.kind == mail.INVITATION

    [row] = selectors.leader_todo(season, dt.datetime.now(dt.UTC))["failed_member_mail"]
    assert (row["pk"], row["name"], row["kind"], row["since"]) == (
        failed.pk, "Anna de Vries", mail.INVITATION, failed.created_at)
    assert "line break" in row["error"] and "Header" not in row["error"]  # plain words
    page = _todo_page(client, leader)
    assert 'id="todo-failed-member-mail"' in page and "Anna de Vries" in page
    assert reverse("members:mail_again", args=[failed.pk]) in page and "Send again" in page

    # Without the confirmation nothing goes: the page says what will happen.
    client.post(reverse("members:mail_again", args=[failed.pk]))
    assert Mail.objects.count() == 1
    refusing.refused = None  # the mail server takes it now
    response = _again(client, leader, failed.pk)
    assert "The e-mail goes again" in response.content.decode()
    failed.refresh_from_db()
    assert failed.state == MailState.SUPERSEDED
    new = Mail.objects.exclude(pk=failed.pk).get(member=player.member)
    assert new.kind == mail.INVITATION and new.state == MailState.PENDING and new.to == ["anna@example.org"]
    assert AuditRecord.objects.filter(action=AuditAction.MEMBER_INVITE, player=player).count() == 2
    assert selectors.leader_todo(season, dt.datetime.now(dt.UTC))["failed_member_mail"] == []
    assert mail.deliver() == 1 and outbox.outbox[-1].to == ["anna@example.org"]

    # The replaced one again: refused, said why, nothing changed.
    response = _again(client, leader, failed.pk)
    assert "was not given up" in response.content.decode()
    assert Mail.objects.count() == 2
    assert AuditRecord.objects.filter(action=AuditAction.MEMBER_INVITE, player=player).count() == 2


def test_an_invitation_to_a_member_who_set_his_password_since_is_not_on_the_todo(club, monkeypatch):
    season, leader = club
    player = services.member_add(actor=leader, season=season, name="Bert Smit",
                                 email="bert@example.org", site_url=SITE)
    _give_up(monkeypatch, "bert@example.org")
    player.member.set_password("zelf-gekozen-1")
    player.member.save()
    assert selectors.leader_todo(season, dt.datetime.now(dt.UTC))["failed_member_mail"] == []
    with pytest.raises(ValidationError, match="has set a password already"):
        services.mail_retry(actor=leader, mail_id=Mail.objects.get().pk, site_url=SITE)
    assert Mail.objects.get().state == MailState.FAILED


def _failed_club_duty(season, leader, monkeypatch):
    evening = list(f.playing_evenings(season))[1]
    asker = season.players.filter(kind="flexible").select_related("member").first()
    now = f.playing_evenings(season)[0].deadline - dt.timedelta(days=2)
    duty = season_services.club_duty_request(actor=asker.member, player=asker, evening=evening, now=now)
    season_services.club_duty_decide(actor=leader, request=duty, approve=True, now=now)
    refusing = _give_up(monkeypatch, asker.member.email)
    return Mail.objects.get(key__startswith="club-duty:"), asker, refusing


def test_a_failed_club_duty_decision_can_be_tried_again_once(club, client, monkeypatch):
    season, leader = club
    failed, asker, refusing = _failed_club_duty(season, leader, monkeypatch)
    assert failed.state == MailState.FAILED and failed.member == asker.member

    [row] = selectors.leader_todo(season, dt.datetime.now(dt.UTC))["failed_member_mail"]
    assert (row["name"], row["kind"], row["invitation"]) == (asker.member.name, mail.CLUB_DUTY, False)
    page = _todo_page(client, leader)
    assert asker.member.name in page and "club duty decision" in page and "Try again" in page

    refusing.refused = None
    _again(client, leader, failed.pk)
    failed.refresh_from_db()
    assert (failed.state, failed.attempts) == (MailState.PENDING, 0)
    assert AuditRecord.objects.filter(action=AuditAction.MAIL_RETRY, player=asker).count() == 1

    # A second time: it is on its way, nothing changes.
    response = _again(client, leader, failed.pk)
    assert "was not given up" in response.content.decode()
    failed.refresh_from_db()
    assert failed.state == MailState.PENDING
    assert AuditRecord.objects.filter(action=AuditAction.MAIL_RETRY).count() == 1
    assert mail.deliver() == 1 and asker.member.email in outbox.outbox[-1].to
    failed.refresh_from_db()
    assert failed.state == MailState.SENT
    with pytest.raises(ValidationError, match="was not given up"):
        services.mail_retry(actor=leader, mail_id=failed.pk, site_url=SITE)


def test_a_player_sees_nothing_of_it_and_cannot_retry(club, client, monkeypatch):
    season, leader = club
    failed, asker, _refusing = _failed_club_duty(season, leader, monkeypatch)
    client.force_login(asker.member)
    assert client.get(reverse("competition:leader")).status_code == 403
    assert client.get(reverse("competition:home")).content.decode().count("todo-failed-member-mail") == 0
    response = client.post(reverse("members:mail_again", args=[failed.pk]), {"confirm": "1"})
    assert response.status_code == 403
    with pytest.raises(PermissionDenied):
        services.mail_retry(actor=asker.member, mail_id=failed.pk, site_url=SITE)
    failed.refresh_from_db()
    assert failed.state == MailState.FAILED and not AuditRecord.objects.filter(action=AuditAction.MAIL_RETRY)


def test_a_failed_email_change_is_logged_and_shown_to_nobody(club, client, monkeypatch, caplog):
    season, leader = club
    player = season.players.select_related("member").first()
    profile.email_change_request(actor=player.member, member=player.member, email="nieuw@example.org",
                                 password="pw-schaak-123", site_url=SITE)  # his own request
    with caplog.at_level(logging.ERROR, logger="core.mail"):
        _give_up(monkeypatch, "nieuw@example.org")
    confirm = Mail.objects.get(key__startswith="email_change_confirm:")
    assert confirm.state == MailState.FAILED and confirm.member == player.member
    assert any("shown to nobody" in r.getMessage() and str(confirm.pk) in r.getMessage()
               for r in caplog.records)
    assert selectors.leader_todo(season, dt.datetime.now(dt.UTC))["failed_member_mail"] == []
    assert "todo-failed-member-mail" not in _todo_page(client, leader)
    # Someone else's mail: refused with a message, nothing changed.
    response = _again(client, leader, confirm.pk)
    assert "concerns the member alone" in response.content.decode()
    confirm.refresh_from_db()
    assert confirm.state == MailState.FAILED
    response = _again(client, leader, confirm.pk + 1000)
    assert "does not exist" in response.content.decode()


def _page_queries(client, leader) -> int:
    client.force_login(leader)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(reverse("competition:leader")).status_code == 200
    return len(ctx.captured_queries)


def _failed_invitation(n: int) -> None:
    member = f.member(name=f"Nieuw {n}", role="player")
    member.set_unusable_password()
    member.save()
    Mail.objects.create(key=f"invitation:{member.pk}:{n}", to=[member.email], subject="s", body="b",
                        member=member, state=MailState.FAILED, attempts=MAX_ATTEMPTS,
                        last_error="SMTPRecipientsRefused: {}")


def test_the_todo_page_costs_the_same_queries_for_one_and_many_failed_mails(
        club, client, django_assert_max_num_queries):
    _season, leader = club
    _failed_invitation(1)
    one = _page_queries(client, leader)
    for n in range(2, 9):
        _failed_invitation(n)
    with django_assert_max_num_queries(one):
        page = client.get(reverse("competition:leader")).content.decode()
    assert page.count("data-mail=") == 8 and "the mail server refused the address" in page


def test_the_todo_says_it_in_dutch(club, client, monkeypatch):
    season, leader = club
    services.member_add(actor=leader, season=season, name="Anna de Vries", email="anna@example.org",
                        site_url=SITE)
    _give_up(monkeypatch, "anna@example.org")
    _failed_club_duty(season, leader, monkeypatch)
    with override_settings(LANGUAGE_CODE="nl"):
        page = _todo_page(client, leader)
    assert "E-mails aan leden die niet verstuurd konden worden" in page
    assert "uitnodiging om een wachtwoord te kiezen" in page and "besluit over clubverplichting" in page
    assert "Opnieuw sturen" in page and "Opnieuw proberen" in page and "sinds " in page
    assert "kijk of er een regelovergang in de naam staat" in page and "Header" not in page
