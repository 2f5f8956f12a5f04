"""The club's competition in the database: inputs (calendar, players, sign-ups, games)
and cached outputs (standings after every evening).

The rules themselves live in ``competition.scoring`` (pure Python); these models hold
fields, constraints and ``clean()``. Writes go through ``competition.services``.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .validators import single_line


class System(models.TextChoices):
    """Scoring presets (RULES.md 4). Parameters start from the preset and can be edited."""

    PION = "pion", _("Keizer, De Pion rules")
    CLASSIC = "classic", _("Keizer, classic")
    KEIZER1956 = "keizer1956", _("Keizer, 1956 description")
    LADDER = "ladder", _("Rank-difference ladder")


class ByePolicy(models.TextChoices):
    RANDOM = "random", _("drawn at random among those with the fewest byes")
    LOWEST = "lowest", _("lowest-placed player with the fewest byes")


class Season(models.Model):
    name = models.CharField(_("name"), max_length=40, unique=True, help_text="2026-2027",
                            validators=[single_line])
    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    start_date = models.DateField(
        _("season opening"), help_text=_("Date of the season-opening event.")
    )
    end_date = models.DateField(_("last day"))
    inputs_version = models.PositiveBigIntegerField(
        default=0, editable=False,
        help_text="Moved on by every write the standings depend on, in the write's own "
        "transaction; the standings record the version they were computed from "
        "(StandingsState), so a recalculation and the beat's catch-up see what is missing.",
    )
    inputs_changed_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start_date"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gt=F("start_date")), name="season_ends_after_start"
            )
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

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="competition")
    name = models.CharField(_("name"), max_length=80, default="Interne competitie",
                            validators=[single_line])
    system = models.CharField(_("system"), max_length=20, choices=System.choices)
    parameters = models.JSONField(
        _("scoring parameters"),
        default=dict,
        help_text=_("Every scoring parameter by name, as in the season file."),
    )
    # Pairing rules (RULES.md 5).
    max_meetings_per_season = models.PositiveSmallIntegerField(_("meetings per season"), default=2)
    max_meetings_per_half = models.PositiveSmallIntegerField(_("meetings per half"), default=1)
    min_evenings_between = models.PositiveSmallIntegerField(
        _("playing evenings between two meetings"), default=5
    )
    bye_policy = models.CharField(
        _("pairing bye"), max_length=10, choices=ByePolicy.choices, default=ByePolicy.RANDOM
    )
    # Calendar defaults (RULES.md 2, 3).
    start_time = models.TimeField(_("games start"), default=dt.time(20, 15))
    deadline_days_before = models.PositiveSmallIntegerField(_("deadline: days before"), default=1)
    deadline_time = models.TimeField(_("deadline: time"), default=dt.time(18, 0))
    evenings_per_half = models.PositiveSmallIntegerField(_("playing evenings per half"), default=10)
    # Prizes (RULES.md 6).
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


class HalfKind(models.TextChoices):
    WINTER = "winter", _("winter half")
    SUMMER = "summer", _("summer half")
    SEASON = "season", _("whole season")  # the ladder has one period


class Half(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="halves")
    kind = models.CharField(_("half"), max_length=10, choices=HalfKind.choices)
    start_date = models.DateField(_("first evening"))

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
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="evenings")
    half = models.ForeignKey(
        Half, on_delete=models.RESTRICT, null=True, blank=True, related_name="evenings"
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
    pairing_seed = models.CharField(max_length=64, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)

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

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="players")
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="players"
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


class Attendance(models.TextChoices):
    PRESENT = "present", _("present")
    ABSENT_WITH_NOTICE = "absent_with_notice", _("absent with notice")
    ABSENT_WITHOUT_NOTICE = "absent_without_notice", _("absent without notice")
    CLUB_DUTY = "club_duty", _("club duty")


class Registration(models.Model):
    """A player's status for one evening. No row: fixed present, flexible absent."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations")
    status = models.CharField(_("status"), max_length=24, choices=Attendance.choices)
    force_majeure = models.BooleanField(_("force majeure"), default=False)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    version = models.PositiveIntegerField(default=1)

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
    (``competition.signup``: until then it scores as the sign-off it implies). One row per
    player and evening: a withdrawn request may be made again, a decided one is not."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="club_duty_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_duty_requests")
    state = models.CharField(
        _("state"), max_length=10, choices=ClubDutyState.choices, default=ClubDutyState.REQUESTED
    )
    note = models.CharField(
        _("what duty"), max_length=200, blank=True, validators=[single_line],
        help_text=_("For example: the club's second team, away; or refereeing."),
    )
    requested_at = models.DateTimeField(_("requested at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    # The decision e-mail: claimed by the task that sends it, marked once it has gone.
    notice_claimed_at = models.DateTimeField(null=True, blank=True)
    notice_sent_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)

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
    def with_result(self) -> GameQuerySet:
        """The games that ``Game.has_result`` (one definition, in SQL)."""
        return self.exclude(result=Result.PENDING)


class Game(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField(_("board"))
    # RESTRICT: a player with games cannot be deleted, but a whole season can.
    white = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="games_white")
    black = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="games_black")
    result = models.CharField(
        _("result"), max_length=10, choices=Result.choices, default=Result.PENDING, blank=True
    )
    note = models.CharField(_("note"), max_length=200, blank=True, validators=[single_line])
    tempo = models.CharField(
        _("tempo"), max_length=10, choices=Tempo.choices, default=Tempo.STANDARD
    )
    tempo_requested_by = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text=_("The player who asked for the alternative tempo, with the opponent's agreement."),
    )
    tempo_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

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

    evening = models.OneToOneField(Evening, on_delete=models.CASCADE, related_name="bye")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="byes")
    drawn_from = models.JSONField(
        default=list, blank=True, help_text=_("Player ids the bye was drawn from, if drawn.")
    )

    class Meta:
        verbose_name = _("pairing bye")
        verbose_name_plural = _("pairing byes")

    def __str__(self) -> str:
        return f"{self.evening.date}: {self.player}"


class StandingsSnapshot(models.Model):
    """The standings of a half after one evening, as last computed (a cache of inputs)."""

    half = models.ForeignKey(Half, on_delete=models.CASCADE, related_name="snapshots")
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="snapshots")
    cycle = models.BooleanField(_("cycle settled"), default=False)
    cycle_orders = models.PositiveSmallIntegerField(
        _("orders in the cycle"), default=0,
        help_text=_("After a cycle the totals are the average over this many orders."),
    )
    computed_at = models.DateTimeField(auto_now=True)
    digest = models.CharField(max_length=64, blank=True, help_text="of the rows, to skip "
                              "rewriting a snapshot the recalculation left unchanged")
    eligibility = models.JSONField(
        default=dict, blank=True,
        help_text="The latest snapshot of a half: {player id: Eligibility} with the "
                  "administrator's overrides applied, stored by the recalculation.",
    )

    class Meta:
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
        Season, on_delete=models.CASCADE, primary_key=True, related_name="standings_state"
    )
    inputs_version = models.BigIntegerField(
        default=-1, help_text="The season's inputs version the stored standings were "
        "computed from (-1: never computed)."
    )
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.season_id} at {self.inputs_version}"


class Standing(models.Model):
    """One player's row in a snapshot."""

    snapshot = models.ForeignKey(StandingsSnapshot, on_delete=models.CASCADE, related_name="rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    score = models.DecimalField(max_digits=12, decimal_places=2)
    score_exact = models.CharField(max_length=64, help_text="exact fraction")
    value = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    points = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    pairing_points = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    games = models.PositiveSmallIntegerField(default=0)
    won = models.PositiveSmallIntegerField(default=0)
    drawn = models.PositiveSmallIntegerField(default=0)
    lost = models.PositiveSmallIntegerField(default=0)
    whites = models.PositiveSmallIntegerField(default=0)
    blacks = models.PositiveSmallIntegerField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    absent_with_notice = models.PositiveSmallIntegerField(default=0)
    absent_without_notice = models.PositiveSmallIntegerField(default=0)
    club_duty = models.PositiveSmallIntegerField(default=0)
    game_points = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    group = models.PositiveSmallIntegerField(null=True, blank=True)  # ladder group 1-4
    explanation = models.JSONField(default=list)

    class Meta:
        ordering = ["snapshot", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "player"], name="standing_player_once"),
            models.UniqueConstraint(fields=["snapshot", "rank"], name="standing_rank_once"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id}: {self.score}"

    @property
    def percentage(self) -> Decimal | None:
        """Game points over games played, in percent (RULES.md 9, column 9)."""
        if not self.games:
            return None
        return (Decimal(self.game_points) * 100 / self.games).quantize(Decimal("1"))

    @property
    def colour_balance(self) -> int:
        return self.whites - self.blacks

    @property
    def absences(self) -> int:
        return self.absent_with_notice + self.absent_without_notice


class AuditAction(models.TextChoices):
    """Every kind of audited write, one constant each (as Zulip's ``RealmAuditLog``)."""

    SEASON_SET_UP = "season.set_up", _("season set up")
    SEASON_IMPORT = "season.import", _("season imported")
    SEASON_START_NEXT = "season.start_next", _("next season started")
    COMPETITION_PARAMETERS = "competition.parameters", _("parameters changed")
    COMPETITION_DEADLINE = "competition.deadline", _("sign-up deadline changed")
    EVENING_UPDATE = "evening.update", _("evening changed")
    PLAYER_ADD = "player.add", _("player added")
    PLAYER_KIND = "player.kind", _("player kind changed")
    PLAYERS_ORDER_BY_RATING = "players.order_by_rating", _("starting order set by rating")
    PLAYER_START = "player.start", _("starting position moved")
    MEMBER_ADD = "member.add", _("member added")
    MEMBER_CHANGE = "member.change", _("member changed")
    MEMBER_INVITE = "member.invite", _("invitation sent")
    MEMBER_ROLE = "member.role", _("role or FIDE id changed")
    MEMBER_ACCEPT = "member.accept", _("registration accepted")
    MEMBER_REFUSE = "member.refuse", _("registration refused")
    MEMBER_OWN_DETAILS = "member.own_details", _("own details changed")
    MEMBER_REMOVE = "member.remove", _("member left, account removed")
    REGISTRATION_SET = "registration.set", _("sign-up changed")
    CLUB_DUTY_REQUEST = "club_duty.request", _("club duty requested")
    CLUB_DUTY_DECIDE = "club_duty.decide", _("club duty decided")
    GAME_RESULT = "game.result", _("result entered")
    GAME_TEMPO_REQUEST = "game.tempo_request", _("tempo requested")
    GAME_TEMPO_DECIDE = "game.tempo_decide", _("tempo decided")
    PAIRING_PUBLISH = "pairing.publish", _("pairing published")
    PAIRING_REPAIR = "pairing.repair", _("paired again")
    PAIRING_SWAP_COLOURS = "pairing.swap_colours", _("colours swapped")
    PAIRING_SWAP_OPPONENTS = "pairing.swap_opponents", _("opponents swapped")
    PAIRING_REMOVE_PLAYER = "pairing.remove_player", _("player removed from the pairing")
    PAIRING_ADD_PLAYER = "pairing.add_player", _("player added to the pairing")
    ELIGIBILITY_OVERRIDE = "eligibility.override", _("prize eligibility overridden")
    ELIGIBILITY_OVERRIDE_CLEAR = "eligibility.override_clear", _("prize eligibility override cleared")
    PRIZES_CONFIRM = "prizes.confirm", _("prizes confirmed")
    PLAYOFFS_CREATE = "playoffs.create", _("playoffs created")
    PLAYOFFS_DATE = "playoffs.date", _("playoff date changed")
    PLAYOFFS_RESULT = "playoffs.result", _("playoff result entered")
    PLAYOFFS_RESULT_WITHDRAW = "playoffs.result_withdraw", _("playoff result withdrawn")
    PLAYOFFS_PRIZES = "playoffs.prizes", _("playoff prizes confirmed")
    EVENT_CREATE = "event.create", _("event created")
    EVENT_SET_ROUNDS = "event.set_rounds", _("number of rounds set")
    EVENT_ENTRANT_ADD = "event.entrant_add", _("entrant added")
    EVENT_ROUND_OPEN = "event.round_open", _("round opened")
    EVENT_PRESENCE_SET = "event.presence_set", _("presence changed")
    EVENT_ROUND_PAIR = "event.round_pair", _("round paired")
    EVENT_GAME_RESULT = "event.game_result", _("event result entered")
    EVENT_RESULT_CORRECT = "event.result_correct", _("event result corrected")
    EVENT_ROUND_FINISH = "event.round_finish", _("round finished")
    EVENT_PLAYOFF_CREATE = "event.playoff_create", _("playoff created")
    EVENT_IMPORT = "event.import", _("event imported")
    RATINGS_UPLOAD = "ratings.upload", _("rating list uploaded")
    RATINGS_APPLY = "ratings.apply", _("ratings saved from a list")
    RATINGS_SEASON_START = "ratings.season_start", _("starting order set from the ratings")
    COMPETITION_RATINGS = "competition.ratings", _("ratings for the starting order and the TRF chosen")
    WEBSITE_EMBED_ORIGINS = "website.embed_origins", _("sites that may show the embeds changed")
    ADMIN_ADD = "admin.add", _("added in the admin")
    ADMIN_CHANGE = "admin.change", _("changed in the admin")
    ADMIN_DELETE = "admin.delete", _("deleted in the admin")


class AuditRecord(models.Model):
    """Who changed what, when: before and after, for every write that matters."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # No ``choices=``: a new audit action is a line in AuditAction, not a migration. The
    # value is checked in code (save), as Zulip checks its audit log's event types.
    action = models.CharField(max_length=60)
    season = models.ForeignKey(Season, on_delete=models.CASCADE, null=True, related_name="+")
    evening = models.ForeignKey(Evening, on_delete=models.SET_NULL, null=True, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        AuditAction(self.action)  # ValueError for an action nobody defined
        super().save(*args, **kwargs)

    def get_action_display(self) -> str:
        try:
            return str(AuditAction(self.action).label)
        except ValueError:
            return self.action


# --- Rapid and blitz (RULES.md 7, 8) ---------------------------------------------------


class EventKind(models.TextChoices):
    RAPID = "rapid", _("rapid competition")
    BLITZ = "blitz", _("blitz championship")
    BLITZ_PLAYOFF = "blitz_playoff", _("blitz playoff")


class TiebreakRules(models.TextChoices):
    FIDE_2024 = "2024", _("FIDE 2024")
    FIDE_2026 = "2026", _("FIDE 2026 (capped unplayed rounds)")


class SwissEvent(models.Model):
    """A Swiss event: the rapid competition of a half (two-game matches over the rapid
    evenings) or the blitz championship (one evening), or a blitz playoff round robin."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(_("kind"), max_length=16, choices=EventKind.choices)
    name = models.CharField(_("name"), max_length=80, validators=[single_line])
    half = models.ForeignKey(
        Half, on_delete=models.SET_NULL, null=True, blank=True, related_name="events",
        help_text=_("The half whose rapid champion this event decides."),
    )
    date = models.DateField(_("date"), null=True, blank=True, help_text=_("Blitz: the evening."))
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=9)
    rounds_fixed = models.BooleanField(
        default=False,
        help_text=_("Set by the arbiter; until then a blitz follows the proposal for its size."),
    )
    tiebreak_order = models.CharField(
        _("tie-break order"), max_length=60, default="PTS,DE,BH-M1,SB"
    )
    rules = models.CharField(
        _("tie-break rules"), max_length=4, choices=TiebreakRules.choices,
        default=TiebreakRules.FIDE_2024,
    )
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="playoffs"
    )
    created_at = models.DateTimeField(auto_now_add=True)

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

    event = models.ForeignKey(SwissEvent, on_delete=models.CASCADE, related_name="entrants")
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="entries",
        null=True, blank=True,
    )
    guest_name = models.CharField(_("guest's name"), max_length=80, blank=True, default="",
                                  validators=[single_line])
    number = models.PositiveSmallIntegerField(_("start number"))
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

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
    event = models.ForeignKey(SwissEvent, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    evening = models.ForeignKey(
        Evening, on_delete=models.SET_NULL, null=True, blank=True, related_name="swiss_rounds"
    )
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=RoundStatus.choices, default=RoundStatus.OPEN
    )
    notes = models.JSONField(default=list, blank=True)
    present = models.ManyToManyField(SwissEntrant, blank=True, related_name="present_in")
    version = models.PositiveIntegerField(default=1)

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

    round = models.ForeignKey(SwissRound, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(SwissEntrant, on_delete=models.RESTRICT, related_name="+")
    black = models.ForeignKey(
        SwissEntrant, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    white_points = models.DecimalField(max_digits=3, decimal_places=1, null=True, blank=True)
    black_points = models.DecimalField(max_digits=3, decimal_places=1, null=True, blank=True)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    version = models.PositiveIntegerField(default=1)

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


# --- Prizes and playoffs (RULES.md 6) ----------------------------------------------------


class EligibilityOverride(models.Model):
    """The administrator's decision on a player's prize eligibility in a half, with why."""

    half = models.ForeignKey(Half, on_delete=models.CASCADE, related_name="eligibility_overrides")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="eligibility_overrides")
    eligible = models.BooleanField(_("eligible"))
    reason = models.CharField(_("reason"), max_length=200, validators=[single_line])
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now=True)

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
    """A confirmed, published prize. One prize per player per half (RULES.md 6);
    ``group`` tells the period or playoff group apart (0 when there is none)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="prizes")
    half = models.ForeignKey(
        Half, on_delete=models.CASCADE, null=True, blank=True, related_name="prizes"
    )
    kind = models.CharField(_("prize"), max_length=20, choices=PrizeKind.choices)
    group = models.PositiveSmallIntegerField(default=0)
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="prizes")
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(auto_now_add=True)

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
    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="playoff")
    seed = models.CharField(max_length=64, help_text=_("The lot for the colours."))
    groups = models.JSONField(help_text=_("Player ids per group, in seeding order."))
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"playoffs {self.season_id}"


class PlayoffResult(models.Model):
    """A result of one bracket match; the bracket is rebuilt by replaying these."""

    bracket = models.ForeignKey(PlayoffBracket, on_delete=models.CASCADE, related_name="results")
    match = models.CharField(max_length=20)
    result = models.CharField(max_length=10)
    played_on = models.DateField(_("played on"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "match"], name="playoff_result_once")
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.result}"


class PlayoffDate(models.Model):
    """A semi-final moved to another date agreed with the leader (never the top final)."""

    bracket = models.ForeignKey(PlayoffBracket, on_delete=models.CASCADE, related_name="dates")
    match = models.CharField(max_length=20)
    date = models.DateField(_("date"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bracket", "match"], name="playoff_date_once")
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.date}"


# --- Rating lists (issue 16) -------------------------------------------------------------


class RatingImportStatus(models.TextChoices):
    MAPPING = "mapping", _("columns to be mapped")
    READING = "reading", _("being read")
    READY = "ready", _("ready to check")
    FAILED = "failed", _("refused")
    APPLIED = "applied", _("saved")


class RatingImport(models.Model):
    """An uploaded rating list on its way: read by a task (``progress`` 0-100), matched to
    the members (``matching``), shown to the leader, and saved by him in one action."""

    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    file_name = models.CharField(_("file"), max_length=200)
    path = models.CharField(max_length=400, blank=True, help_text="The upload, until it is read.")
    size = models.PositiveBigIntegerField(default=0)
    format = models.CharField(_("format"), max_length=10)
    number_kind = models.CharField(_("numbers in the list"), max_length=4)
    columns = models.JSONField(default=list, blank=True)
    mapping = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=RatingImportStatus.choices,
        default=RatingImportStatus.READING,
    )
    progress = models.PositiveSmallIntegerField(default=0)
    # When the reading last moved: an import "being read" that has not moved for
    # RATINGS_READING_STUCK_MINUTES is ended by the catch-up job (its task was lost).
    updated_at = models.DateTimeField(null=True, blank=True)
    # Which of the member's ratings the list writes (a FIDE list: the FIDE rating), of
    # which list it is (a rapid or blitz list is no standard rating unless the leader says
    # so) and of which month (the first of it; the member's rating date).
    rating_kind = models.CharField(_("ratings in the list"), max_length=4,
                                   choices=RatingKind.choices, default=RatingKind.KNSB)
    list_kind = models.CharField(_("kind of list"), max_length=8, default="standard")
    list_date = models.DateField(_("list of"), null=True, blank=True)
    error = models.JSONField(null=True, blank=True, help_text="code and parameters")
    matching = models.JSONField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

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


class ClubWebsite(models.Model):
    """The club's own website: the sites (origins) that may show the embeds in a frame
    (CSP ``frame-ancestors``). One row; none is the default: no site may frame them."""

    embed_origins = models.JSONField(
        _("sites that may show the embeds"), default=list, blank=True,
        help_text=_("Origins such as https://www.schaakclub.nl, one a line."),
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name = _("club website")
        verbose_name_plural = _("club website")

    def __str__(self) -> str:
        return ", ".join(self.embed_origins) or "-"
