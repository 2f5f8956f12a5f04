"""Prize pages: the public prizes and playoffs, the administrator's page. Views read
through ``prize_selectors`` and write through ``prize_services``; they compute no rule."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competition.models import PlayerKind, Season
from competition.season.engine.calendar import CalendarError, propose_calendar
from competition.season.selectors import season_or_404
from competition.season.texts import calendar_refusal
from core.dates import short_day
from core.permissions import Perm
from core.web import confirmation_page, confirmed, form_error_messages, refusal, run_service
from members.clubs.decorators import any_permission_required

from . import selectors as prize_selectors
from . import services as prize_services
from .forms import (
    PLAYOFF_RESULTS,
    EligibilityOverrideForm,
    HalfForm,
    HalfPlayerForm,
    LeaderNextSeasonForm,
    NextSeasonForm,
    PlayerKindForm,
    PlayoffDateForm,
    PlayoffResultForm,
    next_season_initial,
)

MANAGE_PERMS = (Perm.MANAGE_SEASON, Perm.OVERRIDE_ELIGIBILITY)


# --- Public pages -----------------------------------------------------------------------


def index(request: HttpRequest) -> HttpResponse:
    return season_prizes(request, None)


def season_prizes(request: HttpRequest, season: str | None) -> HttpResponse:
    context = prize_selectors.prizes_page(season_or_404(season))
    context["can_manage"] = any(request.user.has_perm(p) for p in MANAGE_PERMS)
    return render(request, "prizes/index.html", context)


def playoffs(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    context = prize_selectors.playoff_page(season_obj)
    user = request.user
    context.update(
        can_enter=user.has_perm(Perm.ENTER_RESULTS),
        can_move=user.has_perm(Perm.MANAGE_PAIRINGS),
        can_create=user.has_perm(Perm.MANAGE_PAIRINGS) and context["bracket_row"] is None,
        can_confirm=user.has_perm(Perm.MANAGE_SEASON),
        results=PLAYOFF_RESULTS,
        confirm_draw=" ".join(draw_consequences()),
    )
    if context["can_create"]:
        context["blockers"] = prize_selectors.playoffs_blockers(season_obj)
    return render(request, "prizes/playoffs.html", context)


# --- The playoffs: leader and arbiter ---------------------------------------------------


def draw_consequences() -> list[str]:
    return [
        _("The eligible players of the summer half are put in groups of four by the final "
          "summer standings, and the colours are drawn by lot."),
        _("The drawing is final: it cannot be made again on the site."),
    ]


def _to_playoffs(season: Season, anchor: str = "") -> HttpResponse:
    return redirect(reverse("prizes:playoffs", args=[season.slug]) + anchor)


@require_POST
@login_required
@permission_required(Perm.MANAGE_PAIRINGS, raise_exception=True)
def playoffs_create(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    if not confirmed(request):
        return confirmation_page(
            request, title=_("Draw the playoffs?"), consequences=draw_consequences(),
            cancel=reverse("prizes:playoffs", args=[season_obj.slug]),
            button=_("Draw the playoffs"),
        )
    run_service(request, lambda: prize_services.playoffs_create(actor=request.user, season=season_obj),
         _("The playoffs are drawn."))
    return _to_playoffs(season_obj)


@require_POST
@login_required
@permission_required(Perm.ENTER_RESULTS, raise_exception=True)
def playoff_result(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    form = PlayoffResultForm(request.POST)
    if not form.is_valid():
        form_error_messages(request, form)
        return _to_playoffs(season_obj)
    match = form.cleaned_data["match"]
    run_service(
        request,
        lambda: prize_services.playoff_result_set(
            actor=request.user, season=season_obj, match=match, result=form.cleaned_data["result"]
        ),
        _("Result of %(m)s saved.") % {"m": match},
    )
    return _to_playoffs(season_obj, f"#{match}")


@require_POST
@login_required
@permission_required(Perm.MANAGE_PAIRINGS, raise_exception=True)
def playoff_result_withdraw(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    match = request.POST.get("match", "")[:20]
    run_service(
        request,
        lambda: prize_services.playoff_result_withdraw(
            actor=request.user, season=season_obj, match=match
        ),
        _("The result of %(m)s is withdrawn.") % {"m": match},
    )
    return _to_playoffs(season_obj, f"#{match}")


@require_POST
@login_required
@permission_required(Perm.MANAGE_PAIRINGS, raise_exception=True)
def playoff_date(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    form = PlayoffDateForm(request.POST)
    if not form.is_valid():
        form_error_messages(request, form)
        return _to_playoffs(season_obj)
    match = form.cleaned_data["match"]
    run_service(
        request,
        lambda: prize_services.playoff_date_set(
            actor=request.user, season=season_obj, match=match, date=form.cleaned_data["date"]
        ),
        _("%(m)s moved to %(d)s.") % {"m": match, "d": short_day(form.cleaned_data["date"])},
    )
    return _to_playoffs(season_obj, f"#{match}")


@require_POST
@login_required
@permission_required(Perm.MANAGE_SEASON, raise_exception=True)
def playoff_prizes(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    run_service(request, lambda: prize_services.playoff_prizes_confirm(actor=request.user, season=season_obj),
         _("The playoff prizes are confirmed."))
    return _to_playoffs(season_obj)


# --- The administrator's page -----------------------------------------------------------


@login_required
@any_permission_required(*MANAGE_PERMS)
def manage(request: HttpRequest, season: str) -> HttpResponse:
    return _manage_page(request, season_or_404(season))


def _manage_page(request: HttpRequest, season_obj: Season, next_form: NextSeasonForm | None = None,
                 status: int = 200) -> HttpResponse:
    """The administrator's page; ``next_form`` is the next season's form as he sent it
    (refused: his dates stay in it)."""
    context = prize_selectors.manage_page(season_obj)
    context["next_form"] = next_form or NextSeasonForm(
        initial=next_season_initial(season_obj.start_date, season_obj.name))
    return render(request, "prizes/manage.html", context, status=status)


def _to_manage(season: Season, anchor: str = "") -> HttpResponse:
    return redirect(reverse("prizes:manage", args=[season.slug]) + anchor)


@require_POST
@login_required
@permission_required(Perm.OVERRIDE_ELIGIBILITY, raise_exception=True)
def override_set(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    form = EligibilityOverrideForm(request.POST, season=season_obj)
    if not form.is_valid():
        form_error_messages(request, form)
        return _to_manage(season_obj)
    data = form.cleaned_data
    run_service(
        request,
        lambda: prize_services.eligibility_override_set(
            actor=request.user, half=data["half"], player=data["player"],
            eligible=data["eligible"], reason=data["reason"],
        ),
        _("Decision on %(p)s saved.") % {"p": data["player"]},
    )
    return _to_manage(season_obj, f"#half-{data['half'].kind}")


@require_POST
@login_required
@permission_required(Perm.OVERRIDE_ELIGIBILITY, raise_exception=True)
def override_clear(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    form = HalfPlayerForm(request.POST, season=season_obj)
    if not form.is_valid():
        form_error_messages(request, form)
        return _to_manage(season_obj)
    data = form.cleaned_data
    run_service(
        request,
        lambda: prize_services.eligibility_override_clear(
            actor=request.user, half=data["half"], player=data["player"]
        ),
        _("Decision on %(p)s withdrawn; the rule decides.") % {"p": data["player"]},
    )
    return _to_manage(season_obj, f"#half-{data['half'].kind}")


@require_POST
@login_required
@permission_required(Perm.MANAGE_SEASON, raise_exception=True)
def confirm(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    form = HalfForm(request.POST, season=season_obj)
    if not form.is_valid():
        form_error_messages(request, form)
        return _to_manage(season_obj)
    half = form.cleaned_data["half"]
    run_service(request, lambda: prize_services.prizes_confirm(actor=request.user, half=half),
         _("The prizes of the %(h)s are confirmed.") % {"h": half.get_kind_display()})
    return _to_manage(season_obj, f"#half-{half.kind}")


@require_POST
@login_required
@permission_required(Perm.MANAGE_SEASON, raise_exception=True)
def player_kind(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    form = PlayerKindForm(request.POST, season=season_obj)
    if not form.is_valid():
        form_error_messages(request, form)
        return _to_manage(season_obj, "#fixed")
    player = form.cleaned_data["player"]
    kind = form.cleaned_data["kind"]
    run_service(request, lambda: prize_services.player_set_kind(actor=request.user, player=player, kind=kind),
         _("%(p)s is a fixed player again.") % {"p": player} if kind == PlayerKind.FIXED
         else _("%(p)s is a flexible player.") % {"p": player})
    return _to_manage(season_obj, "#fixed")


@require_POST
@login_required
@permission_required(Perm.MANAGE_SEASON, raise_exception=True)
def next_season(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    if not request.user.has_perm(Perm.MANAGE_SEASON):
        raise PermissionDenied
    form = NextSeasonForm(request.POST)
    if form.is_valid():
        with refusal(request) as refused:
            new = prize_services.season_start_next(actor=request.user, season=season_obj,
                                                   **form.cleaned_data)
        if not refused:
            messages.success(
                request,
                _("Season %(s)s set up with %(n)s players; check the calendar and ask last "
                  "season's fixed players again.") % {"s": new, "n": new.players.count()},
            )
            return _to_manage(new, "#fixed")
    else:
        form_error_messages(request, form)
    return _manage_page(request, season_obj, form)


@require_POST
@any_permission_required(Perm.MANAGE_REGISTRATIONS)
def order_from_season(request: HttpRequest, season: str) -> HttpResponse:
    """The starting order from an earlier season's final standings (the members page's
    form: a club that imported last season from a file starts this one from it)."""
    target = season_or_404(season)
    source = Season.objects.filter(club_id=target.club_id, slug=request.POST.get("source", "")).first()
    with refusal(request) as refused:
        if source is None:
            raise ValidationError(_("Choose an earlier season of the club."))
        ordered, taken = prize_services.starting_order_from_season(
            actor=request.user, season=target, source=source)
    if not refused:
        messages.success(request, _(
            "The starting order follows the final standings of %(source)s: %(taken)s of the "
            "%(n)s players in their final order, the others after them by rating.")
            % {"source": source, "taken": taken, "n": len(ordered)})
    return redirect("members:index", season=target.slug)


@login_required
@permission_required(prize_services.NEXT_SEASON_PERM, raise_exception=True)
def next_season_preview(request: HttpRequest, season: str) -> HttpResponse:
    """The leader's next season: the proposal (the old season's dates a year on, fixed
    players fixed, the final standings' order), a preview of it all, then "make it"."""
    old = season_or_404(season)
    proposal = prize_services.next_season_proposal(old)
    initial = {**next_season_initial(old.start_date, old.name), "opening": proposal["opening"],
               "last_day": proposal["last_day"], "keep_fixed": True,
               # As the language writes a date ("24-12-2027"); the field reads it back so.
               "closed": " ".join(date_format(d, "SHORT_DATE_FORMAT") for d in proposal["closed"])}
    form = LeaderNextSeasonForm(request.POST or None, initial=initial)
    context: dict = {"season": old, "form": form}
    if request.method == "POST" and not form.is_valid():
        return render(request, "prizes/next_season.html", context)
    data = form.cleaned_data if request.method == "POST" else {
        **initial, "knsb_rounds": [], "closed": proposal["closed"]}
    if request.POST.get("make") == "1":
        with refusal(request) as refused:
            new = prize_services.season_start_next(
                actor=request.user, season=old, name=data["name"], opening=data["opening"],
                last_day=data["last_day"], knsb_rounds=data["knsb_rounds"], closed=data["closed"],
                keep_fixed=data["keep_fixed"])
        if not refused:
            messages.success(request, _("Season %(s)s is set up with %(n)s players.")
                             % {"s": new, "n": new.players.count()})
            return redirect("competition:leader_season", season=new.slug)
    try:
        calendar = propose_calendar(opening=data["opening"], last_day=data["last_day"],
                                    knsb_rounds=data["knsb_rounds"], closed=data["closed"],
                                    single_period=old.competition.is_ladder)
    except CalendarError as exc:
        form.add_error(None, calendar_refusal(exc))
        return render(request, "prizes/next_season.html", context)
    context.update(
        evenings=calendar.evenings, closed=data["closed"],
        playing=sum(1 for e in calendar.evenings if e.kind == "playing"),
        players=prize_services.next_season_players(old, keep_fixed=data["keep_fixed"]))
    return render(request, "prizes/next_season.html", context)
