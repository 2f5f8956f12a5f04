"""``manage.py load_demo``: three demo clubs, one from each rulebook (docs/rules.md 4).

The Keizer club with recalculation (34 accounts, last season in its history, rapid and
blitz, prizes), a rank-difference ladder club and a classic Keizer club, each at its own
address with its own members, leader, arbiter and administrator; one member belongs to
two clubs. ``--one-club`` loads the Keizer club alone.

Its club (the commands' one policy, members/clubs/commands.py): the Keizer club is built in
``--club``, else in the installation's only club (a fresh installation has one); with
several clubs and no ``--club`` it stops and names them. ``--if-empty`` on a database that
has a season already does nothing first, whatever the clubs (``make run`` a second time).

In development (``DJANGO_DEBUG`` on) every account has the published password. In
production it refuses, unless told ``--allow-production``; even then each account gets a
random password of its own (one leaked password opens one account, not the superuser's
too), printed once beside its address, never the published one and stored nowhere else.
"""

import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.management.base import BaseCommand

from competition.demo import PASSWORD, build_demo, build_other_clubs
from competition.models import Season
from config.celery import app
from core.tenancy.context import club_context, platform_context
from members.clubs.commands import add_club_argument, club_from_options
from members.models import User


@contextmanager
def _no_mail_sent() -> Iterator[None]:
    """The notices of the demo's evenings go nowhere: Django reads ``EMAIL_BACKEND`` at
    each send, and the dummy backend drops every message."""
    before = settings.EMAIL_BACKEND
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    try:
        yield
    finally:
        settings.EMAIL_BACKEND = before


class Command(BaseCommand):
    help = ("Load three demo clubs (Keizer, ladder, classic Keizer): members, roles, a season "
            "under way with results; the Keizer club has last season played too.")

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Do nothing if a season exists.")
        parser.add_argument(
            "--allow-production", action="store_true",
            help="Load the demo although DJANGO_DEBUG is off (each account gets a random password of its own).",
        )
        parser.add_argument("--one-club", action="store_true", help="Only the Keizer club.")
        add_club_argument(parser)

    def handle(self, *args, if_empty: bool = False, allow_production: bool = False,
               one_club: bool = False, **options):
        if not settings.DEBUG and not allow_production:
            self.stderr.write(
                "Refused: DJANGO_DEBUG is off (production). The demo creates an administrator; "
                "pass --allow-production to load it anyway, with a random password."
            )
            raise SystemExit(2)
        with platform_context():  # a season of any club
            loaded = Season.objects.exists()
        if loaded:
            if if_empty:
                self.stdout.write("Demo not loaded: the database has a season already.")
                return
            self.stderr.write("The database is not empty; use a fresh database for the demo.")
            raise SystemExit(2)
        club = club_from_options(options)  # the Keizer club's; the other two are new clubs
        # Production: a throwaway shared hash while building, then one password each.
        password = PASSWORD if settings.DEBUG else secrets.token_urlsafe(18)
        # Recalculate and notify in-process while loading; no mail leaves the machine.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        eager = app.conf.task_always_eager
        app.conf.task_always_eager = True
        try:
            with _no_mail_sent():
                with club_context(club):
                    season = build_demo(password=password)
                others = [] if one_club else build_other_clubs(password=password)
        finally:
            app.conf.task_always_eager = eager
        for s in [season, *others]:
            with club_context(s.club):  # each club's players are counted in its own club
                players = s.players.count()
            self.stdout.write(self.style.SUCCESS(
                f"Demo club {s.club} at /{s.club.slug}/: season {s}, {players} players."
            ))
        if settings.DEBUG:
            self.stdout.write(
                f"Sign in with leider@ / arbiter@ / beheer@ / speler1@demo.club (and the same at "
                f"ladder.demo.club and klassiek.demo.club), password '{PASSWORD}'."
            )
            return
        self.stdout.write("Each account has a password of its own, shown only now (it is stored nowhere):")
        for email, own in _own_passwords().items():
            self.stdout.write(f"{email}  {own}")


def _own_passwords() -> dict[str, str]:
    """A different random password for every account; returns them by address."""
    users = list(User.objects.order_by("email"))
    passwords = {}
    for user in users:
        passwords[user.email] = secrets.token_urlsafe(18)
        user.set_password(passwords[user.email])
    User.objects.bulk_update(users, ["password"])
    return passwords
