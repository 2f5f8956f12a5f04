"""The club duty decision e-mail: the player and the leader who decided are told, once.

``club_duty_decide`` (and the leader recording club duty on a pending request) renders
the e-mail in its transaction and queues it in the outbox (``core.mail``), keyed by the
request and its version: it commits or rolls back with the decision, is sent after commit
over the outbox's connection, once, and a lost task is caught up by the outbox's beat
job. The player who turned notices off on "My details" is not e-mailed: the leader alone.
"""

from __future__ import annotations

from competition.models import Attendance, ClubDutyRequest, ClubDutyState, Registration
from competition.season.engine.signup import default_status
from core import mail
from members.clubs.addresses import club_footer, club_sender, club_subject

DECIDED = (ClubDutyState.APPROVED, ClubDutyState.REFUSED)


def club_duty_decision_queue(duty: ClubDutyRequest, status: str | None = None) -> bool:
    """In the deciding transaction, after the request was saved with its decision: queue
    its e-mail (once per decision: queueing it again is a no-op). ``status`` is the
    player's sign-up after the decision (read when not given). True when queued now."""
    if duty.state not in DECIDED:
        return False
    member = duty.player.member
    to = [member.email] if member.email and member.notice_mail else []
    leader = duty.decided_by.email if duty.decided_by and duty.decided_by.email else ""
    cc = [leader] if leader and leader not in to else []
    if not to and not cc:
        return False
    status = status or (
        Registration.objects.filter(evening=duty.evening, player=duty.player)
        .values_list("status", flat=True).first()
        or default_status(duty.player.is_fixed)
    )
    context = {"duty": duty, "evening": duty.evening, "player": duty.player,
               "approved": duty.state == ClubDutyState.APPROVED}
    with mail.club_language():
        context["status"] = str(Attendance(status).label)
    club = duty.evening.season.club
    subject, body = mail.render("competition/club_duty_email", context)
    return mail.queue(key=f"club-duty:{duty.pk}:{duty.version}",
                      subject=club_subject(club, subject), body=body + club_footer(club),
                      to=to, cc=cc, member=member, sender=club_sender(club)) is not None


def club_duty_decision_deliver(request_id: int) -> bool:
    """A task queued before the outbox (``competition.tasks.send_club_duty_notice``): queue
    the decision's e-mail if it is not yet, and send the outbox. True when it was queued."""
    duty = ClubDutyRequest.objects.select_related(
        "evening", "player__member", "decided_by").filter(pk=request_id).first()
    if duty is None:
        return False
    queued = club_duty_decision_queue(duty)
    mail.deliver()
    return queued
