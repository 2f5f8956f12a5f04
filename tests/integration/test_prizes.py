"""Eligibility, overrides and the prizes of a half in the database (docs/rules.md 6).

Seasons are imported from small season files (every evening published, every result in),
so each test states exactly who played when; see docs/prizes.md for the rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from competition.models import (
    AuditRecord,
    EligibilityOverride,
    Game,
    Half,
    Player,
    Prize,
    Season,
)
from competition.prizes import selectors as prize_selectors
from competition.prizes import services as prize_services
from competition.season import seasonio
from competition.season.engine.seasonfile import load_season
from competition.season.standings import recalculate_season
from core.dates import short_day
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.season_factories import season_dict

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

WINTER = [f"2026-{m:02d}-{d:02d}" for m, d in
          [(9, 4), (9, 11), (9, 18), (9, 25), (10, 2), (10, 9), (10, 16), (10, 23), (10, 30), (11, 6)]]


def evening(date: str, present: Sequence[int], n: int = 0, *, half: str = "winter",
            results: dict[tuple[int, int], str] | None = None) -> dict:
    """Round ``n`` of a round robin (circle method) among the players present; the odd one
    out (the last) gets the bye. The lower id plays white and wins unless ``results``
    (keyed by (lower id, higher id)) says otherwise. Fixed players not present are absent
    without notice."""
    order = list(present)
    byes = [order.pop()] if len(order) % 2 else []
    if len(order) > 2:
        rest = order[1:]
        k = n % len(rest)
        order = [order[0], *rest[k:], *rest[:k]]
    games = []
    for i in range(len(order) // 2):
        white, black = sorted((order[i], order[-1 - i]))
        games.append({"white": white, "black": black,
                      "result": (results or {}).get((white, black), "1-0")})
    return {"date": date, "half": half, "games": games, "byes": byes}


def import_season(evenings: Iterable[dict], players: int = 8, *, name: str = "2026-2027",
                  system: str = "pion") -> Season:
    people = [{"id": i, "name": f"Player {i}", "rating": 2200 - 10 * i, "start": i, "fixed": True}
              for i in range(1, players + 1)]
    data = load_season(season_dict(system, players=people, evenings=list(evenings)))
    return seasonio.season_import(actor=None, system=True, data=data, name=name)


def pid(season: Season, file_id: int) -> Player:
    return Player.objects.select_related("member").get(
        season=season, member__email=f"player-{file_id}@import.invalid"
    )


def half(season: Season, kind: str = "winter") -> Half:
    return Half.objects.get(season=season, kind=kind)


def prizes_of(proposal) -> dict[str, int]:
    return {p.kind: int(p.player.member.email.split("-")[1].split("@")[0]) for p in proposal.prizes}


def full_winter(absent: dict[int, set[int]] | None = None, players: int = 8, evenings: int = 10,
                **kwargs) -> list[dict]:
    """Winter evenings (ten), everybody present except ``absent[evening index]``."""
    absent = absent or {}
    return [
        evening(date, [p for p in range(1, players + 1) if p not in absent.get(n, set())], n,
                **kwargs)
        for n, date in enumerate(WINTER[:evenings])
    ]


# --- Eligibility ------------------------------------------------------------------------


def test_player_with_exactly_50_percent_is_eligible_and_below_is_not():
    # Player 7 is away without notice on evenings 6-10 (5 of 10: exactly 50%), player 8 on
    # evenings 5-10 (40%).
    absent = {n: {8} for n in range(4, 5)} | {n: {7, 8} for n in range(5, 10)}
    season = import_season(full_winter(absent))
    found = prize_selectors.eligibility(half(season))
    seventh, eighth = found[pid(season, 7).pk], found[pid(season, 8).pk]
    assert (seventh.evenings, seventh.absent_without_notice, seventh.eligible) == (10, 5, True)
    assert (eighth.absent_without_notice, eighth.eligible) == (6, False)
    assert prize_selectors.eligibility_marks(half(season))[pid(season, 8).pk] is False
    assert prize_selectors.eligibility_detail(half(season), pid(season, 7)).absent_without_notice == 5


def test_eligibility_query_count_is_fixed(django_assert_max_num_queries):
    small = import_season(full_winter(players=6), players=6, name="small")
    big = import_season(full_winter(players=24), players=24, name="big")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        prize_selectors.eligibility(half(small))
    with django_assert_max_num_queries(len(ctx.captured_queries)):
        assert len(prize_selectors.eligibility(half(big))) == 24


def test_eligibility_marks_follow_an_override_and_a_recalculation(
    django_capture_on_commit_callbacks,
):
    # The marks are stored with the standings: an override schedules the recalculation
    # that stores them anew, after its commit.
    season = import_season(full_winter({n: {8} for n in range(6)}))
    winter, eighth = half(season), pid(season, 8)
    assert prize_selectors.eligibility_marks(winter)[eighth.pk] is False
    with django_capture_on_commit_callbacks(execute=True):
        prize_services.eligibility_override_set(actor=f.admin(), half=winter, player=eighth,
                                                eligible=True, reason="ill, with a doctor's note")
    assert prize_selectors.eligibility_marks(winter)[eighth.pk] is True
    with django_capture_on_commit_callbacks(execute=True):
        prize_services.eligibility_override_clear(actor=f.admin(), half=winter, player=eighth)
    assert prize_selectors.eligibility_marks(winter)[eighth.pk] is False


def test_eligibility_override_needs_a_reason_and_is_audited():
    season = import_season(full_winter())
    admin, winter, player = f.admin(), half(season), pid(season, 3)
    with pytest.raises(ValidationError, match="reason"):
        prize_services.eligibility_override_set(actor=admin, half=winter, player=player,
                                                eligible=False, reason="  ")
    assert not EligibilityOverride.objects.exists()
    prize_services.eligibility_override_set(actor=admin, half=winter, player=player,
                                            eligible=False, reason="played under a false name")
    record = AuditRecord.objects.filter(action="eligibility.override").get()
    assert record.actor == admin and record.player == player
    assert record.after == {"half": "winter", "eligible": False, "reason": "played under a false name"}


def test_overridden_eligibility_both_ways_changes_the_prizes_and_is_shown(client):
    # With the administrator's 95%, player 2 (away once without notice) is not eligible.
    season = import_season(full_winter({9: {2}}))
    season.competition.eligibility_percentage = 95
    season.competition.save()
    winter = half(season)
    assert prizes_of(prize_selectors.proposed_prizes(winter))["champion"] == 1
    assert 2 not in prizes_of(prize_selectors.proposed_prizes(winter)).values()
    admin = f.admin()
    prize_services.eligibility_override_set(actor=admin, half=winter, player=pid(season, 1),
                                            eligible=False, reason="did not pay the contribution")
    prize_services.eligibility_override_set(actor=admin, half=winter, player=pid(season, 2),
                                            eligible=True, reason="away for the club's youth camp")
    after = prizes_of(prize_selectors.proposed_prizes(winter))
    assert 2 in after.values() and 1 not in after.values()
    found = prize_selectors.eligibility(winter)
    assert found[pid(season, 2).pk].overridden and found[pid(season, 2).pk].eligible
    assert not found[pid(season, 1).pk].eligible
    client.force_login(admin)
    page = client.get(reverse("prizes:manage", args=[season.slug])).content.decode()
    assert "did not pay the contribution" in page and "away for the club&#x27;s youth camp" in page
    assert admin.name in page


# --- The prizes of a half ---------------------------------------------------------------


def test_ineligible_leader_of_the_standings_is_skipped():
    # Player 1 wins every game but is away without notice once (90%); with the
    # administrator's 95% he is not eligible, so the next player is champion.
    season = import_season(full_winter({9: {1}}))
    season.competition.eligibility_percentage = 95
    season.competition.save()
    winter = half(season)
    state = prize_selectors.season_state(season)
    rows = state.standings(winter)
    assert rows[0].player_id == pid(season, 1).pk  # the precondition: he leads
    prizes = prize_selectors.proposed_prizes(winter).prizes
    assert [p.player.pk for p in prizes[:3]] == [r.player_id for r in rows[1:4]]
    assert pid(season, 1).pk not in [p.player.pk for p in prizes]


def _game_score(row) -> float:
    return row.stats.won + row.stats.forfeit_wins + row.stats.drawn / 2


def test_champion_who_is_also_best_game_scorer_gets_only_the_championship():
    season = import_season(full_winter(evenings=7))
    winter = half(season)
    rows = prize_selectors.season_state(season).standings(winter)
    by_kind = {p.kind: p.player.pk for p in prize_selectors.proposed_prizes(winter).prizes}
    best = max(rows, key=_game_score)
    assert best.player_id == by_kind["champion"] == pid(season, 1).pk  # the precondition
    medals = {by_kind["champion"], by_kind["silver"], by_kind["bronze"]}
    rest = [r for r in rows if r.player_id not in medals]
    assert by_kind["best_of_rest"] == max(rest, key=lambda r: (_game_score(r), -r.rank)).player_id
    assert by_kind["best_of_rest"] != by_kind["champion"]


def test_tie_for_best_of_the_rest_goes_to_the_better_standings_place():
    # A round robin in which 5 beats 2: 4 and 5 both score 4, the best outside the medals;
    # 5 beat the higher value, so 5 (who started below 4) is placed above him and wins.
    season = import_season(full_winter(evenings=7, results={(2, 5): "0-1"}))
    winter = half(season)
    rows = {r.player_id: r for r in prize_selectors.season_state(season).standings(winter)}
    fourth, fifth = rows[pid(season, 4).pk], rows[pid(season, 5).pk]
    assert _game_score(fourth) == _game_score(fifth) == 4  # the precondition: a tie
    assert fifth.rank < fourth.rank
    by_kind = {p.kind: p.player.pk for p in prize_selectors.proposed_prizes(winter).prizes}
    assert [by_kind[k] for k in ("champion", "silver", "bronze")] == [
        pid(season, n).pk for n in (1, 2, 3)
    ]
    assert by_kind["best_of_rest"] == fifth.player_id


def test_one_prize_per_player_per_half_is_enforced_by_the_database():
    season = import_season(full_winter())
    winter, member = half(season), pid(season, 1).member
    Prize.objects.create(season=season, half=winter, kind="champion", member=member)
    with pytest.raises(IntegrityError), transaction.atomic():
        Prize.objects.create(season=season, half=winter, kind="best_of_rest", member=member)


def test_one_prize_per_player_per_half_is_enforced_by_the_service(monkeypatch):
    season = import_season(full_winter())
    winter = half(season)
    proposal = prize_selectors.proposed_prizes(winter)
    champion = proposal.prizes[0]
    doubled = prize_selectors.HalfProposal(
        winter, (champion, prize_selectors.ProposedPrize("best_of_rest", 0, champion.player))
    )
    monkeypatch.setattr(prize_selectors, "proposed_prizes", lambda half: doubled)
    with pytest.raises(ValidationError, match="only one prize per half"):
        prize_services.prizes_confirm(actor=f.admin(), half=winter)
    assert not Prize.objects.exists()


def test_prizes_confirm_writes_the_prizes_and_replaces_an_earlier_confirmation(client):
    season = import_season(full_winter())
    winter, admin = half(season), f.admin()
    first = prize_services.prizes_confirm(actor=admin, half=winter)
    assert [p.kind for p in first] == ["champion", "silver", "bronze", "best_of_rest"]
    champion = first[0].member
    prize_services.eligibility_override_set(actor=admin, half=winter,
                                            player=Player.objects.get(season=season, member=champion),
                                            eligible=False, reason="not a member any more")
    again = prize_services.prizes_confirm(actor=admin, half=winter)
    assert Prize.objects.filter(half=winter).count() == 4
    assert champion not in [p.member for p in again]
    assert AuditRecord.objects.filter(action="prizes.confirm").count() == 2
    page = client.get(reverse("prizes:index")).content.decode()
    assert again[0].member.name in page and champion.name not in page


def test_prizes_confirm_is_refused_with_pending_results():
    season = import_season(full_winter())
    winter = half(season)
    game = Game.objects.filter(evening__half=winter).order_by("evening__date", "board").last()
    game.result = ""
    game.save()
    with pytest.raises(ValidationError) as exc:
        prize_services.prizes_confirm(actor=f.admin(), half=winter)
    text = " ".join(exc.value.messages)
    assert "cannot be confirmed yet" in text and f"{short_day(game.evening.date)}, board {game.board}" in text
    assert not Prize.objects.exists()


def test_prizes_confirm_is_refused_while_evenings_are_unplayed():
    s = f.season(players=6)
    first = f.playing_evenings(s, "winter")[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=first.pk, now=first.deadline)
    for game in first.games.all():
        game.result = "1-0"
        game.save()
    recalculate_season(s.pk)
    with pytest.raises(ValidationError, match="Evenings not played yet"):
        prize_services.prizes_confirm(actor=f.admin(), half=half(s))
    assert not Prize.objects.exists()


def test_ladder_season_prizes_and_period_championship(client):
    evenings = [{**evening(d, range(1, 9)), "half": None} for d in WINTER]
    for e in evenings:
        del e["half"]
    season = import_season(evenings, system="ladder", name="ladder")
    season.competition.eligibility_min_games = 10
    season.competition.save()
    proposal = prize_selectors.proposed_prizes(half(season, "season"))
    kinds = [(p.kind, p.group) for p in proposal.prizes]
    assert kinds[:3] == [("champion", 0), ("silver", 0), ("bronze", 0)]
    assert {g for k, g in kinds if k == "period_champion"} == {1, 2, 3, 4}
    admin = f.admin()
    client.force_login(admin)
    page = client.get(reverse("prizes:manage", args=[season.slug]))
    assert page.status_code == 200 and b"progress" in page.content
    created = prize_services.prizes_confirm(actor=admin, half=half(season, "season"))
    assert len(created) == 7


def test_the_period_champions_progress_has_a_decimal_comma_in_dutch(client):
    # Before: "progressie +12.39" on the Dutch page.
    evenings = [{**evening(d, range(1, 9)), "half": None} for d in WINTER]
    for e in evenings:
        del e["half"]
    season = import_season(evenings, system="ladder", name="ladder")
    client.force_login(f.admin())
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    page = client.get(reverse("prizes:manage", args=[season.slug])).content.decode()
    notes = re.findall(r"progressie ([+-]?[\d.,]+)", page)
    assert notes and all("," in n and "." not in n for n in notes), notes


# --- Permissions and pages --------------------------------------------------------------


def test_players_may_not_override_or_confirm_and_nothing_is_saved(client):
    season = import_season(full_winter())
    winter, player = half(season), f.member()
    with pytest.raises(PermissionDenied):
        prize_services.eligibility_override_set(actor=player, half=winter, player=pid(season, 1),
                                                eligible=False, reason="x")
    with pytest.raises(PermissionDenied):
        prize_services.prizes_confirm(actor=player, half=winter)
    with pytest.raises(PermissionDenied):
        prize_services.prizes_confirm(actor=f.leader(), half=winter)
    client.force_login(player)
    assert client.get(reverse("prizes:manage", args=[season.slug])).status_code == 403
    response = client.post(reverse("prizes:confirm", args=[season.slug]), {"half": winter.pk})
    assert response.status_code == 403
    response = client.post(reverse("prizes:override", args=[season.slug]),
                           {"half": winter.pk, "player": pid(season, 1).pk, "eligible": "0",
                            "reason": "x"})
    assert response.status_code == 403
    assert not Prize.objects.exists() and not EligibilityOverride.objects.exists()


def test_administrator_overrides_and_confirms_through_the_manage_page(client):
    season = import_season(full_winter())
    winter = half(season)
    client.force_login(f.admin())
    page = client.get(reverse("prizes:manage", args=[season.slug]))
    assert page.status_code == 200 and b"Player 8" in page.content
    client.post(reverse("prizes:override", args=[season.slug]),
                {"half": winter.pk, "player": pid(season, 1).pk, "eligible": "0",
                 "reason": "withdrew from the club"})
    assert EligibilityOverride.objects.get().reason == "withdrew from the club"
    client.post(reverse("prizes:confirm", args=[season.slug]), {"half": winter.pk})
    assert Prize.objects.filter(half=winter).count() == 4
    assert not Prize.objects.filter(member=pid(season, 1).member).exists()
    public = client.get(reverse("prizes:season", args=[season.slug]))
    assert public.status_code == 200 and b"Player 2" in public.content


def _count(client, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(ctx.captured_queries)


def _confirmed_season(players: int, name: str) -> Season:
    season = import_season(full_winter(players=players), players=players, name=name)
    admin = f.admin()
    winter = half(season)
    for n in range(1, players + 1, 2):
        prize_services.eligibility_override_set(actor=admin, half=winter, player=pid(season, n),
                                                eligible=True, reason=f"reason {n}")
    prize_services.prizes_confirm(actor=admin, half=winter)
    return season


def test_prize_page_query_counts_do_not_grow_with_the_club(client, django_assert_max_num_queries):
    client.force_login(f.admin())
    small = _confirmed_season(6, "small")
    paths = {
        "index": lambda s: reverse("prizes:season", args=[s.slug]),
        "manage": lambda s: reverse("prizes:manage", args=[s.slug]),
    }
    counts = {name: _count(client, path(small)) for name, path in paths.items()}
    big = _confirmed_season(30, "big")
    for name, path in paths.items():
        client.get(path(big))
        with django_assert_max_num_queries(counts[name]):
            assert client.get(path(big)).status_code == 200


def test_eligibility_marks_cost_one_query_once_cached(django_assert_num_queries):
    season = import_season(full_winter())
    winter = half(season)
    first = pid(season, 1)
    computed = prize_selectors.eligibility_marks(winter)
    with django_assert_num_queries(1):
        assert prize_selectors.eligibility_marks(winter) == computed
    with django_assert_num_queries(1):
        assert prize_selectors.eligibility_detail(winter, first).eligible


def test_the_manage_pages_eligibility_tooltip_is_said_in_dutch_not_the_engines_english(client):
    season = import_season(full_winter())
    client.force_login(f.admin())
    page = client.get(reverse("prizes:manage", args=[season.slug]),
                      HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "not absent without notice on" not in page  # the engine's own (English) reason
    assert "afwezig zonder bericht" in page.split("<tbody>", 1)[1]
