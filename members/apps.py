from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MembersConfig(AppConfig):
    name = "members"
    verbose_name = _("Members")

    def ready(self) -> None:
        # Register the Celery tasks in every process, so services can queue them by name.
        from allauth.account.signals import password_reset

        from . import tasks  # noqa: F401
        from .password_reset import verify_on_reset

        password_reset.connect(verify_on_reset, dispatch_uid="members.verify_on_reset")

        # Row-level security follows the club of the work in hand (members/rls.py).
        from django.db.backends.signals import connection_created

        from .rls import install

        connection_created.connect(install, dispatch_uid="members.rls")
