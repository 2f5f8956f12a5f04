"""Celery entry point: e-mail a new member his invitation (after the adding commits)."""

from celery import shared_task

from . import invitations


@shared_task(name="members.tasks.send_invitation", acks_late=True)
def send_invitation(member_id: int, site_url: str) -> bool:
    return invitations.send(member_id=member_id, site_url=site_url)
