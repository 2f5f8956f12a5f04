"""A member's own pages ("My details"): his e-mail address and password (allauth's pages),
phone, e-mail preferences and how the public pages show him; his personal calendar feed;
a download of everything the club keeps about him; leaving the club. And the privacy
statement. Views call one service each (``members.profile``, ``members.privacy``)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competition.models import Player
from competition.season import selectors as competition_selectors
from competition.season.selectors import season_or_404
from core.web import confirmation_page, confirmed, error_messages

from . import privacy, profile
from .addresses import club_venue, site_name
from .calendar import member_calendar_ics
from .context import current_club
from .decorators import any_permission_required
from .forms import ProfileForm
from .models import User
from .roles import club_role
from .selectors import my_clubs


def _member(request: HttpRequest) -> User:
    """The signed-in member of this club: a member of another club only has no "My
    details", calendar or "Leave" here."""
    if not request.user.is_member or club_role(request.user) is None:
        raise PermissionDenied
    return request.user


@login_required
def details(request: HttpRequest) -> HttpResponse:
    member = _member(request)
    initial = {"phone": member.phone, "public_as": member.public_as,
               "pairing_mail": member.pairing_mail, "notice_mail": member.notice_mail}
    form = ProfileForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            profile.profile_update(actor=member, member=member, **form.cleaned_data)
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("Your details are saved."))
            return redirect("me:details")
    season = competition_selectors.current_season()
    player = competition_selectors.player_for(member, season) if season else None
    feed = request.build_absolute_uri(
        reverse("me:calendar", args=[profile.calendar_token(member)]))
    others = my_clubs(member, but=current_club())
    return render(request, "members/profile.html", {
        "form": form, "member": member, "player": player, "feed_url": feed,
        "public_name": member.shown_name, "other_clubs": others,
    })


@require_POST
@login_required
def calendar_renew(request: HttpRequest) -> HttpResponse:
    member = _member(request)
    profile.calendar_token_renew(actor=member, member=member)
    messages.success(request, _("Your calendar has a new address; the old one no longer works."))
    return redirect(reverse("me:details") + "#calendar")


def calendar(request: HttpRequest, token: str) -> HttpResponse:
    """His own games and evenings; the secret in the address is the only key (a calendar
    app cannot sign in)."""
    member = (User.objects.members().filter(memberships__club=current_club(),
                                            memberships__calendar_token=token).first()
              if len(token) >= 32 else None)  # this club's secret opens this club's feed only
    if member is None:
        raise Http404
    body = member_calendar_ics(member, site_url=request.build_absolute_uri("/"))
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


@login_required
def data(request: HttpRequest) -> HttpResponse:
    member = _member(request)
    body = json.dumps(privacy.member_data(member), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    stamp = timezone.localdate().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="mijn-gegevens-{stamp}.json"'
    return response


def _consequences(member: User) -> list[str]:
    return [
        _("The games and standings of %(name)s stay, under %(public)s: the other players' "
          "scores depend on them.") % {"name": member.name, "public": member.shown_name},
        _("Everything else is removed: e-mail address, phone, ratings and numbers, date of "
          "birth, password. Signing in is no longer possible; this cannot be undone."),
    ]


@require_POST
@login_required
def leave(request: HttpRequest) -> HttpResponse:
    member = _member(request)
    if not confirmed(request):
        return confirmation_page(request, title=_("Leave the club"), consequences=_consequences(member),
                                 cancel=reverse("me:details"), button=_("Remove my account"))
    try:
        profile.member_remove(actor=member, member=member)
    except ValidationError as exc:
        error_messages(request, exc)
        return redirect("me:details")
    logout(request)
    messages.success(request, _("Your account is removed. Thank you for playing at the club."))
    return redirect("competition:home")


@require_POST
@any_permission_required(profile.LEADER_PERM)
def remove(request: HttpRequest, season: str, player_id: int) -> HttpResponse:
    """The leader removes a member who has left (his request, or the club's decision)."""
    season_obj = season_or_404(season)
    player = get_object_or_404(Player.objects.select_related("member"), pk=player_id, season=season_obj)
    member = player.member
    back = reverse("members:edit", args=[season_obj.slug, player.pk])
    if not confirmed(request):
        return confirmation_page(request, title=_("Remove the account of %(name)s") % {"name": member.name},
                                 consequences=_consequences(member), cancel=back,
                                 button=_("Remove the account"))
    name = member.name
    try:
        profile.member_remove(actor=request.user, member=member)
    except ValidationError as exc:
        error_messages(request, exc)
        return redirect(back)
    messages.success(request, _("The account of %(name)s is removed; his results stay in the "
                                "standings.") % {"name": name})
    return redirect("members:index", season=season_obj.slug)


def privacy_statement(request: HttpRequest) -> HttpResponse:
    return render(request, "members/privacy.html", {
        "club": site_name(), "contact": settings.PRIVACY_CONTACT,
        "address": club_venue(),
    })
