"""Pages of the Swiss events (included at ``events/``): the public standings and rounds,
the arbiter's evening page, and the leader's forms. Views read through
``swiss_selectors`` and write only through ``swiss_services``."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import selectors
from . import swiss_selectors as sel
from . import swiss_services as services
from .formversion import posted_version
from .models import Season, SwissEvent, SwissGame, SwissRound
from .swiss_forms import (
    EntrantsForm,
    EventForm,
    PresenceForm,
    RoundsForm,
    TrfImportForm,
    result_buttons,
    result_from_code,
)

REFRESH_SECONDS = 30


def _requires(perm: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Signed in (else to the sign-in page) and holding ``perm`` (else 403)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.has_perm(perm):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


arbiter_required = _requires(services.ARBITER)
manager_required = _requires(services.MANAGE)


def _event(event_id: int) -> SwissEvent:
    return get_object_or_404(SwissEvent.objects.select_related("season", "half", "parent"), pk=event_id)


def _season(slug: str | None) -> Season:
    season = get_object_or_404(Season, slug=slug) if slug else selectors.current_season()
    if season is None:
        raise Http404(_("No season has been set up yet."))
    return season


def _errors(request: HttpRequest, exc: ValidationError) -> None:
    for m in exc.messages:
        messages.error(request, m)


# --- Public -----------------------------------------------------------------------------


def events(request: HttpRequest) -> HttpResponse:
    season = _season(request.GET.get("season"))
    return render(
        request,
        "events/events.html",
        {"season": season, "events": sel.season_events(season),
         "seasons": Season.objects.order_by("-start_date")},
    )


def event(request: HttpRequest, event_id: int) -> HttpResponse:
    context = sel.event_page(_event(event_id))
    context["refresh"] = REFRESH_SECONDS if context["live"] else None
    return render(request, "events/event.html", context)


def round_detail(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    rnd = get_object_or_404(
        SwissRound.objects.select_related("event__season", "evening"), event_id=event_id, number=number
    )
    context = sel.round_page(rnd)
    context["refresh"] = REFRESH_SECONDS if context["live"] else None
    return render(request, "events/round.html", context)


def event_trf(request: HttpRequest, event_id: int) -> HttpResponse:
    event_obj = _event(event_id)
    try:
        text = services.event_to_trf(event_obj)
    except ValidationError as exc:
        raise Http404(exc.messages[0]) from exc
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event_obj.pk}.trf"'
    return response


# --- The arbiter's evening page ---------------------------------------------------------


@arbiter_required
def arbiter(request: HttpRequest, event_id: int) -> HttpResponse:
    event_obj = _event(event_id)
    context = sel.arbiter_page(event_obj)
    context["buttons"] = result_buttons(event_obj)
    context["rounds_form"] = RoundsForm(initial={"rounds": event_obj.rounds})
    context["can_manage"] = request.user.has_perm(services.MANAGE)
    return render(request, "events/arbiter.html", context)


def _back(event_id: int, anchor: str = "") -> HttpResponse:
    url = reverse("swiss:arbiter", args=[event_id])
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _round(event_id: int, number: int) -> SwissRound:
    return get_object_or_404(SwissRound.objects.select_related("event"), event_id=event_id, number=number)


@require_POST
@arbiter_required
def round_open(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        rnd = services.round_open(actor=request.user, event=_event(event_id))
    except ValidationError as exc:
        _errors(request, exc)
    else:
        messages.success(request, _("Round %(n)s is open: mark who is present.") % {"n": rnd.number})
    return _back(event_id, "round")


@require_POST
@arbiter_required
def presence(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Save who is present; with ``then=pair`` pair the round at once (one tap)."""
    rnd = _round(event_id, number)
    form = PresenceForm(request.POST, round=rnd)
    if not form.is_valid():
        for errors in form.errors.values():
            for m in errors:
                messages.error(request, m)
        return _back(event_id, "round")
    try:
        services.presence_set(
            actor=request.user, round=rnd, entrant_ids=[e.pk for e in form.cleaned_data["present"]]
        )
        if request.POST.get("then") == "pair":
            services.round_pair(actor=request.user, round=rnd)
            messages.success(request, _("Round %(n)s is paired.") % {"n": rnd.number})
        else:
            messages.success(request, _("Presence saved."))
    except ValidationError as exc:
        _errors(request, exc)
    return _back(event_id, "round")


@require_POST
@arbiter_required
def round_pair(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    try:
        services.round_pair(actor=request.user, round=_round(event_id, number))
    except ValidationError as exc:
        _errors(request, exc)
    else:
        messages.success(request, _("Round %(n)s is paired.") % {"n": number})
    return _back(event_id, "round")


@require_POST
@arbiter_required
def round_finish(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    try:
        services.round_finish(actor=request.user, round=_round(event_id, number))
    except ValidationError as exc:
        _errors(request, exc)
    else:
        messages.success(request, _("Round %(n)s is finished.") % {"n": number})
    return _back(event_id, "round")


@require_POST
@arbiter_required
def game_result(request: HttpRequest, event_id: int, game_id: int) -> HttpResponse:
    game = get_object_or_404(
        SwissGame.objects.select_related("round__event"), pk=game_id, round__event_id=event_id
    )
    try:
        version = posted_version(request.POST.get("version"))
        white, black, forfeit = result_from_code(game.round.event, request.POST.get("result", ""))
        services.game_result_set(
            actor=request.user, game=game, white_points=white, black_points=black,
            forfeit=forfeit, expected_version=version,
        )
    except services.Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        _errors(request, exc)
    else:
        messages.success(request, _("Board %(b)s saved.") % {"b": game.board})
    return _back(event_id, f"board-{game.board}")


@require_POST
@arbiter_required
def set_rounds(request: HttpRequest, event_id: int) -> HttpResponse:
    form = RoundsForm(request.POST)
    if form.is_valid():
        try:
            services.event_set_rounds(
                actor=request.user, event=_event(event_id), rounds=form.cleaned_data["rounds"]
            )
        except ValidationError as exc:
            _errors(request, exc)
        else:
            messages.success(request, _("Number of rounds saved."))
    else:
        for m in form.errors.get("rounds", []):
            messages.error(request, m)
    return _back(event_id, "rounds")


@require_POST
@arbiter_required
def playoff(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        created = services.blitz_playoff_create(actor=request.user, event=_event(event_id))
    except ValidationError as exc:
        _errors(request, exc)
        return _back(event_id)
    messages.success(request, _("The playoff is ready: enter its results here."))
    return redirect("swiss:arbiter", event_id=created.pk)


# --- The leader's forms -----------------------------------------------------------------


@manager_required
def event_new(request: HttpRequest) -> HttpResponse:
    season = _season(request.GET.get("season") or request.POST.get("season"))
    form = EventForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.event_create(actor=request.user, season=season, **form.cleaned_data)
        except ValidationError as exc:
            if hasattr(exc, "error_dict"):
                for field, errors in exc.error_dict.items():
                    for error in errors:
                        form.add_error(field if field in form.fields else None, error)
            else:
                for m in exc.messages:
                    form.add_error(None, m)
        else:
            messages.success(request, _("%(e)s created: enter the players.") % {"e": created})
            return redirect("swiss:entrants", event_id=created.pk)
    return render(request, "events/event_new.html", {"season": season, "form": form})


@manager_required
def entrants(request: HttpRequest, event_id: int) -> HttpResponse:
    event_obj = _event(event_id)
    form = EntrantsForm(request.POST or None, event=event_obj)
    if request.method == "POST" and form.is_valid():
        added = 0
        for member in form.cleaned_data["members"]:
            try:
                services.entrant_add(actor=request.user, event=event_obj, member=member)
            except ValidationError as exc:
                _errors(request, exc)
            else:
                added += 1
        if added:
            messages.success(request, _("%(n)s entered.") % {"n": added})
        return redirect("swiss:entrants", event_id=event_obj.pk)
    return render(
        request,
        "events/entrants.html",
        {"event": event_obj, "form": form, "entrants": sel.event_entrants(event_obj)},
    )


@manager_required
def event_import(request: HttpRequest) -> HttpResponse:
    season = _season(request.GET.get("season") or request.POST.get("season"))
    form = TrfImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.event_from_trf(
                actor=request.user, season=season, text=form.text(), name=form.cleaned_data["name"]
            )
        except ValidationError as exc:
            for m in exc.messages:
                form.add_error(None, m)
        else:
            messages.success(request, _("%(e)s imported.") % {"e": created})
            return redirect("swiss:event", event_id=created.pk)
    return render(request, "events/event_import.html", {"season": season, "form": form})
