"""The Django admin for the administrator: a window on the data, not a way around the rules.

Every row whose writes have rules (seasons, evenings, players, results, sign-ups,
pairings, events, prizes) is read-only here, with a pointer to the leader's page whose
service writes it (permission, lock, validation, audit, recalculation). The
competition's remaining settings are saved through ``competition_settings_set``.
"""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

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
from competition.season.services import (
    COMPETITION_SETTINGS,
    can_change_competition_settings,
    competition_settings_set,
)
from members.platform.adminscope import ClubScopedAdmin, in_a_club


class ReadOnlyAdmin(ClubScopedAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class LeaderPageAdmin(ReadOnlyAdmin):
    """Read-only here: these rows are written by services with rules (permission, lock,
    validation, audit, recalculation), on the leader's pages. The page says where."""

    def leader_page(self, obj: Any) -> str:
        raise NotImplementedError

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        if obj is not None:
            messages.info(request, format_html(
                _("This is changed on the leader's page, not here: <a href=\"{url}\">{url}</a>"),
                url=self.leader_page(obj),
            ))
        return super().change_view(request, object_id, form_url, extra_context)


class HalfInline(admin.TabularInline):
    model = Half
    extra = 0
    can_delete = False
    readonly_fields = ("kind", "start_date")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Season)
class SeasonAdmin(LeaderPageAdmin):
    """Set up on the leader's page (``season_set_up``), its calendar and parameters there."""

    list_display = ("name", "start_date", "end_date")
    inlines = [HalfInline]

    def leader_page(self, obj: Any) -> str:
        return reverse("competition:leader_season", args=[obj.slug])


class CompetitionForm(forms.ModelForm):
    class Meta:
        model = Competition
        fields = COMPETITION_SETTINGS


@admin.register(Competition)
class CompetitionAdmin(ClubScopedAdmin):
    """The settings without a page of their own (meetings, byes, start time, eligibility,
    the club's TRF details); a save goes through ``competition_settings_set``, so it is
    checked, validated, audited and recalculated like any other write. The system and
    its parameters, the deadline and the ratings are changed on the leader's page."""

    form = CompetitionForm
    list_display = ("season", "name", "system")
    readonly_fields = ("season", "system", "parameters", "deadline_days_before",
                       "deadline_time", "start_rating", "trf_rating")

    def has_add_permission(self, request):
        return False  # a competition comes with its season

    def has_change_permission(self, request, obj=None):
        return in_a_club(request) and can_change_competition_settings(request.user, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        changes = {name: form.cleaned_data[name] for name in form.changed_data
                   if name in COMPETITION_SETTINGS}
        competition_settings_set(actor=request.user, competition=obj, changes=changes)


@admin.register(Evening)
class EveningAdmin(LeaderPageAdmin):
    """The calendar and the pairing own an evening (``evening_update``, the pairing's
    services); a published evening cannot be set back to open from anywhere."""

    list_display = ("date", "season", "kind", "half", "status", "deadline")
    list_filter = ("season", "kind", "status")
    date_hierarchy = "date"

    def leader_page(self, obj: Any) -> str:
        return reverse("competition:leader_season", args=[obj.season.slug])


@admin.register(Player)
class PlayerAdmin(LeaderPageAdmin):
    """Players are added, changed and moved on the leader's members page
    (``competition.roster.services``)."""

    list_display = ("start", "member", "season", "kind", "rating")
    list_filter = ("season", "kind")
    search_fields = ("member__name", "member__email")
    ordering = ("season", "start")

    def leader_page(self, obj: Any) -> str:
        return reverse("members:edit", args=[obj.season.slug, obj.pk])


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
class PlayoffBracketAdmin(ClubScopedAdmin):
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
class SwissEventAdmin(LeaderPageAdmin):
    """Events are created, entered and paired on their own pages (``events.services``)."""

    list_display = ("name", "season", "kind", "date", "rounds")
    list_filter = ("season", "kind")
    inlines = [SwissEntrantInline]

    def leader_page(self, obj: Any) -> str:
        return reverse("events:event", args=[obj.pk])


@admin.register(SwissRound)
class SwissRoundAdmin(ReadOnlyAdmin):
    list_display = ("event", "number", "status", "evening")


@admin.register(SwissGame)
class SwissGameAdmin(ReadOnlyAdmin):
    list_display = ("round", "board", "white", "black", "white_points", "black_points", "forfeit")
