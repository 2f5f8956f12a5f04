"""The club's own website: the sites that may show the embeds.

Defined here, imported from ``competition.models`` (the app's models).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.tenancy.context import current_club_id
from core.tenancy.scoping import ScopedManager


class ClubWebsite(models.Model):
    """The club's own website: the sites (origins) that may show the embeds in a frame
    (CSP ``frame-ancestors``). One row per club; none is the default: no site may frame
    them."""

    club = models.OneToOneField(
        "members.Club", on_delete=models.CASCADE, related_name="website", default=current_club_id,
        verbose_name=_("club"),
    )
    embed_origins = models.JSONField(
        _("sites that may show the embeds"), default=list, blank=True,
        help_text=_("Origins such as https://www.schaakclub.nl, one a line."),
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    version = models.PositiveIntegerField(_("version"), default=1)

    objects = ScopedManager(club="club")

    class Meta:
        verbose_name = _("club website")
        verbose_name_plural = _("club website")

    def __str__(self) -> str:
        return ", ".join(self.embed_origins) or "-"
