"""The Django admin for the administrator: season set-up and corrections.

Results, sign-ups and pairings have their own pages (with audit and recalculation);
here they are read-only lists, so that no write bypasses the services.
"""

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.forms.models import model_to_dict
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.models import (
    AuditRecord,
    Bye,
    Competition,
    EligibilityOverride,
    Evening,
    Game,
    Half,
    Player,
    PlayoffBracket,
    PlayoffDate,
    PlayoffResult,
    Prize,
    Registration,
    Season,
    SwissEntrant,
    SwissEvent,
    SwissGame,
    SwissRound,
)
from competition.season.services import schedule_recalculation
from core.pagecache import pages_changed

from . import audit
from .scoring.params import ParameterError, parameters_to_dict, parse_parameters


class CompetitionForm(forms.ModelForm):
    class Meta:
        model = Competition
        exclude: tuple[str, ...] = ()

    def clean(self):
        data = super().clean()
        system = data.get("system")
        if system:
            try:
                params = parse_parameters(system, data.get("parameters") or {})
            except ParameterError as exc:
                raise ValidationError({"parameters": str(exc)}) from exc
            data["parameters"] = parameters_to_dict(params)
        return data


def _plain(obj: Any) -> dict[str, Any] | None:
    if obj is None:
        return None
    return json.loads(json.dumps(model_to_dict(obj), cls=DjangoJSONEncoder))


class AuditedAdmin(admin.ModelAdmin):
    """Admin edits are writes like any other: recorded in the audit trail (who, when,
    before, after), and the season's standings are recalculated after commit."""

    def _season_id(self, obj: Any) -> int:
        return obj.pk if isinstance(obj, Season) else obj.season_id

    def _record(self, request, obj, action: audit.Action, before, after) -> None:
        audit.record(
            actor=request.user, action=action,
            season=self._season_id(obj),
            evening=obj if isinstance(obj, Evening) else None,
            player=obj if isinstance(obj, Player) else None,
            before=before, after={"model": obj._meta.model_name, **(after or {})},
        )
        pages_changed()
        for half_id in Half.objects.filter(season_id=self._season_id(obj)).values_list(
            "pk", flat=True
        ):
            schedule_recalculation(half_id)

    def save_model(self, request, obj, form, change):
        before = _plain(type(obj).objects.filter(pk=obj.pk).first()) if change else None
        super().save_model(request, obj, form, change)
        self._record(request, obj, audit.Action.ADMIN_CHANGE if change else audit.Action.ADMIN_ADD,
                     before, _plain(obj))

    def delete_model(self, request, obj):
        before, season_id = _plain(obj), self._season_id(obj)
        super().delete_model(request, obj)
        if not isinstance(obj, Season):
            audit.record(actor=request.user, action=audit.Action.ADMIN_DELETE,
                         season=season_id, before=before,
                         after={"model": obj._meta.model_name})
            pages_changed()


class CompetitionInline(admin.StackedInline):
    """The sign-up deadline setting is read-only here: changing it on the leader's season
    page says which open evenings' deadlines move and offers to move them
    (``competition_set_deadline``); an edit here would silently leave them behind."""

    model = Competition
    form = CompetitionForm
    can_delete = False
    exclude = ("deadline_days_before", "deadline_time")
    readonly_fields = ("deadline_setting",)

    @admin.display(description=_("sign-up deadline"))
    def deadline_setting(self, obj: Competition) -> str:
        if obj.pk is None:
            return _("Set it on the leader's season page once the season exists.")
        when = ngettext("%(n)s day before the evening at %(time)s",
                        "%(n)s days before the evening at %(time)s", obj.deadline_days_before) % {
            "n": obj.deadline_days_before, "time": obj.deadline_time.strftime("%H:%M")}
        return format_html(
            '{} · <a href="{}">{}</a>', when,
            reverse("competition:leader_season", args=[obj.season.slug]),
            _("change it on the leader's season page (it offers to move the open evenings' deadlines)"),
        )


class HalfInline(admin.TabularInline):
    model = Half
    extra = 0


@admin.register(Season)
class SeasonAdmin(AuditedAdmin):
    list_display = ("name", "start_date", "end_date")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [CompetitionInline, HalfInline]

    def save_related(self, request, form, formsets, change):
        season = form.instance
        before = _plain(Competition.objects.filter(season=season).first())
        super().save_related(request, form, formsets, change)
        after = _plain(Competition.objects.filter(season=season).first())
        if before != after:
            self._record(request, season, audit.Action.COMPETITION_PARAMETERS, before, after)


@admin.register(Evening)
class EveningAdmin(AuditedAdmin):
    """The calendar and the pairing own an evening's kind, half and status: they change
    only through their services (with their checks), never here. A published evening
    cannot be set back to open from the admin."""

    list_display = ("date", "season", "kind", "half", "status", "deadline")
    list_filter = ("season", "kind", "status")
    date_hierarchy = "date"
    readonly_fields = ("season", "date", "kind", "half", "status", "pairing_seed",
                       "published_at", "version")

    def has_add_permission(self, request):
        return False  # evenings come from the season's calendar


@admin.register(Player)
class PlayerAdmin(AuditedAdmin):
    list_display = ("start", "member", "season", "kind", "rating")
    list_filter = ("season", "kind")
    search_fields = ("member__name", "member__email")
    autocomplete_fields = ("member",)
    ordering = ("season", "start")


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("evening", "board", "white", "black", "result", "note")
    list_filter = ("evening__season",)


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    list_display = ("evening", "player", "status", "force_majeure", "changed_by", "changed_at")
    list_filter = ("status", "evening__season")


@admin.register(Bye)
class ByeAdmin(ReadOnlyAdmin):
    list_display = ("evening", "player")


@admin.register(AuditRecord)
class AuditRecordAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor", "action", "evening", "player", "before", "after")
    list_filter = ("action",)


@admin.register(EligibilityOverride)
class EligibilityOverrideAdmin(ReadOnlyAdmin):
    list_display = ("half", "player", "eligible", "reason", "decided_by", "decided_at")
    list_filter = ("half__season", "eligible")


@admin.register(Prize)
class PrizeAdmin(ReadOnlyAdmin):
    list_display = ("season", "half", "kind", "group", "member", "confirmed_by", "confirmed_at")
    list_filter = ("season", "kind")


class PlayoffResultInline(admin.TabularInline):
    """Read-only: a wrong result is withdrawn on the playoffs page (audited)."""

    model = PlayoffResult
    extra = 0
    can_delete = False
    fields = ("match", "result", "played_on", "entered_by", "entered_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(PlayoffBracket)
class PlayoffBracketAdmin(admin.ModelAdmin):
    list_display = ("season", "seed", "created_at")
    readonly_fields = ("season", "seed", "groups", "created_at", "created_by")
    inlines = [PlayoffResultInline]


@admin.register(PlayoffDate)
class PlayoffDateAdmin(ReadOnlyAdmin):
    list_display = ("bracket", "match", "date")


class SwissEntrantInline(admin.TabularInline):
    """Read-only: entrants are added on the event's page (start numbers by rating)."""

    model = SwissEntrant
    extra = 0
    can_delete = False
    fields = ("number", "member", "guest_name", "rating", "withdrawn")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SwissEvent)
class SwissEventAdmin(AuditedAdmin):
    list_display = ("name", "season", "kind", "date", "rounds")
    list_filter = ("season", "kind")
    inlines = [SwissEntrantInline]


@admin.register(SwissRound)
class SwissRoundAdmin(ReadOnlyAdmin):
    list_display = ("event", "number", "status", "evening")


@admin.register(SwissGame)
class SwissGameAdmin(ReadOnlyAdmin):
    list_display = ("round", "board", "white", "black", "white_points", "black_points", "forfeit")
