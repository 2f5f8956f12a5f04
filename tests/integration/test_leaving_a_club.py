"""Issue 28: leaving a club is not deleting an account.

Before: the leader's "Account verwijderen" and the member's own "Lid af" emptied the
account and deleted every membership (another club's leader role included), and a fixed
player who left stayed "aanwezig (standaard)" on the next evening and was paired in the
preview. Now the leader removes a member from his club (that membership ends, nothing
else); the person leaves one club, or separately deletes his account, each confirmation
naming every club affected; a member who left is at once out of the fixed players and of
every coming evening, never paired, and the leader's to-do list says who left and what it
changed. The decoy club B (tests/decoy.py) shares a member with the installation's A."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from competition.models import AuditAction, AuditRecord, Player, PlayerKind, Registration
from competition.season import selectors as season_selectors
from members.accounts import profile
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.clubs.roles import club_role
from members.models import Membership, User
from pairing.selectors import evening_page, pairing_preview, present_players
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.decoy import SHARED_EMAIL, decoy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def _remove_url(club, player) -> str:
    return f"/{club.slug}/leader/members/{player.season.slug}/players/{player.pk}/remove/"


@pytest.fixture
def prefixes(settings):
    settings.RANGLIJST_SINGLE_CLUB = False


def _a_sees(member: User) -> dict:
    a = home_club()
    member = User.objects.get(pk=member.pk)
    return {"name": member.name, "email": member.email, "active": member.is_active,
            "role": club_role(member, a), "shown": member.shown_name}


def test_a_member_who_left_is_never_paired(client, django_capture_on_commit_callbacks):
    """A fixed player and a flexible one who signed up leave (the leader removes the one,
    the other leaves himself): neither is present, in the preview, on the evening page's
    list or in the pairing the deadline makes; their results stay."""
    season = f.season(players=7, flexible=1)
    evening = f.playing_evenings(season)[0]
    players = list(season.players.select_related("member").order_by("start"))
    fixed, flexible = players[0], players[-1]
    assert fixed.kind == PlayerKind.FIXED and flexible.kind == PlayerKind.FLEXIBLE
    Registration.objects.create(evening=evening, player=flexible, status="present")
    assert {fixed, flexible} <= set(present_players(evening))
    leader = f.leader()
    client.force_login(leader)
    asked = client.post(f"/leader/members/{season.slug}/players/{fixed.pk}/remove/", {})
    assert "no longer a fixed player" in asked.content.decode()  # said before it happens
    client.post(f"/leader/members/{season.slug}/players/{fixed.pk}/remove/", {"confirm": "1"})
    profile.membership_end(actor=flexible.member, member=flexible.member, club=season.club)

    gone = {fixed.pk, flexible.pk}
    assert not gone & {p.pk for p in present_players(evening)}
    assert not Registration.objects.filter(player=flexible).exists()  # his sign-up went
    preview = pairing_preview(evening)
    names = {fixed.member.name, flexible.member.name}
    assert preview["present"] == 5
    assert not names & {n for g in preview["games"] for n in (g["white"], g["black"])}
    page = evening_page(evening, leader)
    assert not gone & {row["player"].pk for row in page["rows"]}
    assert season_selectors.present_count(evening) == 5
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    paired = set(evening.games.values_list("white_id", flat=True)) | set(
        evening.games.exclude(black=None).values_list("black_id", flat=True))
    assert paired and not paired & gone
    assert Player.objects.filter(pk__in=gone).count() == 2  # results stay under the public name
    assert User.objects.get(pk=fixed.member_id).is_active
    members = client.get(f"/leader/members/{season.slug}/").content.decode()
    assert members.count("data-left") == 2 and "left the club" in members


def test_removing_in_club_b_leaves_club_a_view_of_the_shared_member_unchanged(client, prefixes):
    """B's leader removes the shared member from B: in A he is a member with his role and
    name, and signs in; his account was not touched."""
    b = decoy()
    shared = User.objects.get(email=SHARED_EMAIL)
    f.join(shared, "leader", home_club())  # he is A's competition leader
    before = _a_sees(shared)
    with club_context(b):
        player = Player.objects.select_related("season").get(member=shared, season__club=b)
    b_leader = User.objects.filter(memberships__club=b, memberships__role="leader").first()
    client.force_login(b_leader)
    asked = client.post(_remove_url(b, player), {}).content.decode()
    assert "De Lokvogel" in asked and home_club().shown_name not in asked  # A is not B's to know
    client.post(_remove_url(b, player), {"confirm": "1"})
    assert not Membership.objects.filter(user=shared, club=b).exists()
    assert _a_sees(shared) == before and before["role"] == "leader"
    client.logout()
    assert client.login(email=SHARED_EMAIL, password="pw-schaak-123")
    assert client.get(f"/{home_club().slug}/me/").status_code == 200
    with club_context(b):
        assert Player.objects.filter(pk=player.pk).exists()  # B's results stay


def test_the_person_leaves_one_club_and_the_confirmation_names_both(client, prefixes):
    b = decoy()
    shared = User.objects.get(email=SHARED_EMAIL)
    client.force_login(shared)
    asked = client.post(f"/{b.slug}/me/leave/", {}).content.decode()
    assert b.shown_name in asked and home_club().shown_name in asked  # leaving B, staying in A
    client.post(f"/{b.slug}/me/leave/", {"confirm": "1"})
    assert set(Membership.objects.filter(user=shared).values_list("club_id", flat=True)) == {home_club().pk}
    assert User.objects.get(pk=shared.pk).is_active
    client.logout()
    assert client.login(email=SHARED_EMAIL, password="pw-schaak-123")
    with club_context(b):
        record = AuditRecord.objects.get(action=AuditAction.MEMBER_LEAVE)
        assert record.club_id == b.pk and record.after["own"] is True


def test_deleting_his_account_names_every_club_and_each_club_is_told(client, prefixes):
    b = decoy()
    shared = User.objects.get(email=SHARED_EMAIL)
    client.force_login(shared)
    asked = client.post(f"/{home_club().slug}/me/delete/", {}).content.decode()
    assert b.shown_name in asked and home_club().shown_name in asked
    assert User.objects.get(pk=shared.pk).is_active  # not before the confirmation
    client.post(f"/{home_club().slug}/me/delete/", {"confirm": "1"})
    assert not User.objects.get(pk=shared.pk).is_active
    assert not Membership.objects.filter(user=shared).exists()
    for club in (home_club(), b):
        with club_context(club):
            assert AuditRecord.objects.filter(action=AuditAction.MEMBER_LEAVE).count() == 1


def test_the_leaders_to_do_says_who_left_and_what_it_changed(client, django_capture_on_commit_callbacks, at):
    """A fixed player on a board of a published pairing still to play is removed: the to-do
    list names him, says he is no longer a fixed player and points at his board."""
    season = f.season(players=6)
    evening = f.playing_evenings(season)[0]
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    at(evening.deadline)  # the pairing is published, the evening still to come
    game = evening.games.order_by("board").first()
    leaving = game.white
    leader = f.leader()
    profile.membership_end(actor=leader, member=leaving.member, club=season.club)
    todo = season_selectors.leader_todo(season, evening.deadline)
    [left] = todo["left"]
    assert left["name"] == leaving.member.shown_name and not left["own"] and left["by"] == leader.name
    assert left["fixed_in"] == [season.name]
    assert [b["board"] for b in left["boards"]] == [game.board]
    client.force_login(leader)
    page = client.get("/leader/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'id="todo-left"' in page and leaving.member.shown_name in page


def test_the_only_administrator_does_not_leave_and_nothing_changes():
    season = f.season(players=2)
    admin = Membership.objects.get(club=season.club, role="administrator").user
    Membership.objects.filter(club=season.club, role="administrator").exclude(user=admin).delete()
    with pytest.raises(ValidationError, match="only administrator"):
        profile.membership_end(actor=admin, member=admin, club=season.club)
    assert Membership.objects.filter(user=admin, club=season.club, role="administrator").exists()


def test_a_leader_removes_no_one_at_or_above_his_role():
    season = f.season(players=2)
    fellow = f.leader()
    with pytest.raises(ValidationError, match="at or above yours"):
        profile.membership_end(actor=f.leader(), member=fellow, club=season.club)
    assert Membership.objects.filter(user=fellow, club=season.club).exists()


def test_a_member_who_left_stays_on_the_public_pages_under_his_initials_only(client):
    # His choice (name or initials) was his membership's: it went with it. Before this, his
    # results then showed his full name, though he may have chosen his initials.
    s = f.season(players=4)
    player = s.players.select_related("member").order_by("start").first()
    member = player.member
    Membership.objects.filter(user=member, club=home_club()).update(public_as="initials")
    full = member.name
    profile.membership_end(actor=member, member=member, club=home_club())
    with club_context(home_club()):
        shown = User.objects.get(pk=member.pk).shown_name
    assert shown != full and "." in shown
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert full not in page
