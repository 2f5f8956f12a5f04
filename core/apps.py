from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("E-mail")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the mail tasks in every process, so services can queue them by name.
        from core import tasks  # noqa: F401
