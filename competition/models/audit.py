"""The audit trail every feature writes to: who changed what, when.

Defined here, imported from ``competition.models`` (the app's models).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.tenancy.context import current_club_id
from core.tenancy.scoping import ScopedManager


def _season_club_id(season_id: int) -> int:
    from competition.models.season import Season

    return Season._base_manager.values_list("club_id", flat=True).get(pk=season_id)


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
    PLAYERS_ORDER_FROM_SEASON = "players.order_from_season", _("starting order from an earlier season")
    PLAYER_START = "player.start", _("starting position moved")
    MEMBER_ADD = "member.add", _("member added")
    MEMBER_CHANGE = "member.change", _("member changed")
    MEMBER_INVITE = "member.invite", _("invitation sent")
    MEMBER_ROLE = "member.role", _("role or FIDE id changed")
    MEMBER_ACCEPT = "member.accept", _("registration accepted")
    MEMBER_REFUSE = "member.refuse", _("registration refused")
    MEMBER_JOIN = "member.join", _("invitation to join accepted")
    MEMBER_JOIN_DECLINE = "member.join_decline", _("invitation to join declined")
    MEMBER_OWN_DETAILS = "member.own_details", _("own details changed")
    MEMBER_REMOVE = "member.remove", _("member left, account removed")
    MEMBER_LEAVE = "member.leave", _("member left the club")
    MAIL_RETRY = "mail.retry", _("e-mail that could not be sent tried again")
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
    PAIRING_UNDO = "pairing.undo", _("pairing correction undone")
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
    CLUB_SETTINGS = "club.settings", _("club settings changed")
    ADMIN_ADD = "admin.add", _("added in the admin")
    ADMIN_CHANGE = "admin.change", _("changed in the admin")
    ADMIN_DELETE = "admin.delete", _("deleted in the admin")


class AuditRecord(models.Model):
    """Who changed what, when: before and after, for every write that matters."""

    # The club whose trail it is: the season's, or the club of the work in hand.
    club = models.ForeignKey(
        "members.Club", on_delete=models.CASCADE, related_name="+", default=current_club_id,
        verbose_name=_("club"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("actor")
    )
    # No ``choices=``: a new audit action is a line in AuditAction, not a migration. The
    # value is checked in code (save), as Zulip checks its audit log's event types.
    action = models.CharField(_("action"), max_length=60)
    season = models.ForeignKey("competition.Season", on_delete=models.CASCADE, null=True, related_name="+", verbose_name=_("season"))
    evening = models.ForeignKey("competition.Evening", on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("evening"))
    player = models.ForeignKey("competition.Player", on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("player"))
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    objects = ScopedManager(club="club")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        AuditAction(self.action)  # ValueError for an action nobody defined
        if self._state.adding and self.season_id is not None and self.club_id is None:
            self.club_id = _season_club_id(self.season_id)
        super().save(*args, **kwargs)

    def get_action_display(self) -> str:
        try:
            return str(AuditAction(self.action).label)
        except ValueError:
            return self.action
