"""Issue 28: a leader corrects the address of an invitation not yet accepted to an address
that has an account elsewhere on the platform. Before, the member form answered "Er is al
een lid met het e-mailadres …", which told the leader that the address exists. Now it is
answered as a correction to a new address is: that account is invited to join (the person
accepts, and takes over the player row the leader made: its starting position stays),
the account the leader made keeps the row until then without an address, and nothing of
the other club changes."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse

from competition.models import AuditAction, AuditRecord, Player
from competition.roster import services
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.clubs.roles import club_role
from members.models import JoinRequest, Membership, User
from tests import factories as f
from tests.decoy import decoy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
SITE = "http://testserver/"


@pytest.fixture(autouse=True)
def clubs_apart(settings):
    settings.RANGLIJST_SINGLE_CLUB = False


def at_a(path: str) -> str:
    return f"/{home_club().slug}{path}"


def _b_member() -> User:
    member = f.member(name="Zacharias Loperman", club=decoy(), rating=1777)
    member.set_password("pw-schaak-123")
    member.save()
    return member


def _b_view(member: User) -> dict:
    b = decoy()
    with club_context(b):
        member = User.objects.get(pk=member.pk)
        return {"role": club_role(member, b), "name": member.name, "email": member.email,
                "rating": member.rating, "password": member.password,
                "memberships": sorted(Membership.objects.filter(user=member).values_list("club_id", "role")),
                "players": sorted(Player.objects.filter(member=member).values_list("season_id", "kind", "start"))}


def _invited(season, name: str, email: str) -> Player:
    return services.member_add(actor=f.leader(), season=season, name=name, email=email, site_url=SITE)


def _correct(client, player: Player, name: str, email: str):
    return client.post(at_a(reverse("members:edit", args=[player.season.slug, player.pk])), {
        "name": name, "email": email, "rating": "", "knsb_number": "", "kind": player.kind},
        follow=True)


def _said(response, name: str, email: str) -> list[str]:
    return [str(m).replace(name, "NAME").replace(email, "EMAIL")
            for m in get_messages(response.wsgi_request)]


def test_correcting_to_an_existing_accounts_address_is_answered_as_to_a_new_one(
    client, django_capture_on_commit_callbacks,
):
    season = f.season(players=2)
    existing = _b_member()
    b_before = _b_view(existing)
    fresh = _invited(season, "Nina Nieuw", "nina@exmple.org")
    known = _invited(season, "Karel Bekend", "karel@exmple.org")
    mail.outbox.clear()
    client.force_login(f.leader())
    client.cookies.load({"django_language": "nl"})
    with django_capture_on_commit_callbacks(execute=True):
        to_new = _correct(client, fresh, "Nina Nieuw", "nina@example.org")
        to_known = _correct(client, known, "Karel Bekend", existing.email)
    assert to_new.status_code == to_known.status_code == 200
    said = _said(to_known, "Karel Bekend", existing.email)
    assert said == _said(to_new, "Nina Nieuw", "nina@example.org") and said
    page = to_known.content.decode()
    assert "al een lid" not in page and existing.name not in page
    # the member list shows the corrected address on the row, as for a new address
    members_page = client.get(at_a(reverse("members:index", args=[season.slug]))).content.decode()
    row = members_page[members_page.index(f'id="player-{known.pk}"'):]
    assert existing.email in row[:row.index("</li>")] and "data-invitation" not in members_page
    # the audit lines say the same
    invites = AuditRecord.objects.filter(action=AuditAction.MEMBER_INVITE).order_by("-pk")[:2]
    assert [sorted(r.after) for r in invites] == [["email"], ["email"]]
    # the existing account is invited to join; nothing of him or of B changed
    assert _b_view(existing) == b_before
    assert JoinRequest.objects.get(user=existing, club=home_club()).player_id == known.pk
    assert sorted(m.to[0] for m in mail.outbox) == sorted(["nina@example.org", existing.email])
    join_mail = next(m for m in mail.outbox if m.to == [existing.email])
    assert "/me/join/" in join_mail.body
    # the account the leader made keeps no address (the old link is dead)
    placeholder = User.objects.get(pk=known.member_id)
    assert placeholder.email.endswith("@geen-adres.invalid")
    assert not placeholder.emailaddress_set.exists()


def test_the_person_accepts_and_takes_over_the_row_the_leader_made(client):
    season = f.season(players=2)
    existing = _b_member()
    b_before = _b_view(existing)
    known = _invited(season, "Karel Bekend", "karel@exmple.org")
    placeholder_id = known.member_id
    services.member_update(actor=f.leader(), player=known, name="Karel Bekend", email=existing.email,
                           rating=None, knsb_number="", kind=known.kind, site_url=SITE)
    client.force_login(existing)
    client.post(at_a(reverse("me:join")), {"answer": "accept"})
    known.refresh_from_db()
    assert known.member_id == existing.pk and known.start == 3
    assert Player.objects.filter(season=season, member=existing).count() == 1
    assert club_role(User.objects.get(pk=existing.pk), home_club()) == "player"
    assert not User.objects.filter(pk=placeholder_id).exists()
    assert not JoinRequest.objects.filter(user=existing).exists()
    after = _b_view(existing)
    assert after.pop("memberships") != b_before.pop("memberships")  # A's membership added
    after["players"] = [p for p in after["players"] if p[0] != season.pk]
    assert after == b_before  # B's view of him: as it was


def test_a_second_correction_withdraws_the_invitation_and_a_resend_goes_to_the_account(
    django_capture_on_commit_callbacks,
):
    season = f.season(players=2)
    existing = _b_member()
    known = _invited(season, "Karel Bekend", "karel@exmple.org")
    leader = f.leader()
    services.member_update(actor=leader, player=known, name="Karel Bekend", email=existing.email,
                           rating=None, knsb_number="", kind=known.kind, site_url=SITE)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.member_invite_again(actor=leader, player=known, site_url=SITE)
    assert [m.to for m in mail.outbox] == [[existing.email]]
    assert services.shown_email(known) == existing.email
    services.member_update(actor=leader, player=known, name="Karel Bekend", email="karel@example.org",
                           rating=None, knsb_number="", kind=known.kind, site_url=SITE)
    assert not JoinRequest.objects.filter(user=existing).exists()
    assert User.objects.get(pk=known.member_id).email == "karel@example.org"


def test_an_address_of_this_clubs_own_member_is_named_to_its_leader():
    """The leader sees his own club's members: saying so reveals nothing of another club."""
    season = f.season(players=2)
    own = season.players.select_related("member").first().member
    known = _invited(season, "Karel Bekend", "karel@exmple.org")
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="a member of this club"):
        services.member_update(actor=f.leader(), player=known, name="Karel Bekend", email=own.email,
                               rating=None, knsb_number="", kind=known.kind, site_url=SITE)
    assert User.objects.get(pk=known.member_id).email == "karel@exmple.org"
