"""What the club keeps about a member, as one JSON document he downloads himself (AVG,
right of access and portability): his account, his seasons, sign-ups, games, club duty
requests, events, prizes and the audit lines about him. A fixed number of queries.

It is the club's document: a member of two clubs downloads at each club's address what
that club keeps (his account, which is national, in both), never the other club's rows
or its name."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from competition.models import (
    AuditRecord,
    ClubDutyRequest,
    Game,
    Player,
    Prize,
    Registration,
    SwissEntrant,
    SwissGame,
)
from members.clubs.context import current_club
from members.models import User
from members.names import public_name

ACCOUNT_FIELDS = (
    "email", "name", "phone", "public_as", "pairing_mail", "notice_mail", "rating",
    "rating_date", "knsb_number", "fide_id", "fide_rating", "fide_rating_date", "federation",
    "sex", "title", "birth_date", "date_joined", "last_login",
)


def _value(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if value is None or isinstance(value, (bool, int, str, list, dict)):
        return value
    return str(value)


def _game(game: Game, mine: set[int]) -> dict[str, Any]:
    white = game.white_id in mine
    opponent = game.black if white else game.white
    return {"date": game.evening.date.isoformat(), "board": game.board,
            "colour": "white" if white else "black", "opponent": public_name(opponent.member),
            "result": game.result, "note": game.note, "tempo": game.tempo}


def _memberships(member: User) -> Any:
    """His role in the current club (outside any club, in every club)."""
    club = current_club()
    return member.memberships.filter(club=club) if club is not None else member.memberships.all()


def member_data(member: User) -> dict[str, Any]:
    players = list(Player.objects.filter(member=member).select_related("season"))
    mine = {p.pk for p in players}
    games = (Game.objects.filter(Q(white__in=mine) | Q(black__in=mine))
             .select_related("evening", "white__member", "black__member").order_by("evening__date"))
    entries = list(SwissEntrant.objects.filter(member=member).select_related("event"))
    entry_ids = {e.pk for e in entries}
    swiss_games = (SwissGame.objects.filter(Q(white__in=entry_ids) | Q(black__in=entry_ids))
                   .select_related("round__event").order_by("round__event__date", "round__number"))
    audit = (AuditRecord.objects.filter(Q(actor=member) | Q(player__in=mine))
             .order_by("at"))
    return {
        "account": {field: _value(getattr(member, field)) for field in ACCOUNT_FIELDS}
        | {"public_name": public_name(member),
           "roles": sorted(f"{club}: {role}" for club, role in
                           _memberships(member).values_list("club__name", "role"))},
        "seasons": [{"season": p.season.name, "kind": p.kind, "start": p.start,
                     "rating_1_september": p.rating} for p in players],
        "sign_ups": [{"date": r.evening.date.isoformat(), "status": r.status,
                      "changed_at": r.changed_at.isoformat()}
                     for r in Registration.objects.filter(player__in=mine)
                     .select_related("evening").order_by("evening__date")],
        "games": [_game(g, mine) for g in games],
        "club_duty_requests": [{"date": d.evening.date.isoformat(), "state": d.state, "note": d.note}
                               for d in ClubDutyRequest.objects.filter(player__in=mine)
                               .select_related("evening").order_by("evening__date")],
        "events": [{"event": e.event.name, "date": _value(e.event.date), "number": e.number,
                    "rating": e.rating} for e in entries],
        "event_games": [{"event": g.round.event.name, "round": g.round.number, "board": g.board,
                         "colour": "white" if g.white_id in entry_ids else "black",
                         "white_points": _value(g.white_points), "black_points": _value(g.black_points)}
                        for g in swiss_games],
        "prizes": [{"season": p.season.name, "prize": p.kind}
                   for p in Prize.objects.filter(member=member).select_related("season")],
        "audit": [{"at": r.at.isoformat(), "action": r.action, "by_himself": r.actor_id == member.pk}
                  for r in audit],
    }
