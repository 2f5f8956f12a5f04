from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MembersConfig(AppConfig):
    name = "members"
    verbose_name = _("Members")

    def ready(self) -> None:
        # Register the Celery tasks in every process, so services can queue them by name.
        from allauth.account.signals import password_reset

        from members import tasks  # noqa: F401
        from members.accounts.password_reset import verify_on_reset
        from members.clubs import memo  # noqa: F401  (forget the home club on a change)

        password_reset.connect(verify_on_reset, dispatch_uid="members.verify_on_reset")

        # Row-level security follows the club of the work in hand (members/clubs/rls.py).
        from django.db.backends.signals import connection_created

        from members.clubs.rls import install

        connection_created.connect(install, dispatch_uid="members.rls")

        # The club's part of a person is read anew by every task (members.models.club_part).
        from celery.signals import task_prerun

        from members.models import forget_club_parts

        task_prerun.connect(forget_club_parts, dispatch_uid="members.forget_club_parts_task", weak=False)
