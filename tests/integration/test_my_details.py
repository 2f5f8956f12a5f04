"""What members expect (issue 23): ratings beside names, places and points on the
evening's pairing with his own board marked, the place change in the standings; "My
details" (phone for members only, e-mail preferences, a personal calendar feed); privacy
(public name or initials on every public page and CSV, a download of his data, leaving
with his results kept); the links a player needs; an access-denied page that names his
own role; an audit trail that names the game and the player."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.urls import reverse
from icalendar import Calendar

from competition.audit import text as audit_text
from competition.events import services as events
from competition.models import (
    AuditAction,
    AuditRecord,
    EveningKind,
    EveningStatus,
    Player,
    Standing,
)
from competition.season import selectors
from members.accounts import profile
from members.clubs.memo import home_club
from members.models import User
from pairing.services import evening_pair_and_publish, pairing_add_player, pairing_remove_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]
TODAY = dt.date(2026, 11, 30)


def me() -> User:
    return User.objects.get(email="speler1@demo.club")


def my_player(season) -> Player:
    return Player.objects.get(season=season, member=me())


def _choose(member: User, **kw) -> None:
    data = {"phone": member.phone, "public_as": member.public_as,
            "pairing_mail": member.pairing_mail, "notice_mail": member.notice_mail} | kw
    profile.profile_update(actor=member, member=member, **data)
    member.refresh_from_db()


# --- Privacy: the public name ------------------------------------------------------------


def test_a_member_who_chose_initials_appears_by_initials_on_public_pages_and_the_csv(client, demo):
    member = me()
    _choose(member, public_as="initials")
    shown = member.shown_name
    player = my_player(demo)
    pages = [reverse("competition:standings") + "?all=1", reverse("competition:player", args=[player.pk]),
             reverse("competition:crosstable", args=[demo.slug, "winter"])]
    last = demo.evenings.filter(status=EveningStatus.PUBLISHED, kind=EveningKind.PLAYING).order_by("-date")[0]
    if last.games.filter(white=player).exists() or last.games.filter(black=player).exists():
        pages.append(reverse("competition:evening", args=[last.date.isoformat()]))
    for url in pages:
        body = client.get(url).content.decode()
        assert member.name not in body, url
        assert shown in body, url
    rows = list(csv.reader(io.StringIO(client.get(reverse("competition:standings") + "?export=csv")
                                       .content.decode())))
    names = [row[1] for row in rows[1:]]
    assert shown in names and member.name not in names


def test_the_phone_is_shown_to_signed_in_members_only(client, demo):
    member = me()
    _choose(member, phone="06 1234 5678")
    url = reverse("competition:player", args=[my_player(demo).pk])
    assert "06 1234 5678" not in client.get(url).content.decode()
    client.force_login(User.objects.get(email="speler2@demo.club"))
    assert "06 1234 5678" in client.get(url).content.decode()


def test_a_bad_phone_number_is_refused_and_nothing_saved(client, demo):
    client.force_login(me())
    response = client.post(reverse("me:details"), {"phone": "bel me maar", "public_as": "name"})
    assert response.status_code == 200
    assert "A phone number has digits" in response.content.decode()
    assert me().phone == ""


# --- My details ---------------------------------------------------------------------------


def test_my_details_show_his_email_and_links_to_his_page_and_password(client, demo):
    client.force_login(me())
    body = client.get(reverse("me:details")).content.decode()
    assert "speler1@demo.club" in body
    assert reverse("competition:player", args=[my_player(demo).pk]) in body
    assert reverse("account_change_password") in body


def test_the_menu_offers_a_player_his_page_and_a_non_player_no_sign_up(client, demo):
    client.force_login(me())
    home = client.get(reverse("competition:home")).content.decode()
    assert f'href="{reverse("competition:player", args=[my_player(demo).pk])}" data-nav="my-page"' in home
    assert f'href="{reverse("competition:signup")}"' in home
    client.force_login(User.objects.get(email="arbiter@demo.club"))
    home = client.get(reverse("competition:home")).content.decode()
    assert f'href="{reverse("competition:signup")}"' not in home
    assert 'data-nav="profile"' in home


def test_the_access_denied_page_names_his_own_role_not_as_the_one_that_may(client, demo):
    client.force_login(me())
    response = client.get(reverse("pairing:evenings"))
    assert response.status_code == 403
    text = response.content.decode()
    assert "(player)" in text
    assert "the competition leader, the arbiter or the administrator" not in text


def test_the_personal_calendar_has_his_games_with_the_venue_and_a_link(client, demo):
    club = home_club()
    club.venue = "Dorpsstraat 1, Utrecht"  # the club's venue, saved as the admin does
    club.save()
    member = me()
    token = profile.calendar_token(member)
    response = client.get(reverse("me:calendar", args=[token]))
    assert response.status_code == 200
    cal = Calendar.from_ical(response.content)
    games = [e for e in cal.walk("VEVENT") if str(e["uid"]).startswith("game-")]
    player = my_player(demo)  # this season's games (last season's are history)
    played = (player.games_white.count() + player.games_black.count())
    assert len(games) == played > 0
    event = games[0]
    assert str(event["location"]) == "Dorpsstraat 1, Utrecht"
    assert "/evenings/" in str(event["url"])
    # a new secret retires the old address
    profile.calendar_token_renew(actor=member, member=member)
    assert client.get(reverse("me:calendar", args=[token])).status_code == 404


def test_the_data_download_holds_his_data_and_no_one_elses_address(client, demo):
    client.force_login(me())
    response = client.get(reverse("me:data"))
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["account"]["email"] == "speler1@demo.club"
    players = Player.objects.filter(member=me())  # every season
    assert len(data["games"]) == sum(p.games_white.count() + p.games_black.count() for p in players)
    assert len(data["seasons"]) == players.count() == 2
    assert "speler2@demo.club" not in response.content.decode()


def test_a_member_of_two_clubs_downloads_at_each_club_what_that_club_keeps(client, demo, settings):
    """The download is the club's document: at A's address A's rows and A's role, at B's
    B's; his account (national) in both, the other club's name in neither."""
    from members.clubs.context import club_context
    from tests.isolation import club_b

    settings.RANGLIJST_SINGLE_CLUB = False
    b = club_b(demo, shared=me())
    client.force_login(me())
    at_a = client.get(f"/{home_club().slug}/me/data.json")
    at_b = client.get(f"/{b.club.slug}/me/data.json")
    data_a, data_b = json.loads(at_a.content), json.loads(at_b.content)
    assert data_a["account"] == {**data_b["account"], "roles": data_a["account"]["roles"]}
    assert data_a["account"]["roles"] == [f"{home_club().name}: player"]
    assert data_b["account"]["roles"] == [f"{b.club.name}: player"]
    assert b.club.name not in at_a.content.decode() and home_club().name not in at_b.content.decode()
    assert len(data_a["seasons"]) == 2 and [s["season"] for s in data_b["seasons"]] == [b.season.name]
    with club_context(b.club):
        b_games = Player.objects.get(season=b.season, member=me())
        assert len(data_b["games"]) == b_games.games_white.count() + b_games.games_black.count()


# --- Leaving -----------------------------------------------------------------------------


def test_a_member_who_deletes_his_account_keeps_his_results_under_his_initials(client, demo):
    member = me()
    _choose(member, public_as="initials", phone="06 1234 5678")
    shown = member.shown_name
    player = my_player(demo)
    standings_before = Standing.objects.filter(player=player).count()
    client.force_login(member)
    asked = client.post(reverse("me:delete"), {})
    assert asked.status_code == 200 and User.objects.get(pk=member.pk).is_active
    client.post(reverse("me:delete"), {"confirm": "1"})
    gone = User.objects.get(pk=member.pk)
    assert not gone.is_active and gone.name == shown and gone.phone == ""
    assert "demo.club" not in gone.email and not gone.has_usable_password()
    assert Standing.objects.filter(player=player).count() == standings_before
    assert not client.login(email="speler1@demo.club", password="schaken123")
    standings = client.get(reverse("competition:standings") + "?all=1").content.decode()
    assert shown in standings
    record = AuditRecord.objects.get(action=AuditAction.MEMBER_REMOVE)
    assert shown in audit_text.sentence(record, {})


def test_the_leader_removes_a_member_from_the_club_after_a_confirmation_not_his_account(client, demo):
    from members.models import Membership

    client.force_login(User.objects.get(email="leider@demo.club"))
    player = Player.objects.get(season=demo, member__email="speler2@demo.club")
    url = reverse("members:remove", args=[demo.slug, player.pk])
    assert client.post(url, {}).status_code == 200
    assert Membership.objects.filter(user_id=player.member_id, club=demo.club).exists()
    client.post(url, {"confirm": "1"})
    assert not Membership.objects.filter(user_id=player.member_id, club=demo.club).exists()
    assert User.objects.get(pk=player.member_id).is_active  # the account is his
    from django.core.exceptions import ValidationError
    admin = User.objects.get(email="beheer@demo.club")
    with pytest.raises(ValidationError):
        profile.member_remove(actor=User.objects.get(email="leider@demo.club"), member=admin)
    with pytest.raises(ValidationError):  # nor anyone's: only he deletes his account
        profile.member_remove(actor=User.objects.get(email="leider@demo.club"),
                              member=User.objects.get(email="speler3@demo.club"))


# --- What members expect on the pages -----------------------------------------------------


def test_the_standings_show_ratings_and_the_place_change_since_the_evening_before(client, demo):
    half = demo.halves.get(kind="winter")
    snapshot, rows = selectors.standings_table_rows(half)
    previous = (half.snapshots.filter(evening__date__lt=snapshot.evening.date)
                .order_by("-evening__date").first())
    before = dict(previous.rows.values_list("player_id", "rank"))
    assert [r.change for r in rows] == [before[r.player_id] - r.rank if r.player_id in before else None
                                        for r in rows]
    moved = [r for r in rows if r.change]
    assert moved, "the demo's last evening moves somebody"
    body = client.get(reverse("competition:standings") + "?all=1").content.decode()
    for row in moved:
        assert f'data-change="{row.change}"' in body
        assert ("▲" if row.change > 0 else "▼") + str(abs(row.change)) in body
    rated = next(r for r in rows if r.player.member.rating)
    assert f'<span class="rating">{rated.player.member.rating}</span>' in body


def test_the_pairing_shows_place_points_and_rating_and_marks_his_own_board(client, demo):
    evening = demo.evenings.filter(kind=EveningKind.PLAYING, date__gt=TODAY).order_by("date")[0]
    evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True, now=evening.deadline)
    _snapshot, rows = selectors.standings_table_rows(evening.half) if evening.half.snapshots.exists() \
        else selectors.standings_table_rows(demo.halves.get(kind="winter"))
    url = reverse("competition:evening", args=[evening.date.isoformat()])
    client.force_login(me())
    body = client.get(url).content.decode()
    game = next(g for g in evening.games.select_related("white__member") if g.white.member.rating)
    assert f'<span class="rating" title="rating">{game.white.member.rating}</span>' in body
    mine = evening.games.filter(white__member=me()).first() or evening.games.filter(black__member=me()).first()
    if mine:
        assert f'<tr id="board-{mine.board}" class="mine" data-mine="1">' in body
    assert body.count('class="mine"') == (1 if mine else 0)


def test_a_pairing_shows_each_players_place_and_points_going_into_the_evening(client, demo):
    last = demo.evenings.filter(status=EveningStatus.PUBLISHED, kind=EveningKind.PLAYING,
                                half__kind="winter").order_by("-date")[0]
    half = last.half
    previous = half.snapshots.filter(evening__date__lt=last.date).order_by("-evening__date").first()
    places = {s.player_id: s for s in previous.rows.all()}
    body = client.get(reverse("competition:evening", args=[last.date.isoformat()])).content.decode()
    game = last.games.order_by("board").first()
    standing = places[game.white_id]
    assert f'data-standing="{standing.rank}"' in body
    assert f"no. {standing.rank}, " in body


# --- The audit trail ------------------------------------------------------------------------


def test_the_audit_trail_names_the_event_game_and_its_result(demo):
    leader = User.objects.get(email="leider@demo.club")
    arbiter = User.objects.get(email="arbiter@demo.club")
    event = events.event_create(actor=leader, season=demo, kind="blitz", name="Snelschaak december",
                                date=dt.date(2027, 6, 11))
    for player in demo.players.order_by("start")[:4]:
        events.entrant_add(actor=leader, event=event, member=player.member)
    rnd = events.round_pair(actor=arbiter, round=events.round_open(actor=arbiter, event=event))
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    events.game_result_set(actor=arbiter, game=game, white_points=1, black_points=0,
                           expected_version=game.version)
    record = AuditRecord.objects.filter(action=AuditAction.EVENT_GAME_RESULT).latest("pk")
    text = audit_text.sentence(record, {})
    assert "Snelschaak december" in text and "1-0" in text and "board 1" in text
    assert game.white.name in text and game.black.name in text


def test_the_audit_trail_names_the_player_added_to_or_removed_from_a_pairing(demo):
    leader = User.objects.get(email="leider@demo.club")
    evening = demo.evenings.filter(kind=EveningKind.PLAYING, date__gt=TODAY).order_by("date")[0]
    evening_pair_and_publish(evening_id=evening.pk, actor=leader, now=evening.deadline)
    game = evening.games.order_by("board").first()
    removed = game.white
    pairing_remove_player(actor=leader, evening_id=evening.pk, player_id=removed.pk)
    pairing_add_player(actor=leader, evening_id=evening.pk, player_id=removed.pk)
    names = {removed.pk: removed.member.name}
    for action in (AuditAction.PAIRING_REMOVE_PLAYER, AuditAction.PAIRING_ADD_PLAYER):
        record = AuditRecord.objects.filter(action=action).latest("pk")
        assert removed.member.name in audit_text.sentence(record, names)


def test_event_pages_show_each_entrants_rating_beside_his_name(client, demo):
    leader = User.objects.get(email="leider@demo.club")
    arbiter = User.objects.get(email="arbiter@demo.club")
    event = events.event_create(actor=leader, season=demo, kind="blitz", name="Snelschaak",
                                date=dt.date(2027, 6, 11))
    for player in demo.players.order_by("start")[:4]:
        events.entrant_add(actor=leader, event=event, member=player.member)
    rnd = events.round_pair(actor=arbiter, round=events.round_open(actor=arbiter, event=event))
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    body = client.get(reverse("events:round", args=[event.pk, 1])).content.decode()
    assert f'{game.white.name} <span class="rating">{game.white.rating}</span>' in body
    body = client.get(reverse("events:event", args=[event.pk])).content.decode()
    assert f'<span class="rating">{game.white.rating}</span>' in body
