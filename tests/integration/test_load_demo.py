"""``load_demo`` in production (issue 12, finding 2): refused without an explicit flag,
and with it no account gets the published password."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from competition.demo import PASSWORD
from competition.models import Season
from members.models import User

# load_demo fills a new installation: one club, no accounts (the decoy club removed).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_club")]


@override_settings(DEBUG=False)
def test_load_demo_refuses_in_production_without_the_flag():
    err = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("load_demo", stdout=StringIO(), stderr=err)
    assert exit_.value.code == 2 and "--allow-production" in err.getvalue()
    assert not Season.objects.exists() and not User.objects.exists()


@override_settings(DEBUG=False)
def test_load_demo_with_the_flag_gives_each_account_its_own_random_password_printed_once():
    """Issue 19 §6: one password for all 34 accounts, superuser included, meant that any
    member who learnt his own had the administrator's too."""
    out = StringIO()
    call_command("load_demo", "--allow-production", "--one-club", stdout=out, stderr=StringIO())
    printed = dict(re.findall(r"^(\S+@demo\.club)  (\S+)$", out.getvalue(), re.M))
    users = list(User.objects.all())
    assert len(users) == 34 and set(printed) == {u.email for u in users}
    assert len(set(printed.values())) == 34 and PASSWORD not in printed.values()
    assert all(len(p) >= 20 for p in printed.values())
    admin = User.objects.get(email="beheer@demo.club")
    assert admin.is_superuser and admin.check_password(printed["beheer@demo.club"])
    assert not admin.check_password(printed["speler1@demo.club"])
    assert not any(u.check_password(PASSWORD) for u in users)
    assert out.getvalue().count(printed["beheer@demo.club"]) == 1


@override_settings(DEBUG=True)
def test_load_demo_in_development_keeps_the_published_password():
    out = StringIO()
    call_command("load_demo", "--if-empty", stdout=out, stderr=StringIO())
    assert f"'{PASSWORD}'" in out.getvalue()
    assert User.objects.get(email="speler1@demo.club").check_password(PASSWORD)


@override_settings(DEBUG=True)
def test_load_demo_builds_three_clubs_from_the_three_rulebooks(django_capture_on_commit_callbacks):
    """Issue 20, the demo: the Keizer club with recalculation, a ladder club and a classic
    Keizer club, each with its own people and a season under way in its own system; one
    account is a member of two clubs, with a role in each."""

    from core.tenancy.context import platform_context

    out = StringIO()
    # As from the shell: each write commits, and the work queued at a commit (the
    # recalculations, each club's own) runs then, in the club that queued it.
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", stdout=out, stderr=StringIO())
    with platform_context():  # the platform's view: every club
        _check_three_clubs(out.getvalue())
    _served_as_make_run_serves_them()


def _served_as_make_run_serves_them() -> None:
    """``make run`` (scripts/serve.py) serves the three demo clubs each at its address and
    lists them at "/"."""
    import importlib.util

    from django.conf import settings
    from django.test import Client

    spec = importlib.util.spec_from_file_location("serve", settings.BASE_DIR / "scripts" / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    single = serve.DEFAULTS["RANGLIJST_SINGLE_CLUB"] == "1"
    with override_settings(RANGLIJST_SINGLE_CLUB=single):
        client = Client()
        listing = client.get("/").content.decode()
        for slug in serve.DEMO_CLUBS:
            assert f'href="/{slug}/"' in listing
            assert client.get(f"/{slug}/standings/").status_code == 200, slug


def _check_three_clubs(out: str) -> None:
    from competition.models import Game, Standing
    from members.models import Club, Membership

    clubs = {c.slug: c for c in Club.objects.all()}
    assert len(clubs) == 3
    systems = {s.club.slug: s.competition.system for s in Season.objects.select_related("club", "competition")}
    assert sorted(systems.values()) == ["classic", "ladder", "pion"]
    assert systems["de-ladder"] == "ladder" and systems["keizer-klassiek"] == "classic"
    ladder = Season.objects.get(club__slug="de-ladder").competition.parameters
    assert ladder["place_factor"] == 0.07 and ladder["bonus"] == 0.3
    classic = Season.objects.get(club__slug="keizer-klassiek").competition.parameters
    assert classic["absent_with_notice_limit"] == 3 and classic["loss"] == {"fixed": 0}
    for club in clubs.values():
        season = club.seasons.order_by("-start_date").first()
        assert Game.objects.filter(evening__season=season).exclude(result="").exists()
        assert Standing.objects.filter(snapshot__half__season=season).exists()
        # Every player of a club's season is a member of that club.
        members = set(Membership.objects.filter(club=club).values_list("user_id", flat=True))
        assert set(season.players.values_list("member_id", flat=True)) <= members
        assert Membership.objects.filter(club=club, role="leader").count() == 1
        assert f"at /{club.slug}/: season {season}, {season.players.count()} players." in out
        assert season.players.count() >= 8
    shared = User.objects.get(email="speler1@demo.club")
    assert {m.club.slug for m in shared.memberships.select_related("club")} == {
        "de-ladder", next(s for s in clubs if s not in ("de-ladder", "keizer-klassiek"))}
    assert not User.objects.get(email="leider@ladder.demo.club").memberships.exclude(
        club__slug="de-ladder").exists()
@pytest.mark.django_db(transaction=True)  # each write commits, its e-mails go out then
@override_settings(DEBUG=True, EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
def test_load_demo_sends_no_mail_and_leaves_the_mail_setting_as_it_was(mailoutbox):
    """The demo's evenings are published with notices; none of them leaves the machine
    (nor lands in an outbox), and the club's own mail setting is back afterwards."""
    from django.conf import settings

    call_command("load_demo", "--one-club", stdout=StringIO(), stderr=StringIO())
    assert mailoutbox == []
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.locmem.EmailBackend"
