"""The arbiter corrects a finished Swiss round (issue 14): audited with the result before
and after, the standings and tie-breaks follow, the later rounds' pairings stay and the
pages say so; nobody else may, and a refused correction saves nothing."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from competition.audit import text as audit_text
from competition.events import selectors as sel
from competition.events import services as swiss
from competition.models import AuditRecord, SwissGame
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def blitz(people):
    """Six members, three rounds; rounds 1 and 2 finished (the lower start number wins),
    round 3 paired."""
    season = f.season(players=0)
    event = swiss.event_create(actor=people["leader"], season=season, kind="blitz",
                               name="Blitz 2027", date=dt.date(2027, 6, 11), rounds=3)
    for i in range(6):
        swiss.entrant_add(actor=people["leader"], event=event, member=f.member(rating=2000 - 50 * i))
    for _ in range(2):
        f.swiss_round_played(people["arbiter"], event)
    swiss.round_pair(actor=people["arbiter"], round=swiss.round_open(actor=people["arbiter"], event=event))
    return event


def pairings(event, number):
    return sorted(SwissGame.objects.filter(round__event=event, round__number=number)
                  .values_list("board", "white_id", "black_id", "white_points", "black_points"))


def board(event, number, board_no):
    return SwissGame.objects.select_related("white", "black", "round").get(
        round__event=event, round__number=number, board=board_no)


def table(event):
    return {row.entrant.number: (row.points, dict(row.tiebreaks)) for row in sel.event_standings(event)}


def test_a_correction_is_audited_changes_the_standings_and_keeps_the_later_pairings(blitz, people):
    game = board(blitz, 1, 1)
    white, black = game.white.number, game.black.number
    assert (game.white_points, game.black_points) == (1, 0)
    later = {n: pairings(blitz, n) for n in (2, 3)}
    before = table(blitz)
    # The round-2 opponents of the two players: their Buchholz depends on this game.
    second = {g.white.number: g.black.number for g in
              SwissGame.objects.filter(round__event=blitz, round__number=2).select_related("white", "black")}
    second |= {b: w for w, b in second.items()}

    swiss.game_result_correct(actor=people["arbiter"], game=game, white_points=0, black_points=1,
                              expected_version=game.version)

    after = table(blitz)
    assert after[white][0] == before[white][0] - 1 and after[black][0] == before[black][0] + 1
    assert after[second[white]][1]["BH"] == before[second[white]][1]["BH"] - 1
    assert after[second[black]][1]["BH"] == before[second[black]][1]["BH"] + 1
    assert {n: pairings(blitz, n) for n in (2, 3)} == later  # nobody is paired again
    record = AuditRecord.objects.get(action="event.result_correct")
    assert record.actor == people["arbiter"]
    assert record.before == {"white": "1.0", "black": "0.0", "forfeit": False}
    assert record.after | {"event": None} == {
        "event": None, "round": 1, "board": 1, "white": "0", "black": "1", "forfeit": False,
        "event_name": "Blitz 2027", "white_name": game.white.name, "black_name": game.black.name,
        "later_rounds": [2, 3], "game": game.pk, "version": game.version + 1,
    }
    with translation.override("nl"):
        text = audit_text.sentence(record, {})
    assert f"corrigeerde bord 1 van ronde 1 van Blitz 2027 ({game.white.name} – {game.black.name}): 1-0 → 0-1" in text
    assert "2, 3" in text


def trf_round_one(event, number):
    """The first round's columns of a player's record in the TRF export."""
    line = next(li for li in swiss.event_to_trf(event).splitlines() if li.startswith(f"001 {number:4d}"))
    return line[91:99]


def test_the_trf_export_follows_a_correction(blitz, people):
    game = board(blitz, 1, 1)
    assert trf_round_one(blitz, game.white.number) == f"{game.black.number:4d} w 1"
    swiss.game_result_correct(actor=people["arbiter"], game=game, white_points=0, black_points=1,
                              expected_version=game.version)
    assert trf_round_one(blitz, game.white.number) == f"{game.black.number:4d} w 0"
    assert trf_round_one(blitz, game.black.number) == f"{game.white.number:4d} b 1"


@pytest.mark.parametrize("who", ["player", "no_role", "none"])
def test_only_the_arbiter_corrects_and_a_refusal_saves_nothing(blitz, people, who):
    game = board(blitz, 1, 1)
    actor = {"player": f.member(), "no_role": f.member(role=None), "none": None}[who]
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    with pytest.raises(PermissionDenied):
        swiss.game_result_correct(actor=actor, game=game, white_points=0, black_points=1,
                                  expected_version=game.version)
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state


def test_the_correction_page_and_its_post_refuse_a_player(client, blitz):
    game = board(blitz, 1, 1)
    client.force_login(f.member())
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    assert client.get(reverse("events:round_correct", args=[blitz.pk, 1])).status_code == 403
    response = client.post(reverse("events:game_correct", args=[blitz.pk, game.pk]),
                           {"result": "0-1", "version": game.version})
    assert response.status_code == 403
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state


def test_a_finished_round_is_not_changed_through_the_live_entry_and_a_live_one_not_corrected(blitz, people):
    done, live = board(blitz, 1, 1), board(blitz, 3, 1)
    state = (pairings(blitz, 1), pairings(blitz, 3), AuditRecord.objects.count())
    with pytest.raises(ValidationError, match="Round 1 is finished"):
        swiss.game_result_set(actor=people["arbiter"], game=done, white_points=0, black_points=1,
                              expected_version=done.version)
    with pytest.raises(ValidationError, match="Round 3 is not finished"):
        swiss.game_result_correct(actor=people["arbiter"], game=live, white_points=0, black_points=1,
                                  expected_version=live.version)
    assert (pairings(blitz, 1), pairings(blitz, 3), AuditRecord.objects.count()) == state


@pytest.mark.parametrize(("white", "black", "forfeit", "message"), [
    (1, 1, False, "must add up to 1"),
    ("x", 0, False, "is not a number"),
    ("1/2", 0, True, "A forfeit is"),
])
def test_a_bad_correction_is_refused_with_a_message_and_nothing_saved(blitz, people, white, black,
                                                                      forfeit, message):
    game = board(blitz, 1, 1)
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    with pytest.raises(ValidationError, match=message):
        swiss.game_result_correct(actor=people["arbiter"], game=game, white_points=white,
                                  black_points=black, forfeit=forfeit, expected_version=game.version)
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state


def test_a_stale_correction_is_a_conflict_and_saves_nothing(blitz, people):
    game = board(blitz, 1, 1)
    swiss.game_result_correct(actor=people["arbiter"], game=game, white_points=0, black_points=1,
                              expected_version=game.version)
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    with pytest.raises(swiss.Conflict, match="0-1 for board 1"):
        swiss.game_result_correct(actor=people["arbiter"], game=game, white_points="1/2",
                                  black_points="1/2", expected_version=game.version)
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state


def test_the_arbiter_corrects_on_the_round_page_which_says_the_later_pairings_stay(client, blitz, people):
    client.force_login(people["arbiter"])
    arbiter_page = client.get(reverse("events:arbiter", args=[blitz.pk])).content.decode()
    url = reverse("events:round_correct", args=[blitz.pk, 1])
    assert f'href="{url}"' in arbiter_page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Rondes 2, 3 zijn ingedeeld vóór deze correctie; hun indelingen blijven zoals ze zijn." in page
    game = board(blitz, 1, 1)
    response = client.post(reverse("events:game_correct", args=[blitz.pk, game.pk]),
                           {"result": "0-1", "version": game.version, "confirm": "1"}, follow=True)
    text = response.content.decode()
    assert response.redirect_chain[-1][0] == url + "#board-1"
    assert "Board 1 changed: 1-0 → 0-1" in text and "Rounds 2, 3 were paired before this correction" in text
    game.refresh_from_db()
    assert (game.white_points, game.black_points) == (0, 1)


def test_the_correction_page_of_an_unfinished_round_sends_the_arbiter_to_his_page(client, blitz, people):
    client.force_login(people["arbiter"])
    response = client.get(reverse("events:round_correct", args=[blitz.pk, 3]))
    assert response.status_code == 302
    assert response["Location"] == reverse("events:arbiter", args=[blitz.pk]) + "#round"


# --- Changing an entered result asks first, says what changed and offers an undo ---------


def rows(event):
    return {row.entrant.pk: (row.rank, row.points) for row in sel.event_standings(event)}


def test_changing_a_finished_rounds_result_asks_first_naming_points_places_and_later_rounds(client, blitz, people):
    game = board(blitz, 1, 1)
    standing = rows(blitz)
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    client.force_login(people["arbiter"])
    url = reverse("events:game_correct", args=[blitz.pk, game.pk])
    page = client.post(url, {"result": "0-1", "version": game.version}, HTTP_ACCEPT_LANGUAGE="nl")
    text = page.content.decode()
    assert page.status_code == 200
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state  # nothing saved yet
    assert f"Bord 1 van ronde 1 ({game.white.name} – {game.black.name}): 1-0 → 0-1." in text
    w_rank, w_points = standing[game.white_id]
    b_rank, b_points = standing[game.black_id]
    after = dict(sel_rows_with(blitz, game, 0, 1))
    assert (f"{game.white.name}: {w_points} → {w_points - 1} punten, plaats {w_rank} → "
            f"{after[game.white_id]}.") in text
    assert (f"{game.black.name}: {b_points} → {b_points + 1} punten, plaats {b_rank} → "
            f"{after[game.black_id]}.") in text
    assert "Rondes 2, 3 zijn ingedeeld vóór deze correctie" in text
    assert 'name="confirm" value="1"' in text and 'value="0-1"' in text


def sel_rows_with(event, game, white, black):
    """The ranks the standings would have with another result on ``game``."""
    from decimal import Decimal

    changed = SwissGame(pk=game.pk, round=game.round, board=game.board, white_id=game.white_id,
                        black_id=game.black_id, white_points=Decimal(white),
                        black_points=Decimal(black), forfeit=False)
    return [(r.entrant.pk, r.rank) for r in sel.event_standings(event, replacing=changed)]


def test_a_confirmed_change_says_what_changed_and_one_tap_undoes_it(client, blitz, people):
    game = board(blitz, 1, 1)
    before_rows = rows(blitz)
    client.force_login(people["arbiter"])
    correct = reverse("events:round_correct", args=[blitz.pk, 1])
    response = client.post(reverse("events:game_correct", args=[blitz.pk, game.pk]),
                           {"result": "0-1", "version": game.version, "confirm": "1"}, follow=True)
    text = response.content.decode()
    assert "Board 1 changed: 1-0 → 0-1" in text
    points = before_rows[game.white_id][1]
    assert f"{game.white.name}: {points} → {points - 1} points, place" in text
    assert f'data-previous-result="{game.pk}"' in text and "was 1-0" in text
    # The leader, who reads the audit trail, gets the previous result as a link to it.
    client.force_login(people["leader"])
    page = client.get(correct).content.decode()
    assert f'{reverse("competition:audit")}?action=event.result_correct">was 1-0</a>' in page
    trail = client.get(reverse("competition:audit"), {"action": "event.result_correct"}).content.decode()
    assert "corrected board 1 of round 1 of Blitz 2027" in trail
    client.force_login(people["arbiter"])
    assert f'data-undo="{game.pk}"' in text
    game.refresh_from_db()
    assert (game.white_points, game.black_points) == (0, 1)
    response = client.post(reverse("events:game_undo", args=[blitz.pk, game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == correct + "#board-1"
    assert "Board 1 undone: 0-1 → 1-0." in response.content.decode()
    game.refresh_from_db()
    assert (game.white_points, game.black_points) == (1, 0)
    assert rows(blitz) == before_rows
    undo = AuditRecord.objects.filter(action="event.result_correct").latest("pk")
    assert undo.after["undo"] is True
    # An undo is not undone again: the button is gone and the post refuses.
    page = client.get(correct).content.decode()
    assert f'data-undo="{game.pk}"' not in page
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    response = client.post(reverse("events:game_undo", args=[blitz.pk, game.pk]), follow=True)
    assert "can no longer be undone" in response.content.decode()
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state


def test_changing_a_live_rounds_result_asks_first_and_says_it_counts_once_finished(client, blitz, people):
    game = board(blitz, 3, 1)
    swiss.game_result_set(actor=people["arbiter"], game=game, white_points="1/2", black_points="1/2",
                          expected_version=game.version)
    game.refresh_from_db()
    client.force_login(people["arbiter"])
    url = reverse("events:game_result", args=[blitz.pk, game.pk])
    state = (pairings(blitz, 3), AuditRecord.objects.count())
    text = client.post(url, {"result": "1-0", "version": game.version}).content.decode()
    assert "Board 1 of round 3" in text and "½-½ → 1-0" in text
    assert "Round 3 is not finished: its results count in the standings once it is." in text
    assert (pairings(blitz, 3), AuditRecord.objects.count()) == state
    response = client.post(url, {"result": "1-0", "version": game.version, "confirm": "1"}, follow=True)
    assert "Board 1 changed: ½-½ → 1-0" in response.content.decode()
    assert f'data-undo="{game.pk}"' in response.content.decode()
    response = client.post(reverse("events:game_undo", args=[blitz.pk, game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("events:arbiter", args=[blitz.pk]) + "#board-1"
    game.refresh_from_db()
    assert (game.white_points, game.black_points) == (Decimal("0.5"), Decimal("0.5"))


def test_a_first_result_is_saved_without_asking(client, blitz, people):
    game = board(blitz, 3, 2)
    client.force_login(people["arbiter"])
    response = client.post(reverse("events:game_result", args=[blitz.pk, game.pk]),
                           {"result": "1-0", "version": game.version}, follow=True)
    assert "Board 2 saved." in response.content.decode()
    game.refresh_from_db()
    assert (game.white_points, game.black_points) == (1, 0)


@pytest.mark.parametrize("result", ["9-0", "", "1-0F-"])
def test_a_bad_result_is_refused_without_a_confirmation_and_saves_nothing(client, blitz, people, result):
    game = board(blitz, 1, 1)
    client.force_login(people["arbiter"])
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    response = client.post(reverse("events:game_correct", args=[blitz.pk, game.pk]),
                           {"result": result, "version": game.version}, follow=True)
    assert "Unknown result" in response.content.decode()
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state


def test_only_the_author_undoes_and_only_for_a_few_minutes(blitz, people):
    game = board(blitz, 1, 1)
    swiss.game_result_correct(actor=people["arbiter"], game=game, white_points=0, black_points=1,
                              expected_version=game.version)
    state = (pairings(blitz, 1), AuditRecord.objects.count())
    with pytest.raises(ValidationError, match="can no longer be undone"):
        swiss.game_result_undo(actor=people["leader"], game=game)
    record = AuditRecord.objects.filter(action="event.result_correct").latest("pk")
    with pytest.raises(ValidationError, match="can no longer be undone"):
        swiss.game_result_undo(actor=people["arbiter"], game=game,
                               now=record.at + sel.UNDO_WINDOW + dt.timedelta(seconds=1))
    with pytest.raises(PermissionDenied):
        swiss.game_result_undo(actor=f.member(), game=game)
    assert (pairings(blitz, 1), AuditRecord.objects.count()) == state
    swiss.game_result_undo(actor=people["arbiter"], game=game, now=record.at + sel.UNDO_WINDOW)
    game.refresh_from_db()
    assert (game.white_points, game.black_points) == (1, 0)


def test_the_consequences_cost_the_same_queries_whatever_the_number_of_players(
        django_assert_max_num_queries, people):
    counts = []
    for size in (6, 14):
        season = f.season(players=0)
        event = swiss.event_create(actor=people["leader"], season=season, kind="blitz",
                                   name=f"Blitz {size}", date=dt.date(2027, 6, 11), rounds=3)
        for i in range(size):
            swiss.entrant_add(actor=people["leader"], event=event, member=f.member(rating=2000 - 10 * i))
        f.swiss_round_played(people["arbiter"], event)
        game = board(event, 1, 1)
        with django_assert_max_num_queries(10) as queries:
            sel.result_change_consequences(game, Fraction(0), Fraction(1), False)
        counts.append(len(queries))
    assert counts[0] == counts[1]
