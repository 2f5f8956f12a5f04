"""Changes made in the Django admin are recorded and recalculated like any other write."""

import pytest
from django.urls import reverse

from competition.models import AuditRecord, Evening, Season
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser():
    user = f.admin()
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def test_moving_a_players_starting_position_in_the_admin_is_audited_and_recalculates(
    client, superuser, django_capture_on_commit_callbacks
):
    s = f.season(players=3)
    player = s.players.order_by("start").last()
    version = Season.objects.get(pk=s.pk).inputs_version
    client.force_login(superuser)
    url = reverse("admin:competition_player_change", args=[player.pk])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(url, {
            "season": s.pk, "member": player.member_id, "kind": "fixed",
            "rating": player.rating, "start": 7, "start_points": "",
        })
    assert response.status_code == 302, response.content.decode()[:2000]
    record = AuditRecord.objects.filter(action="admin.change", after__model="player").get()
    assert record.actor == superuser and record.player_id == player.pk
    assert record.before["start"] == 3 and record.after["start"] == 7
    assert Season.objects.get(pk=s.pk).inputs_version > version
    assert callbacks  # the recalculation is queued after commit


def test_changing_an_evenings_note_in_the_admin_is_audited(client, superuser):
    s = f.season(players=0)
    evening = f.playing_evenings(s)[0]
    client.force_login(superuser)
    url = reverse("admin:competition_evening_change", args=[evening.pk])
    local = lambda value: value.astimezone().strftime("%Y-%m-%d")  # noqa: E731
    response = client.post(url, {
        "starts_at_0": local(evening.starts_at), "starts_at_1": "20:15:00",
        "deadline_0": local(evening.deadline), "deadline_1": "18:00:00", "note": "lekkage",
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    record = AuditRecord.objects.filter(action="admin.change", after__model="evening").get()
    assert record.before["note"] == "" and record.after["note"] == "lekkage"
    assert Evening.objects.get(pk=evening.pk).note == "lekkage"


def test_the_admin_cannot_set_a_published_evening_back_to_open_or_change_its_kind(
    client, superuser
):
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                             now=evening.deadline)
    evening.refresh_from_db()
    client.force_login(superuser)
    url = reverse("admin:competition_evening_change", args=[evening.pk])
    local = lambda value: value.astimezone().strftime("%Y-%m-%d")  # noqa: E731
    client.post(url, {
        "season": s.pk, "half": "", "date": "2030-01-04", "kind": "closed",
        "starts_at_0": local(evening.starts_at), "starts_at_1": "20:15:00",
        "deadline_0": local(evening.deadline), "deadline_1": "18:00:00",
        "status": "open", "note": "", "pairing_seed": "x", "version": 99,
    })
    after = Evening.objects.get(pk=evening.pk)
    assert (after.status, after.kind, after.half_id, after.date) == (
        "published", "playing", evening.half_id, evening.date)
    assert (after.pairing_seed, after.version) == (evening.pairing_seed, evening.version)
    assert client.get(reverse("admin:competition_evening_add")).status_code == 403
