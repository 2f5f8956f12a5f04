"""The leader's member pages: the season's players in starting order, adding a member,
changing one, moving players in the starting order, removing one from the club; the
administrator's roles page. Views call one service each."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.core.exceptions import ValidationError
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from competition.models import Player, Season
from competition.roster import memberimport, selectors, services
from competition.roster.forms import (
    MemberColumnsForm,
    MemberFileForm,
    MemberForm,
    PositionForm,
)
from competition.roster.memberfile import Table, read_table
from competition.season import selectors as competition_selectors
from competition.season.selectors import season_or_404
from core.models import Mail
from core.web import (
    confirmation_page,
    confirmed,
    form_error_messages,
    refusal,
    run_service,
)
from members.accounts import profile, registration
from members.clubs.context import current_club
from members.clubs.decorators import any_permission_required
from members.clubs.roles import has_signed_in
from members.models import JoinKind, User

leader_required = any_permission_required(services.PERM)


def _site_url(request: HttpRequest) -> str:
    """The address the e-mails queued by this request link under: the request's host and
    the club's prefix (``/<slug>/`` on the platform's address), for ``on_site``."""
    return request.build_absolute_uri(get_script_prefix())


def _player(season: Season, player_id: int) -> Player:
    return get_object_or_404(Player.objects.select_related("member"), pk=player_id, season=season)


def _back(season: Season, anchor: str = "") -> HttpResponse:
    return redirect(reverse("members:index", args=[season.slug]) + (f"#{anchor}" if anchor else ""))


@leader_required
def index(request: HttpRequest, season: str | None = None) -> HttpResponse:
    return render(request, "members/index.html", selectors.members_page(season_or_404(season)))


@leader_required
def add(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    form = MemberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form) as refused:
            player = services.member_add(actor=request.user, season=season_obj,
                                         site_url=_site_url(request), **form.cleaned_data)
        if not refused:
            messages.success(request, _("%(name)s is added; the invitation goes to %(email)s.")
                             % {"name": player.member.name, "email": player.member.email})
            return _back(season_obj, f"player-{player.pk}" if player.pk else "")
    return render(request, "members/form.html",
                  {"season": season_obj, "form": form, "player": None})


TABLE_SALT = "members.import.table"
TABLE_MAX_AGE = 24 * 3600


def _table(request: HttpRequest) -> Table | None:
    """The uploaded list, kept in the page between the preview and saving (signed: what
    comes back is what was read, and the service checks it all again anyway)."""
    try:
        return Table.from_data(signing.loads(request.POST.get("table", ""), salt=TABLE_SALT,
                                             max_age=TABLE_MAX_AGE))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


@leader_required
def import_members(request: HttpRequest, season: str) -> HttpResponse:
    """Members at once: upload a member list, map its columns, check the preview, save."""
    season_obj = season_or_404(season)
    context: dict = {"season": season_obj}
    upload = MemberFileForm(request.POST or None, request.FILES or None)
    table = None
    if request.method == "POST" and "table" in request.POST:
        table = _table(request)
        if table is None:
            messages.error(request, _("The uploaded list has expired; upload it again."))
    elif request.method == "POST" and upload.is_valid():
        with refusal(request, form=upload, field="file"):
            file = upload.cleaned_data["file"]  # no more than one byte over the limit is read
            table = read_table(file.read(settings.MEMBERS_UPLOAD_MAX_BYTES + 1), file.name)
    context["upload"] = upload
    if table is None:
        return render(request, "members/import.html", context)
    if "table" in request.POST:
        columns = MemberColumnsForm(request.POST, columns=table.header)
        mapping = columns.mapping() if columns.is_valid() else {}
    else:
        mapping = memberimport.guess_mapping(table.header)
        columns = MemberColumnsForm(initial=mapping, columns=table.header)
    context.update(columns=columns, table=signing.dumps(table.as_data(), salt=TABLE_SALT,
                                                        compress=True))
    try:
        preview = memberimport.preview(season=season_obj, table=table, mapping=mapping)
    except ValidationError as exc:
        context["mapping_errors"] = exc.messages
        return render(request, "members/import.html", context)
    if request.POST.get("save") == "1":
        anyway = {int(v) for v in request.POST.getlist("anyway") if v.isdigit()}
        with refusal(request) as refused:
            added = memberimport.members_import(
                actor=request.user, season=season_obj, table=table, mapping=mapping,
                add_anyway=anyway, site_url=_site_url(request))
        if not refused:
            messages.success(request, _(
                "%(n)s members added; the invitations go to those with an e-mail address.")
                % {"n": len(added)})
            return _back(season_obj)
    context.update(preview=preview, counts=preview.counts)
    return render(request, "members/import.html", context)


def _lock_the_persons_fields(form: MemberForm, member: User) -> str:
    """The person's own fields the leader may not change are shown, not editable (a
    disabled field ignores what is posted); the returned note says why, or is empty."""
    if services.person_is_shared(member):
        for key in services.PERSON_FIELDS:
            form.fields[key].disabled = True
        return _("%(name)s is also a member of another club. His name, e-mail address, KNSB "
                 "rating and relation number are his own: he changes them himself on \"My "
                 "details\". Here you change what is your club's: his kind in this season.") % {
                     "name": member.name}
    if has_signed_in(member):
        form.fields["email"].disabled = True
        return _("%(name)s has signed in already: his e-mail address and password are his own. "
                 "He changes them himself on \"My details\".") % {"name": member.name}
    return ""


@leader_required
def edit(request: HttpRequest, season: str, player_id: int) -> HttpResponse:
    season_obj = season_or_404(season)
    player = _player(season_obj, player_id)
    member = player.member
    address = services.shown_email(player)
    initial = {"name": member.name, "email": address, "rating": member.rating,
               "knsb_number": member.knsb_number, "kind": player.kind}
    form = MemberForm(request.POST or None, initial=initial)
    note = _lock_the_persons_fields(form, member)
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form) as refused:
            services.member_update(actor=request.user, player=player,
                                   site_url=_site_url(request), **form.cleaned_data)
        if not refused:
            messages.success(request, _("%(name)s is saved.") % {"name": form.cleaned_data["name"]})
            if form.cleaned_data["email"].strip().lower() != address:
                messages.info(request, _("The invitation goes again, to the corrected address "
                                         "%(email)s.") % {"email": form.cleaned_data["email"]})
            return _back(season_obj, f"player-{player.pk}")
    return render(request, "members/form.html",
                  {"season": season_obj, "form": form, "player": player, "person_note": note})


@require_POST
@leader_required
def order_by_rating(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    run_service(request, lambda: services.starting_order_by_rating(actor=request.user, season=season_obj),
                _("The starting order follows the ratings."))
    return _back(season_obj)


@require_POST
@leader_required
def move(request: HttpRequest, season: str, player_id: int) -> HttpResponse:
    season_obj = season_or_404(season)
    player = _player(season_obj, player_id)
    direction = request.POST.get("direction")
    if direction in ("up", "down"):
        position = player.start - 1 if direction == "up" else player.start + 1
        data = {"position": max(position, 1)}
    else:
        data = request.POST
    form = PositionForm(data)
    if not form.is_valid():
        form_error_messages(request, form)
        return _back(season_obj, f"player-{player.pk}")
    with refusal(request):
        services.player_move(actor=request.user, player=player, position=form.cleaned_data["position"])
    return _back(season_obj, f"player-{player.pk}")


@require_POST
@leader_required
def invite(request: HttpRequest, season: str, player_id: int) -> HttpResponse:
    season_obj = season_or_404(season)
    player = _player(season_obj, player_id)
    run_service(
        request,
        lambda: services.member_invite_again(actor=request.user, player=player,
                                             site_url=_site_url(request)),
        _("A new invitation goes to %(email)s.") % {"email": services.shown_email(player)},
    )
    return _back(season_obj, f"player-{player.pk}")


@require_POST
@leader_required
def mail_again(request: HttpRequest, mail_id: int) -> HttpResponse:
    """The to-do list's button on an e-mail to a member that could not be sent: a new
    invitation, or the same e-mail tried again (``services.mail_retry``). Another club's
    e-mail (or none) is a 404, before "are you sure?"."""
    get_object_or_404(Mail.objects.only("pk"), pk=mail_id, club=current_club())
    back = reverse("competition:leader") + "#todo"
    if not confirmed(request):
        return confirmation_page(
            request, title=_("Send the e-mail again"),
            consequences=[_("The e-mail goes to the member again; if the mail server refuses "
                            "it again, it comes back on this list.")],
            cancel=back, button=_("Send again"),
        )
    run_service(
        request,
        lambda: services.mail_retry(actor=request.user, mail_id=mail_id, site_url=_site_url(request)),
        _("The e-mail goes again; if it cannot be sent, it comes back on your to-do list."),
    )
    return redirect(back)


@require_POST
@any_permission_required(profile.LEADER_PERM)
def remove(request: HttpRequest, season: str, player_id: int) -> HttpResponse:
    """The leader removes a member from the club (he has left, or the club decided): the
    club's membership ends, nothing else (``profile.membership_end``)."""
    season_obj = season_or_404(season)
    player = get_object_or_404(Player.objects.select_related("member"), pk=player_id, season=season_obj)
    member = player.member
    club = current_club()
    back = reverse("members:edit", args=[season_obj.slug, player.pk])
    if not confirmed(request):
        consequences = [
            _("The membership of %(name)s of %(club)s ends: he is no longer a fixed player, is "
              "expected on no evening to come and is not paired any more.")
            % {"name": member.name, "club": club.shown_name if club else ""},
            _("His games and standings stay, under his public name %(public)s.") % {"public": member.shown_name},
            _("His account stays (he may be a member elsewhere); only he can delete it."),
        ]
        return confirmation_page(request, title=_("Remove %(name)s from the club") % {"name": member.name},
                                 consequences=consequences, cancel=back,
                                 button=_("Remove from the club"))
    name = member.name
    with refusal(request) as refused:
        leaving = profile.membership_end(actor=request.user, member=member, club=club)
    if refused:
        return redirect(back)
    messages.success(request, " ".join([_("%(name)s is no longer a member of the club; his results "
                                          "stay in the standings.") % {"name": name},
                                        *profile.leaving_in_words(leaving)]))
    return redirect("members:index", season=season_obj.slug)


# --- Roles (the administrator) ----------------------------------------------------------

ROLE_LABELS = {
    "player": gettext_lazy("player"),
    "arbiter": gettext_lazy("arbiter"),
    "leader": gettext_lazy("competition leader"),
    "administrator": gettext_lazy("administrator"),
}
admin_required = any_permission_required(services.ROLE_PERM)


@admin_required
def roles(request: HttpRequest) -> HttpResponse:
    """Every member of the club with his role and FIDE id, each changed on its own line
    (one query)."""
    members = list(
        User.objects.filter(is_active=True, memberships__club=current_club())
        .annotate(role=F("memberships__role")).order_by("name")
    )
    return render(request, "members/roles.html",
                  {"members": members, "roles": list(ROLE_LABELS.items())})


@require_POST
@admin_required
def role_set(request: HttpRequest, member_id: int) -> HttpResponse:
    member = get_object_or_404(User, pk=member_id, is_active=True,
                               memberships__club=current_club())
    role = request.POST.get("role", "")
    run_service(request, lambda: services.member_set_role(
        actor=request.user, member=member, role=role, fide_id=request.POST.get("fide_id", "")),
        _("%(name)s: %(role)s, FIDE id %(fide)s.") % {
            "name": member.name, "role": ROLE_LABELS.get(role, role),
            "fide": request.POST.get("fide_id", "").strip() or "–"})
    return redirect(reverse("members:roles") + f"#member-{member.pk}")


@require_POST
@leader_required
def registration_decide(request: HttpRequest, member_id: int) -> HttpResponse:
    """The leader accepts a registration (he becomes a player of the current season) or
    refuses it (the account is removed, after a confirmation)."""
    member = get_object_or_404(User, pk=member_id, is_active=True, join_requests__club=current_club(),
                               join_requests__kind=JoinKind.REGISTRATION)
    decision = request.POST.get("decision")
    if decision == "accept":
        run_service(
            request,
            lambda: registration.registration_accept(
                actor=request.user, member_id=member.pk,
                season=competition_selectors.current_season()),
            _("%(name)s is a member now and takes part in the current season.") % {"name": member.name},
        )
    elif decision == "refuse":
        if not confirmed(request):
            return confirmation_page(
                request, title=_("Refuse the registration of %(name)s") % {"name": member.name},
                consequences=[_refusal_consequence(member)],
                cancel=reverse("competition:leader") + "#todo", button=_("Refuse"),
            )
        run_service(
            request,
            lambda: registration.registration_refuse(actor=request.user, member_id=member.pk),
            _("The registration of %(name)s is refused.") % {"name": member.name},
        )
    else:
        messages.error(request, _("Choose accept or refuse."))
    return redirect(reverse("competition:leader") + "#todo")


def _refusal_consequence(member: User) -> str:
    if registration.refusal_removes_account(member, current_club()):
        return _("The account of %(name)s (%(email)s) is removed; he can no longer sign in.") % {
            "name": member.name, "email": member.email}
    return _("%(name)s (%(email)s) does not become a member of this club.") % {
        "name": member.name, "email": member.email}
