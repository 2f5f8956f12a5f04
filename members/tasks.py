"""Celery entry point: e-mail a new member his invitation (after the adding commits)."""

from celery import shared_task

from . import email_change, invitations


@shared_task(name="members.tasks.send_invitation", acks_late=True)
def send_invitation(member_id: int, site_url: str) -> bool:
    return invitations.send(member_id=member_id, site_url=site_url)


@shared_task(name="members.tasks.send_email_change", acks_late=True)
def send_email_change(member_id: int, old: str, new: str, site_url: str) -> bool:
    return email_change.send(member_id=member_id, old=old, new=new, site_url=site_url)
