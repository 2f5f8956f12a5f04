"""A member's own calendar (iCalendar, RFC 5545): his games of the season, and the
evenings to come he is expected at but not yet paired for, each with the venue's address
and a link to the evening's page. Written with ``icalendar`` (escaping and folding), in
the club's language; reached through a secret per-member address (``me:calendar``)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from competition.models import Evening, EveningKind, EveningStatus, Game, Player, Registration
from competition.season.engine.signup import PRESENT, default_status
from competition.season.ical import GAME_HOURS
from members.clubs.addresses import club_venue, site_name
from members.models import User
from members.names import public_name


def _event(uid: str, evening: Evening, summary: str, description: str, site_url: str,
           stamp: dt.datetime) -> Event:
    event = Event()
    url = site_url.rstrip("/") + reverse("competition:evening", args=[evening.date.isoformat()])
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", evening.starts_at.astimezone(dt.UTC))
    event.add("dtend", (evening.starts_at + GAME_HOURS).astimezone(dt.UTC))
    event.add("summary", summary)
    event.add("location", club_venue())
    event.add("url", url)
    event.add("description", f"{description}\n{url}".strip())
    return event


def member_calendar_ics(member: User, *, site_url: str) -> str:
    with translation.override(settings.LANGUAGE_CODE):
        return _calendar(member, site_url).to_ical().decode()


def _calendar(member: User, site_url: str) -> Calendar:
    stamp = timezone.now().astimezone(dt.UTC)
    host = site_url.split("//", 1)[-1].strip("/")
    cal = Calendar()
    cal.add("prodid", "-//Ranglijst//Member calendar//NL")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{site_name()}: {member.name}")
    cal.add("x-wr-timezone", "Europe/Amsterdam")
    # This season's games and evenings, and any later season's (earlier ones are history).
    today = timezone.localdate()
    players = list(Player.objects.filter(member=member, season__end_date__gte=today))
    mine = {p.pk: p for p in players}
    games = (Game.objects.filter(Q(white__in=mine) | Q(black__in=mine))
             .select_related("evening", "white__member", "black__member"))
    paired: set[int] = set()
    for g in games:
        white = g.white_id in mine
        opponent = g.black if white else g.white
        paired.add(g.evening_id)
        summary = (_("Chess: %(opponent)s (you play white)") if white
                   else _("Chess: %(opponent)s (you play black)")) % {"opponent": public_name(opponent.member)}
        description = _("Board %(board)s.") % {"board": g.board}
        cal.add_component(_event(f"game-{g.pk}@{host}", g.evening, summary, description, site_url, stamp))
    now = timezone.now()
    statuses = {(r.player_id, r.evening_id): r.status
                for r in Registration.objects.filter(player__in=mine, evening__starts_at__gt=now)}
    coming = (Evening.objects.filter(season__players__in=mine, kind=EveningKind.PLAYING, starts_at__gt=now)
              .exclude(pk__in=paired).exclude(status=EveningStatus.PUBLISHED)
              .values_list("pk", "season_id"))
    wanted = {pk for pk, season_id in coming
              for player in players if player.season_id == season_id
              and statuses.get((player.pk, pk), default_status(player.is_fixed)) == PRESENT}
    for evening in Evening.objects.filter(pk__in=wanted):
        cal.add_component(_event(
            f"evening-{evening.pk}-{member.pk}@{host}", evening, _("Chess: internal competition"),
            _("You are signed up; the pairing follows after the deadline."), site_url, stamp))
    return cal
