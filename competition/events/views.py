"""Pages of the Swiss events (included at ``events/``): the public standings and rounds,
the arbiter's evening page, and the leader's forms. Views read through
``events.selectors`` and write only through ``events.services``."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competition.models import RoundStatus, Season, SwissEvent, SwissGame, SwissRound
from competition.season.selectors import season_or_404
from core.formversion import posted_version
from core.pagecache import cache_public_page
from core.web import confirmation_page, confirmed, error_messages, refusal, run_service
from members.clubs.decorators import any_permission_required

from . import selectors as sel
from . import services
from .forms import (
    EntrantsForm,
    EventForm,
    PresenceForm,
    RoundsForm,
    TrfImportForm,
    result_buttons,
    result_from_code,
)

REFRESH_SECONDS = 30


def finish_consequences(number: int) -> list[str]:
    return [
        _("Round %(n)s's results then count in the standings and the tie-breaks, and the "
          "next round can be paired from them.") % {"n": number},
        _("A result can still be corrected afterwards (recorded in the audit trail), but "
          "the later rounds' pairings stay as they are."),
    ]


def playoff_consequences() -> list[str]:
    return [
        _("A playoff event is created for the players tied for first: every tied player "
          "meets every other twice, once with each colour, at 5 minutes."),
        _("All its games are created at once; generating it again changes nothing."),
    ]


arbiter_required = any_permission_required(services.ARBITER)
manager_required = any_permission_required(services.MANAGE)
creator_required = any_permission_required(services.CREATE)


def _event(event_id: int) -> SwissEvent:
    return get_object_or_404(SwissEvent.objects.select_related("season", "half", "parent"), pk=event_id)


# --- Public -----------------------------------------------------------------------------


def events(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season"))
    return render(
        request,
        "events/events.html",
        {"season": season, "events": sel.season_events(season),
         "seasons": Season.objects.order_by("-start_date"),
         "can_create": request.user.has_perm(services.CREATE),
         "can_import": request.user.has_perm(services.MANAGE)},
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
    context["can_manage"] = request.user.has_perm(services.CREATE)
    if context.get("current") is not None:
        context["confirm_finish"] = " ".join(finish_consequences(context["current"].number))
    context["confirm_playoff"] = " ".join(playoff_consequences())
    if context.get("current") is not None:
        _with_changes(request, context["current"], context["games"])
    return render(request, "events/arbiter.html", context)


def _with_changes(request: HttpRequest, rnd: SwissRound, games: list[SwissGame]) -> None:
    """Each board whose result was changed carries the result before and its undo."""
    changes = sel.result_changes(rnd, games, request.user, timezone.now())
    for g in games:
        g.change = changes.get(g.pk)  # type: ignore[attr-defined]


def _back(event_id: int, anchor: str = "") -> HttpResponse:
    url = reverse("events:arbiter", args=[event_id])
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _round(event_id: int, number: int) -> SwissRound:
    return get_object_or_404(SwissRound.objects.select_related("event"), event_id=event_id, number=number)


@require_POST
@arbiter_required
def round_open(request: HttpRequest, event_id: int) -> HttpResponse:
    with refusal(request) as refused:
        rnd = services.round_open(actor=request.user, event=_event(event_id))
    if not refused:
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
    with refusal(request):
        services.presence_set(
            actor=request.user, round=rnd, entrant_ids=[e.pk for e in form.cleaned_data["present"]]
        )
        if request.POST.get("then") == "pair":
            services.round_pair(actor=request.user, round=rnd)
            messages.success(request, _("Round %(n)s is paired.") % {"n": rnd.number})
        else:
            messages.success(request, _("Presence saved."))
    return _back(event_id, "round")


@require_POST
@arbiter_required
def round_pair(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    run_service(request, lambda: services.round_pair(actor=request.user, round=_round(event_id, number)),
                _("Round %(n)s is paired.") % {"n": number})
    return _back(event_id, "round")


@require_POST
@arbiter_required
def round_finish(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    rnd = _round(event_id, number)  # the club's round, or a 404 before "are you sure?"
    if not confirmed(request):
        return confirmation_page(
            request, title=_("Finish round %(n)s?") % {"n": number},
            consequences=finish_consequences(number),
            cancel=reverse("events:arbiter", args=[event_id]) + "#round",
            button=_("Finish round %(n)s") % {"n": number},
        )
    run_service(request, lambda: services.round_finish(actor=request.user, round=rnd),
                _("Round %(n)s is finished.") % {"n": number})
    return _back(event_id, "round")


@require_POST
@arbiter_required
def game_result(request: HttpRequest, event_id: int, game_id: int) -> HttpResponse:
    game = _game(event_id, game_id)
    back = reverse("events:arbiter", args=[event_id]) + f"#board-{game.board}"
    return _change_result(request, game, services.game_result_set, back)


def _game(event_id: int, game_id: int) -> SwissGame:
    return get_object_or_404(
        SwissGame.objects.select_related("round__event", "white__member", "black__member"),
        pk=game_id, round__event_id=event_id,
    )


def _change_result(request: HttpRequest, game: SwissGame, service: Callable[..., Any],
                   back: str) -> HttpResponse:
    """Enter a board's result; changing one it already has first says what that does
    (whose points and places move, which later rounds stay paired) and asks, then shows
    what changed with an undo on the board."""
    lines: list[str] = []
    change = ""
    shown = request.POST.get("version", "")
    # A stale form is not asked about: the service answers it with the conflict.
    if game.white_points is not None and game.black_id is not None and shown in ("", str(game.version)):
        try:
            white, black, forfeit = result_from_code(game.round.event, request.POST.get("result", ""))
        except ValidationError:
            pass  # the service refuses it with its message, and nothing is saved
        else:
            change = sel.result_change_line(game, white, black, forfeit)
            if change:
                lines = sel.result_change_consequences(game, white, black, forfeit)
    if lines and not confirmed(request):
        return confirmation_page(
            request, title=_("Change the result of board %(b)s?") % {"b": game.board},
            consequences=[*lines, _("You can undo the change for a few minutes; it stays in the changes.")],
            cancel=back, button=_("Change the result"),
        )
    if _save_result(request, game, service):
        if lines:
            messages.success(request, _("Board %(b)s changed: %(change)s. Undo it on the board "
                                        "within a few minutes if it was a slip.")
                             % {"b": game.board, "change": change})
            for line in lines[1:]:
                messages.info(request, line)
        else:
            messages.success(request, _("Board %(b)s saved.") % {"b": game.board})
    elif game.round.status != RoundStatus.DONE and service is services.game_result_correct:
        return _back(game.round.event_id, "round")
    return redirect(back)


@require_POST
@arbiter_required
def game_undo(request: HttpRequest, event_id: int, game_id: int) -> HttpResponse:
    """One tap puts back the result a change replaced (a few minutes after it)."""
    game = _game(event_id, game_id)
    page = "events:round_correct" if game.round.status == RoundStatus.DONE else "events:arbiter"
    args = [event_id, game.round.number] if page == "events:round_correct" else [event_id]
    with refusal(request) as refused:
        undone = services.game_result_undo(actor=request.user, game=game)
    if not refused:
        change = sel.result_change_line(game, Fraction(undone.white_points or 0),
                                        Fraction(undone.black_points or 0), undone.forfeit)
        messages.success(request, _("Board %(b)s undone: %(change)s.") % {"b": game.board, "change": change})
    return redirect(reverse(page, args=args) + f"#board-{game.board}")


def _save_result(request: HttpRequest, game: SwissGame, service: Callable[..., Any]) -> bool:
    """Enter or correct a board's result from the posted form (its code and the version
    it was shown at); a refusal or a conflict becomes a message and saves nothing."""
    try:
        version = posted_version(request.POST.get("version"))
        white, black, forfeit = result_from_code(game.round.event, request.POST.get("result", ""))
        service(actor=request.user, game=game, white_points=white, black_points=black,
                forfeit=forfeit, expected_version=version)
    except services.Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        return True
    return False


@arbiter_required
def round_correct(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """A finished round's boards, to correct a result; the later rounds stay paired."""
    rnd = get_object_or_404(
        SwissRound.objects.select_related("event__season", "evening"), event_id=event_id, number=number
    )
    if rnd.status != RoundStatus.DONE:
        messages.error(request, _("Round %(n)s is not finished: enter its results here.") % {"n": number})
        return _back(event_id, "round")
    context = sel.round_page(rnd)
    context["buttons"] = result_buttons(rnd.event)
    context["later"] = sel.later_rounds(rnd)
    _with_changes(request, rnd, context["games"])
    return render(request, "events/round_correct.html", context)


@require_POST
@arbiter_required
def game_correct(request: HttpRequest, event_id: int, game_id: int) -> HttpResponse:
    game = _game(event_id, game_id)
    back = reverse("events:round_correct", args=[event_id, game.round.number]) + f"#board-{game.board}"
    return _change_result(request, game, services.game_result_correct, back)


@require_POST
@arbiter_required
def set_rounds(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)  # the club's event, or a 404 whatever the form says
    form = RoundsForm(request.POST)
    if form.is_valid():
        run_service(
            request,
            lambda: services.event_set_rounds(
                actor=request.user, event=event, rounds=form.cleaned_data["rounds"]
            ),
            _("Number of rounds saved."),
        )
    else:
        for m in form.errors.get("rounds", []):
            messages.error(request, m)
    return _back(event_id, "rounds")


@require_POST
@arbiter_required
def playoff(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)  # the club's event, or a 404 before "are you sure?"
    if not confirmed(request):
        return confirmation_page(
            request, title=_("Generate the playoff?"), consequences=playoff_consequences(),
            cancel=reverse("events:arbiter", args=[event_id]), button=_("Generate the playoff"),
        )
    with refusal(request) as refused:
        created = services.blitz_playoff_create(actor=request.user, event=event)
    if refused:
        return _back(event_id)
    messages.success(request, _("The playoff is ready: enter its results here."))
    return redirect("events:arbiter", event_id=created.pk)


# --- The leader's forms -----------------------------------------------------------------


@creator_required
def event_new(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season") or request.POST.get("season"))
    form = EventForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form, by_field=True) as refused:
            created = services.event_create(actor=request.user, season=season, **form.cleaned_data)
        if not refused:
            messages.success(request, _("%(e)s created: enter the players.") % {"e": created})
            return redirect("events:entrants", event_id=created.pk)
    return render(request, "events/event_new.html", {"season": season, "form": form})


@creator_required
def entrants(request: HttpRequest, event_id: int) -> HttpResponse:
    event_obj = _event(event_id)
    form = EntrantsForm(request.POST if request.method == "POST" else None, event=event_obj)
    if request.method == "POST" and form.is_valid():
        added = 0
        for member in form.cleaned_data["members"]:
            with refusal(request) as refused:
                services.entrant_add(actor=request.user, event=event_obj, member=member)
            if not refused:
                added += 1
        guest = form.cleaned_data["guest_name"].strip()
        if guest:
            with refusal(request) as refused:
                services.entrant_add(
                    actor=request.user, event=event_obj, guest_name=guest,
                    rating=form.cleaned_data["guest_rating"],
                )
            if not refused:
                added += 1
        if added:
            messages.success(request, _("%(n)s entered.") % {"n": added})
        return redirect("events:entrants", event_id=event_obj.pk)
    return render(
        request,
        "events/entrants.html",
        {"event": event_obj, "form": form, "entrants": sel.event_entrants(event_obj)},
    )


@manager_required
def event_import(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season") or request.POST.get("season"))
    form = TrfImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form) as refused:
            created = services.event_from_trf(
                actor=request.user, season=season, text=form.text(), name=form.cleaned_data["name"],
                guests=form.cleaned_data["guests"],
            )
        if not refused:
            messages.success(request, _("%(e)s imported.") % {"e": created})
            return redirect("events:event", event_id=created.pk)
    return render(request, "events/event_import.html", {"season": season, "form": form})


# --- Cross table and player cards (public) ----------------------------------------------


@cache_public_page
def cross_table(request: HttpRequest, event_id: int) -> HttpResponse:
    return render(request, "events/crosstable.html", sel.event_cross_table(_event(event_id)))


@cache_public_page
def player_card(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    context = sel.event_player_card(_event(event_id), number)
    if context is None:
        raise Http404(_("No player with that number in this event."))
    return render(request, "events/card.html", context)
