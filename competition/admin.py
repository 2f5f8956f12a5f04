"""The Django admin for the administrator: season set-up and corrections.

Results, sign-ups and pairings have their own pages (with audit and recalculation);
here they are read-only lists, so that no write bypasses the services.
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from .models import (
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


class CompetitionInline(admin.StackedInline):
    model = Competition
    form = CompetitionForm
    can_delete = False


class HalfInline(admin.TabularInline):
    model = Half
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "start_date", "end_date")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [CompetitionInline, HalfInline]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ("date", "season", "kind", "half", "status", "deadline")
    list_filter = ("season", "kind", "status")
    date_hierarchy = "date"


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
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
    model = SwissEntrant
    extra = 0
    autocomplete_fields = ("member",)


@admin.register(SwissEvent)
class SwissEventAdmin(admin.ModelAdmin):
    list_display = ("name", "season", "kind", "date", "rounds")
    list_filter = ("season", "kind")
    inlines = [SwissEntrantInline]


@admin.register(SwissRound)
class SwissRoundAdmin(ReadOnlyAdmin):
    list_display = ("event", "number", "status", "evening")


@admin.register(SwissGame)
class SwissGameAdmin(ReadOnlyAdmin):
    list_display = ("round", "board", "white", "black", "white_points", "black_points", "forfeit")
