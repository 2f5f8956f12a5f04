"""Each pairing e-mail once (STYLE "side effects after commit, once"): the e-mails are
written to an outbox with the pairing and sent after commit, without the evening's lock;
a mail server that fails part-way makes a retry send only what is missing."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core import mail
from django.db import connection

from core import mail as core_mail
from pairing import notices
from pairing.models import NoticeState, PairingNotice
from pairing.services import evening_pair_and_publish, pairing_swap_colours
from tests import factories as f
from tests.mailfakes import count_connections, patch_send

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


class FailingAfter:
    """A mail backend's send that refuses the message after ``n`` good ones."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.in_transaction: list[bool] = []

    def __call__(self, subject, body, sender, to, **kwargs):
        self.in_transaction.append(connection.in_atomic_block)
        if self.left == 0:
            raise ConnectionRefusedError("SMTP went away")
        self.left -= 1
        mail.outbox.append(mail.EmailMessage(subject, body, sender, to))
        return 1


def publish(players: int = 8):
    s = f.season(players=players)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    return s, evening


def test_publishing_writes_one_pending_notice_per_player_and_sends_nothing_yet():
    s, evening = publish(8)  # on_commit callbacks are not run: the transaction is open
    rows = PairingNotice.objects.filter(evening=evening)
    assert rows.count() == 8 and set(rows.values_list("state", flat=True)) == {"pending"}
    assert mail.outbox == []


def test_a_mail_server_failing_on_the_sixth_message_loses_and_repeats_nothing(monkeypatch):
    _s, evening = publish(8)
    failing = FailingAfter(5)
    patch_send(monkeypatch, failing)
    with pytest.raises(ConnectionRefusedError):
        notices.deliver(evening.pk)
    assert len(mail.outbox) == 5
    assert PairingNotice.objects.filter(evening=evening, state=NoticeState.SENT).count() == 5

    failing.left = 100  # the server is back: the retry sends the three that are missing
    assert notices.deliver(evening.pk) == 3
    assert notices.deliver(evening.pk) == 0  # and a doubled retry sends nothing
    recipients = Counter(to for m in mail.outbox for to in m.to)
    assert len(recipients) == 8 and set(recipients.values()) == {1}


def test_no_e_mail_is_sent_inside_a_transaction(monkeypatch):
    _s, evening = publish(6)
    recorder = FailingAfter(100)
    patch_send(monkeypatch, recorder)
    notices.deliver(evening.pk)
    # pytest-django wraps the test in one transaction; deliver opens none of its own.
    assert recorder.in_transaction == [connection.in_atomic_block] * 6


def test_a_notice_replaced_before_it_was_sent_is_not_sent():
    s, evening = publish(4)
    game = evening.games.order_by("board").first()
    pairing_swap_colours(actor=f.leader(), game_id=game.pk)
    notices.deliver(evening.pk)
    # Four players, each told once: the two of the swapped game only their new colours.
    assert len(mail.outbox) == 4
    superseded = PairingNotice.objects.filter(evening=evening, state=NoticeState.SUPERSEDED)
    assert set(superseded.values_list("player_id", flat=True)) == {game.white_id, game.black_id}
    white_mail = next(m for m in mail.outbox if m.to == [game.black.member.email])
    assert "white" in white_mail.body.lower()


def test_a_claimed_notice_is_not_sent_by_a_second_worker():
    _s, evening = publish(2)
    row = PairingNotice.objects.filter(evening=evening).first()
    from django.utils import timezone

    one = PairingNotice.objects.filter(pk=row.pk, state=NoticeState.PENDING)
    assert core_mail.claim(one, timezone.now()) == [row.pk]
    assert core_mail.claim(one, timezone.now()) == []
    assert notices.deliver(evening.pk) == 1  # the other one; the claimed one waits


def test_an_evening_of_twenty_e_mails_goes_over_one_connection_in_few_queries(
    monkeypatch, django_assert_max_num_queries,
):
    _s, evening = publish(20)
    opened = count_connections(monkeypatch)
    with django_assert_max_num_queries(12):  # a batch is a few queries, not four a message
        assert notices.deliver(evening.pk) == 20
    assert len(opened) == 1 and len(mail.outbox) == 20


def test_batches_of_claims_share_the_one_connection(monkeypatch):
    _s, evening = publish(12)
    opened = count_connections(monkeypatch)
    monkeypatch.setattr(core_mail, "BATCH_SIZE", 5)
    sent = core_mail.send_rows(
        PairingNotice.objects.filter(evening=evening, state=NoticeState.PENDING),
        notices._builder(evening), batch_size=5,
    )
    assert sent == 12 and len(opened) == 1
    assert not PairingNotice.objects.filter(evening=evening, state=NoticeState.PENDING).exists()


def test_the_send_task_run_twice_sends_each_e_mail_once():
    _s, evening = publish(6)
    from pairing.tasks import send_pairing_notices

    assert send_pairing_notices.apply(args=[evening.pk]).get() == 6
    assert send_pairing_notices.apply(args=[evening.pk]).get() == 0
    recipients = Counter(to for m in mail.outbox for to in m.to)
    assert len(recipients) == 6 and set(recipients.values()) == {1}


def test_a_mail_server_down_from_the_start_sends_nothing_and_the_retry_sends_each_once(
    monkeypatch,
):
    _s, evening = publish(6)
    failing = FailingAfter(0)
    patch_send(monkeypatch, failing)
    with pytest.raises(ConnectionRefusedError):
        notices.deliver(evening.pk)
    rows = PairingNotice.objects.filter(evening=evening)
    assert mail.outbox == [] and set(rows.values_list("state", flat=True)) == {"pending"}
    assert set(rows.values_list("claimed_at", flat=True)) == {None}  # released for the retry
    failing.left = 100
    assert notices.deliver(evening.pk) == 6 and notices.deliver(evening.pk) == 0
    assert len({to for m in mail.outbox for to in m.to}) == len(mail.outbox) == 6
