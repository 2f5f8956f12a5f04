"""The competition leader's evening page (sign-ups, pairing, corrections, tempo requests)
and a player's tempo request. Views read, and write only through services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from competition.models import (
    Attendance,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Player,
)
from competition.season import selectors
from competition.season.services import registration_set
from core.permissions import Perm
from core.web import (
    confirmation_page,
    confirmed,
    form_error_messages,
    refusal,
    run_service,
)
from members.clubs.decorators import any_permission_required

from . import notices, services
from . import selectors as pairing_selectors
from .engine.corrections import CorrectionRefused, swap_blacks
from .engine.corrections import swap_colours as swap_colours_of
from .forms import (
    BulkRegistrationForm,
    PlayerEveningsForm,
    PlayerForm,
    RegistrationOnBehalfForm,
    SwapOpponentsForm,
    TempoDecisionForm,
    TempoRequestForm,
)

LEADER_PERMS = (Perm.MANAGE_PAIRINGS, Perm.MANAGE_REGISTRATIONS)


leader_required = any_permission_required(*LEADER_PERMS)


def _back(evening: Evening, anchor: str = "") -> HttpResponse:
    url = reverse("pairing:evening", args=[evening.pk])
    return redirect(f"{url}#{anchor}" if anchor else url)


def _playing_evening(evening_id: int) -> Evening:
    return get_object_or_404(
        Evening.objects.select_related("season__competition", "half"),
        pk=evening_id, kind=EveningKind.PLAYING,
    )


# --- Reading the page ---------------------------------------------------------------------


@leader_required
def evenings(request: HttpRequest) -> HttpResponse:
    """The season's playing evenings, each with a link to its leader page."""
    season = selectors.current_season()
    listed = (
        season.evenings.filter(kind=EveningKind.PLAYING).select_related("half").order_by("date")
        if season else []
    )
    return render(request, "pairing/evenings.html", {"season": season, "evenings": listed})


@leader_required
def evening(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening_obj = _playing_evening(evening_id)
    context = pairing_selectors.evening_page(evening_obj, request.user)
    context["swap_form"] = SwapOpponentsForm(evening=evening_obj) if context["can_swap"] else None
    return render(request, "pairing/evening.html", context)


@leader_required
def preview(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The pairing the deadline job would make now: read only, nothing saved or sent."""
    evening_obj = _playing_evening(evening_id)
    if evening_obj.status == EveningStatus.PUBLISHED:
        return _back(evening_obj, "pairing")
    context = {"evening": evening_obj, "season": evening_obj.season,
               **pairing_selectors.pairing_preview(evening_obj)}
    return render(request, "pairing/preview.html", context)


# --- Sign-ups on a player's behalf ----------------------------------------------------------


@require_POST
@leader_required
def registration(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening_obj = _playing_evening(evening_id)
    form = RegistrationOnBehalfForm(request.POST, evening=evening_obj)
    if not form.is_valid():
        form_error_messages(request, form)
        return _back(evening_obj, "players")
    player = form.cleaned_data["player"]
    with refusal(request) as refused:
        (reg,) = registration_set(
            actor=request.user, player=player, evenings=[evening_obj],
            status=form.cleaned_data["status"],
            force_majeure=form.cleaned_data["force_majeure"],
        )
    if not refused:
        messages.success(request, _("%(name)s: %(status)s.") % {
            "name": player.member.name, "status": reg.get_status_display(),
        })
        if evening_obj.status == EveningStatus.PUBLISHED:
            messages.info(request, _(
                "The pairing is published: remove or add the player in the pairing below."
            ))
    return _back(evening_obj, f"player-{player.pk}")


@require_POST
@leader_required
def registration_bulk(request: HttpRequest, evening_id: int) -> HttpResponse:
    """One status for the players ticked in the evening's table."""
    evening_obj = _playing_evening(evening_id)
    form = BulkRegistrationForm(request.POST, evening=evening_obj)
    if not form.is_valid():
        form_error_messages(request, form)
        return _back(evening_obj, "players")
    players = list(form.cleaned_data["players"])
    status = form.cleaned_data["status"]
    done = run_service(
        request,
        lambda: services.registrations_set_bulk(
            actor=request.user, evening_id=evening_obj.pk, player_ids=[p.pk for p in players],
            status=status, force_majeure=form.cleaned_data["force_majeure"],
        ),
        ngettext("%(n)s player: %(status)s.", "%(n)s players: %(status)s.", len(players))
        % {"n": len(players), "status": dict(Attendance.choices)[status]},
    )
    if done and evening_obj.status == EveningStatus.PUBLISHED:
        messages.info(request, _(
            "The pairing is published: remove or add the player in the pairing below."
        ))
    return _back(evening_obj, "players")


@leader_required
def player_evenings(request: HttpRequest, evening_id: int, player_id: int) -> HttpResponse:
    """The leader signs one player up or off for several evenings at once."""
    evening_obj = _playing_evening(evening_id)
    player = get_object_or_404(
        Player.objects.select_related("member"), pk=player_id, season_id=evening_obj.season_id
    )
    if not request.user.has_perm(Perm.MANAGE_REGISTRATIONS):
        raise PermissionDenied
    upcoming = selectors.upcoming_evenings(evening_obj.season)
    form = PlayerEveningsForm(
        request.POST if request.method == "POST" else None, evenings=upcoming,
        initial={"evenings": [evening_obj.pk]},
    )
    if request.method == "POST" and form.is_valid():
        chosen = list(form.cleaned_data["evenings"])
        with refusal(request, form=form) as refused:
            registration_set(
                actor=request.user, player=player, evenings=chosen,
                status=form.cleaned_data["status"],
                force_majeure=form.cleaned_data["force_majeure"],
            )
        if not refused:
            messages.success(request, ngettext(
                "%(name)s: saved for %(n)s evening.", "%(name)s: saved for %(n)s evenings.",
                len(chosen),
            ) % {"name": player.member.name, "n": len(chosen)})
            return _back(evening_obj, f"player-{player.pk}")
    return render(request, "pairing/player_evenings.html", {
        "evening": evening_obj, "player": player, "form": form,
        "statuses": selectors.statuses_for(player, list(upcoming)),
    })


# --- Pairing and the leader's corrections ---------------------------------------------------


@require_POST
@leader_required
def publish(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening_obj = _playing_evening(evening_id)
    repair = request.POST.get("repair") == "1"
    if not confirmed(request):
        return confirmation_page(
            request,
            title=_("Re-pair the evening?") if repair else _("Pair and publish now?"),
            consequences=pairing_selectors.publish_consequences(evening_obj, repair),
            cancel=reverse("pairing:evening", args=[evening_obj.pk]) + "#pairing",
            button=_("Re-pair") if repair else _("Pair and publish now"),
        )
    with refusal(request) as refused:
        done = services.evening_pair_and_publish(
            evening_id=evening_obj.pk, actor=request.user, force=repair
        )
    if not refused:
        if done is None:
            messages.info(request, _("The pairing was published already; nothing changed."))
        else:
            messages.success(request, _("The pairing is published; the players get an e-mail."))
    return _back(evening_obj, "pairing")


def _edit(request: HttpRequest, evening_obj: Evening, call: Callable[[], Any], done: str):
    run_service(request, call, done)
    return _back(evening_obj, "pairing")


def _correction(request: HttpRequest, evening_obj: Evening, *, title: str, proposed: Any,
                call: Callable[[int], Any], done: str) -> HttpResponse:
    """A correction in two steps, without JavaScript: the first post shows the corrected
    pairing (what changes for whom, every rule it breaks, who gets an e-mail) and changes
    nothing; the confirmation saves it, if the pairing is still the one shown."""
    if not confirmed(request):
        games, _bye = pairing_selectors.current_pairing(evening_obj)
        try:
            after = proposed(games)
        except CorrectionRefused:
            messages.error(request, _("Both games must belong to this evening."))
            return _back(evening_obj, "pairing")
        return render(request, "pairing/correction.html", {
            "evening": evening_obj, "title": title,
            **pairing_selectors.correction_preview(evening_obj, after),
            "fields": [(name, value) for name in request.POST
                       if name not in ("csrfmiddlewaretoken", "confirm", "version")
                       for value in request.POST.getlist(name)],
            "version": evening_obj.version, "action": request.path,
            "cancel": reverse("pairing:evening", args=[evening_obj.pk]) + "#pairing",
            "hold": int(notices.CORRECTION_HOLD.total_seconds() // 60),
        })
    version = request.POST.get("version", "")
    return _edit(request, evening_obj,
                 lambda: call(int(version) if version.isdigit() else None), done)


@require_POST
@leader_required
def swap_colours(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("evening__season"), pk=game_id)
    board = game.board
    return _correction(
        request, game.evening,
        title=_("Swap colours on board %(b)s?") % {"b": board},
        proposed=lambda games: swap_colours_of(games, board),
        call=lambda version: services.pairing_swap_colours(
            actor=request.user, game_id=game.pk, version=version),
        done=_("Colours swapped on board %(b)s.") % {"b": board},
    )


@require_POST
@leader_required
def swap_opponents(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening_obj = _playing_evening(evening_id)
    form = SwapOpponentsForm(request.POST, evening=evening_obj)
    if not form.is_valid():
        form_error_messages(request, form)
        return _back(evening_obj, "pairing")
    a, b = form.cleaned_data["game_a"], form.cleaned_data["game_b"]
    return _correction(
        request, evening_obj,
        title=_("Swap the black players of boards %(a)s and %(b)s?") % {"a": a.board, "b": b.board},
        proposed=lambda games: swap_blacks(games, a.board, b.board),
        call=lambda version: services.pairing_swap_opponents(
            actor=request.user, game_a=a.pk, game_b=b.pk, version=version),
        done=_("Black players of boards %(a)s and %(b)s swapped.") % {"a": a.board, "b": b.board},
    )


@require_POST
@leader_required
def undo_correction(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Undo the last correction (a swap), before the evening begins."""
    evening_obj = _playing_evening(evening_id)
    return _edit(
        request, evening_obj,
        lambda: services.pairing_correction_undo(actor=request.user, evening_id=evening_obj.pk),
        _("The last correction is undone; only the players whose game changed after all get "
          "an e-mail."),
    )


def _player_edit(request: HttpRequest, evening_id: int, service, message: str) -> HttpResponse:
    """Remove a withdrawn player from, or add a late player to, a published pairing."""
    evening_obj = _playing_evening(evening_id)
    form = PlayerForm(request.POST, players=Player.objects.filter(season=evening_obj.season))
    if not form.is_valid():
        form_error_messages(request, form)
        return _back(evening_obj, "pairing")
    player = form.cleaned_data["player"]
    if service is services.pairing_remove_player and not confirmed(request):
        return confirmation_page(
            request,
            title=_("Remove %(name)s from the pairing?") % {"name": player.member.name},
            consequences=pairing_selectors.remove_consequences(evening_obj, player),
            cancel=reverse("pairing:evening", args=[evening_obj.pk]) + "#pairing",
            button=_("Remove from the pairing"),
        )
    return _edit(
        request, evening_obj,
        lambda: service(actor=request.user, evening_id=evening_obj.pk, player_id=player.pk),
        message % {"name": player.member.name},
    )


@require_POST
@leader_required
def remove_player(request: HttpRequest, evening_id: int) -> HttpResponse:
    return _player_edit(request, evening_id, services.pairing_remove_player,
                        _("%(name)s is removed from the pairing."))


@require_POST
@leader_required
def add_player(request: HttpRequest, evening_id: int) -> HttpResponse:
    return _player_edit(request, evening_id, services.pairing_add_player,
                        _("%(name)s is added to the pairing."))


# --- The tempo exception --------------------------------------------------------------------


@require_POST
@leader_required
def tempo_decide(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("evening"), pk=game_id)
    form = TempoDecisionForm(request.POST)
    if not form.is_valid():
        form_error_messages(request, form)
        return _back(game.evening, "tempo")
    approve = form.cleaned_data["decision"] == "approve"
    with refusal(request) as refused:
        services.tempo_decide(actor=request.user, game=game, approve=approve)
    if not refused:
        text = (
            _("Board %(b)s: alternative tempo approved.") if approve
            else _("Board %(b)s: alternative tempo refused.")
        )
        messages.success(request, text % {"b": game.board})
    return _back(game.evening, "tempo")


@login_required
def tempo_request(request: HttpRequest, game_id: int) -> HttpResponse:
    """One of the two players asks for the alternative tempo."""
    game = get_object_or_404(
        Game.objects.select_related("evening", "white__member", "black__member"), pk=game_id
    )
    me = pairing_selectors.requesting_player(request.user, game)
    if me is None:
        raise PermissionDenied
    form = TempoRequestForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form) as refused:
            services.tempo_request(
                actor=request.user, game=game,
                opponent_agrees=form.cleaned_data["opponent_agrees"],
            )
        if not refused:
            messages.success(request, _(
                "Your request is sent to the competition leader; you both get an e-mail "
                "with the decision."
            ))
            return redirect("pairing:tempo_request", game_id=game.pk)
    opponent = game.black if me.pk == game.white_id else game.white
    return render(request, "pairing/tempo.html", {
        "game": game, "evening": game.evening, "me": me, "opponent": opponent, "form": form,
        "started": timezone.now() >= game.evening.starts_at,
        "can_request": services.can_request_tempo(request.user, game),
    })
