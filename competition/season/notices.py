"""The club duty decision e-mail: the player and the leader who decided are told, once.

The request row is its own outbox: ``club_duty_decide`` queues the sending task after
commit; the task claims the row with one UPDATE (two workers never send it twice), sends
one message to the player with the leader in copy, and marks it sent. A failure releases
the claim for the retry; a worker killed between sending and marking may, after
``CLAIM_SECONDS``, send it again (at least once, never silently lost), as the pairing
outbox does. The catch-up job sends what a lost task left behind.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation

from competition.models import Attendance, ClubDutyRequest, ClubDutyState, Registration
from competition.season.engine.signup import default_status
from members.addresses import club_sender

CLAIM_SECONDS = 600
CATCH_UP_DAYS = 7
DECIDED = (ClubDutyState.APPROVED, ClubDutyState.REFUSED)


def _claim(request_id: int, now: dt.datetime) -> bool:
    stale = now - dt.timedelta(seconds=CLAIM_SECONDS)
    return bool(
        ClubDutyRequest.objects.filter(
            pk=request_id, state__in=DECIDED, notice_sent_at__isnull=True
        )
        .filter(Q(notice_claimed_at__isnull=True) | Q(notice_claimed_at__lt=stale))
        .update(notice_claimed_at=now)
    )


def club_duty_decision_deliver(request_id: int) -> bool:
    """Send the decision of one request if it has not gone yet; True when sent."""
    if not _claim(request_id, timezone.now()):
        return False
    duty = ClubDutyRequest.objects.select_related(
        "evening__season__club", "player__member", "decided_by"
    ).get(pk=request_id)
    member = duty.player.member  # he turned notices off on "My details": the leader alone
    to = [member.email] if member.email and member.notice_mail else []
    leader = duty.decided_by.email if duty.decided_by and duty.decided_by.email else ""
    cc = [leader] if leader and leader not in to else []
    if to or cc:
        status = (
            Registration.objects.filter(evening=duty.evening, player=duty.player)
            .values_list("status", flat=True).first()
            or default_status(duty.player.is_fixed)
        )
        context = {"duty": duty, "evening": duty.evening, "player": duty.player,
                   "approved": duty.state == ClubDutyState.APPROVED}
        with translation.override(settings.LANGUAGE_CODE):
            context["status"] = str(Attendance(status).label)
            subject = render_to_string("competition/club_duty_email_subject.txt", context).strip()
            body = render_to_string("competition/club_duty_email_body.txt", context)
        try:
            sender, reply_to = club_sender(duty.evening.season.club)
            EmailMessage(subject, body, sender, to or cc, cc=cc if to else [], reply_to=reply_to).send()
        except Exception:
            ClubDutyRequest.objects.filter(pk=request_id).update(notice_claimed_at=None)
            raise
    ClubDutyRequest.objects.filter(pk=request_id).update(notice_sent_at=timezone.now())
    return bool(to or cc)


def club_duty_decisions_undelivered(now: dt.datetime | None = None) -> list[int]:
    """Decisions of the last week whose e-mail has not gone (the broker was down, the
    retries ran out): the catch-up job sends them."""
    now = now or timezone.now()
    return list(
        ClubDutyRequest.objects.filter(
            state__in=DECIDED, notice_sent_at__isnull=True,
            decided_at__gte=now - dt.timedelta(days=CATCH_UP_DAYS),
        ).order_by("pk").values_list("pk", flat=True)
    )
