"""Load one club's backup into the installation, beside the clubs there (docs/operations.md)."""

import gzip
import json

from django.core.management.base import BaseCommand, CommandError

from competition.management.clubcopy import RestoreRefused, club_restore
from competition.models import Season
from members.clubs.context import club_context


class Command(BaseCommand):
    help = ("Load a club's backup written by `manage.py backup` into this installation: into "
            "an empty, migrated database, or beside its other clubs (never over them). A "
            "restore is data, never rights: no account gets staff, superuser, groups or "
            "permissions from the file, an account that exists here joins the club only with "
            "--link-existing, and the file's e-mails not sent yet stay unsent without "
            "--release-mail.")

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--link-existing", action="append", default=[], metavar="EMAIL",
            help="An account of the copy that exists here already (the same e-mail address) "
                 "is the same person: link it to the restored club, with its role there; its "
                 "password and addresses stay as they are. Once for each such account; "
                 "without it the restore is refused and lists them with their clubs.")
        parser.add_argument(
            "--release-mail", action="store_true",
            help="Send the copy's e-mails that were not sent yet (from the club's address, "
                 "never the file's); without it they are held back and never sent.")

    def handle(self, *args, file: str, link_existing: list[str], release_mail: bool, **options):
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
            restored = club_restore(objects, link_existing=link_existing, release_mail=release_mail)
        except RestoreRefused as exc:
            raise CommandError(f"{file}: not restored, nothing saved: {exc}.", returncode=2) from exc
        club = restored.club
        with club_context(club):
            seasons = Season.objects.count()
        self.stderr.write(f"Restored the club {club.slug} with {seasons} season(s) from {file}.")
        if restored.linked:
            self.stderr.write(f"Linked to it, as you confirmed: {', '.join(restored.linked)}.")
        if restored.rights_dropped:
            self.stderr.write(
                "Left out, as every restore does: the platform's rights (staff, superuser, groups, "
                f"permissions) the copy gave {', '.join(restored.rights_dropped)}; give them in "
                "the admin where they are due.")
        if restored.held:
            self.stderr.write(f"Held back, never sent: {restored.held} e-mail(s) of the copy not sent "
                              "yet (--release-mail sends them).")
        if restored.released:
            self.stderr.write(f"Released: {restored.released} e-mail(s) of the copy not sent yet go "
                              "out from the club's address.")
