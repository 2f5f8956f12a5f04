"""Rapid and blitz events in the database (docs/rules.md 7, 8).

Defined here, imported from ``competition.models`` (the app's models).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from core.tenancy.scoping import ScopedManager
from core.validators import single_line


class EventKind(models.TextChoices):
    RAPID = "rapid", _("rapid competition")
    BLITZ = "blitz", _("blitz championship")
    BLITZ_PLAYOFF = "blitz_playoff", _("blitz playoff")


class PairingEdition(models.TextChoices):
    """C.04.3 FIDE (Dutch) System: blank pairs by the edition in force on the event's date."""

    BY_DATE = "", _("by the event's date")
    FIDE_2017 = "2017", _("FIDE Dutch system until 31 January 2026")
    FIDE_2026 = "2026", _("FIDE Dutch system from 1 February 2026")


class TiebreakRules(models.TextChoices):
    FIDE_2024 = "2024", _("FIDE 2024")
    FIDE_2026 = "2026", _("FIDE 2026 (capped unplayed rounds)")


class SwissEvent(models.Model):
    """A Swiss event: the rapid competition of a half (two-game matches over the rapid
    evenings) or the blitz championship (one evening), or a blitz playoff round robin."""

    season = models.ForeignKey("competition.Season", on_delete=models.CASCADE, related_name="events", verbose_name=_("season"))
    kind = models.CharField(_("kind"), max_length=16, choices=EventKind.choices)
    name = models.CharField(_("name"), max_length=80, validators=[single_line])
    half = models.ForeignKey("competition.Half", on_delete=models.SET_NULL, null=True, blank=True, related_name="events",
        help_text=_("The half whose rapid champion this event decides."), verbose_name=_("half"),
    )
    date = models.DateField(_("date"), null=True, blank=True, help_text=_("Blitz: the evening."))
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=9)
    rounds_fixed = models.BooleanField(
        _("rounds fixed"), default=False,
        help_text=_("Set by the arbiter; until then a blitz follows the proposal for its size."),
    )
    tiebreak_order = models.CharField(
        _("tie-break order"), max_length=60, default="PTS,DE,BH-M1,SB"
    )
    rules = models.CharField(
        _("tie-break rules"), max_length=4, choices=TiebreakRules.choices,
        default=TiebreakRules.FIDE_2024,
    )
    pairing_edition = models.CharField(
        _("pairing rules"), max_length=4, choices=PairingEdition.choices, blank=True, default=PairingEdition.BY_DATE,
        help_text=_("Blitz: the edition of the FIDE Dutch system; blank follows the event's date."),
    )
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="playoffs", verbose_name=_("parent")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["season", "kind", "date", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="event_name_unique"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="event_has_rounds"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_match_event(self) -> bool:
        """Rapid rounds are two-game matches: 0–2 points, a bye worth 2."""
        return self.kind == EventKind.RAPID


class SwissEntrant(models.Model):
    """A player of an event: a member, or a guest (a non-member present on the evening,
    entered by name without an account). Exactly one of ``member`` and ``guest_name``."""

    event = models.ForeignKey(SwissEvent, on_delete=models.CASCADE, related_name="entrants", verbose_name=_("event"))
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="entries",
        null=True, blank=True, verbose_name=_("member"),
    )
    guest_name = models.CharField(_("guest's name"), max_length=80, blank=True, default="",
                                  validators=[single_line])
    number = models.PositiveSmallIntegerField(_("start number"))
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    objects = ScopedManager(club="event__season__club")

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(fields=["event", "member"], name="entrant_once_per_event"),
            models.UniqueConstraint(fields=["event", "number"], name="entrant_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="entrant_number_positive"),
            models.CheckConstraint(
                condition=(Q(member__isnull=False) & Q(guest_name=""))
                | (Q(member__isnull=True) & ~Q(guest_name="")),
                name="entrant_member_or_guest",
            ),
            models.UniqueConstraint(
                Lower("guest_name"), "event", condition=~Q(guest_name=""),
                name="entrant_guest_once_per_event",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"

    @property
    def name(self) -> str:
        # The public pages, the cross table and the TRF download show a member's public name.
        return self.member.shown_name if self.member is not None else self.guest_name

    @property
    def is_guest(self) -> bool:
        return self.member_id is None


class RoundStatus(models.TextChoices):
    OPEN = "open", _("marking who is present")
    PAIRED = "paired", _("paired, games under way")
    DONE = "done", _("finished")


class SwissRound(models.Model):
    event = models.ForeignKey(SwissEvent, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("event"))
    number = models.PositiveSmallIntegerField(_("round"))
    evening = models.ForeignKey("competition.Evening", on_delete=models.SET_NULL, null=True, blank=True, related_name="swiss_rounds", verbose_name=_("evening")
    )
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=RoundStatus.choices, default=RoundStatus.OPEN
    )
    notes = models.JSONField(_("notes"), default=list, blank=True)
    present = models.ManyToManyField(SwissEntrant, blank=True, related_name="present_in", verbose_name=_("present"))
    version = models.PositiveIntegerField(_("version"), default=1)

    objects = ScopedManager(club="event__season__club")

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("event round")
        verbose_name_plural = _("event rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.number}"


class SwissGame(models.Model):
    """One pairing of a round: a game (blitz), a two-game match (rapid), or the bye
    (``black`` empty). Points are per side: 0, ½, 1 for a game; 0 … 2 for a match."""

    round = models.ForeignKey(SwissRound, on_delete=models.CASCADE, related_name="games", verbose_name=_("round"))
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(SwissEntrant, on_delete=models.RESTRICT, related_name="+", verbose_name=_("white"))
    black = models.ForeignKey(
        SwissEntrant, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("black")
    )
    white_points = models.DecimalField(_("white points"), max_digits=3, decimal_places=1, null=True, blank=True)
    black_points = models.DecimalField(_("black points"), max_digits=3, decimal_places=1, null=True, blank=True)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    version = models.PositiveIntegerField(_("version"), default=1)

    objects = ScopedManager(club="round__event__season__club")

    class Meta:
        ordering = ["round", "board"]
        verbose_name = _("event game")
        verbose_name_plural = _("event games")
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="swissgame_board_unique"),
            models.UniqueConstraint(fields=["round", "white"], name="swissgame_white_once"),
            models.UniqueConstraint(fields=["round", "black"], name="swissgame_black_once"),
            models.CheckConstraint(
                condition=~Q(white=F("black")), name="swissgame_not_against_self"
            ),
            models.CheckConstraint(
                condition=(Q(white_points__isnull=True) | Q(white_points__gte=0, white_points__lte=2))
                & (Q(black_points__isnull=True) | Q(black_points__gte=0, black_points__lte=2)),
                name="swissgame_points_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}.{self.board}: {self.white_id}-{self.black_id}"
