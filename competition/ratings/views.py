"""The leader's rating pages: upload a list, map a CSV's columns, follow the reading,
check the preview and save; set a season's starting order; export a half as TRF."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competition.models import RatingImport, RatingImportStatus, Season
from core.jobs import enqueue
from core.singleline import NotSingleLine
from core.web import refusal
from members.clubs.decorators import any_permission_required

from . import selectors, services
from .engine.lists import CSV_FIELDS
from .forms import CompetitionRatingsForm, ExportForm, MappingForm, TrfSettingsForm, UploadForm
from .texts import error_text

REFRESH_SECONDS = 2
leader_required = any_permission_required(services.IMPORT_PERM)


def _errors(request: HttpRequest, exc: ValidationError) -> None:
    for m in exc.messages:
        messages.error(request, m)


READ_TASK = "competition.ratings.tasks.read_rating_list"


@leader_required
def index(request: HttpRequest) -> HttpResponse:
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form, field="file") as refused:
            ri = services.rating_import_create(
                actor=request.user, upload=form.cleaned_data["file"],
                number_kind=form.cleaned_data["number_kind"],
            )
        if not refused:
            if ri.status == RatingImportStatus.READING:
                enqueue(READ_TASK, ri.pk)
            return redirect("ratings:detail", import_id=ri.pk)
    return render(request, "ratings/index.html", {
        "form": form, "imports": selectors.recent_imports(),
        "seasons": Season.objects.order_by("-start_date"),
    })


@leader_required
def detail(request: HttpRequest, import_id: int) -> HttpResponse:
    ri = get_object_or_404(RatingImport, pk=import_id)
    context: dict = {"ri": ri, "refresh": REFRESH_SECONDS}
    if ri.status == RatingImportStatus.MAPPING:
        form = MappingForm(request.POST or None, columns=ri.columns,
                           initial={**ri.mapping, "number_kind": ri.number_kind,
                                    "rating_kind": ri.rating_kind})
        if request.method == "POST" and form.is_valid():
            with refusal(request, form=form) as refused:
                services.rating_import_set_mapping(
                    actor=request.user, rating_import=ri, mapping=form.mapping(),
                    number_kind=form.cleaned_data["number_kind"],
                    rating_kind=form.cleaned_data["rating_kind"] or None,
                )
            if not refused:
                enqueue(READ_TASK, ri.pk)
                return redirect("ratings:detail", import_id=ri.pk)
        context["form"] = form
        context["fields"] = [form[f] for f in CSV_FIELDS]
    elif ri.status == RatingImportStatus.FAILED:
        error = ri.error or {}
        context["error"] = error_text(error.get("code", ""), error.get("params", {}))
    else:
        context.update(selectors.import_preview(ri))
    return render(request, "ratings/detail.html", context)


@require_POST
@leader_required
def save(request: HttpRequest, import_id: int) -> HttpResponse:
    ri = get_object_or_404(RatingImport, pk=import_id)
    with refusal(request) as refused:
        changed = services.ratings_apply(
            actor=request.user, rating_import=ri, confirmed=set(request.POST.getlist("confirm")),
            accept_kind=request.POST.get("accept_kind") == "1",
        )
    if not refused:
        messages.success(request, _("Ratings saved: %(n)s members changed.") % {"n": changed})
    return redirect("ratings:detail", import_id=ri.pk)


@require_POST
@leader_required
def season_start(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = get_object_or_404(Season, slug=season)
    with refusal(request) as refused:
        services.season_start_from_ratings(actor=request.user, season=season_obj)
    if not refused:
        messages.success(request, _("The starting order follows the ratings now."))
    return redirect("competition:leader_season", season=season_obj.slug)


@require_POST
@leader_required
def competition_ratings(request: HttpRequest, season: str) -> HttpResponse:
    """The leader's choice of the rating for the starting order (a form on the season's
    set-up page); the TRF export's rating is kept, it is set with the export."""
    season_obj = get_object_or_404(Season.objects.select_related("competition"), slug=season)
    form = CompetitionRatingsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for m in errors:
                messages.error(request, m)
    else:
        with refusal(request) as refused:
            services.competition_set_ratings(
                actor=request.user, competition=season_obj.competition,
                start_rating=form.cleaned_data["start_rating"],
                trf_rating=season_obj.competition.trf_rating)
        if not refused:
            messages.success(request, _("Ratings of the competition saved."))
    return redirect(reverse("competition:leader_season", args=[season_obj.slug]) + "#ratings")


@leader_required
def export(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = get_object_or_404(Season.objects.select_related("competition"), slug=season)
    competition = season_obj.competition
    # What the leader has not filled in is proposed from the club's data (saved only when
    # he saves the form); the page names what the file lacks until then.
    defaults = selectors.trf_club_defaults(season_obj)
    missing = selectors.trf_missing(season_obj)
    settings_form = TrfSettingsForm(request.POST or None, initial={
        "city": competition.venue_city or defaults["city"],
        "arbiter": competition.chief_arbiter or defaults["arbiter"],
        "rating": competition.trf_rating,
    })
    if request.method == "POST":
        if settings_form.is_valid():
            data = settings_form.cleaned_data
            with refusal(request) as refused:
                services.trf_settings_set(actor=request.user, season=season_obj, city=data["city"],
                                          arbiter=data["arbiter"], rating=data["rating"])
            if not refused:
                messages.success(request, _("Saved: the next TRF file says so."))
                return redirect("ratings:export", season=season_obj.slug)
        return render(request, "ratings/export.html",
                      {"season": season_obj, "form": ExportForm(season=season_obj),
                       "settings_form": settings_form, "result": None, "missing": missing})
    form = ExportForm(request.GET or None, season=season_obj)
    result = None
    if request.GET and form.is_valid():
        data = form.cleaned_data
        try:
            result = selectors.season_export(
                season_obj, half=data["half"], start=data["start"], end=data["end"],
                rating=data["id_kind"] or competition.trf_rating,
            )
        except NotSingleLine as exc:
            messages.error(request, _(
                "The TRF file cannot be written: %(what)s contains control characters "
                "(%(codes)s). Correct it first.") % {"what": exc.what, "codes": ", ".join(exc.codes)})
            return render(request, "ratings/export.html",
                          {"season": season_obj, "form": form, "settings_form": settings_form,
                           "result": None, "missing": missing})
        if request.GET.get("download") and result.rounds:
            response = HttpResponse(result.export.text, content_type="text/plain; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{result.filename}"'
            return response
    return render(request, "ratings/export.html",
                  {"season": season_obj, "form": form, "settings_form": settings_form,
                   "result": result, "missing": missing})
