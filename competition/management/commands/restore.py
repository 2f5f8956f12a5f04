"""Load one club's backup into the installation, beside the clubs there (docs/operations.md)."""

import gzip
import json

from django.core.management.base import BaseCommand, CommandError

from competition.management.clubcopy import RestoreRefused, club_restore
from competition.models import Season
from members.context import club_context


class Command(BaseCommand):
    help = ("Load a club's backup written by `manage.py backup` into this installation: into "
            "an empty, migrated database, or beside its other clubs (never over them).")

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        try:
            opener = gzip.open if file.endswith(".gz") else open
            with opener(file, "rt", encoding="utf-8") as handle:
                objects = json.load(handle)
            if not isinstance(objects, list) or not all(
                isinstance(o, dict) and "model" in o and "fields" in o for o in objects
            ):
                raise ValueError("not a list of rows")
        except (OSError, ValueError) as exc:
            raise CommandError(f"{file}: not a readable backup ({exc}).", returncode=2) from exc
        try:
            club = club_restore(objects)
        except RestoreRefused as exc:
            raise CommandError(f"{file}: not restored, nothing saved: {exc}.", returncode=2) from exc
        with club_context(club):
            seasons = Season.objects.count()
        self.stderr.write(f"Restored the club {club.slug} with {seasons} season(s) from {file}.")
