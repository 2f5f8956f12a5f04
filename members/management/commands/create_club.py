"""``manage.py create_club``: the platform operator creates a club and invites its first
leader (members/platform/services.py), as the admin's "Add club" page does."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from competition.models import System
from members.models import User
from members.platform.services import club_create


class Command(BaseCommand):
    help = "Create a club at /<slug>/ and invite its first leader (as its administrator)."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="The club's name, e.g. 'SC De Toren'.")
        parser.add_argument("--slug", required=True, help="Its address: /<slug>/, e.g. sc-de-toren.")
        parser.add_argument("--leader-email", required=True)
        parser.add_argument("--leader-name", default="", help="Needed when the account is new.")
        parser.add_argument("--venue", default="")
        parser.add_argument("--system", default=System.PION, choices=System.values,
                            help="Default rules preset.")
        parser.add_argument("--operator", default="", help="E-mail of the operator (a superuser); default: the first superuser.")

    def handle(self, *args, name, slug, leader_email, leader_name, venue, system, operator, **options):
        operators = User.objects.filter(is_superuser=True, is_active=True).order_by("pk")
        actor = operators.filter(email__iexact=operator).first() if operator else operators.first()
        if actor is None:
            raise CommandError("No platform operator (an active superuser) found: create one with createsuperuser.")
        try:
            club, leader = club_create(
                actor=actor, name=name, slug=slug, leader_email=leader_email,
                leader_name=leader_name, venue=venue, default_system=system,
            )
        except ValidationError as exc:
            raise CommandError("; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from exc
        invited = "" if leader.has_usable_password() else " and was sent an invitation to set his password"
        self.stdout.write(self.style.SUCCESS(
            f"Club {club.name} created at /{club.slug}/; {leader.email} is its administrator{invited}."
        ))
