"""The pages that compose several features: the home page, the standings, a
player's page and his sign-up. They read the season with the prizes, ratings and
history around it, so they live above all of them."""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django_tables2 import RequestConfig

from competition.club.selectors import first_season_steps
from competition.history import selectors as history_selectors
from competition.models import (
    Attendance,
    EveningKind,
    Half,
    HalfKind,
    Player,
    Season,
)
from competition.pages.consequences import (
    absence_limit,
    absences_over_limit,
    absences_with_notice,
    late_sign_offs,
    paired_sign_offs,
)
from competition.prizes import selectors as prize_selectors
from competition.ratings import selectors as rating_selectors
from competition.ratings.forms import CompetitionRatingsForm
from competition.season import selectors, services
from competition.season.charts import place_chart_svg
from competition.season.engine.signup import is_late, sign_off_status, under_way
from competition.season.forms import (
    REQUEST_CLUB_DUTY,
    DeadlineForm,
    ParametersForm,
    RegistrationForm,
)
from competition.season.selectors import season_or_404
from competition.season.tables import (
    KEIZER_CSV,
    LADDER_CSV,
    LADDER_EXPLAINED,
    KeizerTable,
    LadderTable,
)
from competition.season.views import (
    _SORTABLE,
    _csv_number,
    _deadline_consequences,
    deadline_moved_message,
)
from core.csvsafe import SafeWriter
from core.pagecache import cache_public_page, half_version, versioned
from core.permissions import Perm
from core.web import confirmation_page, confirmed, form_error_messages, refusal
from members.clubs.context import current_club

PUBLIC_ROWS = 8


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
            context.update(selectors.member_overview(context["me"]))
            context["my_statuses"] = _with_offers(request, context["me"], context["my_statuses"])
    club = current_club()
    if club is not None and request.user.has_perm(Perm.MANAGE_CALENDAR):
        steps = first_season_steps(club, edits_settings=request.user.has_perm(Perm.MANAGE_SEASON))
        # Until the first pairing is out: then the club is under way.
        context["first_steps"] = None if steps[-1].done else steps
    return render(request, "competition/home.html", context)


def _with_offers(request: HttpRequest, me: Player, statuses: list) -> list:
    """(evening, status, explicit, offer, started): ``offer`` is the status the evening's
    button posts (a sign-off when he counts as present, else a sign-up), or None when the
    service would refuse it (``services.can_register``), so no button is shown;
    ``started``: the evening is under way (the page says why there is no button)."""
    now = timezone.now()
    sign_off = sign_off_status(me.is_fixed)
    rows = []
    for evening, status, explicit in statuses:
        wanted = sign_off if status == Attendance.PRESENT else Attendance.PRESENT
        offer = wanted if services.can_register(request.user, me, evening, wanted, now) else None
        rows.append((evening, status, explicit, offer, under_way(now, evening.starts_at)))
    return rows


# --- Standings --------------------------------------------------------------------------


# The query parameters the public pages read: the page cache keys on these alone.
STANDINGS_PARAMS = {"all": {"1"}, "export": {"csv"}, "after": None,
                    "sort": {*_SORTABLE, *(f"-{name}" for name in _SORTABLE)}}


class _StandingsBody:
    """What the standings page's body shows, computed only when its cached fragment is
    missing: a signed-in member's page reuses the fragment and renders only its
    personal parts (the header) fresh."""

    def __init__(self, request: HttpRequest, season: Season, half: Half, show_all: bool,
                 snapshot: Any = None, latest: bool = True):
        self.request, self.season, self.half, self.show_all = request, season, half, show_all
        self.snapshot, self.latest = snapshot, latest

    @cached_property
    def _rows(self) -> tuple[Any, list[Any]]:
        if self.snapshot is None:
            return None, []
        return selectors.standings_table_rows(
            self.half, limit=None if self.show_all else PUBLIC_ROWS, snapshot=self.snapshot
        )

    @cached_property
    def _marks(self) -> dict[int, bool]:
        """The prize marks are today's eligibility: shown on the latest standings only."""
        _snapshot, rows = self._rows
        return prize_selectors.eligibility_marks(self.half) if rows and self.latest else {}

    @cached_property
    def ineligible(self) -> bool:
        """Somebody is marked: the legend explains the mark."""
        return not all(self._marks.values())

    @cached_property
    def table(self) -> Any:
        snapshot, rows = self._rows
        marks = self._marks
        for row in rows:
            row.eligible = marks.get(row.player_id, True)
        table_class = LadderTable if self.season.competition.is_ladder else KeizerTable
        table = table_class(rows)
        RequestConfig(self.request, paginate=False).configure(table)
        return table

    @cached_property
    def total_rows(self) -> int:
        snapshot, rows = self._rows
        return len(rows) if self.show_all else selectors.standings_count(snapshot)


def _sort_key(request: HttpRequest, columns: Any) -> str:
    """The table's sort parameter when it names a column; anything else sorts nothing
    and so must not make a new cached fragment either."""
    sort = request.GET.get("sort", "")
    return sort if sort.lstrip("-") in columns else ""


def _standings_of(season: str | None, half: str | None) -> tuple[Season, Half, list[Any]]:
    """The season and half a standings address shows (404 if none), and the half's
    standings after each of its played evenings, in evening order."""
    season_obj = season_or_404(season)
    if half:
        if half not in HalfKind.values:
            raise Http404
        half_obj = get_object_or_404(season_obj.halves, kind=half)
    else:
        half_obj = selectors.running_half(season_obj)
        if half_obj is None:
            raise Http404(_("This season has no halves yet."))
    return season_obj, half_obj, selectors.standings_snapshots(half_obj)


def _chosen_snapshot(request: HttpRequest, snapshots: list[Any]) -> Any:
    """The standings after the evening of ``?after=YYYY-MM-DD`` (as the API reads it),
    the latest without it; a date with no played evening of the half is a 404."""
    after = request.GET.get("after")
    if not after:
        return snapshots[-1] if snapshots else None
    try:
        day = dt.date.fromisoformat(after)
    except ValueError:
        raise Http404 from None
    if len(after) != 10:
        raise Http404
    for snapshot in snapshots:
        if snapshot.evening.date == day:
            return snapshot
    raise Http404(_("No standings after that evening."))


@cache_public_page(params=STANDINGS_PARAMS,
                   half=lambda request, season=None, half=None: selectors.shown_half_id(season, half))
def standings(request: HttpRequest, season: str | None = None, half: str | None = None):
    # Which standings an address shows changes only with the club's data (or the day).
    season_obj, half_obj, snapshots = versioned(
        ("standings", season, half, selectors.club_today()), lambda: _standings_of(season, half)
    )
    snapshot = _chosen_snapshot(request, snapshots)
    latest = not snapshots or snapshot == snapshots[-1]
    # Sorting sorts every row: a sorted table is the full list, not the first eight re-sorted.
    show_all = (
        request.GET.get("all") == "1" or "sort" in request.GET or request.user.is_authenticated
    )
    if request.GET.get("export") == "csv":
        _snapshot, rows = selectors.standings_table_rows(half_obj, snapshot=snapshot)
        return _standings_csv(season_obj, half_obj, rows)
    table_class = LadderTable if season_obj.competition.is_ladder else KeizerTable
    # The body is cached per version of the club's data and of these standings, per
    # length and sort order (the language is added in the template).
    body_key = ":".join(str(part) for part in (
        half_version(half_obj.pk), half_obj.pk, snapshot.pk if snapshot else 0,
        snapshot.computed_at.timestamp() if snapshot else 0, int(show_all),
        _sort_key(request, table_class.base_columns),
    ))
    return render(
        request,
        "competition/standings.html",
        {
            "season": season_obj,
            "half": half_obj,
            "halves": season_obj.halves.order_by("start_date"),
            "seasons": Season.objects.filter(start_date__lte=selectors.club_today()).order_by("-start_date").prefetch_related("halves"),
            "snapshot": snapshot,
            "body": _StandingsBody(request, season_obj, half_obj, show_all, snapshot, latest),
            # The played evenings to choose from, the latest first.
            "evenings": [played.evening for played in reversed(snapshots)],
            "latest": latest,
            "body_key": body_key,
            "show_all": show_all,
            "public_rows": PUBLIC_ROWS,
            "ladder": season_obj.competition.is_ladder,
            "ladder_legend": _ladder_legend() if season_obj.competition.is_ladder else [],
        },
    )


def _ladder_legend() -> list[tuple[Any, Any]]:
    """Each ladder column's header and what it counts, for the key under the table."""
    columns = LadderTable.base_columns
    return [(columns[name].verbose_name, text) for name, text in LADDER_EXPLAINED.items()]


def _standings_csv(season: Season, half, rows) -> HttpResponse:
    """The standings as the site's language's spreadsheet reads them: in Dutch, headers in
    Dutch, decimal commas, ``;`` between cells and a byte order mark (Dutch Excel); in
    English the plain comma-separated file with the column names of docs/rules.md 9."""
    comma = formats.get_format("DECIMAL_SEPARATOR") == ","
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{season.slug}-{half.kind}.csv"'
    columns = LADDER_CSV if season.competition.is_ladder else KEIZER_CSV
    if comma:
        response.write("\ufeff")
    writer = SafeWriter(response, delimiter=";" if comma else ",")
    writer.writerow([pgettext("CSV column", header) for _, header in columns])
    for row in rows:
        values = []
        for attr, _header in columns:
            if attr == "name":
                values.append(row.player.member.shown_name)
            elif attr == "start":
                values.append(row.player.start)
            else:
                value = getattr(row, attr)
                values.append("" if value is None else _csv_number(value, comma))
        writer.writerow(values)
    return response


@cache_public_page
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player_obj = get_object_or_404(
        Player.objects.select_related("member", "season__competition"), pk=player_id
    )
    context = selectors.player_page(player_obj)
    performances = rating_selectors.half_performances(player_obj)
    for entry in context["explained"]:
        entry["eligibility"] = prize_selectors.eligibility_detail(entry["half"], player_obj)
        entry["tpr"] = performances.get(entry["half"].pk)
    context["chart"] = place_chart_svg(
        context["places"], title=_("Place after each evening"), field=context["field"]
    )
    context["member_seasons"] = history_selectors.member_seasons(player_obj)
    # His seasons are worth a table once there is more than the one this page shows.
    context["other_seasons"] = any(line.player_id != player_obj.pk for line in context["member_seasons"])
    context["head_to_head"] = history_selectors.member_head_to_head(player_obj)
    return render(request, "competition/player.html", context)


# --- Calendar and rules -----------------------------------------------------------------


@login_required
def signup(request: HttpRequest) -> HttpResponse:
    season = season_or_404()
    me = selectors.player_for(request.user, season)
    if me is None:
        messages.info(request, _("You do not take part in this season; ask the competition leader."))
        return redirect("competition:home")
    upcoming = list(selectors.upcoming_evenings(season))
    form = RegistrationForm(request.POST or None, evenings=upcoming, flexible=not me.is_fixed)
    if request.method == "POST" and form.is_valid():
        chosen = [e for e in upcoming if str(e.pk) in form.cleaned_data["evenings"]]
        duty = form.cleaned_data["status"] == REQUEST_CLUB_DUTY
        # A club duty request scores as a sign-off until the leader approves it.
        status = sign_off_status(me.is_fixed) if duty else form.cleaned_data["status"]
        late = late_sign_offs(me, chosen, status, timezone.now())
        over = absences_over_limit(me, chosen, status, timezone.now())
        # Signing up where another club of his expects him too: said before it is saved.
        elsewhere = sorted(selectors.expected_elsewhere(
            request.user, [e.date for e in chosen]).items()) if status == Attendance.PRESENT else []
        paired = paired_sign_offs(me, chosen, status, timezone.now())
        if (late or over or elsewhere or paired) and not confirmed(request):
            return render(request, "competition/signup_late.html", {
                "late": late, "over": over, "duty": duty, "elsewhere": elsewhere,
                "paired": paired, "fields": [
                    (name, value) for name in request.POST
                    if name not in ("csrfmiddlewaretoken", "confirm")
                    for value in request.POST.getlist(name)
                ],
            })
        with refusal(request) as refused:
            if duty:
                services.club_duty_request_evenings(
                    actor=request.user, player=me, evenings=chosen,
                    note=form.cleaned_data["duty_note"],
                )
            else:
                services.registration_set(
                    actor=request.user, player=me, evenings=chosen,
                    status=form.cleaned_data["status"],
                )
        if not refused:
            messages.success(request, _(
                "Your request is sent to the competition leader; you get an e-mail with his "
                "decision. Until he approves it, the evening counts as a sign-off."
            ) if duty else _("Your status is saved."))
            for item in paired:  # what follows from it, and how to take it back
                messages.warning(request, item.done)
            if late and not paired:
                messages.warning(request, _(
                    "Recorded as absent without notice; if you were paired, your opponent "
                    "and the competition leader get an e-mail."
                ))
            target = request.POST.get("next", "")
            if url_has_allowed_host_and_scheme(target, {request.get_host()}):
                return redirect(target)
            return redirect("competition:signup")
    duty_requests = selectors.club_duty_requests_of(me, upcoming)
    now = timezone.now()
    return render(
        request,
        "competition/signup.html",
        {"season": season, "me": me, "form": form,
         "absence_limit": absence_limit(me), "absences_used": len(absences_with_notice(me)),
         "statuses": [(e, status, explicit, duty_requests.get(e.pk), is_late(now, e.deadline))
                      for e, status, explicit in selectors.statuses_for(me, upcoming)]},
    )


@login_required
@permission_required(Perm.MANAGE_CALENDAR, raise_exception=True)
def leader_season(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
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
            with refusal(request) as refused:
                services.competition_set_parameters(
                    actor=request.user, competition=competition,
                    system=params_form.system, overrides=params_form.overrides(),
                )
            if not refused:
                messages.success(request, _("Parameters saved; the standings are recalculated."))
                return redirect("competition:leader_season", season=season_obj.slug)
    deadline_form = DeadlineForm(
        request.POST if request.POST.get("form") == "deadline" else None,
        initial={"days_before": competition.deadline_days_before, "time": competition.deadline_time,
                 "move_evenings": True},
    )
    if request.method == "POST" and request.POST.get("form") == "deadline":
        if not deadline_form.is_valid():
            form_error_messages(request, deadline_form)
        else:
            data = deadline_form.cleaned_data
            back = reverse("competition:leader_season", args=[season_obj.slug]) + "#deadline"
            if not confirmed(request):
                lines, open_ones = _deadline_consequences(competition, data, timezone.now())
                return confirmation_page(
                    request, title=_("Change the sign-up deadline?"), consequences=lines,
                    cancel=back, button=_("Change the deadline"), choice="move_evenings",
                    choices=[("on", _("Change it and move these deadlines")),
                             ("", _("Change it, keep these deadlines"))] if open_ones else (),
                )
            with refusal(request) as refused:
                moves = services.competition_set_deadline(
                    actor=request.user, competition=competition, days_before=data["days_before"],
                    time=data["time"], move_evenings=data["move_evenings"],
                )
            if not refused:
                messages.success(request, _("The sign-up deadline is changed."))
                messages.info(request, deadline_moved_message(moves))
            return redirect(back)
    evenings_list = list(selectors.season_evenings(season_obj))
    return render(
        request,
        "competition/leader_season.html",
        {"season": season_obj, "competition": competition, "params_form": params_form,
         "deadline_form": deadline_form,
         "evenings": evenings_list, "kinds": EveningKind.choices,
         "halves": season_obj.halves.order_by("start_date"),
         "players": season_obj.players.select_related("member").order_by("start"),
         "ratings_form": CompetitionRatingsForm(initial={"start_rating": competition.start_rating})},
    )


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
