"""Load a backup into an empty (migrated) database."""

import gzip
import json
import os
import tempfile

from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from competition.models import Season
from core.pagecache import pages_changed
from members.commands import ClubCommand
from members.models import User


class Command(ClubCommand):
    help = "Load a backup written by `manage.py backup` into an empty, migrated database."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        if Season.objects.exists() or User.objects.exists():
            raise CommandError("The database is not empty; restore only into a new database.",
                               returncode=2)
        try:
            opener = gzip.open if file.endswith(".gz") else open
            with opener(file, "rt", encoding="utf-8") as handle:
                data = handle.read()
            json.loads(data)
        except (OSError, ValueError) as exc:
            raise CommandError(f"{file}: not a readable backup ({exc}).", returncode=2) from exc
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tmp:
            tmp.write(data)
        try:
            with transaction.atomic():
                call_command("loaddata", tmp.name, verbosity=0)
                pages_changed()  # nothing cached before the restore is shown after it
        finally:
            os.unlink(tmp.name)
        self.stderr.write(f"Restored {Season.objects.count()} season(s) from {file}.")
