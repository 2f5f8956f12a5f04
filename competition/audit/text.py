"""The audit trail in words: one function per ``Action`` turns a record (who, what,
before, after) into a sentence for the leader, in the language of the request
("Anna de Vries meldde zich af voor vr 4 dec, met bericht").

Records carry ids and codes; the names they need are read by the caller in one query
(``names``: player id -> name) so a page of records costs a fixed number of queries.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from django.utils import dateformat
from django.utils.translation import gettext as _

from competition.models import Attendance, AuditAction, AuditRecord, PlayerKind, Result, Tempo

Action = AuditAction
Describe = Callable[[AuditRecord, Mapping[int, str]], str]


def day(value: dt.date | None) -> str:
    """A date as the club writes it: "vr 4 dec" (Dutch abbreviations are lower case)."""
    # Translators: a short date, "vr 4 dec"; Django's date format characters.
    return dateformat.format(value, _("D j M")) if value else ""


def _who(record: AuditRecord) -> str:
    return record.actor.name if record.actor else _("The system")


def _name(record: AuditRecord, names: Mapping[int, str]) -> str:
    if record.player_id is None:
        return _("a player")
    return names.get(record.player_id) or _("a player")


def _evening(record: AuditRecord) -> str:
    return day(record.evening.date) if record.evening else ""


def _b(record: AuditRecord) -> dict[str, Any]:
    return record.before if isinstance(record.before, dict) else {}


def _a(record: AuditRecord) -> dict[str, Any]:
    return record.after if isinstance(record.after, dict) else {}


# --- Sign-ups ---------------------------------------------------------------------------


def _registration(record: AuditRecord, names: Mapping[int, str]) -> str:
    after = _a(record)
    status = after.get("status")
    own = record.actor is None or (
        record.player is not None and record.player.member_id == record.actor_id
    )
    values = {"actor": _who(record), "name": _name(record, names), "date": _evening(record)}
    if own:
        sentences: dict[str, str] = {
            Attendance.PRESENT: _("%(name)s signed up for %(date)s"),
            Attendance.ABSENT_WITH_NOTICE: _("%(name)s signed off for %(date)s, with notice"),
            Attendance.ABSENT_WITHOUT_NOTICE: _("%(name)s signed off for %(date)s, without notice"),
            Attendance.CLUB_DUTY: _("%(name)s signed off for %(date)s for club duty"),
        }
    else:
        sentences = {
            Attendance.PRESENT: _("%(actor)s signed %(name)s up for %(date)s"),
            Attendance.ABSENT_WITH_NOTICE: _("%(actor)s signed %(name)s off for %(date)s, with notice"),
            Attendance.ABSENT_WITHOUT_NOTICE: _("%(actor)s signed %(name)s off for %(date)s, without notice"),
            Attendance.CLUB_DUTY: _("%(actor)s signed %(name)s off for %(date)s for club duty"),
        }
    text = sentences.get(str(status), _("%(actor)s changed the sign-up of %(name)s for %(date)s")) % values
    if after.get("late"):
        text += " " + _("(after the deadline)")
    if after.get("force_majeure"):
        text += " " + _("(force majeure)")
    return text


# --- Results and the pairing ------------------------------------------------------------


def _result_label(code: Any) -> str:
    return str(dict(Result.choices).get(code, code)) if code else str(Result.PENDING.label)


def _result(record: AuditRecord, names: Mapping[int, str]) -> str:
    before, after = _b(record), _a(record)
    text = _("%(actor)s entered %(result)s on board %(board)s of %(date)s") % {
        "actor": _who(record), "result": _result_label(after.get("result")),
        "board": after.get("board", "?"), "date": _evening(record),
    }
    if before.get("result"):
        text += " " + _("(was %(before)s)") % {"before": _result_label(before["result"])}
    if after.get("note"):
        text += f": {after['note']}"
    return text


def _tempo_request(record: AuditRecord, names: Mapping[int, str]) -> str:
    return _("%(name)s asked for the alternative tempo on board %(board)s of %(date)s") % {
        "name": _name(record, names), "board": _a(record).get("board", "?"), "date": _evening(record),
    }


def _tempo_decide(record: AuditRecord, names: Mapping[int, str]) -> str:
    approved = _a(record).get("tempo") == Tempo.APPROVED
    sentence = (_("%(actor)s approved the alternative tempo on board %(board)s of %(date)s")
                if approved else
                _("%(actor)s refused the alternative tempo on board %(board)s of %(date)s"))
    return sentence % {"actor": _who(record), "board": _a(record).get("board", "?"),
                       "date": _evening(record)}


def _evening_sentence(sentence: str) -> Describe:
    def describe(record: AuditRecord, names: Mapping[int, str]) -> str:
        return sentence % {"actor": _who(record), "date": _evening(record)}
    return describe


# --- Members and the starting order -------------------------------------------------------

FIELDS = {
    "name": lambda: _("name"), "email": lambda: _("e-mail address"),
    "rating": lambda: _("rating"), "knsb_number": lambda: _("KNSB number"),
    "kind": lambda: _("kind"), "start": lambda: _("starting position"),
}


def _value(key: str, value: Any) -> str:
    if value in (None, ""):
        return "–"
    if key == "kind":
        return str(dict(PlayerKind.choices).get(value, value))
    return str(value)


def _member_change(record: AuditRecord, names: Mapping[int, str]) -> str:
    before, after = _b(record), _a(record)
    changes = ", ".join(
        f"{FIELDS[key]() if key in FIELDS else key} {_value(key, before.get(key))} → {_value(key, after[key])}"
        for key in after
    )
    return _("%(actor)s changed %(name)s: %(changes)s") % {
        "actor": _who(record), "name": _name(record, names), "changes": changes,
    }


def _member_add(record: AuditRecord, names: Mapping[int, str]) -> str:
    after = _a(record)
    return _("%(actor)s added %(name)s as a %(kind)s") % {
        "actor": _who(record), "name": after.get("name") or _name(record, names),
        "kind": _value("kind", after.get("kind")),
    }


def _member_invite(record: AuditRecord, names: Mapping[int, str]) -> str:
    return _("%(actor)s sent %(name)s an invitation to %(email)s") % {
        "actor": _who(record), "name": _a(record).get("name") or _name(record, names),
        "email": _a(record).get("email", ""),
    }


def _mail_retry(record: AuditRecord, names: Mapping[int, str]) -> str:
    return _("%(actor)s had the e-mail to %(name)s that could not be sent tried again") % {
        "actor": _who(record), "name": _a(record).get("name") or _name(record, names),
    }


def _player_kind(record: AuditRecord, names: Mapping[int, str]) -> str:
    return _("%(actor)s made %(name)s a %(kind)s") % {
        "actor": _who(record), "name": _name(record, names),
        "kind": _value("kind", _a(record).get("kind")),
    }


def _player_start(record: AuditRecord, names: Mapping[int, str]) -> str:
    return _("%(actor)s moved %(name)s from starting position %(before)s to %(after)s") % {
        "actor": _who(record), "name": _name(record, names),
        "before": _b(record).get("start", "?"), "after": _a(record).get("start", "?"),
    }


def _player_add(record: AuditRecord, names: Mapping[int, str]) -> str:
    return _("%(actor)s added %(name)s to the season as a %(kind)s") % {
        "actor": _who(record), "name": _name(record, names),
        "kind": _value("kind", _a(record).get("kind")),
    }


def _eligibility(record: AuditRecord, names: Mapping[int, str]) -> str:
    after = _a(record)
    sentence = (_("%(actor)s made %(name)s eligible for prizes: %(reason)s") if after.get("eligible")
                else _("%(actor)s made %(name)s not eligible for prizes: %(reason)s"))
    return sentence % {"actor": _who(record), "name": _name(record, names),
                       "reason": after.get("reason", "")}


def _eligibility_clear(record: AuditRecord, names: Mapping[int, str]) -> str:
    return _("%(actor)s cleared the prize eligibility override of %(name)s") % {
        "actor": _who(record), "name": _name(record, names),
    }


def _points(value: Any) -> str:
    """'1.5' -> '1½', as the club writes a score."""
    if value in (None, ""):
        return "…"
    whole, _sep, rest = str(value).partition(".")
    half = rest.rstrip("0") == "5"
    return ("" if half and whole == "0" else whole) + ("½" if half else "")


def _event_score(side: Mapping[str, Any]) -> str:
    text = f"{_points(side.get('white'))}-{_points(side.get('black'))}"
    return text + (" " + _("(forfeit)") if side.get("forfeit") else "")


def _event_correct(record: AuditRecord, names: Mapping[int, str]) -> str:
    before, after = _b(record), _a(record)
    text = _("%(actor)s corrected board %(board)s of round %(round)s of %(event)s "
             "(%(white)s – %(black)s): %(before)s → %(after)s") % {
        "actor": _who(record), "board": after.get("board", "?"), "round": after.get("round", "?"),
        "event": after.get("event_name", ""), "white": after.get("white_name", ""),
        "black": after.get("black_name", ""), "before": _event_score(before), "after": _event_score(after),
    }
    if after.get("later_rounds"):
        text += "; " + _("later rounds' pairings kept: %(rounds)s") % {
            "rounds": ", ".join(map(str, after["later_rounds"]))}
    return text


def _event_result(record: AuditRecord, names: Mapping[int, str]) -> str:
    after = _a(record)
    return _("%(actor)s entered %(result)s on board %(board)s of round %(round)s of %(event)s "
             "(%(white)s – %(black)s)") % {
        "actor": _who(record), "result": _event_score(after), "board": after.get("board", "?"),
        "round": after.get("round", "?"), "event": after.get("event_name", ""),
        "white": after.get("white_name", ""), "black": after.get("black_name", ""),
    }


def _pairing_player(sentence: str) -> Describe:
    """Adding or removing a player names him (the record's player, or the name it kept)."""
    def describe(record: AuditRecord, names: Mapping[int, str]) -> str:
        name = names.get(record.player_id or 0) or _a(record).get("name") or _("a player")
        return sentence % {"actor": _who(record), "name": name, "date": _evening(record)}
    return describe


def _registration_decided(sentence: str) -> Describe:
    def describe(record: AuditRecord, names: Mapping[int, str]) -> str:
        return sentence % {"actor": _who(record), "name": _a(record).get("name", "")}
    return describe


def _own_details(record: AuditRecord, names: Mapping[int, str]) -> str:
    fields = {"phone": _("phone"), "public_as": _("how the public pages show him"),
              "pairing_mail": _("pairing e-mails"), "notice_mail": _("notices")}
    changed = ", ".join(str(fields.get(k, k)) for k in _a(record) if k != "member")
    return _("%(actor)s changed his own details: %(fields)s") % {"actor": _who(record), "fields": changed}


def _labelled(record: AuditRecord, names: Mapping[int, str]) -> str:
    """Actions the leader rarely meets: who, and the action's own label; the evening or
    player it concerns, if any."""
    text = _("%(actor)s: %(what)s") % {"actor": _who(record), "what": record.get_action_display()}
    if record.evening_id is not None:
        text += f", {_evening(record)}"
    if record.player_id is not None:
        text += f", {_name(record, names)}"
    return text


SENTENCES: dict[str, Describe] = {
    Action.REGISTRATION_SET: _registration,
    Action.GAME_RESULT: _result,
    Action.GAME_TEMPO_REQUEST: _tempo_request,
    Action.GAME_TEMPO_DECIDE: _tempo_decide,
    Action.PAIRING_PUBLISH: lambda r, n: _evening_sentence(_("%(actor)s published the pairing of %(date)s"))(r, n),
    Action.PAIRING_REPAIR: lambda r, n: _evening_sentence(_("%(actor)s paired %(date)s again"))(r, n),
    Action.PAIRING_SWAP_COLOURS: lambda r, n: _evening_sentence(_("%(actor)s swapped colours on %(date)s"))(r, n),
    Action.PAIRING_SWAP_OPPONENTS: lambda r, n: _evening_sentence(_("%(actor)s swapped opponents on %(date)s"))(r, n),
    Action.PAIRING_UNDO: lambda r, n: _evening_sentence(_("%(actor)s undid a pairing correction on %(date)s"))(r, n),
    Action.PAIRING_REMOVE_PLAYER: lambda r, n: _pairing_player(
        _("%(actor)s removed %(name)s from the pairing of %(date)s"))(r, n),
    Action.PAIRING_ADD_PLAYER: lambda r, n: _pairing_player(
        _("%(actor)s added %(name)s to the pairing of %(date)s"))(r, n),
    Action.EVENT_GAME_RESULT: _event_result,
    Action.MEMBER_ACCEPT: lambda r, n: _registration_decided(
        _("%(actor)s accepted the registration of %(name)s"))(r, n),
    Action.MEMBER_REFUSE: lambda r, n: _registration_decided(
        _("%(actor)s refused the registration of %(name)s"))(r, n),
    Action.MEMBER_JOIN: lambda r, n: _registration_decided(
        _("%(actor)s accepted the invitation to join the club"))(r, n),
    Action.MEMBER_JOIN_DECLINE: lambda r, n: _registration_decided(
        _("%(actor)s declined the invitation to join the club"))(r, n),
    Action.MEMBER_REMOVE: lambda r, n: _registration_decided(
        _("%(actor)s removed the account of %(name)s (left the club; results kept)"))(r, n),
    Action.MEMBER_LEAVE: lambda r, n: _registration_decided(
        _("%(actor)s ended the membership of %(name)s (results kept)"))(r, n),
    Action.MEMBER_OWN_DETAILS: _own_details,
    Action.EVENING_UPDATE: lambda r, n: _evening_sentence(_("%(actor)s changed the evening of %(date)s"))(r, n),
    Action.MEMBER_ADD: _member_add,
    Action.MEMBER_CHANGE: _member_change,
    Action.MEMBER_INVITE: _member_invite,
    Action.MAIL_RETRY: _mail_retry,
    Action.PLAYER_ADD: _player_add,
    Action.PLAYER_KIND: _player_kind,
    Action.PLAYER_START: _player_start,
    Action.ELIGIBILITY_OVERRIDE: _eligibility,
    Action.ELIGIBILITY_OVERRIDE_CLEAR: _eligibility_clear,
    Action.EVENT_RESULT_CORRECT: _event_correct,
}
for _action in Action:
    SENTENCES.setdefault(_action.value, _labelled)


def sentence(record: AuditRecord, names: Mapping[int, str]) -> str:
    text = SENTENCES.get(record.action, _labelled)(record, names)
    return text[:1].upper() + text[1:]
