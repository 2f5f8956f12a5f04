"""The leader's corrections of a published pairing (docs/rules.md 3: every change is recorded
and republished), through the services and through the leader's evening page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from competition.models import AuditRecord, Bye, Evening, Game, Registration, Result
from competition.season import services as competition_services
from pairing import selectors, services
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
MINUTE = dt.timedelta(minutes=1)


@pytest.fixture
def publish(django_capture_on_commit_callbacks) -> Callable[..., Evening]:
    """Pair and publish an evening as the deadline job does, e-mails sent, outbox emptied."""

    def publish_(evening: Evening) -> Evening:
        with django_capture_on_commit_callbacks(execute=True):
            services.evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        mail.outbox.clear()
        evening.refresh_from_db()
        return evening

    return publish_


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """Call a service with its after-commit work (the republished e-mails) run."""

    def run_(call, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(**kwargs)

    return run_


def leader_client(client, leader=None):
    client.force_login(leader or f.leader())
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def recipients() -> set[str]:
    return {to for m in mail.outbox for to in m.to}


def emails(*players) -> set[str]:
    return {p.member.email for p in players}


def pairing_state(evening: Evening):
    games = sorted(evening.games.values_list("board", "white_id", "black_id", "tempo"))
    bye = Bye.objects.filter(evening=evening).values_list("player_id", flat=True).first()
    return games, bye


def told(evening: Evening) -> dict[int, object]:
    """Each paired player's game as the e-mail tells it: colours and opponent, or the bye."""
    games = {pid: (g.white_id, g.black_id) for g in evening.games.all()
             for pid in (g.white_id, g.black_id)}
    bye = Bye.objects.filter(evening=evening).first()
    return {**games, **({bye.player_id: "bye"} if bye else {})}


def last_audit(evening: Evening) -> AuditRecord:
    return AuditRecord.objects.filter(evening=evening).order_by("-id").first()


def season_evening(players: int = 8, **kwargs):
    s = f.season(players=players, **kwargs)
    return s, f.playing_evenings(s)[0]


# --- Swap colours ---------------------------------------------------------------------------


def test_swap_colours_via_the_service_audits_and_emails_only_that_boards_players(publish, run):
    _s, evening = season_evening()
    publish(evening)
    game = evening.games.get(board=2)
    white, black = game.white, game.black

    run(services.pairing_swap_colours, actor=f.leader(), game_id=game.pk)

    game.refresh_from_db()
    assert (game.white, game.black) == (black, white)
    record = last_audit(evening)
    assert record.action == "pairing.swap_colours" and record.after["board"] == 2
    assert {"board": 2, "white": white.pk, "black": black.pk, "tempo": "standard"} in (
        record.before["games"]
    )
    assert recipients() == emails(white, black) and len(mail.outbox) == 2


def test_swap_colours_via_the_leaders_page(publish, client, django_capture_on_commit_callbacks):
    _s, evening = season_evening()
    publish(evening)
    game = evening.games.get(board=1)
    white, black = game.white, game.black
    leader_client(client)
    preview = client.post(reverse("pairing:swap_colours", args=[game.pk]))
    assert preview.status_code == 200 and "data-correction-preview" in preview.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("pairing:swap_colours", args=[game.pk]),
                               {"confirm": "1", "version": evening.version})
    assert response.status_code == 302
    assert response["Location"] == reverse("pairing:evening", args=[evening.pk]) + "#pairing"
    game.refresh_from_db()
    assert (game.white, game.black) == (black, white)
    assert last_audit(evening).action == "pairing.swap_colours"
    assert recipients() == emails(white, black)


def test_swapping_colours_back_tells_the_players_again(publish, run):
    _s, evening = season_evening(players=4)
    publish(evening)
    game = evening.games.get(board=1)
    leader = f.leader()
    run(services.pairing_swap_colours, actor=leader, game_id=game.pk)
    run(services.pairing_swap_colours, actor=leader, game_id=game.pk)
    # Their last e-mail said the swapped colours: the swap back is news again.
    assert len(mail.outbox) == 4


# --- Swap the black players of two games ---------------------------------------------------


def test_swap_black_players_via_the_service_audits_and_emails_the_four_players(publish, run):
    _s, evening = season_evening()
    publish(evening)
    a, b = evening.games.get(board=1), evening.games.get(board=3)
    run(services.pairing_swap_opponents, actor=f.leader(), game_a=a.pk, game_b=b.pk)

    assert evening.games.filter(board=1, white=a.white, black=b.black).exists()
    assert evening.games.filter(board=3, white=b.white, black=a.black).exists()
    assert last_audit(evening).action == "pairing.swap_opponents"
    assert recipients() == emails(a.white, a.black, b.white, b.black)


def test_swap_black_players_via_the_leaders_page(publish, client,
                                                  django_capture_on_commit_callbacks):
    _s, evening = season_evening()
    publish(evening)
    a, b = evening.games.get(board=2), evening.games.get(board=4)
    with django_capture_on_commit_callbacks(execute=True):
        response = leader_client(client).post(
            reverse("pairing:swap_opponents", args=[evening.pk]),
            {"game_a": a.pk, "game_b": b.pk, "confirm": "1", "version": evening.version},
        )
    assert response.status_code == 302
    assert evening.games.filter(board=2, white=a.white, black=b.black).exists()
    assert recipients() == emails(a.white, a.black, b.white, b.black)


def test_swapping_a_game_with_itself_is_refused(publish):
    _s, evening = season_evening(players=4)
    publish(evening)
    game = evening.games.first()
    with pytest.raises(ValidationError, match="two different games"):
        services.pairing_swap_opponents(actor=f.leader(), game_a=game.pk, game_b=game.pk)


# --- Remove a withdrawn player, add a late one ---------------------------------------------


def test_remove_withdrawn_player_via_the_service_opponent_plays_the_bye(publish, run):
    s, evening = season_evening(players=9)
    publish(evening)
    bye = Bye.objects.get(evening=evening).player
    game = evening.games.get(board=1)
    withdrawn, opponent = game.white, game.black

    run(services.pairing_remove_player, actor=f.leader(), evening_id=evening.pk,
        player_id=withdrawn.pk)

    assert not Bye.objects.filter(evening=evening).exists()
    assert evening.games.count() == 4
    assert list(evening.games.order_by("board").values_list("board", flat=True)) == [1, 2, 3, 4]
    new = evening.games.get(white=opponent)
    assert new.black == bye
    reg = Registration.objects.get(evening=evening, player=withdrawn)
    assert reg.status == "absent_without_notice"
    record = last_audit(evening)
    assert record.action == "pairing.remove_player" and record.after["removed"] == withdrawn.pk
    # The other boards did not move and their games did not change: no e-mail.
    assert recipients() == emails(opponent, bye)


def test_remove_withdrawn_player_via_the_leaders_page_opponent_takes_the_bye(
    publish, client, django_capture_on_commit_callbacks
):
    _s, evening = season_evening(players=8)
    publish(evening)
    game = evening.games.get(board=4)
    with django_capture_on_commit_callbacks(execute=True):
        response = leader_client(client).post(
            reverse("pairing:remove_player", args=[evening.pk]),
            {"player": game.black_id, "confirm": "1"},
        )
    assert response.status_code == 302
    assert Bye.objects.get(evening=evening).player == game.white
    assert last_audit(evening).action == "pairing.remove_player"
    assert recipients() == emails(game.white)  # the withdrawn player knows already


def test_removal_keeps_the_force_majeure_the_leader_recorded(publish):
    _s, evening = season_evening(players=4)
    publish(evening)
    leader = f.leader()
    withdrawn = evening.games.get(board=1).white
    competition_services.registration_set(
        actor=leader, player=withdrawn, evenings=[evening], status="absent_with_notice",
        force_majeure=True, now=evening.starts_at - MINUTE,
    )
    services.pairing_remove_player(actor=leader, evening_id=evening.pk, player_id=withdrawn.pk)
    reg = Registration.objects.get(evening=evening, player=withdrawn)
    assert (reg.status, reg.force_majeure) == ("absent_with_notice", True)


def test_add_late_player_via_the_service_takes_the_bye_when_nobody_has_it(publish, run):
    s, evening = season_evening(players=7, flexible=1)
    publish(evening)
    late = s.players.get(kind="flexible")
    assert not Bye.objects.filter(evening=evening).exists()
    run(services.pairing_add_player, actor=f.leader(), evening_id=evening.pk, player_id=late.pk)
    assert Bye.objects.get(evening=evening).player == late
    assert Registration.objects.get(evening=evening, player=late).status == "present"
    assert last_audit(evening).action == "pairing.add_player"
    assert recipients() == emails(late)


def test_add_late_player_via_the_leaders_page_plays_whoever_had_the_bye(
    publish, client, django_capture_on_commit_callbacks
):
    s, evening = season_evening(players=8, flexible=1)
    publish(evening)
    waiting = Bye.objects.get(evening=evening).player
    late = s.players.get(kind="flexible")
    with django_capture_on_commit_callbacks(execute=True):
        response = leader_client(client).post(
            reverse("pairing:add_player", args=[evening.pk]), {"player": late.pk}
        )
    assert response.status_code == 302
    assert evening.games.filter(white=late, black=waiting, board=4).exists()
    assert not Bye.objects.filter(evening=evening).exists()
    assert recipients() == emails(late, waiting)


# --- Pairing by hand, re-pairing ----------------------------------------------------------


def test_pair_and_publish_now_via_the_leaders_page(client, django_capture_on_commit_callbacks):
    _s, evening = season_evening(players=4)
    with django_capture_on_commit_callbacks(execute=True):
        response = leader_client(client).post(
            reverse("pairing:publish", args=[evening.pk]), {"confirm": "1"}, follow=True
        )
    assert response.status_code == 200
    evening.refresh_from_db()
    assert evening.status == "published" and evening.games.count() == 2
    assert "The pairing is published" in response.content.decode()
    assert len(mail.outbox) == 4


def test_repair_after_a_late_withdrawal_emails_only_the_players_whose_game_changed(
    publish, client, django_capture_on_commit_callbacks
):
    # classic: the bye goes to the lowest placed, so the pairing is predictable:
    # 1-2, 3-4, 5-6, 7-8, bye 9; without 8 it becomes 1-2, 3-4, 5-6, 7-9.
    s, evening = season_evening(players=9, system="classic")
    publish(evening)
    before = told(evening)
    withdrawn = evening.games.get(board=4).black
    leader = leader_client(client)
    leader.post(reverse("pairing:registration", args=[evening.pk]),
                {"player": withdrawn.pk, "status": "absent_with_notice", "force_majeure": "on"})
    with django_capture_on_commit_callbacks(execute=True):
        response = leader.post(reverse("pairing:publish", args=[evening.pk]), {"repair": "1", "confirm": "1"})
    assert response.status_code == 302
    after = told(evening)
    assert evening.games.count() == 4 and withdrawn.pk not in after
    changed = [pid for pid, game in after.items() if before.get(pid) != game]
    assert len(changed) == 2  # the withdrawn player's opponent and the former bye
    assert recipients() == {p.member.email for p in s.players.filter(pk__in=changed)}
    assert last_audit(evening).action == "pairing.repair"


def test_repair_is_refused_once_results_exist_with_a_clear_message(publish, client):
    _s, evening = season_evening(players=4)
    publish(evening)
    game = evening.games.get(board=1)
    competition_services.result_set(actor=f.arbiter(), game=game, result=Result.DRAW)
    state = pairing_state(evening)
    leader = f.leader()
    with pytest.raises(ValidationError, match="Results have been entered already"):
        services.evening_pair_and_publish(evening_id=evening.pk, actor=leader, force=True)

    response = leader_client(client, leader).post(
        reverse("pairing:publish", args=[evening.pk]), {"repair": "1", "confirm": "1"}, follow=True
    )
    assert "Results have been entered already; edit the pairing instead." in (
        response.content.decode()
    )
    assert pairing_state(evening) == state
    assert not AuditRecord.objects.filter(evening=evening, action="pairing.repair").exists()


# --- Permissions ------------------------------------------------------------------------------


def test_player_without_permission_gets_403_and_nothing_changes(publish, client):
    s, evening = season_evening(players=9, flexible=1)
    publish(evening)
    a, b = evening.games.get(board=1), evening.games.get(board=2)
    late = s.players.get(kind="flexible")
    player = s.players.get(start=1)
    state = pairing_state(evening)
    audits = AuditRecord.objects.count()
    client.force_login(player.member)
    posts = [
        (reverse("pairing:publish", args=[evening.pk]), {"repair": "1", "confirm": "1"}),
        (reverse("pairing:swap_colours", args=[a.pk]), {}),
        (reverse("pairing:swap_opponents", args=[evening.pk]), {"game_a": a.pk, "game_b": b.pk}),
        (reverse("pairing:remove_player", args=[evening.pk]),
         {"player": a.white_id, "confirm": "1"}),
        (reverse("pairing:add_player", args=[evening.pk]), {"player": late.pk}),
        (reverse("pairing:registration", args=[evening.pk]),
         {"player": player.pk, "status": "absent_with_notice"}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    for call, kwargs in [
        (services.pairing_swap_colours, {"game_id": a.pk}),
        (services.pairing_swap_opponents, {"game_a": a.pk, "game_b": b.pk}),
        (services.pairing_remove_player, {"evening_id": evening.pk, "player_id": a.white_id}),
        (services.pairing_add_player, {"evening_id": evening.pk, "player_id": late.pk}),
        (services.evening_pair_and_publish, {"evening_id": evening.pk, "force": True}),
    ]:
        with pytest.raises(PermissionDenied):
            call(actor=player.member, **kwargs)
    assert pairing_state(evening) == state
    assert AuditRecord.objects.count() == audits
    assert not Registration.objects.filter(evening=evening).exists()
    assert mail.outbox == []


def test_leaders_pages_are_200_for_the_leader_403_for_a_player_and_sign_in_for_a_visitor(
    publish, client
):
    s, evening = season_evening(players=4)
    publish(evening)
    open_evening = f.playing_evenings(s)[1]
    urls = [
        reverse("pairing:evenings"),
        reverse("pairing:evening", args=[evening.pk]),
        reverse("pairing:evening", args=[open_evening.pk]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    client.force_login(s.players.first().member)
    for url in urls:
        assert client.get(url).status_code == 403, url
    leader_client(client)
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_leaders_page_shows_every_players_status_and_who_changed_it(publish, client):
    s, evening = season_evening(players=4, flexible=1)
    leader = f.leader()
    fixed = s.players.get(start=1)
    competition_services.registration_set(
        actor=leader, player=fixed, evenings=[evening], status="absent_with_notice",
        force_majeure=True, now=evening.deadline + MINUTE,
    )
    response = leader_client(client, leader).get(reverse("pairing:evening", args=[evening.pk]))
    page = response.content.decode()
    flexible = s.players.get(kind="flexible")
    assert response.status_code == 200
    for p in s.players.all():
        assert p.member.name in page and f'id="status-{p.pk}"' in page
    # two fixed players present and one flexible absent by default
    assert page.count('<span class="small muted">(default)</span>') == 3
    assert "Leader" in page and "absent with notice (after the deadline) (force majeure)" in page
    assert f'<input type="checkbox" name="players" value="{flexible.pk}" id="pick-{flexible.pk}">' in page


def test_leader_changes_a_status_on_a_players_behalf_via_the_page(client):
    s, evening = season_evening(players=4, flexible=1)
    flexible = s.players.get(kind="flexible")
    response = leader_client(client).post(
        reverse("pairing:registration", args=[evening.pk]),
        {"player": flexible.pk, "status": "present"}, follow=True,
    )
    assert response.status_code == 200
    reg = Registration.objects.get(evening=evening, player=flexible)
    assert reg.status == "present" and reg.changed_by.name == "Leader"
    assert AuditRecord.objects.filter(action="registration.set", player=flexible).exists()


# --- Rules the pairing breaks -------------------------------------------------------------


def test_pairing_check_reports_a_forced_rematch(publish, client):
    s, first = season_evening(players=4)
    second = f.playing_evenings(s)[1]
    publish(first)
    game = first.games.get(board=1)
    competition_services.result_set(actor=f.arbiter(), game=game, result=Result.WHITE_WINS)
    competition_services.result_set(actor=f.arbiter(), game=first.games.get(board=2),
                                    result=Result.DRAW)
    leader = f.leader()
    for p in s.players.exclude(pk__in=[game.white_id, game.black_id]):
        competition_services.registration_set(
            actor=leader, player=p, evenings=[second], status="absent_with_notice",
            now=second.deadline - MINUTE,
        )
    publish(second)  # only the two who met last week are present: a forced rematch

    broken = selectors.pairing_check(second)
    pair = {game.white_id, game.black_id}
    assert {(frozenset((r.white, r.black)), r.rule) for r in broken} == {
        (frozenset(pair), "min_evenings_between"),
        (frozenset(pair), "max_meetings_per_half"),
    }
    assert selectors.pairing_check(first) == []
    page = leader_client(client, leader).get(reverse("pairing:evening", args=[second.pk]))
    text = page.content.decode()
    assert "breaks the rule: at most 1 meeting of the same two players in a half." in text
    assert "at least 5 playing evenings between two meetings" in text


def test_pairing_check_counts_only_playing_evenings(publish):
    s, evening = season_evening(players=4)
    publish(evening)
    rapid = s.evenings.filter(kind="rapid").first() or s.evenings.exclude(kind="playing").first()
    p = list(s.players.order_by("start"))
    # A game on a non-playing evening (a rapid or playoff evening) is no meeting.
    Game.objects.create(evening=rapid, board=1, white=p[0], black=p[1])
    later = f.playing_evenings(s)[-1]
    assert selectors.pairing_check(later) == []


def test_a_paired_player_who_signs_off_late_is_flagged_on_the_leaders_page(publish, client):
    s, evening = season_evening()
    evening = publish(evening)
    game = evening.games.order_by("board").first()
    competition_services.registration_set(
        actor=game.white.member, player=game.white, evenings=[evening],
        status="absent_with_notice", now=evening.deadline + MINUTE,
    )
    page = leader_client(client).get(reverse("pairing:evening", args=[evening.pk]))
    html = page.content.decode()
    assert html.count("Signed off after the pairing") == 1
    section = html[html.index(f'id="player-{game.white_id}"'):]
    assert "Signed off after the pairing" in section[:section.index("</tr>")]


def test_a_bye_to_a_player_who_had_one_is_reported_and_shown_to_the_leader(publish, client):
    """Two of the three present met last week and each had a bye already; the third never
    had one. Giving him the bye would force the rematch, so it goes to one who had one:
    the pairing says so in `relaxed` and the leader's page shows it."""
    s, *_ = season_evening(players=3)
    earlier, tonight = f.playing_evenings(s)[:3], f.playing_evenings(s)[3]
    fresh, y, z = s.players.order_by("start")
    Bye.objects.create(evening=earlier[0], player=y)
    Bye.objects.create(evening=earlier[1], player=z)
    Game.objects.create(evening=earlier[2], board=1, white=y, black=z, result=Result.DRAW)

    after = services.evening_pair_and_publish(actor=None, system=True, evening_id=tonight.pk, now=tonight.deadline)

    bye = Bye.objects.get(evening=tonight).player
    assert bye in (y, z)
    assert after["relaxed"] == [{"white": bye.pk, "black": None, "rule": "fewest_byes"}]
    assert last_audit(tonight).after["relaxed"] == after["relaxed"]
    assert [(r.white, r.black, r.rule) for r in selectors.pairing_check(tonight)] == [
        (bye.pk, None, "fewest_byes")
    ]
    page = leader_client(client).get(reverse("pairing:evening", args=[tonight.pk]))
    text = page.content.decode()
    assert 'data-rule="fewest_byes"' in text
    assert (f"{bye.member.name} has the pairing bye although he had one already and another "
            "player in the pairing had fewer") in text
    assert "the pairing bye goes to a player with the fewest byes this season" in text


def test_a_bye_to_a_player_with_the_fewest_byes_is_not_reported(publish, client):
    s, evening = season_evening(players=3)
    publish(evening)
    assert Bye.objects.filter(evening=evening).exists()
    assert selectors.pairing_check(evening) == []
    page = leader_client(client).get(reverse("pairing:evening", args=[evening.pk]))
    assert 'data-rule="fewest_byes"' not in page.content.decode()
