"""A new club, made by the platform operator and handed to its first leader (issue 20,
"Done when"): the management command and the admin's "Add club" page go through one
service (members/platform/services.py); a bad address is refused in words and nothing is saved."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command

from members.models import Club, Membership, User
from members.platform.services import club_create, platform_segments
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
SITE = "https://ranglijst.example.org/"


def _operator() -> User:
    return User.objects.create_superuser(email="operator@example.org", password="pw-schaak-123", name="Op")


def _create(actor, **kw):
    data = {"name": "SC De Toren", "slug": "sc-de-toren", "leader_email": "Tom@Toren.example",
            "leader_name": "Tom Toren"} | kw
    return club_create(actor=actor, **data)


def test_the_operator_creates_a_club_and_its_first_leader_gets_an_invitation(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        club, leader = _create(_operator())
    assert (club.name, club.slug) == ("SC De Toren", "sc-de-toren")
    assert leader.email == "tom@toren.example" and not leader.has_usable_password()
    membership = Membership.objects.get(user=leader)
    assert (membership.club, membership.role) == (club, "administrator")
    [message] = mail.outbox
    assert message.to == ["tom@toren.example"] and "/accounts/password/reset/key/" in message.body


def test_an_existing_account_joins_the_new_club_without_a_new_password(
    django_capture_on_commit_callbacks,
):
    member = f.member(email="tom@toren.example")
    with django_capture_on_commit_callbacks(execute=True):
        club, leader = _create(_operator(), leader_name="")
    assert leader == member and member.check_password("pw-schaak-123")
    assert set(member.memberships.values_list("club__slug", flat=True)) >= {"sc-de-toren"}
    assert mail.outbox == []


@pytest.mark.parametrize("slug, words", [
    ("admin", "part of the site"),
    ("accounts", "part of the site"),
    ("Toren Club", "lower-case letters"),
    ("-toren", "lower-case letters"),
])
def test_a_bad_or_reserved_address_is_refused_and_nothing_is_saved(slug, words):
    operator = _operator()
    clubs = Club.objects.count()
    with pytest.raises(ValidationError) as exc:
        _create(operator, slug=slug)
    assert words in " ".join(exc.value.message_dict["slug"])
    assert Club.objects.count() == clubs and not User.objects.filter(email="tom@toren.example").exists()


def test_an_address_in_use_is_refused():
    operator = _operator()
    _create(operator)
    with pytest.raises(ValidationError, match="exists already"):
        _create(operator, name="Another", leader_email="x@example.org")
    assert Club.objects.filter(slug="sc-de-toren").count() == 1


def test_the_reserved_addresses_come_from_the_url_configuration():
    assert {"admin", "accounts", "healthz", "api", "static"} <= platform_segments()


def test_only_an_operator_creates_a_club():
    admin = f.admin()  # a club's administrator is not the platform's operator
    clubs = Club.objects.count()
    with pytest.raises(PermissionDenied):
        _create(admin)
    assert Club.objects.count() == clubs


def test_the_command_creates_the_club_and_says_so(django_capture_on_commit_callbacks):
    _operator()
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("create_club", "--name", "SC De Toren", "--slug", "sc-de-toren",
                     "--leader-email", "tom@toren.example", "--leader-name", "Tom Toren", stdout=out)
    assert "/sc-de-toren/" in out.getvalue() and "invitation" in out.getvalue()
    assert Club.objects.filter(slug="sc-de-toren").exists() and len(mail.outbox) == 1


def test_the_command_refuses_a_reserved_address_in_words():
    _operator()
    with pytest.raises(CommandError, match="part of the site"):
        call_command("create_club", "--name", "X", "--slug", "admin", "--leader-email", "a@b.example",
                     "--leader-name", "A", stdout=StringIO())
    assert not Club.objects.filter(slug="admin").exists()


def test_the_admin_add_club_page_creates_it_through_the_service(client, django_capture_on_commit_callbacks):
    client.force_login(_operator())
    data = {"name": "SC De Toren", "slug": "sc-de-toren", "venue": "", "time_zone": "Europe/Amsterdam",
            "default_system": "pion", "leader_email": "tom@toren.example", "leader_name": "Tom Toren",
            "domains-TOTAL_FORMS": "0", "domains-INITIAL_FORMS": "0"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/admin/members/club/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    club = Club.objects.get(slug="sc-de-toren")
    assert Membership.objects.get(club=club).user.email == "tom@toren.example"
    assert len(mail.outbox) == 1


def test_the_admin_add_club_page_says_what_is_wrong_and_saves_nothing(client):
    client.force_login(_operator())
    data = {"name": "SC De Toren", "slug": "admin", "venue": "", "time_zone": "Europe/Amsterdam",
            "default_system": "pion", "leader_email": "new@toren.example", "leader_name": ""}
    response = client.post("/admin/members/club/add/", data)
    assert response.status_code == 200
    body = response.content.decode()
    assert "part of the site" in body and "give his name" in body
    assert not Club.objects.filter(slug="admin").exists()


def test_a_clubs_administrator_does_not_see_the_clubs_in_the_admin(client):
    admin = f.admin()
    admin.is_staff = True
    admin.save()
    client.force_login(admin)
    assert client.get("/admin/members/club/").status_code == 403
    assert client.get("/admin/members/club/add/").status_code == 403
