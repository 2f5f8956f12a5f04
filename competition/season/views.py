"""Pages. Views read through selectors, write through services, compute no rule."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from competition.audit import text as audit_text
from competition.models import (
    AuditAction,
    ClubDutyRequest,
    Evening,
    Game,
    Result,
    Season,
)
from competition.season import calendar_edits, selectors, services
from competition.season.forms import (
    AuditFilterForm,
    ClubDutyDecisionForm,
    EveningAddForm,
    EveningForm,
    EveningMoveForm,
    SeasonSetUpForm,
)
from competition.season.ical import calendar_ics
from competition.season.rules_text import describe_competition
from competition.season.selectors import season_or_404
from competition.season.tables import KeizerTable, LadderTable
from core.dates import short_day
from core.formversion import posted_version
from core.pagecache import cache_public_page, evening_version
from core.permissions import Perm
from core.web import confirmation_page, confirmed, form_error_messages, refusal, run_service
from members.clubs.addresses import club_base_url

AUDIT_PAGE = 50


def _validation_messages(exc: ValidationError) -> list[str]:
    return [str(m) for m in exc.messages]


# --- Home -------------------------------------------------------------------------------


_SORTABLE = {name for table in (KeizerTable, LadderTable)
             for name, column in table.base_columns.items() if column.orderable is not False}
SEASON_PARAM = {"season": None}  # an unknown season is a 404, never stored


def _csv_number(value: Any, comma: bool) -> Any:
    if comma and isinstance(value, Decimal | float):
        return str(value).replace(".", ",")
    return value


# --- Evenings ---------------------------------------------------------------------------


@cache_public_page(params=SEASON_PARAM)
def evenings(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season"))
    return render(
        request,
        "competition/evenings.html",
        {"season": season, "evenings": selectors.season_evenings(season)},
    )


@cache_public_page(version=lambda request, date: evening_version(date), params=SEASON_PARAM,
                   half=lambda request, date: selectors.evening_half_id(date, request.GET.get("season")))
def evening(request: HttpRequest, date: str) -> HttpResponse:
    try:
        day = dt.date.fromisoformat(date)
    except ValueError as exc:
        raise Http404 from exc
    season = request.GET.get("season")
    evening_obj = selectors.evening_by_date(day, season)
    if evening_obj is None:
        raise Http404(_("No evening on that date."))
    context = selectors.evening_page(evening_obj)
    context["can_enter"] = request.user.has_perm(Perm.ENTER_RESULTS)
    context["before_start"] = timezone.now() < evening_obj.starts_at
    if context["can_enter"]:
        changes = selectors.result_changes(evening_obj, context["games"], request.user, timezone.now())
        for g in context["games"]:
            g.change = changes.get(g.pk)
    context["result_choices"] = [c for c in Result.choices if c[0]]
    return render(request, "competition/evening.html", context)


@require_POST
@login_required
def enter_result(request: HttpRequest, game_id: int) -> HttpResponse:
    # With its evening's season: the service checks the right in the game's club (no query).
    game = get_object_or_404(Game.objects.select_related("evening__season"), pk=game_id)
    back = reverse("competition:evening", args=[game.evening.date.isoformat()]) + f"#board-{game.board}"
    result = request.POST.get("result", "")
    change = _result_change(game, result)
    if not request.user.has_perm(Perm.ENTER_RESULTS):
        raise PermissionDenied  # before asking anything (the service refuses too)
    if change and game.result and result in Result.values and not confirmed(request):
        return confirmation_page(
            request, title=_("Change the result of board %(b)s?") % {"b": game.board},
            consequences=[
                change,
                _("The standings of the half are recalculated with the new result."),
                _("You can undo the change for a few minutes; it stays in the changes."),
            ],
            cancel=back, button=_("Change the result"),
        )
    try:
        services.result_set(
            actor=request.user,
            game=game,
            result=request.POST.get("result", ""),
            note=request.POST.get("note", ""),
            expected_version=posted_version(request.POST.get("version")),
            before_start=request.POST.get("before_start") == "1",
        )
    except services.Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        for m in _validation_messages(exc):
            messages.error(request, m)
    except PermissionDenied:
        raise
    else:
        if change and game.result:
            messages.success(request, _("Board %(b)s changed: %(change)s. Undo it on the board "
                                        "within a few minutes if it was a slip.")
                             % {"b": game.board, "change": change})
        else:
            messages.success(request, _("Board %(b)s saved.") % {"b": game.board})
    return redirect(back)


def _result_change(game: Game, result: str) -> str:
    """'½-½ → 1-0' for a board whose result changes, else ''."""
    labels = dict(Result.choices)
    if result == game.result or result not in labels:
        return ""
    return f"{labels[game.result]} → {labels[result]}"


@require_POST
@login_required
def undo_result(request: HttpRequest, game_id: int) -> HttpResponse:
    """One tap puts back the result a change replaced (a few minutes after it)."""
    # With its evening's season: the service checks the right in the game's club (no query).
    game = get_object_or_404(Game.objects.select_related("evening__season"), pk=game_id)
    back = reverse("competition:evening", args=[game.evening.date.isoformat()]) + f"#board-{game.board}"
    before = game.result
    with refusal(request) as refused:
        undone = services.result_undo(actor=request.user, game=game)
    if not refused:
        labels = dict(Result.choices)
        messages.success(request, _("Board %(b)s undone: %(change)s.") % {
            "b": game.board, "change": f"{labels[before]} → {labels[undone.result]}"})
    return redirect(back)


# --- Players ----------------------------------------------------------------------------


@cache_public_page(params=SEASON_PARAM)
def calendar(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season"))
    return render(
        request,
        "competition/calendar.html",
        {"season": season, "evenings": selectors.season_evenings(season),
         "halves": season.halves.order_by("start_date")},
    )


@cache_public_page(params=SEASON_PARAM)
def calendar_feed(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season"))
    # The club's own address, never the request's host string: the feed is cached once
    # for every spelling of the host (core/pagecache.py, ``page_key``).
    host = urlsplit(club_base_url(request.club)).hostname or "localhost"
    body = calendar_ics(season, selectors.season_evenings(season), host=host)
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


@cache_public_page(params=SEASON_PARAM)
def rules(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season"))
    return render(
        request,
        "competition/rules.html",
        {"season": season, "competition": season.competition,
         "lines": describe_competition(season.competition)},
    )


# --- Signing up and off -----------------------------------------------------------------


@require_POST
@login_required
@permission_required(Perm.MANAGE_REGISTRATIONS, raise_exception=True)
def club_duty_decide(request: HttpRequest, request_id: int) -> HttpResponse:
    """The leader approves or refuses a club duty request (from his home page or the
    evening's page, which ``next`` names)."""
    duty = get_object_or_404(
        ClubDutyRequest.objects.select_related("evening", "player__member"), pk=request_id
    )
    form = ClubDutyDecisionForm(request.POST)
    if not form.is_valid():
        form_error_messages(request, form)
    else:
        approve = form.cleaned_data["decision"] == "approve"
        text = (
            _("%(name)s, %(date)s: club duty approved.") if approve
            else _("%(name)s, %(date)s: club duty refused.")
        )
        run_service(
            request,
            lambda: services.club_duty_decide(actor=request.user, request=duty, approve=approve),
            text % {"name": duty.player.member.name, "date": short_day(duty.evening.date)},
        )
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect("competition:leader")


# --- Competition leader -----------------------------------------------------------------


@login_required
@permission_required(Perm.MANAGE_CALENDAR, raise_exception=True)
def leader(request: HttpRequest) -> HttpResponse:
    # The club's default rules (Club.default_system) are preselected for a new season.
    form = SeasonSetUpForm(request.POST or None, initial={"system": request.club.default_system})
    can_set_up = request.user.has_perm(Perm.MANAGE_SEASON)
    if request.method == "POST":
        if not can_set_up:
            raise PermissionDenied
        if form.is_valid():
            data = form.cleaned_data
            with refusal(request, form=form) as refused:
                season = services.season_set_up(actor=request.user, club=request.club, **data)
            if not refused:
                messages.success(request, _("Season %(s)s set up; check the calendar.") % {"s": season})
                return redirect("competition:leader_season", season=season.slug)
    current = selectors.current_season()
    return render(
        request,
        "competition/leader.html",
        {"form": form, "can_set_up": can_set_up, "seasons": Season.objects.order_by("-start_date"),
         "current": current,
         "todo": selectors.leader_todo(current, timezone.now()) if current else None,
         "club_duty_requests": list(selectors.club_duty_requests_pending()),
         "can_decide_club_duty": request.user.has_perm(Perm.MANAGE_REGISTRATIONS)},
    )


def _moment(value: dt.datetime) -> str:
    """'wo 9 dec 20:00': a deadline in the club's zone."""
    return date_format(timezone.localtime(value), _("D j M H:i"))


def _deadline_consequences(competition: Any, data: dict[str, Any],
                           now: dt.datetime) -> tuple[list[str], bool]:
    """What the new deadline setting does, evening by evening (said before it is saved),
    and whether there are open evenings to move or keep."""
    when = ngettext("%(n)s day before the evening at %(time)s",
                    "%(n)s days before the evening at %(time)s", data["days_before"]) % {
        "n": data["days_before"], "time": data["time"].strftime("%H:%M")}
    lines = [_("The sign-up deadline becomes %(when)s.") % {"when": when}]
    moves = selectors.deadline_moves(competition, days_before=data["days_before"], time=data["time"],
                                     now=now)
    if not moves:
        lines.append(_("No evening still to be paired has its deadline to come: nothing moves."))
        return lines, False
    lines.append(ngettext(
        "%(n)s open evening (not yet paired, deadline to come) can move with it:",
        "%(n)s open evenings (not yet paired, deadline to come) can move with it:", len(moves),
    ) % {"n": len(moves)})
    for move in moves:
        day = short_day(move.evening.date)
        if move.after is None:
            lines.append(_("The deadline would come after the start of %(date)s.") % {"date": day})
        elif move.passed:
            lines.append(_("%(date)s keeps %(before)s: the new deadline (%(after)s) has passed already.")
                         % {"date": day, "before": _moment(move.before), "after": _moment(move.after)})
        elif move.after == move.before:
            lines.append(_("%(date)s: %(before)s stays.") % {"date": day, "before": _moment(move.before)})
        else:
            lines.append(_("%(date)s: %(before)s → %(after)s") % {
                "date": day, "before": _moment(move.before), "after": _moment(move.after)})
    lines.append(_("Evenings already paired or published keep their deadline. Players see a "
                   "moved deadline on the sign-up page at once."))
    return lines, True


def deadline_moved_message(moves: list[Any]) -> str:
    """After saving: which evenings' deadlines moved, and to when."""
    if not moves:
        return _("No evening's deadline moved.")
    return ngettext("%(n)s deadline moved: %(moves)s.", "%(n)s deadlines moved: %(moves)s.",
                    len(moves)) % {"n": len(moves), "moves": "; ".join(
                        f"{short_day(m.evening.date)} → {_moment(m.after)}" for m in moves)}


@require_POST
@permission_required(Perm.MANAGE_CALENDAR, raise_exception=True)
def leader_evening_update(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening_obj = get_object_or_404(Evening.objects.select_related("season"), pk=evening_id)
    form = EveningForm(request.POST, season=evening_obj.season)
    if form.is_valid():
        with refusal(request, prefix=f"{short_day(evening_obj.date)}: ") as refused:
            services.evening_update(
                actor=request.user, evening=evening_obj, kind=form.cleaned_data["kind"],
                half=form.cleaned_data["half"], note=form.cleaned_data["note"],
            )
        if not refused:
            messages.success(request, _("%(d)s saved.") % {"d": short_day(evening_obj.date)})
    else:
        for errors in form.errors.values():
            for m in errors:
                messages.error(request, f"{short_day(evening_obj.date)}: {m}")
    return redirect(reverse("competition:leader_season", args=[evening_obj.season.slug]) + "#calendar")


def _calendar_back(season: Any) -> str:
    return reverse("competition:leader_season", args=[season.slug]) + "#calendar"


@login_required
@permission_required(Perm.MANAGE_CALENDAR, raise_exception=True)
def leader_evening_move(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Move or cancel one evening: the form, then what it does (said before, confirmed),
    then the service, which tells the players concerned."""
    evening_obj = get_object_or_404(Evening.objects.select_related("season__competition"),
                                    pk=evening_id)
    season = evening_obj.season
    back = _calendar_back(season)
    local_start = timezone.localtime(evening_obj.starts_at)
    local_deadline = timezone.localtime(evening_obj.deadline)
    form = EveningMoveForm(
        request.POST if request.POST.get("action") == calendar_edits.MOVE else None,
        initial={"date": evening_obj.date, "start": local_start.time(),
                 "deadline_date": local_deadline.date(), "deadline_time": local_deadline.time()})
    action = request.POST.get("action")
    if request.method == "POST" and action in (calendar_edits.MOVE, calendar_edits.CANCEL):
        day = short_day(evening_obj.date)
        if action == calendar_edits.CANCEL or form.is_valid():
            move = action == calendar_edits.MOVE
            args = ({"date": form.cleaned_data["date"], "start": form.cleaned_data["start"],
                     "deadline": form.deadline()} if move else {})
            try:
                change = calendar_edits.evening_change_check(
                    action=action, season=season, evening=evening_obj, **args)
            except ValidationError as exc:
                if move:
                    form.add_error(None, exc)
                else:
                    messages.error(request, " ".join(exc.messages))
            else:
                if not confirmed(request):
                    return confirmation_page(
                        request, consequences=change.consequences(), cancel=back,
                        title=(_("Move the evening of %(d)s") if move
                               else _("Cancel the evening of %(d)s")) % {"d": day},
                        button=_("Move the evening") if move else _("Cancel the evening"))
                service = calendar_edits.evening_move if move else calendar_edits.evening_cancel
                if run_service(request, lambda: service(actor=request.user, evening=evening_obj, **args),
                               _("%(d)s moved; the players concerned are told by e-mail.") % {"d": day}
                               if move else _("%(d)s cancelled; the players concerned are told by "
                                              "e-mail.") % {"d": day}):
                    return redirect(back)
    return render(request, "competition/evening_move.html",
                  {"evening": evening_obj, "season": season, "form": form, "back": back})


@login_required
@permission_required(Perm.MANAGE_CALENDAR, raise_exception=True)
def leader_evening_add(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    back = _calendar_back(season_obj)
    form = EveningAddForm(request.POST or None,
                          initial={"start": season_obj.competition.start_time})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        args = {"date": data["date"], "start": data["start"], "deadline": form.deadline()}
        try:
            change = calendar_edits.evening_change_check(
                action=calendar_edits.ADD, season=season_obj, **args)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            if not confirmed(request):
                return confirmation_page(
                    request, consequences=change.consequences(), cancel=back,
                    title=_("Add an evening"), button=_("Add the evening"))
            if run_service(request, lambda: calendar_edits.evening_add(
                    actor=request.user, season=season_obj, kind=data["kind"], **args),
                    _("%(d)s added to the calendar.") % {"d": short_day(data["date"])}):
                return redirect(back)
    return render(request, "competition/evening_add.html",
                  {"season": season_obj, "form": form, "back": back})


@login_required
@permission_required(Perm.MANAGE_REGISTRATIONS, raise_exception=True)
def audit_log(request: HttpRequest) -> HttpResponse:
    """Who changed what and when, in sentences, filtered and paged (for the leader)."""
    season = selectors.current_season()
    choices = selectors.audit_filter_choices(season)
    form = AuditFilterForm(request.GET or None, actions=list(AuditAction.choices), **choices)
    filters = form.filters() if request.GET else {}
    for field, errors in (form.errors.items() if request.GET else []):
        label = form.fields[field].label if field in form.fields else field
        for message in errors:
            messages.warning(request, _("Filter %(f)s ignored: %(m)s") % {"f": label, "m": message})
    page = Paginator(selectors.audit_records(**filters), AUDIT_PAGE).get_page(request.GET.get("page"))
    names = {r.player_id: r.player.member.name for r in page if r.player_id is not None and r.player}
    rows = [{"record": r, "text": audit_text.sentence(r, names),
             "when": f"{audit_text.day(timezone.localtime(r.at).date())} {timezone.localtime(r.at):%H:%M}"}
            for r in page]
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "competition/audit.html",
                  {"form": form, "page": page, "rows": rows, "query": query.urlencode()})
