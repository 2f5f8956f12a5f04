"""The season in the database: calendar, players, sign-ups, games and the
standings stored after every evening (docs/rules.md 2-5, 9).

Defined here, imported from ``competition.models`` (the app's models).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from competition.scoring.eligibility import EligibilityRule
from core.tenancy.scoping import ScopedManager
from core.validators import single_line


class System(models.TextChoices):
    """Scoring presets (docs/rules.md 4). Parameters start from the preset and can be edited."""

    PION = "pion", _("Keizer with recalculation")
    CLASSIC = "classic", _("Keizer, classic")
    KEIZER1956 = "keizer1956", _("Keizer, 1956 description")
    LADDER = "ladder", _("Rank-difference ladder")


class ByePolicy(models.TextChoices):
    RANDOM = "random", _("drawn at random among those with the fewest byes")
    LOWEST = "lowest", _("lowest-placed player with the fewest byes")


class Season(models.Model):
    club = models.ForeignKey(
        "members.Club", on_delete=models.PROTECT, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=40, help_text="2026-2027",
                            validators=[single_line])
    slug = models.SlugField(_("slug"), max_length=40)
    start_date = models.DateField(
        _("season opening"), help_text=_("Date of the season-opening event.")
    )
    end_date = models.DateField(_("last day"))
    inputs_version = models.PositiveBigIntegerField(
        _("inputs version"), default=0, editable=False,
        help_text="Moved on by every write the standings depend on, in the write's own "
        "transaction; the standings record the version they were computed from "
        "(StandingsState), so a recalculation and the beat's catch-up see what is missing.",
    )
    inputs_changed_at = models.DateTimeField(_("inputs changed at"), null=True, blank=True, editable=False)

    objects = ScopedManager(club="club")

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start_date"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gt=F("start_date")), name="season_ends_after_start"
            ),
            # Two clubs may each have a season "2026-2027".
            models.UniqueConstraint(fields=["club", "name"], name="season_name_per_club"),
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_per_club"),
        ]
        permissions = [
            ("register_self", "Can sign himself up and off"),
            ("enter_results", "Can enter results and rulings"),
            ("manage_registrations", "Can change anybody's sign-ups"),
            ("manage_pairings", "Can pair, publish and edit pairings"),
            ("approve_tempo", "Can approve tempo exceptions"),
            ("manage_calendar", "Can edit the calendar"),
            ("manage_season", "Can set up seasons and parameters"),
            ("override_eligibility", "Can override prize eligibility"),
        ]

    def __str__(self) -> str:
        return self.name


class RatingKind(models.TextChoices):
    """Which of a member's two ratings a competition uses (KNSB and FIDE are different numbers)."""

    KNSB = "knsb", _("KNSB rating")
    FIDE = "fide", _("FIDE rating")


class Competition(models.Model):
    """The internal competition of a season: its scoring system and all its parameters."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="competition", verbose_name=_("season"))
    name = models.CharField(_("name"), max_length=80, default="Interne competitie",
                            validators=[single_line])
    system = models.CharField(_("system"), max_length=20, choices=System.choices)
    parameters = models.JSONField(
        _("scoring parameters"),
        default=dict,
        help_text=_("Every scoring parameter by name, as in the season file."),
    )
    # Pairing rules (docs/rules.md 5).
    max_meetings_per_season = models.PositiveSmallIntegerField(_("meetings per season"), default=2)
    max_meetings_per_half = models.PositiveSmallIntegerField(_("meetings per half"), default=1)
    min_evenings_between = models.PositiveSmallIntegerField(
        _("playing evenings between two meetings"), default=5
    )
    bye_policy = models.CharField(
        _("pairing bye"), max_length=10, choices=ByePolicy.choices, default=ByePolicy.RANDOM
    )
    # Calendar defaults (docs/rules.md 2, 3).
    start_time = models.TimeField(_("games start"), default=dt.time(20, 15))
    deadline_days_before = models.PositiveSmallIntegerField(_("deadline: days before"), default=1)
    deadline_time = models.TimeField(_("deadline: time"), default=dt.time(18, 0))
    evenings_per_half = models.PositiveSmallIntegerField(_("playing evenings per half"), default=10)
    # Prizes (docs/rules.md 6).
    eligibility_percentage = models.PositiveSmallIntegerField(
        _("eligibility: percentage of evenings not absent without notice"), default=50
    )
    eligibility_min_games = models.PositiveSmallIntegerField(
        _("eligibility: minimum games (ladder)"), default=14
    )
    eligibility_max_exempted = models.PositiveSmallIntegerField(
        _("eligibility: club-team matches counted (ladder)"), default=4
    )
    # Ratings (docs/operations.md): which one orders the start, which one a TRF carries.
    start_rating = models.CharField(
        _("rating for the starting order"), max_length=4, choices=RatingKind.choices,
        default=RatingKind.KNSB,
    )
    trf_rating = models.CharField(
        _("rating in the TRF export"), max_length=4, choices=RatingKind.choices,
        default=RatingKind.FIDE,
    )
    # What a TRF file for rating needs of the club (records 022 and 102), set by the leader
    # on the export page.
    venue_city = models.CharField(_("city of the venue"), max_length=60, blank=True)
    chief_arbiter = models.CharField(
        _("chief arbiter"), max_length=80, blank=True,
        help_text=_("As FIDE lists him or her: Lastname, Firstname."),
    )

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.CheckConstraint(
                condition=Q(system__in=[s.value for s in System]), name="competition_system_known"
            ),
            models.CheckConstraint(
                condition=Q(eligibility_percentage__lte=100),
                name="competition_eligibility_percentage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"

    @property
    def is_ladder(self) -> bool:
        return self.system == System.LADDER

    @property
    def eligibility_rule(self) -> EligibilityRule:
        """The numbers of docs/rules.md 6 the pure eligibility rule reads."""
        return EligibilityRule(
            percentage=self.eligibility_percentage,
            min_games=self.eligibility_min_games,
            max_exempted=self.eligibility_max_exempted,
        )


class HalfKind(models.TextChoices):
    WINTER = "winter", _("winter half")
    SUMMER = "summer", _("summer half")
    SEASON = "season", _("whole season")  # the ladder has one period


class Half(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="halves", verbose_name=_("season"))
    kind = models.CharField(_("half"), max_length=10, choices=HalfKind.choices)
    start_date = models.DateField(_("first evening"))

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("half")
        verbose_name_plural = _("halves")
        ordering = ["season", "start_date"]
        constraints = [
            models.UniqueConstraint(fields=["season", "kind"], name="half_once_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.get_kind_display()}"


class EveningKind(models.TextChoices):
    PLAYING = "playing", _("playing evening")
    RAPID = "rapid", _("rapid evening")
    CLOSED = "closed", _("venue closed")
    PLAYOFF = "playoff", _("playoff evening")
    FREE = "free", _("no competition")


class EveningStatus(models.TextChoices):
    OPEN = "open", _("sign-up open")
    CLOSED = "closed", _("sign-up closed")
    PUBLISHED = "published", _("pairing published")


class Evening(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="evenings", verbose_name=_("season"))
    half = models.ForeignKey(
        Half, on_delete=models.RESTRICT, null=True, blank=True, related_name="evenings", verbose_name=_("half")
    )
    date = models.DateField(_("date"))
    kind = models.CharField(
        _("kind"), max_length=10, choices=EveningKind.choices, default=EveningKind.PLAYING
    )
    starts_at = models.DateTimeField(_("games start"))
    deadline = models.DateTimeField(_("sign-up deadline"))
    status = models.CharField(
        _("status"), max_length=10, choices=EveningStatus.choices, default=EveningStatus.OPEN
    )
    note = models.CharField(_("note"), max_length=200, blank=True, validators=[single_line])
    pairing_seed = models.CharField(_("pairing seed"), max_length=64, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["date"]
        constraints = [
            models.UniqueConstraint(fields=["season", "date"], name="evening_once_per_date"),
            models.CheckConstraint(
                condition=Q(deadline__lte=F("starts_at")), name="evening_deadline_before_start"
            ),
            models.CheckConstraint(
                condition=Q(half__isnull=False) | ~Q(kind="playing"),
                name="evening_playing_has_half",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} ({self.get_kind_display()})"

    def clean(self) -> None:
        if self.half is not None and self.half.season_id != self.season_id:
            raise ValidationError({"half": _("The half belongs to another season.")})
        if self.kind == EveningKind.PLAYING and not self.half_id:
            raise ValidationError({"half": _("A playing evening belongs to a half.")})


class PlayerKind(models.TextChoices):
    FIXED = "fixed", _("fixed player")
    FLEXIBLE = "flexible", _("flexible player")


class Player(models.Model):
    """A member taking part in a season's competition."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="players", verbose_name=_("season"))
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="players", verbose_name=_("member")
    )
    kind = models.CharField(
        _("kind"), max_length=10, choices=PlayerKind.choices, default=PlayerKind.FLEXIBLE
    )
    rating = models.PositiveIntegerField(_("rating on 1 September"), null=True, blank=True)
    start = models.PositiveIntegerField(
        _("starting position"), help_text=_("1 = first in the starting order.")
    )
    start_points = models.DecimalField(
        _("start points (ladder)"), max_digits=8, decimal_places=2, null=True, blank=True
    )

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["season", "start"]
        constraints = [
            models.UniqueConstraint(fields=["season", "member"], name="player_once_per_season"),
            models.UniqueConstraint(fields=["season", "start"], name="player_start_unique"),
            models.CheckConstraint(condition=Q(start__gte=1), name="player_start_positive"),
        ]

    def __str__(self) -> str:
        return self.member.name

    @property
    def is_fixed(self) -> bool:
        return self.kind == PlayerKind.FIXED


def still_member() -> models.Exists:
    """A filter on ``Player``: its member is (still) a member of the season's club. A
    member who left the club (``members.accounts.profile.membership_end``) keeps his ``Player``
    rows (his games and standings stay) but is no longer fixed, present or paired on any
    evening to come.

    The membership is the club's model, named by its label as the club columns name
    ``members.Club``: the competition's models stand below the members app, which imports
    them (docs/architecture.md)."""
    membership = apps.get_model("members", "Membership")
    return models.Exists(membership.objects.filter(
        user_id=models.OuterRef("member_id"), club_id=models.OuterRef("season__club_id")))


class Attendance(models.TextChoices):
    PRESENT = "present", _("present")
    ABSENT_WITH_NOTICE = "absent_with_notice", _("absent with notice")
    ABSENT_WITHOUT_NOTICE = "absent_without_notice", _("absent without notice")
    CLUB_DUTY = "club_duty", _("club duty")


class Registration(models.Model):
    """A player's status for one evening. No row: fixed present, flexible absent."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("evening"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=24, choices=Attendance.choices)
    force_majeure = models.BooleanField(_("force majeure"), default=False)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("changed by")
    )
    version = models.PositiveIntegerField(_("version"), default=1)

    objects = ScopedManager(club="evening__season__club")

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player"], name="registration_once_per_evening"
            ),
            models.CheckConstraint(
                condition=Q(status__in=[a.value for a in Attendance]),
                name="registration_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.evening.date}: {self.get_status_display()}"


class ClubDutyState(models.TextChoices):
    REQUESTED = "requested", _("club duty requested")
    APPROVED = "approved", _("club duty approved")
    REFUSED = "refused", _("club duty refused")
    WITHDRAWN = "withdrawn", _("club duty request withdrawn")


class ClubDutyRequest(models.Model):
    """A player's request for club duty on one evening, for the leader to approve
    (``competition.season.engine.signup``: until then it scores as the sign-off it implies). One row per
    player and evening: a withdrawn request may be made again, a decided one is not."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="club_duty_requests", verbose_name=_("evening"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_duty_requests", verbose_name=_("player"))
    state = models.CharField(
        _("state"), max_length=10, choices=ClubDutyState.choices, default=ClubDutyState.REQUESTED
    )
    note = models.CharField(
        _("what duty"), max_length=200, blank=True, validators=[single_line],
        help_text=_("For example: the club's second team, away; or refereeing."),
    )
    requested_at = models.DateTimeField(_("requested at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("decided by")
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)

    objects = ScopedManager(club="evening__season__club")

    class Meta:
        verbose_name = _("club duty request")
        verbose_name_plural = _("club duty requests")
        ordering = ["evening", "requested_at"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "player"], name="club_duty_request_once"),
            models.CheckConstraint(
                condition=Q(state__in=[s.value for s in ClubDutyState]),
                name="club_duty_request_state_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.evening.date}: {self.get_state_display()}"


class Result(models.TextChoices):
    PENDING = "", _("not yet played")
    WHITE_WINS = "1-0", "1-0"
    DRAW = "1/2-1/2", "½-½"
    BLACK_WINS = "0-1", "0-1"
    WHITE_FORFEIT_WIN = "1-0F", _("1-0 forfeit")
    BLACK_FORFEIT_WIN = "0-1F", _("0-1 forfeit")
    DOUBLE_FORFEIT = "0-0F", _("0-0 double forfeit")
    POSTPONED = "postponed", _("postponed")


class Tempo(models.TextChoices):
    STANDARD = "standard", _("standard: 40 moves in 90 min, then 30 min, +30 s a move")
    REQUESTED = "requested", _("alternative tempo requested")
    APPROVED = "approved", _("alternative: 40 moves in 90 min, then 15 min")
    REFUSED = "refused", _("alternative tempo refused")


class GameQuerySet(models.QuerySet["Game"]):
    # The games that ``Game.has_result``: one definition, in SQL, for any queryset of games.
    HAS_RESULT = ~Q(result=Result.PENDING)

    def with_result(self) -> GameQuerySet:
        """The games that ``Game.has_result``."""
        return self.filter(self.HAS_RESULT)


GameManager = ScopedManager.from_queryset(GameQuerySet)


class Game(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="games", verbose_name=_("evening"))
    board = models.PositiveSmallIntegerField(_("board"))
    # RESTRICT: a player with games cannot be deleted, but a whole season can.
    white = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="games_white", verbose_name=_("white"))
    black = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="games_black", verbose_name=_("black"))
    result = models.CharField(
        _("result"), max_length=10, choices=Result.choices, default=Result.PENDING, blank=True
    )
    note = models.CharField(_("note"), max_length=200, blank=True, validators=[single_line])
    tempo = models.CharField(
        _("tempo"), max_length=10, choices=Tempo.choices, default=Tempo.STANDARD
    )
    tempo_requested_by = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text=_("The player who asked for the alternative tempo, with the opponent's agreement."), verbose_name=_("tempo requested by"),
    )
    tempo_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("tempo decided by")
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)


    objects = GameManager(club="evening__season__club")

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["evening", "board"]
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_not_against_self"),
            models.UniqueConstraint(fields=["evening", "board"], name="game_board_unique"),
            models.UniqueConstraint(fields=["evening", "white"], name="game_white_once"),
            models.UniqueConstraint(fields=["evening", "black"], name="game_black_once"),
            models.CheckConstraint(
                condition=Q(result__in=[r.value for r in Result]), name="game_result_known"
            ),
            # "White in one game and black in another" is refused by a trigger
            # (migration 0002), which a unique constraint cannot express.
        ]

    def __str__(self) -> str:
        return f"{self.white} - {self.black} {self.result or '…'}"

    @property
    def has_result(self) -> bool:
        """The arbiter has entered something for this board: a score, a forfeit, or that
        it is postponed. Every correction of a pairing leaves such a game alone (the
        result is corrected instead); ``GameQuerySet.with_result`` is the same in SQL."""
        return self.result != Result.PENDING


class Bye(models.Model):
    """The pairing bye of an evening with an odd number of players present."""

    evening = models.OneToOneField(Evening, on_delete=models.CASCADE, related_name="bye", verbose_name=_("evening"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="byes", verbose_name=_("player"))
    drawn_from = models.JSONField(
        _("drawn from"), default=list, blank=True, help_text=_("Player ids the bye was drawn from, if drawn.")
    )

    objects = ScopedManager(club="evening__season__club")

    class Meta:
        verbose_name = _("pairing bye")
        verbose_name_plural = _("pairing byes")

    def __str__(self) -> str:
        return f"{self.evening.date}: {self.player}"


class StandingsSnapshot(models.Model):
    """The standings of a half after one evening, as last computed (a cache of inputs)."""

    half = models.ForeignKey(Half, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("half"))
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("evening"))
    cycle = models.BooleanField(_("cycle settled"), default=False)
    cycle_orders = models.PositiveSmallIntegerField(
        _("orders in the cycle"), default=0,
        help_text=_("After a cycle the totals are the average over this many orders."),
    )
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)
    digest = models.CharField(_("digest"), max_length=64, blank=True, help_text="of the rows, to skip "
                              "rewriting a snapshot the recalculation left unchanged")
    eligibility = models.JSONField(
        _("eligibility"), default=dict, blank=True,
        help_text="The latest snapshot of a half: {player id: Eligibility} with the "
                  "administrator's overrides applied, stored by the recalculation.",
    )

    objects = ScopedManager(club="half__season__club")

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        ordering = ["half", "evening__date"]
        constraints = [
            models.UniqueConstraint(fields=["half", "evening"], name="snapshot_once_per_evening")
        ]

    def __str__(self) -> str:
        return f"{self.half_id} after {self.evening_id}"


class StandingsState(models.Model):
    """What a season's stored standings were computed from, and the row a recalculation
    locks (``SELECT ... FOR UPDATE SKIP LOCKED``): one recalculation of a season at a time,
    and no writer ever waits for it, since writers move ``Season.inputs_version`` and never
    touch this row."""

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, primary_key=True, related_name="standings_state", verbose_name=_("season")
    )
    inputs_version = models.BigIntegerField(
        _("inputs version"), default=-1, help_text="The season's inputs version the stored standings were "
        "computed from (-1: never computed)."
    )
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)

    objects = ScopedManager(club="season__club")

    class Meta:
        verbose_name = _("standings state")
        verbose_name_plural = _("standings states")

    def __str__(self) -> str:
        return f"{self.season_id} at {self.inputs_version}"


# An explanation line as a row stores it: an array of these fields, in this order (a
# Keizer line seven, a ladder line six), which ``Standing.lines`` names again. An array
# instead of an object with its keys: the last snapshot of a half holds every player's
# lines, written anew with each result, and the keys were half of its size
# (docs/standings.md, "Explanation lines as stored").
KEIZER_LINE = ("date", "outcome", "opponent", "value", "points", "exact", "over_limit")
LADDER_LINE = ("date", "outcome", "opponent", "delta", "bonus", "points")


def stored_line(line: list[Any] | dict[str, Any]) -> dict[str, Any]:
    """One stored explanation line as {field: value} (``KEIZER_LINE``, ``LADDER_LINE``). A
    line of the earlier form, an object already, is read as it is: a club's copy made
    before migration 0037 (``manage.py backup``) still holds its lines so when restored."""
    if isinstance(line, dict):
        return line
    fields = KEIZER_LINE if len(line) == len(KEIZER_LINE) else LADDER_LINE
    return dict(zip(fields, line, strict=True))


class Standing(models.Model):
    """One player's row in a snapshot."""

    snapshot = models.ForeignKey(StandingsSnapshot, on_delete=models.CASCADE, related_name="rows", verbose_name=_("snapshot"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings", verbose_name=_("player"))
    rank = models.PositiveIntegerField(_("rank"))
    score = models.DecimalField(_("score"), max_digits=12, decimal_places=2)
    score_exact = models.CharField(_("score exact"), max_length=64, help_text="exact fraction")
    value = models.DecimalField(_("value"), max_digits=8, decimal_places=2, null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=10, decimal_places=2, null=True, blank=True)
    pairing_points = models.DecimalField(_("pairing points"), max_digits=10, decimal_places=2, null=True, blank=True)
    games = models.PositiveSmallIntegerField(_("games"), default=0)
    won = models.PositiveSmallIntegerField(_("won"), default=0)
    drawn = models.PositiveSmallIntegerField(_("drawn"), default=0)
    lost = models.PositiveSmallIntegerField(_("lost"), default=0)
    whites = models.PositiveSmallIntegerField(_("whites"), default=0)
    blacks = models.PositiveSmallIntegerField(_("blacks"), default=0)
    byes = models.PositiveSmallIntegerField(_("byes"), default=0)
    absent_with_notice = models.PositiveSmallIntegerField(_("absent with notice"), default=0)
    absent_without_notice = models.PositiveSmallIntegerField(_("absent without notice"), default=0)
    club_duty = models.PositiveSmallIntegerField(_("club duty"), default=0)
    game_points = models.DecimalField(_("game points"), max_digits=6, decimal_places=2, default=0)
    group = models.PositiveSmallIntegerField(_("group"), null=True, blank=True)  # ladder group 1-4
    explanation = models.JSONField(_("explanation"), default=list)

    objects = ScopedManager(club="snapshot__half__season__club")

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["snapshot", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "player"], name="standing_player_once"),
            models.UniqueConstraint(fields=["snapshot", "rank"], name="standing_rank_once"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id}: {self.score}"

    def lines(self) -> list[dict[str, Any]]:
        """The explanation lines stored, each as {field: value} (``stored_line``)."""
        return [stored_line(line) for line in self.explanation]

    @property
    def percentage(self) -> Decimal | None:
        """Game points over games played, in percent (docs/rules.md 9, column 9)."""
        if not self.games:
            return None
        return (Decimal(self.game_points) * 100 / self.games).quantize(Decimal("1"))

    @property
    def colour_balance(self) -> int:
        return self.whites - self.blacks

    @property
    def absences(self) -> int:
        return self.absent_with_notice + self.absent_without_notice
