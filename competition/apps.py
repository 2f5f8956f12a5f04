from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = _("Competition")

    def ready(self) -> None:
        # Register the Celery tasks in every process, so services can queue them by name.
        from competition.season import tasks  # noqa: F401

        from .ratings import tasks as rating_tasks  # noqa: F401
