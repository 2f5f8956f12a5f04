"""A member the leader adds is a player: he may sign himself up and off (found by the
end-to-end flow of issue 14, where the newcomer met "Geen toegang" on the sign-up page)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied

from competition.models import Attendance, AuditRecord, Registration
from competition.roster import services as members
from competition.season import services
from core.permissions import Perm
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def test_an_added_member_signs_himself_up_for_an_evening():
    season = f.season(players=4)
    evening = f.playing_evenings(season)[0]
    player = members.member_add(actor=f.leader(), season=season, name="Nina Nieuw",
                                email="nina@example.org", rating=1650, site_url="https://club.example.org")
    assert player.member.has_perm(Perm.REGISTER_SELF)
    services.registration_set(actor=player.member, player=player, evenings=[evening],
                              status=Attendance.PRESENT, now=evening.deadline - dt.timedelta(days=1))
    assert Registration.objects.get(player=player, evening=evening).status == Attendance.PRESENT


def test_an_added_member_is_no_more_than_a_player():
    season = f.season(players=2)
    player = members.member_add(actor=f.leader(), season=season, name="Nina Nieuw",
                                email="nina@example.org", site_url="https://club.example.org")
    assert list(player.member.memberships.values_list("club", "role")) == [(season.club_id, "player")]
    other = season.players.exclude(pk=player.pk).first()
    evening = f.playing_evenings(season)[0]
    audits = AuditRecord.objects.count()
    with pytest.raises(PermissionDenied):
        services.registration_set(actor=player.member, player=other, evenings=[evening],
                                  status=Attendance.ABSENT_WITH_NOTICE,
                                  now=evening.deadline - dt.timedelta(days=1))
    assert AuditRecord.objects.count() == audits
