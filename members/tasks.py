"""Celery entry points of tasks queued before the outbox: the invitation and the e-mail
change are now queued in ``core.mail``'s outbox by the service itself; these names stay
registered so a message already in the queue still finds its task."""

from celery import shared_task

from members.accounts import email_change, invitations


@shared_task(name="members.tasks.send_invitation", acks_late=True)
def send_invitation(member_id: int, site_url: str) -> bool:
    return invitations.send(member_id=member_id, site_url=site_url)


@shared_task(name="members.tasks.send_email_change", acks_late=True)
def send_email_change(member_id: int, old: str, new: str, site_url: str) -> bool:
    return email_change.send(member_id=member_id, old=old, new=new, site_url=site_url)
