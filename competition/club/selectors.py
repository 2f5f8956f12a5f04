"""The first season's steps of a new club, as its leader's home page shows them: each is
ticked by what the club has done (never by a click), read in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from competition.models import AuditAction, AuditRecord, Evening, EveningStatus, Season
from members.clubs.roles import ADMINISTRATOR, LEADER
from members.models import Club, Membership


@dataclass(frozen=True)
class Step:
    key: str  # "settings", "members", "calendar", "first-evening"
    title: str
    done: bool
    url: str  # empty: the viewer cannot take this step himself (the administrator's)


def first_season_steps(club: Club, *, edits_settings: bool) -> list[Step]:
    """Settings, members, calendar, first evening: done when the club's settings were
    saved on its settings page, when it has a member besides its leaders, when it has a
    season (its calendar), and when an evening's pairing was published. The settings step
    links to the settings page for the one who ``edits_settings`` (the administrator)."""
    settings_done = AuditRecord.objects.filter(club=club, action=AuditAction.CLUB_SETTINGS).exists()
    members_done = Membership.objects.filter(club=club).exclude(
        role__in=(LEADER, ADMINISTRATOR)).exists()
    season = Season.objects.filter(club=club).order_by("-start_date").first()
    published = season is not None and Evening.objects.filter(
        season__club=club, status=EveningStatus.PUBLISHED).exists()
    season_url = (reverse("competition:leader_season", args=[season.slug]) if season
                  else reverse("competition:leader"))
    return [
        Step("settings", _("Check the club's settings: name, venue, time zone, sign-up deadline"),
             settings_done, reverse("competition:club_settings") if edits_settings else ""),
        Step("members", _("Add the members"), members_done,
             reverse("members:current") if season else reverse("competition:leader")),
        Step("calendar", _("Set up the season and its calendar"), season is not None, season_url),
        Step("first-evening", _("Prepare the first evening: the sign-ups, then the pairing"),
             published, reverse("pairing:evenings") if season else reverse("competition:leader")),
    ]
