"""Rapid competition (docs/rules.md 7) and blitz championship with its playoff (docs/rules.md 8) through the
services: rounds, presence, pairing, results, standings, TRF, permissions."""

from __future__ import annotations

import contextvars
import datetime as dt
import random
import threading
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections

from competition.events import selectors as sel
from competition.events import services as swiss
from competition.events.engine import report as swiss_report
from competition.events.engine import trf
from competition.events.engine.dutch import propose_rounds
from competition.events.engine.tiebreaks import Kind
from competition.models import AuditRecord, RoundStatus, SwissEntrant, SwissEvent, SwissGame
from competition.season.engine.calendar import CLUB_TZ
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

RAPID_EVENINGS = [dt.date(2026, 9, 11), dt.date(2026, 10, 9), dt.date(2026, 11, 13), dt.date(2026, 12, 11)]
ROUNDS_PER_EVENING = [2, 2, 2, 3]  # 9 rounds over four rapid evenings
HALF = Fraction(1, 2)
MATCHES = [(2, 0), (Fraction(3, 2), HALF), (1, 1), (HALF, Fraction(3, 2)), (0, 2)]


def enter(event, leader, count, *, ratings=None, names=None):
    ratings = ratings or [1500 + 37 * ((i * 7) % count) for i in range(count)]
    for i in range(count):
        member = f.member(name=names[i] if names else None, rating=ratings[i])
        swiss.entrant_add(actor=leader, event=event, member=member)
    return sel.event_entrants(event)


def play_round(arbiter, event, result, *, absent=(), evening=None):
    """Open, mark presence (everybody but ``absent`` start numbers), pair, enter every
    board by ``result(game) -> (white, black, forfeit)``, finish."""
    rnd = swiss.round_open(actor=arbiter, event=event, evening=evening)
    present = [e.pk for e in sel.event_entrants(event) if e.number not in absent]
    swiss.presence_set(actor=arbiter, round=rnd, entrant_ids=present)
    rnd = swiss.round_pair(actor=arbiter, round=rnd)
    for game in rnd.games.select_related("white", "black").filter(black__isnull=False):
        white, black, forfeit = result(game)
        swiss.game_result_set(actor=arbiter, game=game, white_points=white, black_points=black,
                              forfeit=forfeit, expected_version=game.version)
    return swiss.round_finish(actor=arbiter, round=rnd)


def assert_club_order(rows):
    """PTS, then DE, then BH-M1, then SB; equal on all of them: equal rank."""
    def key(row):
        return (row.points, -(row.de or 0), row.value("BH-M1"), row.value("SB"))

    for a, b in zip(rows, rows[1:], strict=False):
        assert key(a) >= key(b)
        assert (a.rank == b.rank) == (key(a) == key(b))


# --- Rapid (docs/rules.md 7) --------------------------------------------------------------------


@pytest.fixture
def rapid(people):
    season = f.season(players=0, extra_rapid=RAPID_EVENINGS)
    event = swiss.event_create(actor=people["leader"], season=season, kind="rapid",
                               name="Rapid winter", half=season.halves.get(kind="winter"))
    return event


def test_rapid_nine_rounds_over_rapid_evenings_with_absences_byes_and_final_tiebreaks(rapid, people):
    event, arbiter = rapid, people["arbiter"]
    assert event.rounds == 9
    entrants = enter(event, people["leader"], 20)
    assert [e.rating for e in entrants] == sorted((e.rating for e in entrants), reverse=True)
    evenings = list(event.season.evenings.filter(kind="rapid", date__in=RAPID_EVENINGS).order_by("date"))
    assert len(evenings) == 4
    rng = random.Random(2026)
    absences: dict[int, set[int]] = {}
    number = 0
    for evening, count in zip(evenings, ROUNDS_PER_EVENING, strict=True):
        for i in range(count):
            number += 1
            # Odd rounds: one absent (19 present, a bye); even rounds: two absent.
            absent = {(number * 7) % 20 + 1} | ({(number * 7 + 3) % 20 + 1} if number % 2 == 0 else set())
            absences[number] = absent
            rnd = play_round(arbiter, event, lambda g: (*rng.choice(MATCHES), False),
                             absent=absent, evening=evening)
            assert rnd.evening == evening and rnd.notes == []
            if i == 0:  # the first round of a rapid evening starts 20:30
                assert rnd.starts_at.astimezone(CLUB_TZ).time() == dt.time(20, 30)
                assert rnd.starts_at.date() == evening.date
            else:
                assert rnd.starts_at is None

    games = list(SwissGame.objects.filter(round__event=event).select_related("round", "white", "black"))
    byes = [g for g in games if g.black_id is None]
    assert len(byes) == 5
    assert all(g.white_points == 2 for g in byes)  # a bye gives 2
    assert max(Counter(g.white.number for g in byes).values()) == 1  # at most one bye each
    pairs = [frozenset((g.white.number, g.black.number)) for g in games if g.black_id]
    assert len(pairs) == len(set(pairs))  # no rematch
    for g in games:  # absent players are not paired
        assert g.white.number not in absences[g.round.number]
        assert g.black is None or g.black.number not in absences[g.round.number]

    t = sel.event_tournament(event)
    assert t.rounds == 9 and t.max_points == 2
    for rnd, absent in absences.items():
        for n in absent:  # absent: a zero-point bye (a VUR)
            r = t.entrant(n).results[rnd - 1]
            assert r.kind is Kind.ZERO_BYE and r.points == 0
    for g in byes:
        r = t.entrant(g.white.number).results[g.round.number - 1]
        assert r.kind is Kind.PAIRING_BYE and r.points == 2

    rows = swiss.event_standings(event)
    assert len(rows) == 20
    assert [code for code, _ in rows[0].tiebreaks] == ["BH-M1", "SB", "BH"]
    assert_club_order(rows)
    first = [r for r in rows if r.rank == 1]
    assert all(r.needs_decider == (len(first) > 1 and r.rank == 1) for r in rows)
    for row in rows:  # points are the games' points, byes included
        n = row.entrant.pk
        expected = sum(Fraction(g.white_points) for g in games if g.white_id == n) + sum(
            Fraction(g.black_points) for g in games if g.black_id == n
        )
        assert row.points == expected
    with pytest.raises(ValidationError, match="All 9 rounds"):
        swiss.round_open(actor=arbiter, event=event)


def test_rapid_round_needs_a_rapid_evening_of_the_season(rapid, people):
    enter(rapid, people["leader"], 4)
    playing = rapid.season.evenings.filter(kind="playing").first()
    with pytest.raises(ValidationError, match="rapid evening"):
        swiss.round_open(actor=people["arbiter"], event=rapid, evening=playing)
    assert not rapid.round_set.exists()


def test_absent_player_is_not_paired_and_a_late_entrant_scores_zero_for_missed_rounds(rapid, people):
    leader, arbiter = people["leader"], people["arbiter"]
    enter(rapid, leader, 4)
    evening = rapid.season.evenings.filter(kind="rapid").order_by("date").first()
    play_round(arbiter, rapid, lambda g: (2, 0, False), absent={4}, evening=evening)
    late = swiss.entrant_add(actor=leader, event=rapid, member=f.member(rating=2400))
    assert late.number == 5  # numbers are no longer renumbered once a round is paired
    t = sel.event_tournament(rapid)
    assert t.entrant(4).results[0].kind is Kind.ZERO_BYE
    assert t.entrant(5).results[0].kind is Kind.ZERO_BYE and t.entrant(5).score == 0
    assert t.entrant(3).results[0].kind is Kind.PAIRING_BYE and t.entrant(3).score == 2


def test_start_numbers_follow_the_rating_until_a_round_is_paired(rapid, people):
    leader = people["leader"]
    low = swiss.entrant_add(actor=leader, event=rapid, member=f.member(rating=1400))
    high = swiss.entrant_add(actor=leader, event=rapid, member=f.member(rating=2100))
    unrated = swiss.entrant_add(actor=leader, event=rapid, member=f.member(rating=None))
    numbers = {e.pk: e.number for e in rapid.entrants.all()}
    assert (numbers[high.pk], numbers[low.pk], numbers[unrated.pk]) == (1, 2, 3)


# --- Blitz (docs/rules.md 8) --------------------------------------------------------------------


@pytest.fixture
def blitz(people):
    season = f.season(players=0)
    return swiss.event_create(actor=people["leader"], season=season, kind="blitz",
                              name="Blitz 2027", date=dt.date(2027, 6, 11))


def test_blitz_rounds_follow_the_proposal_until_the_arbiter_sets_them(blitz, people):
    enter(blitz, people["leader"], 7)
    blitz.refresh_from_db()
    assert blitz.rounds == propose_rounds(7) == 3
    enter(blitz, people["leader"], 3)
    blitz.refresh_from_db()
    assert blitz.rounds == propose_rounds(10) == 5
    swiss.event_set_rounds(actor=people["arbiter"], event=blitz, rounds=4)
    enter(blitz, people["leader"], 6)
    blitz.refresh_from_db()
    assert blitz.rounds == 4  # the arbiter's number stays


def top_two_win_others_draw(game):
    """Players 1 and 2 beat everybody else and draw each other; all other games are drawn:
    an unbroken tie on points for first place, whatever the pairings."""
    w, b = game.white.number, game.black.number
    if {w, b} == {1, 2} or (w > 2 and b > 2):
        return HALF, HALF, False
    return (1, 0, False) if w < b else (0, 1, False)


def test_blitz_evening_dutch_rounds_tie_for_first_and_double_round_robin_playoff(blitz, people):
    arbiter = people["arbiter"]
    enter(blitz, people["leader"], 10)
    blitz.refresh_from_db()
    assert blitz.rounds == 5
    for _ in range(blitz.rounds):
        rnd = play_round(arbiter, blitz, top_two_win_others_draw)
        assert rnd.games.filter(black__isnull=True).count() == 0  # ten present: no bye
    games = list(SwissGame.objects.filter(round__event=blitz).select_related("white", "black"))
    pairs = [frozenset((g.white.number, g.black.number)) for g in games]
    assert len(games) == 25 and len(pairs) == len(set(pairs))  # Dutch: no rematch
    counts = Counter(g.white.number for g in games)
    assert all(2 <= counts[n] <= 3 for n in range(1, 11))  # colours alternate

    rows = swiss.event_standings(blitz)
    assert {r.entrant.number for r in rows if r.needs_decider} == {1, 2}
    assert [r.rank for r in rows[:3]] == [1, 1, 3]  # the playoff decides first place
    assert_club_order(rows[2:])

    playoff = swiss.blitz_playoff_create(actor=arbiter, event=blitz)
    assert playoff.kind == "blitz_playoff" and playoff.parent == blitz
    assert swiss.blitz_playoff_create(actor=arbiter, event=blitz) == playoff  # one click, once
    assert SwissEvent.objects.filter(parent=blitz).count() == 1
    tied = {e.member_id for e in blitz.entrants.filter(number__in=(1, 2))}
    assert {e.member_id for e in playoff.entrants.all()} == tied
    assert playoff.rounds == 2
    assert_double_round_robin(playoff)
    assert AuditRecord.objects.filter(action="event.playoff_create").count() == 1

    # Run on the same pages / services: the first of the playoff wins both games.
    for rnd in playoff.round_set.order_by("number"):
        for game in rnd.games.select_related("white"):
            white_wins = game.white.number == 1
            swiss.game_result_set(actor=arbiter, game=game, white_points=int(white_wins),
                                  black_points=int(not white_wins), expected_version=game.version)
        swiss.round_finish(actor=arbiter, round=rnd)
    final = swiss.event_standings(playoff)
    assert final[0].entrant.number == 1 and final[0].points == 2 and not final[0].needs_decider


def assert_double_round_robin(playoff):
    games = list(SwissGame.objects.filter(round__event=playoff).select_related("white", "black"))
    assert all(g.black_id for g in games)
    assert playoff.round_set.exclude(status=RoundStatus.PAIRED).count() == 0
    colours = Counter((g.white.number, g.black.number) for g in games)
    numbers = sorted(e.number for e in playoff.entrants.all())
    for a, b in combinations(numbers, 2):  # each pair twice, once with each colour
        assert colours[(a, b)] == 1 and colours[(b, a)] == 1
    assert len(games) == len(numbers) * (len(numbers) - 1)


def test_playoff_needs_finished_rounds_and_a_tie(blitz, people):
    arbiter = people["arbiter"]
    enter(blitz, people["leader"], 4)
    with pytest.raises(ValidationError, match="finish every round"):
        swiss.blitz_playoff_create(actor=arbiter, event=blitz)
    blitz.refresh_from_db()
    for _ in range(blitz.rounds):
        play_round(arbiter, blitz, lambda g: (1, 0, False) if g.white.number < g.black.number else (0, 1, False))
    with pytest.raises(ValidationError, match="no unbroken tie"):
        swiss.blitz_playoff_create(actor=arbiter, event=blitz)


def test_a_blitz_bye_is_worth_one_point(blitz, people):
    enter(blitz, people["leader"], 5)
    rnd = play_round(people["arbiter"], blitz, lambda g: (HALF, HALF, False))
    bye = rnd.games.get(black__isnull=True)
    assert bye.white_points == 1
    assert sel.event_tournament(blitz).entrant(bye.white.number).results[0].kind is Kind.PAIRING_BYE


# --- TRF --------------------------------------------------------------------------------


def test_trf_export_gives_the_same_tiebreaks_as_the_standings_and_imports_back(blitz, people):
    leader, arbiter = people["leader"], people["arbiter"]
    enter(blitz, leader, 8)
    blitz.refresh_from_db()

    def result(game):
        w, b = game.white.number, game.black.number
        if game.board == 2:
            return 1, 0, True  # a forfeit win
        if game.board % 3 == 0 and 1 not in (w, b):
            return HALF, HALF, False
        return (1, 0, False) if w < b else (0, 1, False)

    for number in range(1, blitz.rounds + 1):
        play_round(arbiter, blitz, result, absent={8} if number == 2 else ())
    text = swiss.event_to_trf(blitz)
    report = swiss_report.tiebreak_report(trf.to_tournament(trf.parse(text)), blitz.rules)
    rows = {r.entrant.number: r for r in swiss.event_standings(blitz)}
    assert len(report["players"]) == 8
    for player in report["players"]:
        row = rows[player["start"]]
        assert Fraction(player["points"]) == row.points
        for code in ("BH-M1", "SB", "BH"):
            assert Fraction(player[code]) == row.value(code), code
        assert player["rank"] == row.rank or row.needs_decider

    copy = swiss.event_from_trf(actor=leader, season=blitz.season, text=text, name="Blitz copy")
    again = swiss.event_standings(copy)
    assert [(r.entrant.member_id, r.rank, r.points, r.tiebreaks) for r in again] == [
        (r.entrant.member_id, r.rank, r.points, r.tiebreaks) for r in swiss.event_standings(blitz)
    ]


def _blitz_for_rating(blitz, people, *, trf_rating):
    """Four members with their FIDE details (one without), one round played."""
    from competition.models import Competition

    Competition.objects.filter(season=blitz.season).update(
        venue_city="Utrecht", chief_arbiter="Haan, Yvonne de", trf_rating=trf_rating)
    details = [
        dict(name="Yvonne de Haan", rating=1900, fide_rating=1850, fide_id="1000001", sex="w",
             title="wf", birth_date=dt.date(1990, 3, 7), knsb_number="8000001"),
        dict(name="Jan van den Berg", rating=1800, fide_rating=1790, fide_id="1000002", sex="m",
             federation="BEL", knsb_number="8000002"),
        dict(name="Piet Jansen", rating=1700, knsb_number="8000003"),
        dict(name="Kees Mulder", rating=1600, fide_rating=None),
    ]
    for d in details:
        member = f.member(name=d.pop("name"), rating=d.pop("rating"))
        for key, value in d.items():
            setattr(member, key, value)
        member.save()
        swiss.entrant_add(actor=people["leader"], event=blitz, member=member)
    blitz.refresh_from_db()
    play_round(people["arbiter"], blitz, lambda g: (1, 0, False))
    return swiss.event_to_trf(blitz)


def test_the_event_export_is_a_trf_a_rating_officer_can_submit(blitz, people, tmp_path):
    import trf as pypi_trf
    from py4swiss.trf import TrfParser

    text = _blitz_for_rating(blitz, people, trf_rating="fide")
    parsed = trf.parse(text)
    assert text.endswith("\r\n") and text.count("\r") == text.count("\n")
    assert [parsed.header(c) for c in ("012", "022", "032", "042", "052", "102")] == [
        "Blitz 2027", "Utrecht", "NED", "2027/06/11", "2027/06/11", "Haan, Yvonne de"]
    assert parsed.header("132").strip() == "27/06/11"
    by_name = {p.name: p for p in parsed.players}
    assert set(by_name) == {"De Haan, Yvonne", "Van den Berg, Jan", "Jansen, Piet", "Mulder, Kees"}
    yvonne, jan, piet = by_name["De Haan, Yvonne"], by_name["Van den Berg, Jan"], by_name["Jansen, Piet"]
    assert (yvonne.rating, yvonne.fide_id, yvonne.sex, yvonne.title, yvonne.birth_date, yvonne.federation) == (
        1850, "1000001", "w", "WFM", "1990/03/07", "NED")
    assert (jan.rating, jan.fide_id, jan.federation, jan.birth_date) == (1790, "1000002", "BEL", "")
    assert (piet.rating, piet.fide_id) == (0, "")  # his KNSB rating and number are not FIDE's
    assert parsed.national == ()
    # py4swiss (strict, without 132: it reads round dates nine columns apart) and trf.
    path = tmp_path / "event.trf"
    path.write_text("\n".join(ln for ln in text.splitlines() if not ln.startswith("132")) + "\n")
    strict = TrfParser.parse(path, strict=True)
    assert sorted(p.fide_rating or 0 for p in strict.player_sections) == [0, 0, 1790, 1850]
    two_letter = text.replace("wWFM De Haan", "w FM De Haan")  # the trf package reads two-letter titles only
    read = pypi_trf.loads(two_letter)
    assert (read.city, read.chiefarbiter, read.startdate) == ("Utrecht", "Haan, Yvonne de", "2027/06/11")
    assert sorted((p.name, p.rating, p.id) for p in read.players) == sorted(
        (p.name, p.rating, int(p.fide_id) if p.fide_id else None) for p in parsed.players)


def test_a_knsb_event_export_carries_knsb_ratings_and_numbers_in_nrs_records(blitz, people):
    text = _blitz_for_rating(blitz, people, trf_rating="knsb")
    parsed = trf.parse(text)
    names = {p.number: p.name for p in parsed.players}
    assert parsed.header("172") == "NED NRO"  # the start follows the KNSB rating (the default)
    national = {names[r.number]: (r.rating, r.national_id) for r in parsed.national}
    assert national == {"De Haan, Yvonne": (1900, "8000001"), "Van den Berg, Jan": (1800, "8000002"),
                        "Jansen, Piet": (1700, "8000003"), "Mulder, Kees": (1600, "")}
    assert sorted(p.rating for p in parsed.players) == [0, 0, 1790, 1850]
    assert sorted(p.fide_id for p in parsed.players) == ["", "", "1000001", "1000002"]


def test_a_member_name_with_a_line_break_never_forges_a_trf_record(blitz, people):
    member = f.member(name="Eve\n001    9 m    Forged")
    swiss.entrant_add(actor=people["leader"], event=blitz, member=member)
    for _ in range(3):
        swiss.entrant_add(actor=people["leader"], event=blitz, member=f.member())
    blitz.refresh_from_db()
    play_round(people["arbiter"], blitz, lambda g: (1, 0, False))
    with pytest.raises(ValidationError, match=r"player 1 name contains control characters \(U\+000A\)"):
        swiss.event_to_trf(blitz)


def test_a_rapid_event_has_no_trf(rapid):
    with pytest.raises(ValidationError, match="do not fit"):
        swiss.event_to_trf(rapid)


def three_way_tie_trf() -> str:
    """Four players, a round robin: Anna, Bram and Cees draw each other and beat Dirk."""
    r = trf.TrfRound
    rounds = {
        1: (r(4, "w", "1"), r(3, "w", "="), r(2, "b", "="), r(1, "b", "0")),
        2: (r(3, "b", "="), r(4, "b", "1"), r(1, "w", "="), r(2, "w", "0")),
        3: (r(2, "w", "="), r(1, "b", "="), r(4, "w", "1"), r(3, "b", "0")),
    }
    names = ["Anna Tie", "Bram Tie", "Cees Tie", "Dirk Last"]
    players = tuple(
        trf.TrfPlayer(number=i + 1, name=name, rating=2000 - 100 * i,
                      points=Fraction(0) if i == 3 else Fraction(2),
                      rounds=tuple(rounds[n][i] for n in (1, 2, 3)))
        for i, name in enumerate(names)
    )
    return trf.write(trf.TrfFile((("012", "Old blitz"), ("XXR", "3")), players))


def test_imported_trf_with_a_three_way_tie_gets_a_playoff_with_a_resting_player(people):
    season = f.season(players=0)
    for name in ("Anna Tie", "Bram Tie", "Cees Tie", "Dirk Last"):
        f.member(name=name)
    event = swiss.event_from_trf(actor=people["leader"], season=season, text=three_way_tie_trf(),
                                 name="Old blitz")
    assert event.kind == "blitz" and event.rounds == 3
    rows = swiss.event_standings(event)
    assert [r.rank for r in rows] == [1, 1, 1, 4] and sum(r.needs_decider for r in rows) == 3
    playoff = swiss.blitz_playoff_create(actor=people["arbiter"], event=event)
    assert playoff.rounds == 6
    assert_double_round_robin(playoff)
    for rnd in playoff.round_set.all():  # three players: one rests every round
        assert rnd.games.count() == 1 and rnd.present.count() == 2


def test_bad_trf_is_refused_with_the_line_and_nothing_is_created(people):
    season = f.season(players=0)
    with pytest.raises(ValidationError, match="line 2"):
        swiss.event_from_trf(actor=people["leader"], season=season,
                             text="012 X\n001    1      Nobody\n", name="Broken")
    with pytest.raises(ValidationError, match="No member with the name: Anna Tie"):
        swiss.event_from_trf(actor=people["leader"], season=season, text=three_way_tie_trf(),
                             name="Unknown players")
    assert not SwissEvent.objects.filter(season=season).exists()


@pytest.mark.parametrize(
    ("anna", "bram", "words"),
    [
        ("   2 w 1", "   1 b -", "round 1: result “1” of 1 does not match “-” of 2"),
        ("   2 b 1", "   1 w -", "round 1: result “1” of 1 does not match “-” of 2"),
        ("   2 w +", "   1 b 0", "round 1: result “+” of 1 does not match “0” of 2"),
        ("   2 w 1", "   1 w 0", "round 1: 1 and 2 both have white"),
    ],
)
def test_a_trf_with_contradictory_results_is_refused_with_line_and_round(people, anna, bram, words):
    season = f.season(players=0)
    for name in ("Anna Tie", "Bram Tie"):
        f.member(name=name)
    text = (
        "012 Contradictions\nXXR 1\n"
        f"001    1      {'Anna Tie':<33} 1800 NED {'':>11} {'':10}  1.0    1  {anna}\n"
        f"001    2      {'Bram Tie':<33} 1700 NED {'':>11} {'':10}  0.0    2  {bram}\n"
    )
    with pytest.raises(ValidationError) as error:
        swiss.event_from_trf(actor=people["leader"], season=season, text=text, name="Contradictions")
    assert f"line 3: {words}" in error.value.messages[0]
    assert not SwissEvent.objects.filter(season=season).exists()
    assert not SwissEntrant.objects.filter(event__season=season).exists()


def test_a_trf_with_comment_lines_is_imported(people):
    season = f.season(players=0)
    for name in ("Anna Tie", "Bram Tie", "Cees Tie", "Dirk Last"):
        f.member(name=name)
    text = "### TRF-2026 comment\n" + three_way_tie_trf().replace("XXR 3\n", "XXR 3\n### players\n")
    event = swiss.event_from_trf(actor=people["leader"], season=season, text=text, name="Commented")
    assert event.entrants.count() == 4 and event.rounds == 3


def test_an_imported_trf_keeps_its_date_and_its_export_writes_it_back(people):
    # Before: 042 was ignored, the event had no date and its export dropped 042/052/132.
    season = f.season(players=0)
    for name in ("Anna Tie", "Bram Tie", "Cees Tie", "Dirk Last"):
        f.member(name=name)
    text = three_way_tie_trf().replace("XXR 3", "042 2027/06/11\nXXR 3")
    event = swiss.event_from_trf(actor=people["leader"], season=season, text=text, name="Dated")
    assert event.date == dt.date(2027, 6, 11)
    again = trf.parse(swiss.event_to_trf(event))
    assert (again.header("042"), again.header("052")) == ("2027/06/11", "2027/06/11")
    assert again.header("132") is not None


@pytest.mark.parametrize("record", ["2019/06/11", "2027/13/40", "11-06-2027", ""])
def test_an_imported_trf_dated_outside_the_season_or_unreadably_keeps_no_date(people, record):
    season = f.season(players=0)
    for name in ("Anna Tie", "Bram Tie", "Cees Tie", "Dirk Last"):
        f.member(name=name)
    text = three_way_tie_trf().replace("XXR 3", f"042 {record}\nXXR 3")
    event = swiss.event_from_trf(actor=people["leader"], season=season, text=text, name="Old")
    assert event.date is None and event.entrants.count() == 4


# --- Idempotence, conflicts, bad input, permissions -------------------------------------


@pytest.fixture
def paired_blitz(blitz, people):
    enter(blitz, people["leader"], 6)
    rnd = swiss.round_open(actor=people["arbiter"], event=blitz)
    return swiss.round_pair(actor=people["arbiter"], round=rnd)


def test_pairing_a_round_twice_pairs_it_once(paired_blitz, people):
    games = list(paired_blitz.games.values_list("pk", flat=True))
    again = swiss.round_pair(actor=people["arbiter"], round=paired_blitz)
    assert again.status == RoundStatus.PAIRED
    assert list(again.games.values_list("pk", flat=True)) == games
    assert AuditRecord.objects.filter(action="event.round_pair").count() == 1


def test_opening_twice_gives_the_same_round_and_a_paired_round_must_be_finished_first(blitz, people):
    arbiter = people["arbiter"]
    enter(blitz, people["leader"], 4)
    first = swiss.round_open(actor=arbiter, event=blitz)
    assert swiss.round_open(actor=arbiter, event=blitz) == first
    swiss.round_pair(actor=arbiter, round=first)
    with pytest.raises(ValidationError, match="Finish round 1"):
        swiss.round_open(actor=arbiter, event=blitz)
    with pytest.raises(ValidationError, match="Boards without a result: 1, 2"):
        swiss.round_finish(actor=arbiter, round=first)


def test_a_stale_result_is_a_conflict_showing_the_current_value(paired_blitz, people):
    game = paired_blitz.games.filter(black__isnull=False).first()
    swiss.game_result_set(actor=people["arbiter"], game=game, white_points=1, black_points=0,
                          expected_version=1)
    with pytest.raises(swiss.Conflict, match="1-0") as exc:
        swiss.game_result_set(actor=people["leader"], game=game, white_points=0, black_points=1,
                              expected_version=1)
    assert exc.value.current.white_points == 1
    game.refresh_from_db()
    assert (game.white_points, game.black_points, game.version) == (1, 0, 2)


@pytest.mark.parametrize(
    ("white", "black", "forfeit", "message"),
    [
        (1, 1, False, "add up to 1"),
        (HALF, 0, False, "add up to 1"),
        (HALF, HALF, True, "forfeit"),
        (2, -1, False, "0 to 1"),
        ("x", 0, False, "not a number"),
    ],
)
def test_blitz_points_that_do_not_add_up_are_refused_and_nothing_saved(
    paired_blitz, people, white, black, forfeit, message
):
    game = paired_blitz.games.filter(black__isnull=False).first()
    with pytest.raises(ValidationError, match=message):
        swiss.game_result_set(actor=people["arbiter"], game=game, white_points=white,
                              black_points=black, forfeit=forfeit, expected_version=1)
    game.refresh_from_db()
    assert (game.white_points, game.version) == (None, 1)
    assert not AuditRecord.objects.filter(action="event.game_result").exists()


def test_rapid_match_points_add_up_to_two_and_a_double_forfeit_is_zero_zero(rapid, people):
    enter(rapid, people["leader"], 4)
    evening = rapid.season.evenings.filter(kind="rapid").first()
    rnd = swiss.round_open(actor=people["arbiter"], event=rapid, evening=evening)
    swiss.presence_set(actor=people["arbiter"], round=rnd, entrant_ids=rapid.entrants.values_list("pk", flat=True))
    rnd = swiss.round_pair(actor=people["arbiter"], round=rnd)
    one, two = rnd.games.all()
    with pytest.raises(ValidationError, match="add up to 2"):
        swiss.game_result_set(actor=people["arbiter"], game=one, white_points="1.5",
                              black_points=1, expected_version=1)
    swiss.game_result_set(actor=people["arbiter"], game=one, white_points=Decimal("1.5"),
                          black_points=Decimal("0.5"), expected_version=1)
    swiss.game_result_set(actor=people["arbiter"], game=two, white_points=0, black_points=0,
                          forfeit=True, expected_version=1)
    swiss.round_finish(actor=people["arbiter"], round=rnd)
    t = sel.event_tournament(rapid)
    two.refresh_from_db()
    assert {t.entrant(two.white.number).results[0].kind, t.entrant(two.black.number).results[0].kind} == {
        Kind.FORFEIT_LOSS
    }
    assert t.entrant(one.white.number).score == Fraction(3, 2)


def test_entering_a_member_twice_is_refused_with_a_message(rapid, people):
    member = f.member()
    swiss.entrant_add(actor=people["leader"], event=rapid, member=member)
    with pytest.raises(ValidationError, match="entered already"):
        swiss.entrant_add(actor=people["leader"], event=rapid, member=member)
    assert SwissEntrant.objects.filter(event=rapid).count() == 1


def test_an_event_name_is_unique_in_its_season(rapid, people):
    with pytest.raises(ValidationError, match="name already"):
        swiss.event_create(actor=people["leader"], season=rapid.season, kind="blitz", name="Rapid winter")


def test_presence_only_for_entrants_of_the_event_and_only_before_pairing(blitz, rapid, people):
    arbiter = people["arbiter"]
    entrants = enter(blitz, people["leader"], 4)
    stranger = swiss.entrant_add(actor=people["leader"], event=rapid, member=f.member())
    rnd = swiss.round_open(actor=arbiter, event=blitz)
    with pytest.raises(ValidationError, match="Only entrants of this event"):
        swiss.presence_set(actor=arbiter, round=rnd, entrant_ids=[entrants[0].pk, stranger.pk])
    assert rnd.present.count() == 4  # a blitz round starts with everybody entered present
    swiss.round_pair(actor=arbiter, round=rnd)
    with pytest.raises(ValidationError, match="paired already"):
        swiss.presence_set(actor=arbiter, round=rnd, entrant_ids=[entrants[0].pk])


def test_a_player_cannot_pair_enter_results_or_create_events(paired_blitz, people):
    player = f.member()
    event = paired_blitz.event
    game = paired_blitz.games.filter(black__isnull=False).first()
    with pytest.raises(PermissionDenied):
        swiss.round_pair(actor=player, round=paired_blitz)
    with pytest.raises(PermissionDenied):
        swiss.game_result_set(actor=player, game=game, white_points=1, black_points=0, expected_version=1)
    with pytest.raises(PermissionDenied):
        swiss.event_create(actor=player, season=event.season, kind="blitz", name="Mine")
    with pytest.raises(PermissionDenied):
        swiss.entrant_add(actor=player, event=event, member=player)
    game.refresh_from_db()
    assert game.white_points is None


def test_every_write_is_audited(paired_blitz):
    actions = set(AuditRecord.objects.values_list("action", flat=True))
    assert {"event.create", "event.entrant_add", "event.round_open", "event.round_pair"} <= actions


@pytest.mark.django_db(transaction=True)
def test_two_arbiters_pairing_the_same_round_at_once_pair_it_once():
    """On PostgreSQL four threads race for the round's row lock; the first pairs, the others
    wait and find it paired. SQLite has no row locks, so there they run one after another
    (see test_pairing_job for why) and check the status guard without the race."""
    leader, arbiter = f.leader(), f.arbiter()
    event = swiss.event_create(actor=leader, season=f.season(players=0), kind="blitz", name="Race")
    enter(event, leader, 8)
    rnd = swiss.round_open(actor=arbiter, event=event)
    outcomes: list[object] = []
    concurrent = connection.vendor == "postgresql"

    def job() -> None:
        try:
            outcomes.append(swiss.round_pair(actor=arbiter, round=rnd).status)
        except Exception as exc:  # reported by the assertion below
            outcomes.append(exc)
        finally:
            if concurrent:
                connections.close_all()

    if concurrent:
        start = threading.Barrier(4)
        # Each thread in the test's club (a new thread starts with no club).
        threads = [threading.Thread(target=contextvars.copy_context().run,
                                    args=(lambda: (start.wait(), job()),)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    else:
        for _ in range(4):
            job()
    assert outcomes == [RoundStatus.PAIRED] * 4
    assert SwissGame.objects.filter(round=rnd).count() == 4
    assert AuditRecord.objects.filter(action="event.round_pair").count() == 1
