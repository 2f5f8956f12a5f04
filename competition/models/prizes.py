"""Prizes, eligibility overrides and playoffs in the database (docs/rules.md 6).

Defined here, imported from ``competition.models`` (the app's models).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.tenancy.scoping import ScopedManager
from core.validators import single_line


class EligibilityOverride(models.Model):
    """The administrator's decision on a player's prize eligibility in a half, with why."""

    half = models.ForeignKey("competition.Half", on_delete=models.CASCADE, related_name="eligibility_overrides", verbose_name=_("half"))
    player = models.ForeignKey("competition.Player", on_delete=models.CASCADE, related_name="eligibility_overrides", verbose_name=_("player"))
    eligible = models.BooleanField(_("eligible"))
    reason = models.CharField(_("reason"), max_length=200, validators=[single_line])
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("decided by")
    )
    decided_at = models.DateTimeField(_("decided at"), auto_now=True)

    objects = ScopedManager(club="half__season__club")

    class Meta:
        verbose_name = _("eligibility override")
        verbose_name_plural = _("eligibility overrides")
        constraints = [
            models.UniqueConstraint(fields=["half", "player"], name="override_once_per_half"),
            models.CheckConstraint(condition=~Q(reason=""), name="override_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.eligible} ({self.reason})"


class PrizeKind(models.TextChoices):
    CHAMPION = "champion", _("champion")
    SILVER = "silver", _("second place")
    BRONZE = "bronze", _("third place")
    BEST_OF_REST = "best_of_rest", _("best of the rest")
    SUMMER_CHAMPION = "summer_champion", _("summer champion")
    PERIOD_CHAMPION = "period_champion", _("period champion")
    RAPID_CHAMPION = "rapid_champion", _("rapid champion")
    BLITZ_CHAMPION = "blitz_champion", _("blitz champion")
    CLUB_CHAMPION = "club_champion", _("club champion")
    PLAYOFF_GROUP = "playoff_group", _("playoff group winner")


class Prize(models.Model):
    """A confirmed, published prize. One prize per player per half (docs/rules.md 6);
    ``group`` tells the period or playoff group apart (0 when there is none)."""

    season = models.ForeignKey("competition.Season", on_delete=models.CASCADE, related_name="prizes", verbose_name=_("season"))
    half = models.ForeignKey("competition.Half", on_delete=models.CASCADE, null=True, blank=True, related_name="prizes", verbose_name=_("half")
    )
    kind = models.CharField(_("prize"), max_length=20, choices=PrizeKind.choices)
    group = models.PositiveSmallIntegerField(_("group"), default=0)
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="prizes", verbose_name=_("member"))
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("confirmed by")
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), auto_now_add=True)

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        ordering = ["season", "half", "kind", "group"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "half", "kind", "group"], name="prize_once"
            ),
            models.UniqueConstraint(
                fields=["season", "kind", "group"], condition=Q(half__isnull=True),
                name="prize_once_per_season",
            ),
            # One prize per player per half (a playoff place aside).
            models.UniqueConstraint(
                fields=["half", "member"],
                condition=Q(kind__in=["champion", "silver", "bronze", "best_of_rest",
                                      "summer_champion"]),
                name="prize_one_per_player_per_half",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.member_id}"


class PlayoffBracket(models.Model):
    season = models.OneToOneField("competition.Season", on_delete=models.CASCADE, related_name="playoff", verbose_name=_("season"))
    seed = models.CharField(_("seed"), max_length=64, help_text=_("The lot for the colours."))
    groups = models.JSONField(_("groups"), help_text=_("Player ids per group, in seeding order."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("created by")
    )

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("playoff bracket")
        verbose_name_plural = _("playoff brackets")

    def __str__(self) -> str:
        return f"playoffs {self.season_id}"


class PlayoffResult(models.Model):
    """A result of one bracket match; the bracket is rebuilt by replaying these."""

    bracket = models.ForeignKey(PlayoffBracket, on_delete=models.CASCADE, related_name="results", verbose_name=_("bracket"))
    match = models.CharField(_("match"), max_length=20)
    result = models.CharField(_("result"), max_length=10)
    played_on = models.DateField(_("played on"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("entered by")
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    objects = ScopedManager(club="bracket__season__club")

    class Meta:
        verbose_name = _("playoff result")
        verbose_name_plural = _("playoff results")
        ordering = ["entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "match"], name="playoff_result_once")
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.result}"


class PlayoffDate(models.Model):
    """A semi-final moved to another date agreed with the leader (never the top final)."""

    bracket = models.ForeignKey(PlayoffBracket, on_delete=models.CASCADE, related_name="dates", verbose_name=_("bracket"))
    match = models.CharField(_("match"), max_length=20)
    date = models.DateField(_("date"))

    objects = ScopedManager(club="bracket__season__club")

    class Meta:
        verbose_name = _("playoff date")
        verbose_name_plural = _("playoff dates")
        constraints = [
            models.UniqueConstraint(fields=["bracket", "match"], name="playoff_date_once")
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.date}"
