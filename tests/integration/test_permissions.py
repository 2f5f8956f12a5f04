"""Who may do what: every page and every write against the five roles, as one table.

``MATRIX`` below is the whole policy. A row is a URL name with its method and arguments;
its five columns are what a visitor, a player (speler1), the arbiter, the leader and the
administrator get. Each cell is one test (``test_permission_matrix[<row>-<role>]``).

A sixth role, ``registered`` (a public registration the leader has not accepted yet:
signed in, no member), follows from the row by one rule, written out where it differs
(``registered=``): he gets what a visitor gets on a public page, what a player gets where
a player is refused, and 403 where a visitor is sent to sign in (the page is for members).

Outcomes:

- ``200``, ``403``, ``404``, ``405``: the status code;
- ``LOGIN``: a redirect to the sign-in page (``/accounts/login/?next=...``);
- ``ADMIN_LOGIN``: a redirect to the Django admin's sign-in page;
- ``DONE``: a redirect after the write happened (the row's ``state`` changed);
- ``302``: a redirect after a write that was refused by a rule (not by the role), or a
  page that sends the user elsewhere (the arbiter is not a player of the season).

A write's ``state`` is read before and after the request: for every outcome but ``DONE``
it must not change (a refused write changes nothing), for ``DONE`` it must. To add a page,
add a row; to add a write, give it ``data`` (the form it posts) and ``state``.

The demo club is built once for the module inside a transaction that is rolled back
afterwards; each test runs in a savepoint within it, so a write in one cell is gone in
the next. The club's clock is 30 November 2026, as in ``test_pages.py``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from competition.demo import build_demo
from competition.events import services as swiss
from competition.models import (
    AuditRecord,
    Bye,
    ClubDutyRequest,
    ClubWebsite,
    Competition,
    EligibilityOverride,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Player,
    RatingImport,
    Registration,
    Result,
    Season,
    SwissEntrant,
    SwissEvent,
    SwissGame,
    SwissRound,
    Tempo,
)
from competition.prizes.forms import PLAYOFF_RESULTS
from competition.season import services
from members.models import Club, Membership, User
from pairing import services as tempo
from pairing.services import evening_pair_and_publish
from tests.transactions import rolled_back

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]

TODAY = dt.date(2026, 11, 30)  # a Monday: ten winter evenings played, summer to come
ROLES = ("visitor", "player", "arbiter", "leader", "administrator", "registered")
ACCOUNTS = {
    "registered": "aangemeld@demo.club",
    "player": "speler1@demo.club",
    "arbiter": "arbiter@demo.club",
    "leader": "leider@demo.club",
    "administrator": "beheer@demo.club",
}
GET, POST = "GET", "POST"
LOGIN, ADMIN_LOGIN, DONE = "LOGIN", "ADMIN_LOGIN", "DONE"
DEMO_EMAIL = re.compile(r"[\w.+-]+@demo\.club")


# --- The club the table runs against ------------------------------------------------------


@dataclass
class World:
    """Ids and dates the rows refer to by attribute name."""

    season: str
    past_date: str  # the last evening played (results entered)
    paired: int  # the first summer evening: published by the leader, no results yet
    paired_date: str
    later: int  # the second summer evening: open, players may sign up and off
    past_game: int  # a game with a result, on the last evening played
    my_game: int  # speler1's game on the paired evening, standard tempo
    their_game: int  # a game without speler1 on the paired evening, tempo requested
    me: int  # speler1's player id
    other: int  # another player (speler2)
    unpaired: int  # a flexible player not signed up for the paired evening
    paired_player: int  # a player (not speler1) in a game of the paired evening
    winter: int  # the winter half's id
    live_event: int  # a blitz with round 1 paired and being played
    live_game: int  # a game of that round without a result
    open_event: int  # a blitz with round 1 opened (presence is being marked)
    new_event: int  # a blitz with its entrants and no round yet
    done_event: int  # a blitz with round 1 finished (every white won)
    done_game: int  # board 1 of that finished round
    members: list[int] = field(default_factory=list)  # members not entered in new_event
    trf: str = ""
    duty_request: int = 0  # a pending club duty request for the later evening (of a 4th player)
    other_member: int = 0  # speler2's account (the roles page changes accounts, not players)
    pending: int = 0  # a public registration not yet accepted (the "registered" role)
    my_token: str = ""  # speler1's calendar feed secret
    failed_mail: int = 0  # a club duty decision e-mail the mail server refused 5 times


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    now = timezone.make_aware(dt.datetime.combine(TODAY, dt.time(12)))
    with django_db_blocker.unblock(), rolled_back(), mock.patch(
        "django.utils.timezone.now", return_value=now
    ):
        season = build_demo(today=TODAY)
        leader = User.objects.get(email=ACCOUNTS["leader"])
        arbiter = User.objects.get(email=ACCOUNTS["arbiter"])
        me = Player.objects.get(season=season, member__email=ACCOUNTS["player"])
        other = Player.objects.get(season=season, member__email="speler2@demo.club")
        future = list(
            season.evenings.filter(kind=EveningKind.PLAYING, date__gt=TODAY).order_by("date")
        )
        paired, later = future[0], future[1]
        evening_pair_and_publish(evening_id=paired.pk, actor=leader, now=now)
        games = list(paired.games.order_by("board"))
        my_game = next(g for g in games if me.pk in (g.white_id, g.black_id))
        their_game = next(g for g in games if g is not my_game and other.pk not in
                          (g.white_id, g.black_id))
        tempo.tempo_request(actor=their_game.white.member, game=their_game,
                            opponent_agrees=True, now=now)
        in_games = {p for g in games for p in (g.white_id, g.black_id)}
        unpaired = season.players.exclude(pk__in=in_games).exclude(
            pk__in=Bye.objects.filter(evening=paired).values("player_id")
        ).filter(kind="flexible").first()
        paired_player = their_game.black_id
        past = season.evenings.filter(status=EveningStatus.PUBLISHED, date__lt=TODAY).order_by("-date")[0]
        entrants = [p.member for p in season.players.order_by("start")[:8]]

        def blitz(name: str) -> SwissEvent:
            event = swiss.event_create(actor=leader, season=season, kind="blitz", name=name,
                                       date=dt.date(2027, 6, 11))
            for m in entrants:
                swiss.entrant_add(actor=leader, event=event, member=m)
            return event

        live = blitz("Snelschaak live")
        rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=live))
        opened = blitz("Snelschaak open")
        swiss.round_open(actor=arbiter, event=opened)
        new = blitz("Snelschaak nieuw")
        done = blitz("Snelschaak klaar")
        done_round = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=done))
        for g in done_round.games.filter(black__isnull=False):
            swiss.game_result_set(actor=arbiter, game=g, white_points=1, black_points=0,
                                  expected_version=g.version)
        swiss.round_finish(actor=arbiter, round=done_round)
        asker = season.players.exclude(pk__in=[me.pk, other.pk, unpaired.pk, paired_player]).first()
        duty = services.club_duty_request(actor=asker.member, player=asker, evening=later, now=now)
        # A stranger registered under an existing player's name (issue 23).
        pending = User.objects.create_user(email=ACCOUNTS["registered"], password="x",
                                           name=other.member.name, registration_pending=True)
        from members.accounts.registration import record_registration
        record_registration(pending, season.club)  # it asks to join this club
        from members.accounts.profile import calendar_token
        token = calendar_token(me.member)
        from core.models import Mail, MailState
        failed = Mail.objects.create(key=f"club-duty:{duty.pk}:9", to=[asker.member.email],
                                     subject="Clubtaak", body="-", state=MailState.FAILED,
                                     attempts=5, member=asker.member)
        yield World(
            season=season.slug,
            past_date=past.date.isoformat(),
            paired=paired.pk,
            paired_date=paired.date.isoformat(),
            later=later.pk,
            past_game=past.games.order_by("board").first().pk,
            my_game=my_game.pk,
            their_game=their_game.pk,
            me=me.pk,
            other=other.pk,
            other_member=other.member_id,
            unpaired=unpaired.pk,
            paired_player=paired_player,
            winter=season.halves.get(kind="winter").pk,
            live_event=live.pk,
            live_game=rnd.games.filter(black__isnull=False).order_by("board").first().pk,
            open_event=opened.pk,
            new_event=new.pk,
            done_event=done.pk,
            done_game=done_round.games.get(board=1).pk,
            members=list(
                User.objects.filter(memberships__club=season.club)
                .exclude(entries__event=new).order_by("pk")
                .values_list("pk", flat=True)[:2]
            ),
            trf=swiss.event_to_trf(live),
            duty_request=duty.pk,
            pending=pending.pk,
            my_token=token,
            failed_mail=failed.pk,
        )


# --- What a write posts and what it changes -------------------------------------------------


def _mail_state(w: World) -> tuple:
    from core.models import Mail

    mail = Mail.objects.get(pk=w.failed_mail)
    return (mail.state, mail.attempts)


def registration(player: str, evening: str) -> Callable[[World], Any]:
    return lambda w: list(
        Registration.objects.filter(player_id=getattr(w, player), evening_id=getattr(w, evening))
        .values_list("status", "version")
    )


def game(attr: str) -> Callable[[World], Any]:
    return lambda w: Game.objects.filter(pk=getattr(w, attr)).values(
        "result", "white_id", "black_id", "tempo", "version").first()


def evening_state(attr: str) -> Callable[[World], Any]:
    def state(w: World) -> Any:
        ev = Evening.objects.get(pk=getattr(w, attr))
        return (ev.status, ev.version, ev.kind, ev.note,
                sorted(ev.games.values_list("board", "white_id", "black_id")))
    return state


def seasons(_: World) -> Any:
    return sorted(Season.objects.values_list("slug", flat=True))


def parameters(w: World) -> Any:
    return Competition.objects.filter(season__slug=w.season).values("system", "parameters").first()


def parameters_form(w: World, **changes: str) -> dict:
    """The leader's parameters form as it is shown, with ``changes``."""
    from competition.season.forms import ParametersForm

    competition = Competition.objects.get(season__slug=w.season)
    form = ParametersForm(system=competition.system, parameters=competition.parameters)
    data = {name: f.initial for name, f in form.fields.items() if f.initial not in (None, False)}
    return {**data, "form": "parameters", "system": competition.system, **changes}


def events(_: World) -> Any:
    return sorted(SwissEvent.objects.values_list("name", flat=True))


def swiss_state(attr: str) -> Callable[[World], Any]:
    def state(w: World) -> Any:
        pk = getattr(w, attr)
        rounds = SwissRound.objects.filter(event_id=pk).order_by("number")
        return (
            SwissEvent.objects.filter(pk=pk).values_list("rounds", flat=True).first(),
            [(r.number, r.status, r.version, sorted(r.present.values_list("pk", flat=True)))
             for r in rounds],
            sorted(SwissGame.objects.filter(round__event_id=pk)
                   .values_list("board", "white_points", "black_points", "version")),
            SwissEntrant.objects.filter(event_id=pk).count(),
        )
    return state


def website(_: World) -> Any:
    return list(ClubWebsite.objects.values_list("embed_origins", "version"))


def overrides(_: World) -> Any:
    return sorted(EligibilityOverride.objects.values_list("player_id", "eligible", "reason"))


def player_kind(attr: str) -> Callable[[World], Any]:
    return lambda w: Player.objects.get(pk=getattr(w, attr)).kind


def audit_and(state: Callable[[World], Any]) -> Callable[[World], Any]:
    """Every service writes an audit row: a refused write leaves no trace there either."""
    return lambda w: (state(w), AuditRecord.objects.count())


def club_duty(w: World) -> Any:
    return sorted(ClubDutyRequest.objects.values_list("player_id", "evening_id", "state", "version"))


def next_version(attr: str, model: Any = Game) -> Callable[[World], int]:
    return lambda w: model.objects.get(pk=getattr(w, attr)).version


def pending_state(w: World) -> Any:
    return list(User.objects.filter(pk=w.pending).values_list("registration_pending", "is_active"))


def accounts(_: World) -> Any:
    return sorted(User.objects.values_list("pk", "is_active", "memberships__phone", "memberships__public_as",
                                           "memberships__pairing_mail"))


def memberships(_: World) -> Any:
    """The accounts and every club's memberships: leaving a club ends one of these."""
    from members.models import Membership

    return accounts(_), sorted(Membership.objects.values_list("user_id", "club_id", "role"))


def addresses(_: World) -> Any:
    from allauth.account.models import EmailAddress

    return sorted(EmailAddress.objects.values_list("user_id", "email", "verified"))


def tokens(_: World) -> Any:
    return sorted(User.objects.values_list("pk", "memberships__calendar_token"))


# --- The table ----------------------------------------------------------------------------


@dataclass
class Row:
    name: str  # URL name
    method: str
    args: tuple[str, ...]  # World attributes (or literals with a leading '=')
    visitor: Any
    player: Any
    arbiter: Any
    leader: Any
    administrator: Any
    query: str = ""
    data: Callable[[World], dict] | None = None
    state: Callable[[World], Any] | None = None
    label: str = ""
    registered: Any = None  # None: follows from the row (see the module's docstring)

    def expected(self, role: str) -> Any:
        if role != "registered":
            return getattr(self, role)
        if self.registered is not None:
            return self.registered
        if self.player == 403:
            return 403
        return 403 if self.visitor == LOGIN else self.visitor

    @property
    def id(self) -> str:
        return self.label or f"{self.method} {self.name}"


def _r(name, method, args, v, p, a, le, ad, **kw) -> Row:
    return Row(name, method, tuple(args), v, p, a, le, ad, **kw)


# fmt: off
MATRIX: list[Row] = [
    # URL name                         method args                     visitor      player arbiter leader administrator
    # --- public pages
    _r("competition:home",             GET,  [],                        200,         200,   200,    200,   200),
    _r("competition:standings",        GET,  [],                        200,         200,   200,    200,   200),
    _r("competition:standings",        GET,  [],                        200,         200,   200,    200,   200, query="?all=1", label="GET standings ?all=1"),
    _r("competition:standings",        GET,  [],                        200,         200,   200,    200,   200, query="?export=csv", label="GET standings csv"),
    _r("competition:standings_half",   GET,  ["season", "=summer"],     200,         200,   200,    200,   200),
    _r("competition:evenings",         GET,  [],                        200,         200,   200,    200,   200),
    _r("competition:evening",          GET,  ["past_date"],             200,         200,   200,    200,   200),
    _r("competition:player",           GET,  ["other"],                 200,         200,   200,    200,   200),
    _r("competition:calendar",         GET,  [],                        200,         200,   200,    200,   200),
    _r("competition:crosstable",       GET,  ["season", "=winter"],     200,         200,   200,    200,   200),
    _r("competition:evening_matrix",   GET,  ["season", "=winter"],     200,         200,   200,    200,   200),
    _r("competition:pairing_sheet",    GET,  ["past_date"],             200,         200,   200,    200,   200),
    _r("competition:postponed",        GET,  [],                        200,         200,   200,    200,   200),
    _r("competition:calendar_ics",     GET,  [],                        200,         200,   200,    200,   200),
    _r("competition:rules",            GET,  [],                        200,         200,   200,    200,   200),
    _r("language",                     GET,  ["=en"],                   302,         302,   302,    302,   302),
    _r("events:events",                 GET,  [],                        200,         200,   200,    200,   200),
    _r("events:event",                  GET,  ["live_event"],            200,         200,   200,    200,   200),
    _r("events:round",                  GET,  ["live_event", "=1"],      200,         200,   200,    200,   200),
    _r("events:trf",                    GET,  ["live_event"],            200,         200,   200,    200,   200),
    _r("events:crosstable",             GET,  ["live_event"],            200,         200,   200,    200,   200),
    _r("events:card",                   GET,  ["live_event", "=1"],      200,         200,   200,    200,   200),
    _r("prizes:index",                 GET,  [],                        200,         200,   200,    200,   200),
    _r("prizes:season",                GET,  ["season"],                200,         200,   200,    200,   200),
    _r("prizes:playoffs",              GET,  ["season"],                200,         200,   200,    200,   200),
    # --- the club's own website: the read API, the embeds, the feed (public, GET only)
    _r("api_v1:index",                 GET,  [],                        200,         200,   200,    200,   200),
    _r("api_v1:api-root",              GET,  [],                        200,         200,   200,    200,   200),
    _r("api_v1:index",                 POST, [],                        405,         405,   405,    405,   405),
    _r("api_v1:seasons",               GET,  [],                        200,         200,   200,    200,   200),
    _r("api_v1:standings",             GET,  ["season", "=winter"],     200,         200,   200,    200,   200),
    _r("api_v1:calendar",              GET,  ["season"],                200,         200,   200,    200,   200),
    _r("api_v1:evening",               GET,  ["season", "past_date"],   200,         200,   200,    200,   200),
    _r("api_v1:player",                GET,  ["other"],                 200,         200,   200,    200,   200),
    _r("api_v1:events",                GET,  ["season"],                200,         200,   200,    200,   200),
    _r("api_v1:event",                 GET,  ["done_event"],            200,         200,   200,    200,   200),
    _r("api_v1:round",                 GET,  ["done_event", "=1"],      200,         200,   200,    200,   200),
    _r("api_v1:openapi-json",          GET,  [],                        200,         200,   200,    200,   200),
    _r("api_v1:openapi-view",          GET,  [],                        200,         200,   200,    200,   200),
    _r("website:embed_standings",      GET,  [],                        200,         200,   200,    200,   200),
    _r("website:embed_pairing",        GET,  [],                        200,         200,   200,    200,   200),
    _r("website:embed_results",        GET,  [],                        200,         200,   200,    200,   200),
    _r("website:feed",                 GET,  [],                        200,         200,   200,    200,   200),
    _r("account_login",                GET,  [],                        200,         302,   302,    302,   302, registered=302),
    _r("account_signup",               GET,  [],                        200,         302,   302,    302,   302, registered=302),
    _r("account_reset_password",       GET,  [],                        200,         200,   200,    200,   200),
    # allauth's e-mail page (no password asked) sends to his own (me:email).
    _r("account_email",                GET,  [],                        LOGIN,       302,   302,    302,   302, registered=302),
    # --- a player's own pages and writes
    _r("competition:signup",           GET,  [],                        LOGIN,       200,   302,    302,   302, registered=302),
    _r("competition:signup",           POST, [],                        LOGIN,       DONE,  302,    302,   302, registered=302,
       data=lambda w: {"evenings": [str(w.later)], "status": "absent_with_notice"},
       state=registration("me", "later"), label="POST signup (own status)"),
    _r("competition:signup",           POST, [],                        LOGIN,       DONE,  302,    302,   302, registered=302,
       data=lambda w: {"evenings": [str(w.later)], "status": "request_club_duty"},
       state=audit_and(club_duty), label="POST signup (request club duty)"),
    _r("pairing:tempo_request",        GET,  ["my_game"],               LOGIN,       200,   403,    403,   403),
    _r("pairing:tempo_request",        POST, ["my_game"],               LOGIN,       DONE,  403,    403,   403,
       data=lambda w: {"opponent_agrees": "on"}, state=audit_and(game("my_game"))),
    _r("pairing:tempo_request",        GET,  ["their_game"],            LOGIN,       403,   403,    403,   403,
       label="GET tempo_request (a game he is not in)"),
    _r("pairing:tempo_request",        POST, ["their_game"],            LOGIN,       403,   403,    403,   403,
       data=lambda w: {"opponent_agrees": "on"}, state=audit_and(game("their_game")),
       label="POST tempo_request (a game he is not in)"),
    # --- results
    _r("competition:enter_result",     GET,  ["past_game"],             405,         405,   405,    405,   405),
    _r("competition:enter_result",     POST, ["past_game"],             LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {"result": Result.DOUBLE_FORFEIT, "version": next_version("past_game")(w),
                       "confirm": "1"},  # it has a result: changing it is confirmed
       state=audit_and(game("past_game"))),
    # Undo is for the author of a change, within minutes: nobody here made one.
    _r("competition:undo_result",      POST, ["past_game"],             LOGIN,       403,   302,    302,   302,
       state=audit_and(game("past_game"))),
    # --- the leader's evening pages (pairing/)
    _r("pairing:evenings",             GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("pairing:evening",              GET,  ["paired"],                LOGIN,       403,   403,    200,   200),
    _r("pairing:registration",         POST, ["later"],                 LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"player": w.other, "status": "club_duty"},
       state=audit_and(registration("other", "later"))),
    _r("pairing:registration_bulk",    POST, ["later"],                 LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"players": [w.other], "status": "club_duty"},
       state=audit_and(registration("other", "later"))),
    _r("pairing:player_evenings",      GET,  ["later", "other"],        LOGIN,       403,   403,    200,   200),
    _r("pairing:player_evenings",      POST, ["later", "other"],        LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"evenings": [w.later], "status": "club_duty"},
       state=audit_and(registration("other", "later"))),
    _r("pairing:publish",              POST, ["later"],                 LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"confirm": "1"}, state=audit_and(evening_state("later"))),
    _r("pairing:swap_colours",         POST, ["my_game"],               LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"confirm": "1"}, state=audit_and(game("my_game"))),
    _r("pairing:swap_opponents",       POST, ["paired"],                LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"game_a": w.my_game, "game_b": w.their_game, "confirm": "1"},
       state=audit_and(evening_state("paired"))),
    _r("pairing:undo_correction",      POST, ["paired"],                LOGIN,       403,   403,    302,   302,
       state=audit_and(evening_state("paired")),
       label="POST undo_correction (nothing to undo: refused by rule)"),
    _r("pairing:remove_player",        POST, ["paired"],                LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"player": w.paired_player, "confirm": "1"},
       state=audit_and(evening_state("paired"))),
    _r("pairing:add_player",           POST, ["paired"],                LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"player": w.unpaired}, state=audit_and(evening_state("paired"))),
    _r("pairing:tempo_decide",         POST, ["their_game"],            LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"decision": "approve"}, state=audit_and(game("their_game"))),
    # --- the leader's pages (competition/)
    _r("competition:leader",           GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("competition:leader",           POST, [],                        LOGIN,       403,   403,    403,   DONE,
       data=lambda w: {"name": "2031-2032", "opening": "2031-09-05", "last_day": "2032-07-10",
                       "system": "pion"},
       state=audit_and(seasons), label="POST leader (season set-up)"),
    _r("competition:club_settings",    GET,  [],                        LOGIN,       403,   403,    403,   200),
    _r("competition:club_settings",    POST, [],                        LOGIN,       403,   403,    403,   DONE,
       data=lambda w: {"name": "Schaakclub De Pion", "venue": "Nieuwe zaal", "time_zone": "Europe/Amsterdam",
                       "language": "nl", "deadline_weekday": "3", "deadline_time": "18:00",
                       "start_time": "20:00", "default_system": "pion"},
       state=audit_and(lambda w: sorted(Club.objects.values_list("venue", flat=True)))),
    _r("competition:club_duty_decide", GET,  ["duty_request"],          405,         405,   405,    405,   405),
    _r("competition:club_duty_decide", POST, ["duty_request"],          LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"decision": "approve", "next": "/leader/"}, state=audit_and(club_duty)),
    _r("competition:club_duty_decide", POST, ["duty_request"],          LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"decision": "refuse"}, state=audit_and(club_duty),
       label="POST club_duty_decide (refuse)"),
    _r("competition:audit",            GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("website:leader",               GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("website:leader",               POST, [],                        LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"origins": "https://www.schaakclub.nl"}, state=audit_and(website)),
    _r("competition:leader_season",    GET,  ["season"],                LOGIN,       403,   403,    200,   200),
    _r("competition:leader_season",    POST, ["season"],                LOGIN,       403,   403,    403,   DONE,
       data=lambda w: parameters_form(w, top="20"), state=audit_and(parameters),
       label="POST leader_season (parameters)"),
    _r("competition:leader_evening_update", GET, ["later"],             405,         405,   405,    405,   405),
    _r("competition:leader_evening_update", POST, ["later"],            403,         403,   403,    DONE,  DONE,
       data=lambda w: {"kind": "playing", "half": Evening.objects.get(pk=w.later).half_id,
                       "note": "Zaal B"},
       state=audit_and(evening_state("later"))),
    # --- the leader's calendar edits (issue 31): the confirmed form moves or adds
    _r("competition:leader_evening_move", GET, ["later"],               LOGIN,       403,   403,    200,   200),
    _r("competition:leader_evening_move", POST, ["later"],              LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"action": "move", "start": "20:00", "confirm": "1",
                       "date": (Evening.objects.get(pk=w.later).date + dt.timedelta(days=1)).isoformat()},
       state=audit_and(lambda w: Evening.objects.get(pk=w.later).date)),
    _r("competition:leader_evening_add", GET, ["season"],               LOGIN,       403,   403,    200,   200),
    _r("competition:leader_evening_add", POST, ["season"],              LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"kind": "playing", "start": "20:15", "confirm": "1",
                       "date": (Evening.objects.get(pk=w.later).date + dt.timedelta(days=2)).isoformat()},
       state=audit_and(lambda w: Evening.objects.count())),
    # --- Swiss events: the arbiter's page and the leader's forms
    _r("events:arbiter",                GET,  ["live_event"],            LOGIN,       403,   200,    200,   200),
    _r("events:round_open",             POST, ["new_event"],             LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {}, state=audit_and(swiss_state("new_event"))),
    _r("events:set_rounds",             POST, ["new_event"],             LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {"rounds": 5}, state=audit_and(swiss_state("new_event"))),
    _r("events:presence",               POST, ["open_event", "=1"],      LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {"present": list(SwissEntrant.objects.filter(event_id=w.open_event)
                                       .order_by("number").values_list("pk", flat=True)[:6])},
       state=audit_and(swiss_state("open_event"))),
    _r("events:round_pair",             POST, ["open_event", "=1"],      LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {}, state=audit_and(swiss_state("open_event"))),
    _r("events:game_result",            POST, ["live_event", "live_game"], LOGIN,     403,   DONE,   DONE,  DONE,
       data=lambda w: {"result": "1-0",
                       "version": next_version("live_game", SwissGame)(w)},
       state=audit_and(swiss_state("live_event"))),
    _r("events:round_correct",          GET,  ["done_event", "=1"],      LOGIN,       403,   200,    200,   200),
    _r("events:round_correct",          GET,  ["live_event", "=1"],      LOGIN,       403,   302,    302,   302,
       label="GET round_correct (round not finished: sent to the arbiter's page)"),
    _r("events:game_correct",           POST, ["done_event", "done_game"], LOGIN,     403,   DONE,   DONE,  DONE,
       data=lambda w: {"result": "0-1",
                       "version": next_version("done_game", SwissGame)(w),
                       "confirm": "1"},  # it has a result: changing it is confirmed
       state=audit_and(swiss_state("done_event"))),
    # Undo is for the author of a change, within minutes: nobody here made one.
    _r("events:game_undo",              POST, ["done_event", "done_game"], LOGIN,     403,   302,    302,   302,
       state=audit_and(swiss_state("done_event"))),
    _r("events:game_correct",           POST, ["live_event", "live_game"], LOGIN,     403,   302,    302,   302,
       data=lambda w: {"result": "1-0",
                       "version": next_version("live_game", SwissGame)(w)},
       state=audit_and(swiss_state("live_event")),
       label="POST game_correct (round not finished: refused by rule)"),
    _r("events:round_finish",           POST, ["live_event", "=1"],      LOGIN,       403,   302,    302,   302,
       data=lambda w: {"confirm": "1"}, state=audit_and(swiss_state("live_event")),
       label="POST round_finish (results missing: refused by rule)"),
    _r("events:playoff",                POST, ["live_event"],            LOGIN,       403,   302,    302,   302,
       data=lambda w: {"confirm": "1"}, state=audit_and(events),
       label="POST playoff (event not finished: refused by rule)"),
    # The arbiter creates the rapid or blitz event he runs and enters its players (issue 32).
    _r("events:event_new",              GET,  [],                        LOGIN,       403,   200,    200,   200),
    _r("events:event_new",              POST, [],                        LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {"season": w.season, "kind": "blitz", "name": "Nieuw toernooi",
                       "date": w.paired_date},  # a blitz names its evening
       state=audit_and(events)),
    _r("events:event_import",           GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("events:event_import",           POST, [],                        LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"season": w.season, "name": "Geimporteerd",
                       "file": SimpleUploadedFile("e.trf", w.trf.encode())},
       state=audit_and(events)),
    _r("events:entrants",               GET,  ["new_event"],             LOGIN,       403,   200,    200,   200),
    _r("events:entrants",               POST, ["new_event"],             LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {"members": w.members}, state=audit_and(swiss_state("new_event"))),
    _r("events:entrants",               POST, ["new_event"],             LOGIN,       403,   DONE,   DONE,  DONE,
       data=lambda w: {"guest_name": "Gast Bezoeker", "guest_rating": "1500"},
       state=audit_and(swiss_state("new_event")), label="POST events:entrants (a guest)"),
    # --- prizes: the playoffs (leader and arbiter) and the administrator's page
    _r("prizes:playoffs_create",       POST, ["season"],                LOGIN,       403,   403,    302,   302,
       data=lambda w: {"confirm": "1"}, state=lambda w: AuditRecord.objects.count(),
       label="POST playoffs_create (summer not played: refused by rule)"),
    _r("prizes:playoff_result",        POST, ["season"],                LOGIN,       403,   302,    302,   302,
       data=lambda w: {"match": "A1", "result": PLAYOFF_RESULTS[0][0]}, state=lambda w: AuditRecord.objects.count(),
       label="POST playoff_result (no bracket: refused by rule)"),
    _r("prizes:playoff_date",          POST, ["season"],                LOGIN,       403,   403,    302,   302,
       data=lambda w: {"match": "A1", "date": "2027-07-02"}, state=lambda w: AuditRecord.objects.count(),
       label="POST playoff_date (no bracket: refused by rule)"),
    _r("prizes:playoff_result_withdraw", POST, ["season"],              LOGIN,       403,   403,    302,   302,
       data=lambda w: {"match": "A1"}, state=lambda w: AuditRecord.objects.count(),
       label="POST playoff_result_withdraw (no bracket: refused by rule)"),
    _r("prizes:playoff_prizes",        POST, ["season"],                LOGIN,       403,   403,    403,   302,
       data=lambda w: {}, state=lambda w: AuditRecord.objects.count(),
       label="POST playoff_prizes (no bracket: refused by rule)"),
    # --- rating lists (leader and administrator); the demo season has games, so the
    # starting order is refused by its rule for the administrator, by role for the others
    _r("ratings:index",                GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("ratings:index",                POST, [],                        LOGIN,       403,   403,    200,   200,
       data=lambda w: {"number_kind": "knsb"}, state=lambda w: RatingImport.objects.count(),
       label="POST ratings:index (no file)"),
    _r("ratings:detail",               GET,  ["=999999"],               LOGIN,       403,   403,    404,   404),
    _r("ratings:save",                 POST, ["=999999"],               LOGIN,       403,   403,    404,   404,
       state=audit_and(lambda w: RatingImport.objects.count())),
    _r("ratings:season_start",         POST, ["season"],                LOGIN,       403,   403,    403,   302,
       state=audit_and(lambda w: list(Player.objects.filter(season__slug=w.season)
                                      .order_by("pk").values_list("start", "rating")))),
    _r("ratings:export",               GET,  ["season"],                LOGIN,       403,   403,    200,   200),
    _r("ratings:export",               GET,  ["season"],                LOGIN,       403,   403,    200,   200,
       query="?id_kind=knsb&download=1", label="GET ratings:export download"),
    _r("ratings:competition_ratings",  POST, ["season"],                LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"start_rating": "fide", "trf_rating": "knsb"},
       state=audit_and(lambda w: list(Competition.objects.filter(season__slug=w.season)
                                      .values_list("start_rating", "trf_rating")))),
    _r("prizes:manage",                GET,  ["season"],                LOGIN,       403,   403,    403,   200),
    _r("prizes:override",              POST, ["season"],                LOGIN,       403,   403,    403,   DONE,
       data=lambda w: {"half": w.winter, "player": w.other, "eligible": "0", "reason": "lid af"},
       state=audit_and(overrides)),
    _r("prizes:override_clear",        POST, ["season"],                LOGIN,       403,   403,    403,   302,
       data=lambda w: {"half": w.winter, "player": w.other}, state=audit_and(overrides),
       label="POST override_clear (nothing to clear)"),
    _r("prizes:confirm",               POST, ["season"],                LOGIN,       403,   403,    403,   302,
       data=lambda w: {"half": w.winter}, state=lambda w: AuditRecord.objects.count(),
       label="POST confirm (half not finished: refused by rule)"),
    _r("prizes:player_kind",           POST, ["season"],                LOGIN,       403,   403,    403,   DONE,
       data=lambda w: {"player": w.other, "kind": "flexible"}, state=audit_and(player_kind("other"))),
    _r("prizes:next_season",           POST, ["season"],                LOGIN,       403,   403,    403,   DONE,
       data=lambda w: {"name": "2027-2028", "opening": "2027-09-03", "last_day": "2028-07-14"},
       state=audit_and(seasons)),
    # the next season by the leader (issue 31): a preview page, then "make it"
    _r("prizes:next_season_preview",   GET,  ["season"],                LOGIN,       403,   403,    200,   200),
    _r("prizes:next_season_preview",   POST, ["season"],                LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"name": "2027-2028", "opening": "2027-09-03", "last_day": "2028-07-14",
                       "keep_fixed": "on", "make": "1"},
       state=audit_and(seasons)),
    _r("pairing:preview",              GET,  ["later"],                 LOGIN,       403,   403,    200,   200),
    # --- the leader's member pages (members/); the demo season is a Keizer season under
    # way, so its starting order is refused by its rule for the leader and administrator
    _r("members:current",              GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("members:roles",                GET,  [],                        LOGIN,       403,   403,    403,   200),
    _r("members:role_set",             POST, ["other_member"],          LOGIN,       403,   403,    403,   DONE,
       data=lambda w: {"role": "arbiter", "fide_id": "1503014"},
       state=lambda w: (User.objects.get(pk=w.other_member).fide_id, AuditRecord.objects.count())),
    _r("members:index",                GET,  ["season"],                LOGIN,       403,   403,    200,   200),
    _r("members:add",                  GET,  ["season"],                LOGIN,       403,   403,    200,   200),
    _r("members:add",                  POST, ["season"],                LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"name": "Nieuw Lid", "email": "nieuw@example.org", "rating": "1500",
                       "knsb_number": "", "kind": "flexible"},
       state=audit_and(lambda w: User.objects.count())),
    _r("members:import",               GET,  ["season"],                LOGIN,       403,   403,    200,   200),
    _r("members:import",               POST, ["season"],                LOGIN,       403,   403,    200,   200,
       data=lambda w: {"file": SimpleUploadedFile("leden.csv", b"Naam;E-mail\nNieuw Lid;nieuw@example.org\n")},
       state=audit_and(lambda w: User.objects.count()), label="POST members:import (the preview saves nothing)"),
    _r("history_import:upload",        GET,  [],                        LOGIN,       403,   403,    200,   200),
    _r("history_import:upload",        POST, [],                        LOGIN,       403,   403,    200,   200,
       data=lambda w: {"file": SimpleUploadedFile("g.csv", b"datum;wit;zwart;uitslag\n5-9-2025;A B;C D;1-0\n")},
       state=audit_and(lambda w: Season.objects.count()), label="POST history_import:upload (the preview saves nothing)"),
    _r("members:edit",                 GET,  ["season", "other"],       LOGIN,       403,   403,    200,   200),
    _r("members:edit",                 POST, ["season", "other"],       LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"name": "Speler Twee", "email": "speler2@demo.club", "rating": "1234",
                       "knsb_number": "", "kind": Player.objects.get(pk=w.other).kind},
       state=audit_and(lambda w: Player.objects.get(pk=w.other).member.name)),
    _r("members:order_by_rating",      POST, ["season"],                LOGIN,       403,   403,    302,   302,
       state=audit_and(lambda w: list(Player.objects.order_by("pk").values_list("start", flat=True))),
       label="POST members:order_by_rating (season under way: refused by rule)"),
    _r("prizes:order_from_season",     POST, ["season"],                LOGIN,       403,   403,    302,   302,
       data=lambda w: {"source": "no-such-season"},
       state=audit_and(lambda w: list(Player.objects.order_by("pk").values_list("start", flat=True))),
       label="POST prizes:order_from_season (no earlier season named: refused by rule)"),
    _r("members:move",                 POST, ["season", "other"],       LOGIN,       403,   403,    302,   302,
       data=lambda w: {"position": "1"},
       state=audit_and(lambda w: list(Player.objects.order_by("pk").values_list("start", flat=True))),
       label="POST members:move (Keizer season under way: refused by rule)"),
    _r("members:invite",               POST, ["season", "other"],       LOGIN,       403,   403,    302,   302,
       state=lambda w: AuditRecord.objects.count(),
       label="POST members:invite (has a password: refused by rule)"),
    _r("members:registration_decide",  POST, ["pending"],               LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"decision": "accept"}, state=audit_and(pending_state),
       label="POST registration_decide (accept)"),
    _r("members:registration_decide",  POST, ["pending"],               LOGIN,       403,   403,    200,   200,
       data=lambda w: {"decision": "refuse"}, state=audit_and(pending_state),
       label="POST registration_decide (refuse: asks first)"),
    _r("members:registration_decide",  POST, ["pending"],               LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"decision": "refuse", "confirm": "1"}, state=audit_and(pending_state),
       label="POST registration_decide (refuse, confirmed)"),
    _r("members:mail_again",           POST, ["failed_mail"],           LOGIN,       403,   403,    200,   200,
       data=lambda w: {}, state=lambda w: _mail_state(w), label="POST members:mail_again (asks first)"),
    _r("members:mail_again",           POST, ["failed_mail"],           LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"confirm": "1"}, state=audit_and(lambda w: _mail_state(w)),
       label="POST members:mail_again (confirmed)"),
    _r("members:remove",               POST, ["season", "other"],       LOGIN,       403,   403,    200,   200,
       data=lambda w: {}, state=memberships, label="POST members:remove (asks first)"),
    _r("members:remove",               POST, ["season", "other"],       LOGIN,       403,   403,    DONE,  DONE,
       data=lambda w: {"confirm": "1"}, state=audit_and(memberships),
       label="POST members:remove (confirmed)"),
    # --- a member's own pages (My details), the privacy statement
    _r("privacy",                      GET,  [],                        200,         200,   200,    200,   200),
    _r("me:details",                   GET,  [],                        LOGIN,       200,   200,    200,   200),
    _r("me:details",                   POST, [],                        LOGIN,       DONE,  DONE,   DONE,  DONE,
       data=lambda w: {"phone": "06 1234 5678", "public_as": "initials", "pairing_mail": "on"},
       state=audit_and(accounts)),
    _r("me:data",                      GET,  [],                        LOGIN,       200,   200,    200,   200),
    _r("me:calendar_renew",            POST, [],                        LOGIN,       DONE,  DONE,   DONE,  DONE,
       data=lambda w: {}, state=tokens),
    _r("me:calendar",                  GET,  ["my_token"],              200,         200,   200,    200,   200),
    _r("me:calendar",                  GET,  ["=" + "x" * 43],          404,         404,   404,    404,   404,
       label="GET me:calendar (unknown secret)"),
    _r("me:email",                     GET,  [],                        LOGIN,       200,   200,    200,   200),
    _r("me:email",                     POST, [],                        LOGIN,       200,   200,    200,   200,
       data=lambda w: {"email": "nieuw@example.org", "password": "niet-mijn-wachtwoord"},
       state=addresses, label="POST me:email (a wrong password: nothing asked)"),
    _r("me:leave",                     POST, [],                        LOGIN,       200,   200,    200,   200,
       data=lambda w: {}, state=memberships, label="POST me:leave (asks first)"),
    # an invitation to join the club (members.accounts.joining): none here, so nothing to accept
    _r("me:join",                      GET,  [],                        LOGIN,       200,   200,    200,   200, registered=200),
    _r("me:join",                      POST, [],                        LOGIN,       200,   200,    200,   200, registered=200,
       data=lambda w: {"answer": "accept"}, state=audit_and(lambda w: Membership.objects.count()),
       label="POST me:join (no invitation: nothing joins)"),
    _r("me:leave",                     POST, [],                        LOGIN,       DONE,  DONE,   DONE,  302,
       data=lambda w: {"confirm": "1"}, state=audit_and(memberships),
       label="POST me:leave (confirmed; the only administrator is refused by rule)"),
    _r("me:delete",                    POST, [],                        LOGIN,       200,   200,    200,   200,
       data=lambda w: {}, state=accounts, label="POST me:delete (asks first)"),
    _r("me:delete",                    POST, [],                        LOGIN,       DONE,  DONE,   DONE,  302,
       data=lambda w: {"confirm": "1"}, state=audit_and(accounts),
       label="POST me:delete (confirmed; an administrator is refused by rule)"),
    # --- the Django admin (staff only; results, sign-ups and pairings are read-only there)
    _r("admin:index",                  GET,  [],                        ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200),
    _r("admin:competition_game_changelist", GET, [],                    ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200),
    _r("admin:members_user_changelist", GET, [],                        ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200),
    _r("admin:competition_game_change", POST, ["past_game"],            ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 403,
       data=lambda w: {"result": Result.DOUBLE_FORFEIT}, state=game("past_game"),
       label="POST admin game change (read-only)"),
    _r("admin:competition_game_changelist", POST, [],                   ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200,
       data=lambda w: {"action": "delete_selected", "_selected_action": [w.past_game], "post": "yes"},
       state=lambda w: Game.objects.count(), label="POST admin delete_selected games (no such action)"),
    _r("admin:competition_registration_changelist", POST, [],           ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200,
       data=lambda w: {"action": "delete_selected", "post": "yes",
                       "_selected_action": list(Registration.objects.values_list("pk", flat=True)[:3])},
       state=lambda w: Registration.objects.count(),
       label="POST admin delete_selected registrations (no such action)"),
]
# fmt: on


def _args(row: Row, w: World) -> list[Any]:
    return [a[1:] if a.startswith("=") else getattr(w, a) for a in row.args]


def outcome(response) -> str:
    if response.status_code == 302:
        location = response["Location"]
        if location.startswith(reverse("account_login")):
            return LOGIN
        if location.startswith(reverse("admin:login")):
            return ADMIN_LOGIN
    return str(response.status_code)


def signed_in(client, role: str):
    if role != "visitor":
        client.force_login(User.objects.get(email=ACCOUNTS[role]))
    return client


CELLS = [pytest.param(row, role, id=f"{row.id}-{role}") for row in MATRIX for role in ROLES]


@pytest.mark.parametrize(("row", "role"), CELLS)
def test_permission_matrix(client, world, row: Row, role: str):
    expected = str(row.expected(role))
    signed_in(client, role)
    url = reverse(row.name, args=_args(row, world)) + row.query
    before = row.state(world) if row.state else None
    if row.method == GET:
        response = client.get(url)
    else:
        response = client.post(url, row.data(world) if row.data else {})
    seen = outcome(response)
    if row.state is not None:
        changed = row.state(world) != before
        if changed:
            seen = DONE if seen == "302" else f"{seen} and changed"
    assert seen == expected, (
        f"{row.method} {url} as {role}: expected {expected}, got {seen}"
    )


def test_every_url_is_in_the_matrix():
    """A new URL without a row fails here: say who may use it."""
    from django.urls import get_resolver

    ours = {"competition", "pairing", "swiss", "prizes", "ratings", "members", "me", "api_v1",
            "website", "history_import"}
    names = set()
    for ns, (_prefix, resolver) in get_resolver().namespace_dict.items():
        if ns in ours:
            names |= {f"{ns}:{n}" for n in resolver.reverse_dict if isinstance(n, str)}
    covered = {row.name for row in MATRIX}
    assert sorted(names - covered) == []


# --- A player changes only what is his ------------------------------------------------------


def test_a_player_posting_another_players_id_changes_only_his_own_sign_up(client, world):
    """The sign-up form has no player field: whatever is posted, the signed-in member's own
    player is the one changed."""
    signed_in(client, "player")
    others = Registration.objects.exclude(player_id=world.me)
    before = sorted(others.values_list("pk", "status", "version"))
    response = client.post(reverse("competition:signup"), {
        "evenings": [str(world.later)], "status": "absent_with_notice",
        "player": world.other, "player_id": world.other, "member": world.other,
    })
    assert response.status_code == 302
    assert sorted(others.values_list("pk", "status", "version")) == before
    assert Registration.objects.get(player_id=world.me, evening_id=world.later).status == (
        "absent_with_notice"
    )


def test_a_player_cannot_sign_up_for_an_evening_outside_the_coming_ones(client, world):
    """Evening ids of a played evening (or any id not offered) are refused by the form."""
    signed_in(client, "player")
    past = Evening.objects.get(date=world.past_date, kind=EveningKind.PLAYING)
    count = Registration.objects.count()
    response = client.post(reverse("competition:signup"), {
        "evenings": [str(past.pk), "999999"], "status": "absent_with_notice",
    })
    assert response.status_code == 200  # the form again, with its error
    assert Registration.objects.count() == count


def test_the_leader_signs_a_player_off_on_his_behalf_but_a_player_cannot(client, world):
    signed_in(client, "player")
    url = reverse("pairing:registration", args=[world.later])
    assert client.post(url, {"player": world.other, "status": "club_duty"}).status_code == 403
    assert not Registration.objects.filter(player_id=world.other, evening_id=world.later).exists()


def test_a_tempo_request_for_a_game_he_is_not_in_is_refused_and_changes_nothing(client, world):
    signed_in(client, "player")
    game_before = Game.objects.get(pk=world.their_game)
    assert game_before.tempo == Tempo.REQUESTED
    response = client.post(reverse("pairing:tempo_request", args=[world.their_game]),
                           {"opponent_agrees": "on"})
    assert response.status_code == 403
    after = Game.objects.get(pk=world.their_game)
    assert (after.tempo, after.tempo_requested_by_id, after.version) == (
        game_before.tempo, game_before.tempo_requested_by_id, game_before.version
    )


# --- Nobody reads another member's e-mail address -------------------------------------------


def _public_and_player_pages(w: World) -> list[str]:
    pages = [reverse(row.name, args=_args(row, w)) + row.query
             for row in MATRIX if row.method == GET and row.visitor == 200]
    pages += [reverse("competition:player", args=[pk])
              for pk in Player.objects.filter(season__slug=w.season).values_list("pk", flat=True)]
    pages += [reverse("competition:evening", args=[d.isoformat()]) for d in
              Evening.objects.filter(status=EveningStatus.PUBLISHED).values_list("date", flat=True)]
    pages += [reverse("competition:signup"), reverse("pairing:tempo_request", args=[w.my_game])]
    return pages


@pytest.mark.parametrize("role", ["visitor", "player"])
def test_no_public_or_player_page_shows_another_members_email_address(client, world, role):
    """Rendered as a visitor and as a player (speler1): no demo e-mail address but the
    viewer's own may appear on any page a visitor or a player can open."""
    signed_in(client, role)
    own = ACCOUNTS.get(role)
    leaks = {}
    for url in _public_and_player_pages(world):
        response = client.get(url)
        if response.status_code != 200:
            continue
        body = b"".join(response) if response.streaming else response.content
        found = set(DEMO_EMAIL.findall(body.decode(errors="replace"))) - {own}
        if found:
            leaks[url] = sorted(found)[:3]
    assert leaks == {}


def test_the_leaders_pages_may_show_members_addresses_and_are_closed_to_players(client, world):
    """The leader's evening page is where he reaches a player (e-mail, phone): the page is
    403 for a player, so the addresses it may show stay with the leader."""
    url = reverse("pairing:evening", args=[world.paired])
    signed_in(client, "player")
    assert client.get(url).status_code == 403
    client.logout()
    signed_in(client, "leader")
    assert client.get(url).status_code == 200
    signed_in(client, "administrator")
    users = client.get(reverse("admin:members_user_changelist"))
    assert DEMO_EMAIL.search(users.content.decode())
