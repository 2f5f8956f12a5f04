"""The Django admin does not go around the services (issue 22): the rows whose writes have
rules are read-only there with a pointer to the leader's page, and the competition's
remaining settings are saved through their service (checked, audited, recalculated)."""

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from competition.models import AuditRecord, Competition, Evening, Player, Season
from competition.season import services
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def superuser():
    user = f.admin()
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def test_a_player_is_read_only_in_the_admin_and_points_to_the_members_page(client, superuser):
    s = f.season(players=3)
    player = s.players.order_by("start").last()
    client.force_login(superuser)
    url = reverse("admin:competition_player_change", args=[player.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert reverse("members:edit", args=[s.slug, player.pk]) in page.content.decode()
    response = client.post(url, {
        "season": s.pk, "member": player.member_id, "kind": "fixed",
        "rating": player.rating, "start": 7, "start_points": "",
    })
    assert response.status_code == 403
    assert Player.objects.get(pk=player.pk).start == 3
    assert not AuditRecord.objects.filter(action__startswith="admin.").exists()
    assert client.get(reverse("admin:competition_player_add")).status_code == 403


@pytest.mark.parametrize("model", ["season", "evening", "swissevent"])
def test_seasons_evenings_and_events_are_read_only_in_the_admin(client, superuser, model):
    from competition.events.services import event_create

    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    obj = {"season": s, "evening": evening,
           "swissevent": lambda: event_create(actor=f.admin(), season=s, kind="rapid", name="Rapid")}[model]
    obj = obj() if callable(obj) else obj
    client.force_login(superuser)
    url = reverse(f"admin:competition_{model}_change", args=[obj.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"name": "x", "note": "lekkage"}).status_code == 403
    assert client.post(reverse(f"admin:competition_{model}_delete", args=[obj.pk]),
                       {"post": "yes"}).status_code == 403
    assert type(obj).objects.filter(pk=obj.pk).exists()
    assert Evening.objects.get(pk=evening.pk).note == ""


def test_a_published_evening_stays_published_whatever_the_admin_posts(client, superuser):
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    evening.refresh_from_db()
    client.force_login(superuser)
    url = reverse("admin:competition_evening_change", args=[evening.pk])
    client.post(url, {"status": "open", "kind": "closed", "version": 99})
    after = Evening.objects.get(pk=evening.pk)
    assert (after.status, after.kind, after.version) == ("published", "playing", evening.version)
    assert client.get(reverse("admin:competition_evening_add")).status_code == 403


def _competition_form(client, competition):
    url = reverse("admin:competition_competition_change", args=[competition.pk])
    form = client.get(url).context["adminform"].form
    data = {}
    for name in form.fields:
        value = form.initial.get(name)
        if isinstance(value, dt.time):
            value = value.strftime("%H:%M")
        data[name] = "" if value is None else value
    return url, data


def test_a_competition_setting_in_the_admin_goes_through_its_service(
    client, superuser, django_capture_on_commit_callbacks
):
    s = f.season(players=3)
    version = Season.objects.get(pk=s.pk).inputs_version
    client.force_login(superuser)
    url, data = _competition_form(client, s.competition)
    data["eligibility_percentage"] = 60
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Competition.objects.get(pk=s.competition.pk).eligibility_percentage == 60
    record = AuditRecord.objects.get(action="competition.parameters", season=s)
    assert record.actor == superuser
    assert record.before == {"eligibility_percentage": 50}
    assert record.after == {"eligibility_percentage": 60}
    assert Season.objects.get(pk=s.pk).inputs_version > version
    assert callbacks  # the recalculation is queued after commit


def test_a_bad_competition_setting_in_the_admin_saves_nothing(client, superuser):
    s = f.season(players=0)
    client.force_login(superuser)
    url, data = _competition_form(client, s.competition)
    data["eligibility_percentage"] = 150
    response = client.post(url, data)
    assert response.status_code == 200 and response.context["adminform"].form.errors
    assert Competition.objects.get(pk=s.competition.pk).eligibility_percentage == 50
    assert not AuditRecord.objects.filter(action="competition.parameters", season=s).exists()


def test_the_admins_competition_form_and_the_service_agree_on_who_may_change_it(client):
    s = f.season(players=0)
    staff = f.leader()  # staff, may view competitions, but has no season management
    staff.is_staff = True
    staff.save()
    staff.user_permissions.add(Permission.objects.get(codename="view_competition"))
    client.force_login(staff)
    url = reverse("admin:competition_competition_change", args=[s.competition.pk])
    assert services.can_change_competition_settings(staff) is False
    assert client.post(url, {"name": "Anders"}).status_code == 403
    with pytest.raises(services.PermissionDenied):
        services.competition_settings_set(actor=staff, competition=s.competition,
                                          changes={"name": "Anders"})
    admin = f.admin()
    assert services.can_change_competition_settings(admin) is True
    services.competition_settings_set(actor=admin, competition=s.competition,
                                      changes={"name": "Anders"})
    assert Competition.objects.get(pk=s.competition.pk).name == "Anders"


def test_settings_with_a_page_of_their_own_are_refused_by_the_service():
    s = f.season(players=0)
    with pytest.raises(services.ValidationError):
        services.competition_settings_set(actor=f.admin(), competition=s.competition,
                                          changes={"system": "ladder"})
    assert Competition.objects.get(pk=s.competition.pk).system == "pion"
