"""A member's own pages ("My details"): his e-mail address and password (allauth's pages),
phone, e-mail preferences and how the public pages show him; his personal calendar feed;
a download of everything the club keeps about him; leaving the club. And the privacy
statement. Views call one service each (``members.accounts.profile``, ``members.accounts.privacy``)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competition.pages.me.calendar import member_calendar_ics
from competition.season import selectors as competition_selectors
from core.web import confirmation_page, confirmed, refusal
from members.accounts import privacy, profile
from members.accounts.forms import EmailChangeForm, ProfileForm
from members.clubs.addresses import club_venue, site_name
from members.clubs.context import current_club
from members.clubs.roles import club_role
from members.clubs.selectors import my_clubs
from members.models import User


def _site_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(get_script_prefix())  # as competition.roster.views._site_url


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
        with refusal(request, form=form) as refused:
            profile.profile_update(actor=member, member=member, **form.cleaned_data)
        if not refused:
            messages.success(request, _("Your details are saved."))
            return redirect("me:details")
    season = competition_selectors.current_season()
    player = competition_selectors.player_for(member, season) if season else None
    feed = request.build_absolute_uri(
        reverse("me:calendar", args=[profile.calendar_token(member)]))
    # Named all, linked where this installation serves them (members.clubs.addresses).
    others = my_clubs(member, but=current_club(), host=request.get_host())
    return render(request, "members/profile.html", {
        "form": form, "member": member, "player": player, "feed_url": feed,
        "public_name": member.shown_name, "other_clubs": others,
    })


@login_required
def email(request: HttpRequest) -> HttpResponse:
    """His own new e-mail address: password first, then a confirmation to the new address
    and a notice with an undo link to the old one (``profile.email_change_request``)."""
    member = _member(request)
    form = EmailChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form, by_field=True) as refused:
            profile.email_change_request(actor=member, member=member, site_url=_site_url(request),
                                         **form.cleaned_data)
        if not refused:
            messages.success(request, _(
                "A confirmation goes to %(email)s: your address changes once you follow the link "
                "in it. Your present address %(old)s gets a notice with a link to undo it.")
                % {"email": form.cleaned_data["email"], "old": member.email})
            return redirect("me:details")
    return render(request, "members/email_change.html", {"form": form, "member": member})


@login_required
def allauth_email(request: HttpRequest) -> HttpResponse:
    """allauth's own e-mail page (add, remove, make primary, with no password asked) is
    not served: his address changes on ``email``."""
    return redirect("me:email")


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


def _clubs_in_words(clubs: list) -> str:
    return ", ".join(club.shown_name for club in clubs)


def _leave_consequences(member: User, club, others: list) -> list[str]:
    """What leaving ``club`` does, for the person himself (his other clubs named)."""
    lines = [
        _("Your membership of %(club)s ends: you are no longer expected on its evenings, not "
          "as a fixed player either, and you are not paired there any more.") % {"club": club.shown_name},
        _("Your games and standings at %(club)s stay, under %(public)s: the other players' "
          "scores depend on them.") % {"club": club.shown_name, "public": member.shown_name},
    ]
    if others:
        lines.append(_("You stay a member of %(clubs)s; your account and password stay as they are.")
                     % {"clubs": _clubs_in_words(others)})
    else:
        lines.append(_("Your account stays: you can still sign in, and be added to a club again."))
    return lines


def _delete_consequences(member: User, clubs: list) -> list[str]:
    lines = []
    if clubs:
        lines.append(_("You leave every club you are a member of: %(clubs)s.")
                     % {"clubs": _clubs_in_words(clubs)})
    lines += [
        _("Your games and standings stay, under %(public)s: the other players' scores depend "
          "on them.") % {"public": member.shown_name},
        _("Everything else is removed: e-mail address, phone, ratings and numbers, date of "
          "birth, password. Signing in is no longer possible; this cannot be undone."),
    ]
    return lines


@require_POST
@login_required
def leave(request: HttpRequest) -> HttpResponse:
    """He leaves this club (its membership only); his account and other clubs stay."""
    member = _member(request)
    club = current_club()
    if club is None:
        raise Http404
    clubs = profile.membership_clubs(member)
    others = [c for c in clubs if c.pk != club.pk]
    if not confirmed(request):
        return confirmation_page(
            request, title=_("Leave %(club)s") % {"club": club.shown_name},
            consequences=_leave_consequences(member, club, others),
            cancel=reverse("me:details"), button=_("Leave %(club)s") % {"club": club.shown_name})
    with refusal(request) as refused:
        profile.membership_end(actor=member, member=member, club=club)
    if refused:
        return redirect("me:details")
    messages.success(request, _("You have left %(club)s. Thank you for playing at the club.")
                     % {"club": club.shown_name})
    return redirect("competition:home")


@require_POST
@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    """He deletes his account: every club he is a member of is named first."""
    member = _member(request)
    clubs = profile.membership_clubs(member)
    if not confirmed(request):
        return confirmation_page(request, title=_("Delete my account"),
                                 consequences=_delete_consequences(member, clubs),
                                 cancel=reverse("me:details"), button=_("Delete my account"))
    with refusal(request) as refused:
        profile.member_remove(actor=member, member=member)
    if refused:
        return redirect("me:details")
    logout(request)
    messages.success(request, _("Your account is removed. Thank you for playing."))
    return redirect("competition:home")


def privacy_statement(request: HttpRequest) -> HttpResponse:
    return render(request, "members/privacy.html", {
        "club": site_name(), "contact": settings.PRIVACY_CONTACT,
        "address": club_venue(),
    })
