"""Pages. Views read through selectors, write through services, compute no rule."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from . import prize_selectors, selectors, services
from .charts import place_chart_svg
from .csvsafe import SafeWriter
from .forms import EveningForm, ParametersForm, RegistrationForm, SeasonSetUpForm
from .formversion import posted_version
from .ical import calendar_ics
from .models import Evening, EveningKind, Game, HalfKind, Player, Result, Season
from .pagecache import cache_public_page, evening_version
from .rules_text import describe_competition
from .tables import KEIZER_CSV, LADDER_CSV, KeizerTable, LadderTable

PUBLIC_ROWS = 8


def _season_or_404(slug: str | None = None) -> Season:
    season = (
        get_object_or_404(Season.objects.select_related("competition"), slug=slug)
        if slug
        else selectors.current_season()
    )
    if season is None:
        raise Http404(_("No season has been set up yet."))
    return season


def _validation_messages(exc: ValidationError) -> list[str]:
    return [str(m) for m in exc.messages]


# --- Home -------------------------------------------------------------------------------


@cache_public_page
def home(request: HttpRequest) -> HttpResponse:
    season = selectors.current_season()
    context: dict = {"season": season}
    if season:
        half = selectors.running_half(season)
        context.update(
            half=half,
            top=selectors.standings_rows(half, limit=PUBLIC_ROWS) if half else [],
            next_evening=selectors.next_playing_evening(season),
            me=selectors.player_for(request.user, season),
        )
        if context["me"]:
            context.update(selectors.member_overview(context["me"]), now=timezone.now())
    return render(request, "competition/home.html", context)


# --- Standings --------------------------------------------------------------------------

_SORTABLE = {name for table in (KeizerTable, LadderTable)
             for name, column in table.base_columns.items() if column.orderable is not False}
# The query parameters the public pages read: the page cache keys on these alone.
STANDINGS_PARAMS = {"all": {"1"}, "export": {"csv"},
                    "sort": {*_SORTABLE, *(f"-{name}" for name in _SORTABLE)}}
SEASON_PARAM = {"season": None}  # an unknown season is a 404, never stored


@cache_public_page(params=STANDINGS_PARAMS)
def standings(request: HttpRequest, season: str | None = None, half: str | None = None):
    season_obj = _season_or_404(season)
    if half:
        if half not in HalfKind.values:
            raise Http404
        half_obj = get_object_or_404(season_obj.halves, kind=half)
    else:
        half_obj = selectors.running_half(season_obj)
        if half_obj is None:
            raise Http404(_("This season has no halves yet."))
    show_all = request.GET.get("all") == "1" or request.user.is_authenticated
    export = request.GET.get("export") == "csv"
    snapshot, rows = selectors.standings_table_rows(
        half_obj, limit=None if show_all or export else PUBLIC_ROWS
    )
    if export:
        return _standings_csv(season_obj, half_obj, rows)
    total_rows = len(rows) if show_all else selectors.standings_count(snapshot)
    marks = prize_selectors.eligibility_marks(half_obj) if rows else {}
    for row in rows:
        row.eligible = marks.get(row.player_id, True)
    ladder = season_obj.competition.is_ladder
    table_class = LadderTable if ladder else KeizerTable
    table = table_class(rows)
    RequestConfig(request, paginate=False).configure(table)
    # Rendering a long table is the page's main cost: the fragment is cached per version
    # of the standings, language, length, sort order and eligibility marks.
    table_version = ":".join(
        str(part) for part in (
            snapshot.pk if snapshot else 0,
            snapshot.computed_at.timestamp() if snapshot else 0,
            int(show_all),
            request.GET.get("sort", ""),
            ",".join(str(pid) for pid in sorted(pid for pid, ok in marks.items() if not ok)),
        )
    )
    return render(
        request,
        "competition/standings.html",
        {
            "season": season_obj,
            "half": half_obj,
            "halves": season_obj.halves.order_by("start_date"),
            "seasons": Season.objects.order_by("-start_date").prefetch_related("halves"),
            "snapshot": snapshot,
            "table": table,
            "table_version": table_version,
            "total_rows": total_rows,
            "show_all": show_all,
            "public_rows": PUBLIC_ROWS,
        },
    )


def _standings_csv(season: Season, half, rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{season.slug}-{half.kind}.csv"'
    columns = LADDER_CSV if season.competition.is_ladder else KEIZER_CSV
    writer = SafeWriter(response)
    writer.writerow([header for _, header in columns])
    for row in rows:
        values = []
        for attr, _header in columns:
            if attr == "name":
                values.append(row.player.member.name)
            elif attr == "start":
                values.append(row.player.start)
            else:
                value = getattr(row, attr)
                values.append("" if value is None else value)
        writer.writerow(values)
    return response


# --- Evenings ---------------------------------------------------------------------------


@cache_public_page(params=SEASON_PARAM)
def evenings(request: HttpRequest) -> HttpResponse:
    season = _season_or_404(request.GET.get("season"))
    return render(
        request,
        "competition/evenings.html",
        {"season": season, "evenings": selectors.season_evenings(season)},
    )


@cache_public_page(version=lambda request, date: evening_version(date), params=SEASON_PARAM)
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
    context["can_enter"] = request.user.has_perm("competition.enter_results")
    context["before_start"] = timezone.now() < evening_obj.starts_at
    context["result_choices"] = [c for c in Result.choices if c[0]]
    return render(request, "competition/evening.html", context)


@require_POST
@login_required
def enter_result(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("evening"), pk=game_id)
    back = reverse("competition:evening", args=[game.evening.date.isoformat()]) + f"#board-{game.board}"
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
        messages.success(request, _("Board %(b)s saved.") % {"b": game.board})
    return redirect(back)


# --- Players ----------------------------------------------------------------------------


@cache_public_page
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player_obj = get_object_or_404(
        Player.objects.select_related("member", "season__competition"), pk=player_id
    )
    context = selectors.player_page(player_obj)
    for entry in context["explained"]:
        entry["eligibility"] = prize_selectors.eligibility_detail(entry["half"], player_obj)
    context["chart"] = place_chart_svg(context["places"], title=_("Place after each evening"))
    return render(request, "competition/player.html", context)


# --- Calendar and rules -----------------------------------------------------------------


@cache_public_page(params=SEASON_PARAM)
def calendar(request: HttpRequest) -> HttpResponse:
    season = _season_or_404(request.GET.get("season"))
    return render(
        request,
        "competition/calendar.html",
        {"season": season, "evenings": selectors.season_evenings(season),
         "halves": season.halves.order_by("start_date")},
    )


@cache_public_page(params=SEASON_PARAM)
def calendar_feed(request: HttpRequest) -> HttpResponse:
    season = _season_or_404(request.GET.get("season"))
    body = calendar_ics(season, selectors.season_evenings(season), host=request.get_host())
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


@cache_public_page(params=SEASON_PARAM)
def rules(request: HttpRequest) -> HttpResponse:
    season = _season_or_404(request.GET.get("season"))
    return render(
        request,
        "competition/rules.html",
        {"season": season, "competition": season.competition,
         "lines": describe_competition(season.competition)},
    )


# --- Signing up and off -----------------------------------------------------------------


@login_required
def signup(request: HttpRequest) -> HttpResponse:
    season = _season_or_404()
    me = selectors.player_for(request.user, season)
    if me is None:
        messages.info(request, _("You do not take part in this season; ask the competition leader."))
        return redirect("competition:home")
    upcoming = list(selectors.upcoming_evenings(season))
    form = RegistrationForm(request.POST or None, evenings=upcoming)
    if request.method == "POST" and form.is_valid():
        chosen = [e for e in upcoming if str(e.pk) in form.cleaned_data["evenings"]]
        try:
            services.registration_set(
                actor=request.user, player=me, evenings=chosen, status=form.cleaned_data["status"]
            )
        except ValidationError as exc:
            for m in _validation_messages(exc):
                messages.error(request, m)
        else:
            messages.success(request, _("Your status is saved."))
            target = request.POST.get("next", "")
            if url_has_allowed_host_and_scheme(target, {request.get_host()}):
                return redirect(target)
            return redirect("competition:signup")
    return render(
        request,
        "competition/signup.html",
        {"season": season, "me": me, "form": form,
         "statuses": selectors.statuses_for(me, upcoming), "now": timezone.now()},
    )


# --- Competition leader -----------------------------------------------------------------


@login_required
@permission_required("competition.manage_calendar", raise_exception=True)
def leader(request: HttpRequest) -> HttpResponse:
    form = SeasonSetUpForm(request.POST or None)
    can_set_up = request.user.has_perm("competition.manage_season")
    if request.method == "POST":
        if not can_set_up:
            raise PermissionDenied
        if form.is_valid():
            data = form.cleaned_data
            try:
                season = services.season_set_up(actor=request.user, **data)
            except ValidationError as exc:
                for m in _validation_messages(exc):
                    form.add_error(None, m)
            else:
                messages.success(request, _("Season %(s)s set up; check the calendar.") % {"s": season})
                return redirect("competition:leader_season", season=season.slug)
    return render(
        request,
        "competition/leader.html",
        {"form": form, "can_set_up": can_set_up, "seasons": Season.objects.order_by("-start_date")},
    )


@login_required
@permission_required("competition.manage_calendar", raise_exception=True)
def leader_season(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = _season_or_404(season)
    competition = season_obj.competition
    params_form = ParametersForm(
        request.POST if request.POST.get("form") == "parameters" else None,
        system=request.POST.get("system", competition.system)
        if request.POST.get("form") == "parameters"
        else competition.system,
        parameters=competition.parameters,
    )
    if request.method == "POST" and request.POST.get("form") == "parameters":
        if params_form.is_valid():
            try:
                services.competition_set_parameters(
                    actor=request.user, competition=competition,
                    system=params_form.system, overrides=params_form.overrides(),
                )
            except ValidationError as exc:
                for m in _validation_messages(exc):
                    messages.error(request, m)
            else:
                messages.success(request, _("Parameters saved; the standings are recalculated."))
                return redirect("competition:leader_season", season=season_obj.slug)
    evenings_list = list(selectors.season_evenings(season_obj))
    return render(
        request,
        "competition/leader_season.html",
        {"season": season_obj, "competition": competition, "params_form": params_form,
         "evenings": evenings_list, "kinds": EveningKind.choices,
         "halves": season_obj.halves.order_by("start_date"),
         "players": season_obj.players.select_related("member").order_by("start")},
    )


@require_POST
@permission_required("competition.manage_calendar", raise_exception=True)
def leader_evening_update(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening_obj = get_object_or_404(Evening.objects.select_related("season"), pk=evening_id)
    form = EveningForm(request.POST, season=evening_obj.season)
    if form.is_valid():
        try:
            services.evening_update(
                actor=request.user, evening=evening_obj, kind=form.cleaned_data["kind"],
                half=form.cleaned_data["half"], note=form.cleaned_data["note"],
            )
        except ValidationError as exc:
            for m in _validation_messages(exc):
                messages.error(request, f"{evening_obj.date}: {m}")
        else:
            messages.success(request, _("%(d)s saved.") % {"d": evening_obj.date.isoformat()})
    else:
        for errors in form.errors.values():
            for m in errors:
                messages.error(request, f"{evening_obj.date}: {m}")
    return redirect(reverse("competition:leader_season", args=[evening_obj.season.slug]) + "#calendar")


@login_required
@permission_required("competition.manage_registrations", raise_exception=True)
def audit_log(request: HttpRequest) -> HttpResponse:
    """Who changed what and when, per evening or per player (for the leader)."""
    records = selectors.audit_records(
        evening_id=request.GET.get("evening"), player_id=request.GET.get("player")
    )
    return render(request, "competition/audit.html", records)


def language(request: HttpRequest, code: str) -> HttpResponse:
    """Choose the site's language (a cookie) and go back. A plain link rather than
    Django's POST form: public pages then carry no CSRF token and can be cached."""
    if code not in dict(settings.LANGUAGES):
        raise Http404
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()},
                                           require_https=request.is_secure()):
        target = "/"
    response = redirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code, max_age=365 * 24 * 3600, samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response
