"""Each rule lives once (issue 22): the callers of a pure rule say what the rule says, on
the cases where a restated copy would differ (the deadline's own minute, a club-team
match on the ladder), and a button is offered exactly when its service takes it."""

import datetime as dt
import re
import string

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from competition.models import AuditRecord, Game, Registration
from competition.pages.consequences import late_sign_offs
from competition.prizes import selectors as prize_selectors
from competition.season import services
from competition.season.engine.signup import Refusal, decide_signup
from competition.season.standings import recalculate_season
from competition.season.texts import refusal_texts
from members.clubs.memo import home_club
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
HOUR = dt.timedelta(hours=1)


@pytest.fixture
def at(monkeypatch):
    def set_(moment: dt.datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: moment)

    return set_


def signed_in(client, user):
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def fixed_player(s):
    return s.players.filter(kind="fixed").select_related("member").order_by("start").first()


# --- "Late": one definition, the deadline's own minute included ---------------------------


def test_at_the_deadline_itself_every_caller_says_late(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[3]
    me = fixed_player(s)
    at(evening.deadline)  # exactly the deadline: late (docs/rules.md 3)
    decision = decide_signup(fixed=True, requested="absent_with_notice", now=evening.deadline,
                             deadline=evening.deadline, by_leader=False)
    assert decision.late and decision.status == "absent_without_notice"
    # The warning before the sign-off says so ...
    assert late_sign_offs(me, [evening], "absent_with_notice", evening.deadline)
    # ... the sign-up page marks the deadline passed ...
    page = signed_in(client, me.member).get(reverse("competition:signup")).content.decode()
    row = page[page.index(f'value="{evening.pk}"'):]
    assert '<span class="badge warn">passed</span>' in row[:row.index("</tr>")]
    # ... the service saves what the engine decided, and the audit calls it late.
    client.post(reverse("competition:signup"),
                {"evenings": [str(evening.pk)], "status": "absent_with_notice", "confirm": "1"})
    assert Registration.objects.get(player=me, evening=evening).status == "absent_without_notice"
    assert AuditRecord.objects.get(player=me, action="registration.set").after["late"] is True


def test_a_club_duty_request_at_the_deadline_is_late_in_the_audit(at):
    s = f.season(players=4)
    evening = f.playing_evenings(s)[2]
    me = fixed_player(s)
    services.club_duty_request(actor=me.member, player=me, evening=evening, now=evening.deadline)
    assert AuditRecord.objects.get(player=me, action="club_duty.request").after["late"] is True
    assert Registration.objects.get(player=me, evening=evening).status == "absent_without_notice"


# --- Eligibility on the ladder: the club-team matches count, in the message too ----------


def test_the_ladder_consequence_counts_the_exempted_club_team_matches_as_the_engine_does(at):
    s = f.season(system="ladder", players=4)
    evenings = f.playing_evenings(s)
    leader = f.leader()
    me = fixed_player(s)
    for n, evening in enumerate(evenings[:3]):
        if n:  # the first evening he plays; the next two he plays for a club team
            services.registration_set(actor=leader, player=me, evenings=[evening],
                                      status="club_duty", now=evening.deadline - HOUR)
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                 now=evening.deadline)
        for game in Game.objects.filter(evening=evening):
            services.result_set(actor=leader, game=game, result="1-0", before_start=True)
    recalculate_season(s.pk, today=evenings[2].date)
    half = evenings[0].half
    computed = prize_selectors.eligibility(half, today=evenings[2].date)[me.pk]
    assert (computed.games, computed.exempted) == (1, 2)
    later = evenings[5]
    with override("en"):
        [found] = late_sign_offs(me, [later], "absent_with_notice", later.deadline + HOUR)
    text = " ".join(found.lines)
    assert f"you have {computed.games + computed.exempted}: 1 played and 2 club-team matches" in text


# --- can_register: the home page's button and the service agree --------------------------


@pytest.mark.parametrize("moment", ["before", "at", "after"])
def test_the_home_pages_buttons_are_what_the_service_takes(client, at, moment):
    s = f.season(players=6, flexible=2)
    evenings = f.playing_evenings(s)[:4]
    first = evenings[0]
    now = {"before": first.deadline - HOUR, "at": first.deadline,
           "after": first.deadline + HOUR}[moment]
    at(now)
    for player in s.players.select_related("member"):
        page = signed_in(client, player.member).get(reverse("competition:home")).content.decode()
        for evening in evenings:
            status = Registration.objects.filter(player=player, evening=evening).values_list(
                "status", flat=True).first() or ("present" if player.is_fixed else "absent_without_notice")
            wanted = ("absent_with_notice" if player.is_fixed else "absent_without_notice") \
                if status == "present" else "present"
            shown = f'name="evenings" value="{evening.pk}"' in page
            try:
                with transaction.atomic():
                    services.registration_set(actor=player.member, player=player,
                                              evenings=[evening], status=wanted, now=now)
                    raise _Rollback
            except _Rollback:
                taken = True
            except ValidationError:
                taken = False
            assert shown == taken, (player, evening, wanted, moment)


class _Rollback(Exception):
    pass


# --- Error codes: every refusal of the pure rules has its sentence ------------------------


def _code_tables():
    from competition.events.engine.dutch import BlitzRefusal
    from competition.events.engine.trf import TrfRefusal
    from competition.events.services import blitz_refusal_texts
    from competition.events.texts import trf_refusal_texts
    from competition.scoring.params import ParamRefusal
    from competition.season.engine.calendar import CalendarRefusal
    from competition.season.texts import calendar_refusal_texts, parameter_refusal_texts

    return [(Refusal, refusal_texts), (CalendarRefusal, calendar_refusal_texts),
            (BlitzRefusal, blitz_refusal_texts), (ParamRefusal, parameter_refusal_texts),
            (TrfRefusal, trf_refusal_texts)]


@pytest.mark.parametrize("codes, texts", _code_tables(), ids=lambda v: getattr(v, "__name__", ""))
def test_every_code_of_the_pure_rules_has_a_dutch_sentence(codes, texts):
    with override("nl"):
        dutch = texts()
    with override("en"):
        english = texts()
    assert set(dutch) == set(codes)
    for code, text in dutch.items():
        assert text != english[code], f"{code.name} has no Dutch translation"


@pytest.mark.parametrize("codes, texts", _code_tables(), ids=lambda v: getattr(v, "__name__", ""))
def test_every_dutch_sentence_fills_in_only_the_parameters_of_its_code(codes, texts):
    """The engine's English text names its parameters ({round}); the Dutch sentence names
    only those (%(round)s), or wording the refusal would fail. The TRF reader's sentences
    name all of them: each value points at what to correct in the file."""
    with override("nl"):
        dutch = texts()
    for code, text in dutch.items():
        engine = {name for _, name, _, _ in string.Formatter().parse(code.value) if name}
        named = set(re.findall(r"%\((\w+)\)s", text))
        assert named <= engine, code.name
        if codes.__name__ == "TrfRefusal":
            assert named == engine, code.name


def test_every_field_a_trf_refusal_names_has_its_word():
    from competition.events.engine.trf import TrfField
    from competition.events.texts import trf_field_texts

    with override("nl"):
        assert set(trf_field_texts()) == set(TrfField)
        assert trf_field_texts()[TrfField.START_NUMBER] == "startnummer"


def test_a_refused_sign_up_is_said_in_dutch(client, at):
    s = f.season(players=4, flexible=1)
    evening = f.playing_evenings(s)[1]
    flexible = s.players.get(kind="flexible")
    with override("nl"), pytest.raises(ValidationError) as refused:
        services.registration_set(actor=flexible.member, player=flexible, evenings=[evening],
                                  status="absent_with_notice", now=evening.deadline - HOUR)
    assert "Als flexibele speler meld je je aan of niet" in refused.value.messages[0]


# --- can_request_tempo: the tempo page's form and the service agree ------------------------


@pytest.mark.parametrize("state", ["open", "not_published", "started", "result", "requested", "decided"])
def test_the_tempo_form_is_offered_exactly_when_the_service_takes_the_request(client, at, state):
    from competition.models import Evening, Tempo
    from pairing import services as pairing_services

    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    pairing_services.evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                              now=evening.deadline)
    game = Game.objects.select_related("evening", "white__member", "black__member").get(
        evening=evening, board=1)
    now = evening.starts_at - HOUR
    if state == "not_published":
        Evening.objects.filter(pk=evening.pk).update(status="open")
    elif state == "started":
        now = evening.starts_at
    elif state == "result":
        Game.objects.filter(pk=game.pk).update(result="1-0")
    elif state in ("requested", "decided"):
        Game.objects.filter(pk=game.pk).update(
            tempo=Tempo.REQUESTED if state == "requested" else Tempo.REFUSED)
    at(now)
    page = signed_in(client, game.black.member).get(reverse("pairing:tempo_request", args=[game.pk]))
    offered = 'name="opponent_agrees"' in page.content.decode()
    game = Game.objects.select_related("evening").get(pk=game.pk)
    try:  # the last step: a request taken is saved, and nothing is asked after it
        pairing_services.tempo_request(actor=game.black.member, game=game,
                                       opponent_agrees=True, now=now)
        taken = True
    except ValidationError:
        taken = False
    assert offered == taken == (state == "open")


def test_a_refused_calendar_is_said_in_dutch():
    with override("nl"), pytest.raises(ValidationError) as refused:
        services.season_set_up(actor=f.admin(), name="Omgekeerd", opening=dt.date(2027, 7, 1),
                               last_day=dt.date(2026, 9, 1), system="pion", club=home_club())
    assert refused.value.messages == ["Het seizoen moet na de opening eindigen."]


def test_refused_parameters_are_said_in_dutch():
    s = f.season(players=0)
    with override("nl"), pytest.raises(ValidationError) as refused:
        services.competition_set_parameters(actor=f.admin(), competition=s.competition,
                                            system="classic", overrides={"step": -1})
    assert refused.value.message_dict == {"parameters": ["De stap mag niet negatief zijn."]}


def test_saving_an_in_time_sign_off_again_after_the_deadline_keeps_the_notice():
    """Found while putting "late" in one place: the service passed no current status, so
    the engine turned an earlier absence with notice into one without."""
    from competition.models import Attendance, Registration
    from competition.season import services
    from tests import factories as f

    season = f.season(players=4)
    evening = f.playing_evenings(season)[0]
    player = season.players.select_related("member").first()
    services.registration_set(actor=player.member, player=player, evenings=[evening],
                              status=Attendance.ABSENT_WITH_NOTICE,
                              now=evening.deadline - dt.timedelta(days=1))
    services.registration_set(actor=player.member, player=player, evenings=[evening],
                              status=Attendance.ABSENT_WITH_NOTICE,
                              now=evening.deadline + dt.timedelta(hours=1))
    assert Registration.objects.get(evening=evening, player=player).status == Attendance.ABSENT_WITH_NOTICE
