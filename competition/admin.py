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
    Evening,
    Game,
    Half,
    Player,
    Registration,
    Season,
)
from .scoring.params import ParameterError, parameters_to_dict, parse_parameters


class CompetitionForm(forms.ModelForm):
    class Meta:
        model = Competition
        fields = "__all__"

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
