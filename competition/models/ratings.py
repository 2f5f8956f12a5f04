"""Uploaded rating lists on their way to the members.

Defined here, imported from ``competition.models`` (the app's models).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from competition.models.season import RatingKind
from core.tenancy.context import current_club_id
from core.tenancy.scoping import ScopedManager


class RatingImportStatus(models.TextChoices):
    MAPPING = "mapping", _("columns to be mapped")
    READING = "reading", _("being read")
    READY = "ready", _("ready to check")
    FAILED = "failed", _("refused")
    APPLIED = "applied", _("saved")


class RatingImport(models.Model):
    """An uploaded rating list on its way: read by a task (``progress`` 0-100), matched to
    the members (``matching``), shown to the leader, and saved by him in one action."""

    club = models.ForeignKey(
        "members.Club", on_delete=models.CASCADE, related_name="+", default=current_club_id,
        verbose_name=_("club"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("created by")
    )
    file_name = models.CharField(_("file"), max_length=200)
    path = models.CharField(_("path"), max_length=400, blank=True, help_text="The upload, until it is read.")
    size = models.PositiveBigIntegerField(_("size"), default=0)
    format = models.CharField(_("format"), max_length=10)
    number_kind = models.CharField(_("numbers in the list"), max_length=4)
    columns = models.JSONField(_("columns"), default=list, blank=True)
    mapping = models.JSONField(_("mapping"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=RatingImportStatus.choices,
        default=RatingImportStatus.READING,
    )
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    # When the reading last moved: an import "being read" that has not moved for
    # RATINGS_READING_STUCK_MINUTES is ended by the catch-up job (its task was lost).
    updated_at = models.DateTimeField(_("updated at"), null=True, blank=True)
    # Which of the member's ratings the list writes (a FIDE list: the FIDE rating), of
    # which list it is (a rapid or blitz list is no standard rating unless the leader says
    # so) and of which month (the first of it; the member's rating date).
    rating_kind = models.CharField(_("ratings in the list"), max_length=4,
                                   choices=RatingKind.choices, default=RatingKind.KNSB)
    list_kind = models.CharField(_("kind of list"), max_length=8, default="standard")
    list_date = models.DateField(_("list of"), null=True, blank=True)
    error = models.JSONField(_("error"), null=True, blank=True, help_text="code and parameters")
    matching = models.JSONField(_("matching"), null=True, blank=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)

    objects = ScopedManager(club="club")

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("rating list upload")
        verbose_name_plural = _("rating list uploads")
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="rating_import_progress"),
            models.CheckConstraint(
                condition=Q(number_kind__in=["knsb", "fide"]), name="rating_import_number_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.status})"
