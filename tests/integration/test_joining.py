"""Joining a second club (issue 28): a leader adds a person by e-mail address whatever
exists. A new address gets a new account and the invitation to set a password (as on a
single-club installation); an address with an account gets an invitation to join, which
the person accepts, signed in, before he is a member. The leader's answer is the same in
both cases, so no leader learns which addresses exist on the platform. With the decoy
club B and a person who is a member of B: what B shows of him never changes."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse

from competition.models import AuditAction, AuditRecord, Player
from members.accounts import joining
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.clubs.roles import club_role
from members.models import JoinRequest, Membership, User
from tests import factories as f
from tests.decoy import SLUG, decoy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture(autouse=True)
def clubs_apart(settings):
    """Each club at its own prefix: A at ``/<a>/``, B at ``/lokvogel/``."""
    settings.RANGLIJST_SINGLE_CLUB = False


def at_a(path: str) -> str:
    return f"/{home_club().slug}{path}"


def _b_member() -> User:
    """A member of club B alone, with a password and a name no row of A has: an account
    that exists."""
    member = f.member(name="Zacharias Loperman", club=decoy(), rating=1777)
    member.set_password("pw-schaak-123")
    member.save()
    return member


def _view(member: User, club) -> dict:
    """What ``club`` shows of ``member``: his role, his name, his players there."""
    with club_context(club):
        member = User.objects.get(pk=member.pk)
        return {"role": club_role(member, club), "name": member.name, "email": member.email,
                "players": sorted(Player.objects.filter(member=member)
                                  .values_list("season__name", "kind", "start"))}


def _add(client, season, name: str, email: str, kind: str = "flexible"):
    return client.post(at_a(reverse("members:add", args=[season.slug])), {
        "name": name, "email": email, "rating": "1500", "knsb_number": "", "kind": kind},
        follow=True)


def _said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_leaders_answer_is_the_same_for_a_new_and_an_existing_address(client, django_capture_on_commit_callbacks):
    season = f.season(players=3)
    existing = _b_member()
    client.force_login(f.leader())
    with django_capture_on_commit_callbacks(execute=True):
        new = _add(client, season, "Nina Nieuw", "nina@nieuw.example")
        known = _add(client, season, "Karel Bekend", existing.email.upper())
    assert new.status_code == known.status_code == 200
    said_new = [s.replace("Nina Nieuw", "NAME").replace("nina@nieuw.example", "EMAIL") for s in _said(new)]
    said_known = [s.replace("Karel Bekend", "NAME").replace(existing.email, "EMAIL") for s in _said(known)]
    assert said_new == said_known and said_new
    assert "already" not in " ".join(said_known) and "al een lid" not in known.content.decode()
    # his own name never shows to A's leader: only what the leader typed
    assert existing.name not in known.content.decode()
    members_page = client.get(at_a(reverse("members:index", args=[season.slug]))).content.decode()
    assert "Nina Nieuw" in members_page and "Karel Bekend" in members_page
    assert existing.name not in members_page
    # both audit lines say the same
    adds = AuditRecord.objects.filter(action=AuditAction.MEMBER_ADD).order_by("pk")
    assert [sorted(r.after) for r in adds] == [sorted(adds[0].after)] * 2
    # each got an invitation at the address the leader typed
    assert sorted(m.to[0] for m in mail.outbox) == sorted(["nina@nieuw.example", existing.email])


def test_an_existing_account_is_invited_and_no_member_until_he_accepts(django_capture_on_commit_callbacks):
    from competition.roster import services
    season = f.season(players=3)
    existing = _b_member()
    b_before = _view(existing, decoy())
    with django_capture_on_commit_callbacks(execute=True):
        answer = services.member_add(actor=f.leader(), season=season, name="Karel Bekend",
                                     email=existing.email, rating=1500, site_url="https://club.example.org/")
    assert answer.pk is None and answer.member.name == "Karel Bekend"
    assert club_role(existing, home_club()) is None
    assert not Player.objects.filter(season=season, member=existing).exists()
    existing.refresh_from_db()
    assert existing.name != "Karel Bekend" and existing.rating != 1500 or existing.rating is None
    assert _view(existing, decoy()) == b_before
    [message] = mail.outbox
    assert message.to == [existing.email]
    assert "https://club.example.org/me/join/" in message.body, message.body
    assert home_club().shown_name in message.subject
    assert decoy().name not in message.body


def test_the_person_accepts_signed_in_with_one_click_and_b_is_unchanged(client):
    from competition.roster import services
    season = f.season(players=3)
    existing = _b_member()
    services.member_add(actor=f.leader(), season=season, name="Karel Bekend", email=existing.email,
                        kind="fixed", site_url="https://club.example.org/")
    b_before = _view(existing, decoy())
    assert client.get(at_a(reverse("me:join"))).status_code == 302  # signed in first
    client.force_login(existing)
    page = client.get(at_a(reverse("me:join"))).content.decode()
    invitation = page[page.index("data-join-invitation"):page.index("</section>")]
    assert home_club().shown_name in page and "<form" in invitation
    assert decoy().name not in invitation  # his other club only in his own "My other clubs"
    client.post(at_a(reverse("me:join")), {"answer": "accept"})
    assert club_role(User.objects.get(pk=existing.pk), home_club()) == "player"
    player = Player.objects.get(season=season, member=existing)
    assert (player.kind, player.start) == ("fixed", 4)
    assert not JoinRequest.objects.filter(user=existing).exists()
    assert _view(existing, decoy()) == b_before
    assert AuditRecord.objects.filter(action=AuditAction.MEMBER_JOIN, player=player).exists()


def test_declining_leaves_everything_as_it_was(client):
    from competition.roster import services
    season = f.season(players=3)
    existing = _b_member()
    services.member_add(actor=f.leader(), season=season, name="Karel Bekend", email=existing.email,
                        site_url="https://club.example.org/")
    client.force_login(existing)
    client.post(at_a(reverse("me:join")), {"answer": "decline"})
    assert not JoinRequest.objects.filter(user=existing).exists()
    assert not Membership.objects.filter(user=existing, club=home_club()).exists()
    assert not Player.objects.filter(season=season, member=existing).exists()


def test_nobody_joins_without_an_invitation_and_a_bad_answer_saves_nothing(client):
    from django.core.exceptions import ValidationError

    from competition.roster import services
    season = f.season(players=3)
    existing = _b_member()
    client.force_login(existing)
    client.post(at_a(reverse("me:join")), {"answer": "accept"})
    assert club_role(User.objects.get(pk=existing.pk), home_club()) is None
    with pytest.raises(ValidationError):
        joining.join_accept(actor=existing, club=home_club())
    services.member_add(actor=f.leader(), season=season, name="Karel Bekend", email=existing.email,
                        site_url="https://club.example.org/")
    client.cookies.load({"django_language": "nl"})
    answer = client.post(at_a(reverse("me:join")), {"answer": "maybe"}).content.decode()
    assert "Kies" in answer
    assert JoinRequest.objects.filter(user=existing).exists()
    assert not Membership.objects.filter(user=existing, club=home_club()).exists()


def test_another_persons_invitation_cannot_be_accepted(client):
    from competition.roster import services
    season = f.season(players=3)
    existing = _b_member()
    services.member_add(actor=f.leader(), season=season, name="Karel Bekend", email=existing.email,
                        site_url="https://club.example.org/")
    other = season.players.first().member  # A's member, not invited
    client.force_login(other)
    client.post(at_a(reverse("me:join")), {"answer": "accept"})
    assert not Membership.objects.filter(user=existing, club=home_club()).exists()
    assert JoinRequest.objects.filter(user=existing).exists()


def test_b_inviting_an_a_member_leaves_as_view_of_him_unchanged(client):
    """Club B's leader adds, by e-mail, a person who is a member of A: A's view of him is
    the same after the invitation and after he accepts it."""
    a_season = f.season(players=3)
    a_member = a_season.players.select_related("member").order_by("start").first().member
    a_before = _view(a_member, home_club())
    b = decoy()
    leader_b = f.leader(b)
    client.force_login(leader_b)
    with club_context(b):
        from competition.models import Season
        b_season = Season.objects.get(club=b, name="2026-2027")
    answer = client.post(f"/{SLUG}/leader/members/{b_season.slug}/add/", {
        "name": "Iemand Anders", "email": a_member.email, "rating": "2100", "knsb_number": "999",
        "kind": "flexible"})
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    assert _view(a_member, home_club()) == a_before
    a_member.refresh_from_db()
    assert (a_member.rating, a_member.knsb_number) != (2100, "999")
    client.force_login(a_member)
    client.post(f"/{SLUG}/me/join/", {"answer": "accept"})
    assert club_role(User.objects.get(pk=a_member.pk), b) == "player"
    assert _view(a_member, home_club()) == a_before


def test_a_member_of_this_club_outside_the_season_is_added_to_it_at_once():
    """He is the club's already (no address is revealed): the leader adds him to the season."""
    from competition.roster import services
    season = f.season(players=3)
    member = f.member(name="Clublid Zonder Seizoen")
    player = services.member_add(actor=f.leader(), season=season, name="Clublid Zonder Seizoen",
                                 email=member.email, site_url="https://club.example.org/")
    assert player.pk is not None and player.member == member and player.start == 4
    assert not JoinRequest.objects.filter(user=member).exists()


def test_the_list_of_clubs_shows_him_the_invitation_and_the_way_to_answer_it(client):
    """"Mijn clubs" on ``/``: his own clubs first, then the clubs that invite him, each with
    the link to his answer; nobody else sees that invitation there."""
    from competition.roster import services
    season = f.season(players=2)
    existing = _b_member()
    services.member_add(actor=f.leader(), season=season, name="Karel Bekend", email=existing.email,
                        site_url="https://club.example.org/")
    client.force_login(existing)
    page = client.get("/").content.decode()
    items = page.split("<li")
    [mine] = [i for i in items if "data-mine" in i]
    [invited] = [i for i in items if "data-invited" in i]
    assert decoy().shown_name in mine and home_club().shown_name in invited
    assert f'href="/{home_club().slug}/me/join/" data-join-link' in invited
    assert page.index("data-mine") < page.index("data-invited")
    client.force_login(season.players.first().member)
    assert "data-invited" not in client.get("/").content.decode()
    client.force_login(existing)
    client.post(at_a(reverse("me:join")), {"answer": "accept"})
    assert "data-invited" not in client.get("/").content.decode()
