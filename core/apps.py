from django.apps import AppConfig, apps
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("E-mail")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the mail tasks in every process, so services can queue them by name.
        from core import tasks  # noqa: F401
        from core.tenancy.scoping import scope_related_rows

        # A related row's descriptor (``player.season``, ``club.website``) refuses outside
        # every club, as the scoped managers do (core/tenancy/scoping.py).
        scope_related_rows(apps.get_models())
