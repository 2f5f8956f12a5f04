import logging

from django.core.management.base import BaseCommand
from django.test.utils import override_settings

from competition.demo import PASSWORD, build_demo
from competition.models import Season
from config.celery import app


class Command(BaseCommand):
    help = "Load a demo club: 30 members, roles, a season under way with results."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Do nothing if a season exists.")

    def handle(self, *args, if_empty: bool = False, **options):
        if Season.objects.exists():
            if if_empty:
                self.stdout.write("Demo not loaded: the database has a season already.")
                return
            self.stderr.write("The database is not empty; use a fresh database for the demo.")
            raise SystemExit(2)
        # Recalculate and notify in-process while loading; no mail leaves the machine.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        eager = app.conf.task_always_eager
        app.conf.task_always_eager = True
        try:
            with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
                season = build_demo()
        finally:
            app.conf.task_always_eager = eager
        self.stdout.write(self.style.SUCCESS(
            f"Demo club loaded: season {season}, {season.players.count()} players. "
            f"Sign in with leider@ / arbiter@ / beheer@ / speler1@demo.club, password '{PASSWORD}'."
        ))
