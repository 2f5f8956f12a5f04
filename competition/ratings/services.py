"""Writes for rating lists: an upload is stored, read (by a task), matched and shown; the
leader saves the matched ratings in one audited action, and may then set a season's
starting order from them (docs/rules.md 2 and 4.1: by rating on 1 September)."""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import (
    Competition,
    Game,
    Player,
    RatingImport,
    RatingImportStatus,
    RatingKind,
    Season,
)
from competition.season import services as competition_services
from core.pagecache import pages_changed
from core.permissions import Perm, require
from core.singleline import CONTROL
from members.clubs.context import per_club
from members.models import Actor, User, person

from .engine.errors import MISSING_COLUMN, NOT_READ, UNKNOWN_FORMAT, RatingListError
from .engine.lists import (
    CSV,
    CSV_REQUIRED,
    STANDARD,
    csv_header,
    detect,
    first_line,
    guess_mapping,
    list_date,
    list_kind,
    open_list,
    read_list,
    zip_member_name,
)
from .engine.matching import FIDE, KNSB, NUMBER_KINDS, Matching, MemberRef, match, wanted_for
from .selectors import import_list_date
from .texts import error_text

log = logging.getLogger(__name__)

IMPORT_PERM = Perm.MANAGE_CALENDAR  # the leader's pages: leader and administrator
START_ORDER_PERM = Perm.MANAGE_SEASON  # as players_order_by_rating


def upload_dir() -> Path:
    path = Path(settings.RATINGS_UPLOAD_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _forget_file(ri: RatingImport) -> None:
    if ri.path:
        Path(ri.path).unlink(missing_ok=True)
        ri.path = ""


def _refused(exc: RatingListError) -> ValidationError:
    return ValidationError(error_text(exc.code, exc.params), code=exc.code)


def _max_bytes() -> int:
    return int(settings.RATINGS_UNPACKED_MAX_BYTES)


def rating_import_create(
    *, actor: Actor, upload: Any, number_kind: str = FIDE, rating_kind: str = RatingKind.KNSB
) -> RatingImport:
    """Store an uploaded list and recognise its format, its kind (standard, rapid,
    blitz) and its month. A CSV waits for the leader's column mapping; a FIDE list is
    ready to be read (the caller queues the task). A refused file, or any failure, leaves
    nothing behind: no row, no file in the upload folder."""
    require(actor, IMPORT_PERM)
    limit = settings.RATINGS_UPLOAD_MAX_BYTES
    if upload.size > limit:
        raise ValidationError(
            _("The file is %(size)s MB; at most %(limit)s MB can be uploaded.")
            % {"size": upload.size // 2**20 + 1, "limit": limit // 2**20}
        )
    if number_kind not in NUMBER_KINDS:
        raise ValidationError(_("Choose which numbers the list carries."))
    if rating_kind not in RatingKind.values:
        raise ValidationError(_("Choose which ratings the list carries."))
    target = upload_dir() / uuid.uuid4().hex
    try:
        with open(target, "wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        return _create(actor=actor, upload=upload, target=target, number_kind=number_kind,
                       rating_kind=rating_kind)
    except RatingListError as exc:
        target.unlink(missing_ok=True)
        raise _refused(exc) from None
    except ValidationError:
        target.unlink(missing_ok=True)
        raise
    except Exception:
        target.unlink(missing_ok=True)
        log.exception("rating list upload %s could not be stored", upload.name)
        raise ValidationError(error_text(UNKNOWN_FORMAT, {}), code=UNKNOWN_FORMAT) from None


@transaction.atomic(durable=True)
def _create(*, actor: Actor, upload: Any, target: Path, number_kind: str,
            rating_kind: str) -> RatingImport:
    stream, _size = open_list(str(target), max_bytes=_max_bytes())
    with stream:
        head = stream.peek(8192)[:8192]  # type: ignore[attr-defined]
        fmt = detect(head)
        columns = csv_header(head) if fmt == CSV else []
    file_name = CONTROL.sub("", Path(upload.name or "").name)[:200] or "list"
    names = (file_name, zip_member_name(str(target)), first_line(head))
    ri = RatingImport.objects.create(
        created_by=person(actor),
        file_name=file_name,
        path=str(target),
        size=upload.size,
        format=fmt,
        number_kind=number_kind if fmt == CSV else FIDE,  # FIDE's lists carry FIDE ids
        rating_kind=rating_kind if fmt == CSV else RatingKind.FIDE,  # ... and FIDE ratings
        list_kind=list_kind(*names),
        list_date=list_date(*names),
        columns=columns,
        mapping=guess_mapping(columns) if fmt == CSV else {},
        status=RatingImportStatus.MAPPING if fmt == CSV else RatingImportStatus.READING,
        updated_at=timezone.now(),
    )
    audit.record(actor=actor, action=Action.RATINGS_UPLOAD,
                 after={"import": ri.pk, "file": ri.file_name, "format": fmt,
                        "kind": ri.list_kind})
    pages_changed()
    return ri


@transaction.atomic(durable=True)
def rating_import_set_mapping(
    *, actor: Actor, rating_import: RatingImport, mapping: dict[str, str], number_kind: str,
    rating_kind: str | None = None,
) -> RatingImport:
    """The leader's column mapping of a CSV list, and whether its ratings are KNSB or
    FIDE ratings; then the list can be read."""
    require(actor, IMPORT_PERM, of=rating_import)
    ri = RatingImport.objects.select_for_update().get(pk=rating_import.pk)
    if ri.status != RatingImportStatus.MAPPING:
        raise ValidationError(_("This list is not waiting for its columns."))
    if number_kind not in NUMBER_KINDS:
        raise ValidationError(_("Choose which numbers the list carries."))
    rating_kind = rating_kind or ri.rating_kind
    if rating_kind not in RatingKind.values:
        raise ValidationError(_("Choose which ratings the list carries."))
    for fld in CSV_REQUIRED:
        if not mapping.get(fld):
            raise ValidationError(error_text(MISSING_COLUMN, {"column": fld}), code=MISSING_COLUMN)
    unknown = [c for c in mapping.values() if c and c not in ri.columns]
    if unknown:
        raise ValidationError(error_text(MISSING_COLUMN, {"column": unknown[0]}))
    ri.mapping = {k: v for k, v in mapping.items() if v}
    ri.number_kind, ri.rating_kind = number_kind, rating_kind
    ri.status = RatingImportStatus.READING
    ri.progress = 0
    ri.updated_at = timezone.now()
    ri.save(update_fields=["mapping", "number_kind", "rating_kind", "status", "progress",
                           "updated_at"])
    return ri


def rating_fields(rating_kind: str) -> tuple[str, str]:
    """The member's rating and rating-date fields of a kind: KNSB and FIDE apart."""
    if rating_kind == RatingKind.FIDE:
        return "fide_rating", "fide_rating_date"
    return "rating", "rating_date"


def member_refs(rating_kind: str = RatingKind.KNSB) -> list[MemberRef]:
    """The active members, each with his rating of ``rating_kind`` (the list's)."""
    field = rating_fields(rating_kind)[0]
    return [
        MemberRef(pk, name, rating, knsb or "", fide or "")
        for pk, name, rating, knsb, fide in User.objects.members().values_list(
            "pk", "name", field, "knsb_number", "fide_id"
        )
    ]


def _error(code: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "params": params or {}}}


def rating_import_read(*, import_id: int) -> RatingImport | None:
    """Read a stored list (the task's work): stream it, keep what concerns the members,
    match, store the result for the preview. Progress is written as it goes, outside a
    transaction, so the page sees it. Safe to run twice: only a list still to be read is
    read. Every failure ends the import with its message, and the file is removed."""
    with transaction.atomic():
        ri = RatingImport.objects.select_for_update().filter(pk=import_id).first()
        if ri is None or ri.status != RatingImportStatus.READING:
            return ri
        if not ri.path:
            return _finish(import_id, _error(NOT_READ))
    last = [-1]

    def progress(fraction: float) -> None:
        percent = int(fraction * 100)
        if percent != last[0]:
            last[0] = percent
            RatingImport.objects.filter(pk=import_id).update(
                progress=min(percent, 100), updated_at=timezone.now())

    try:
        members = member_refs(ri.rating_kind)
        stream, size = open_list(ri.path, max_bytes=_max_bytes())
        with stream:
            entries = read_list(
                stream, wanted=wanted_for(members, ri.number_kind), fmt=ri.format,
                mapping=ri.mapping, total=size, progress=progress,
            )
        result: dict[str, Any] = {"matching": match(entries, members, ri.number_kind).to_json()}
    except RatingListError as exc:
        result = _error(exc.code, exc.params)
    except Exception:  # whatever it was, the import ends with a message (docs/trust.md)
        log.exception("rating list %s could not be read", import_id)
        result = _error(NOT_READ)
    return _finish(import_id, result)


def _finish(import_id: int, result: dict[str, Any]) -> RatingImport:
    with transaction.atomic():
        ri = RatingImport.objects.select_for_update().get(pk=import_id)
        if ri.status != RatingImportStatus.READING:
            return ri
        _forget_file(ri)
        if "error" in result:
            ri.status, ri.error = RatingImportStatus.FAILED, result["error"]
        else:
            ri.status, ri.matching = RatingImportStatus.READY, result["matching"]
        ri.progress = 100
        ri.updated_at = timezone.now()
        ri.save(update_fields=["path", "status", "error", "matching", "progress", "updated_at"])
    return ri


def rating_imports_end_stuck(*, now: dt.datetime | None = None) -> list[int]:
    """The catch-up (beat): an import "being read" whose reading has not moved for
    RATINGS_READING_STUCK_MINUTES lost its task (a worker killed, a broker lost); it
    ends with a message and its file goes. Files in the upload folder that no import
    holds (a process killed between writing and storing) go after a day. Each import
    ends in its club's context (``members.clubs.context.per_club``): the beat runs this as the
    platform."""
    now = now or timezone.now()
    ended = per_club(RatingImport, rating_imports_stuck(now=now), rating_imports_end)
    held = set(RatingImport.objects.exclude(path="").values_list("path", flat=True))
    old = now.timestamp() - 24 * 3600
    for path in upload_dir().iterdir():
        if str(path) not in held and path.is_file() and path.stat().st_mtime < old:
            path.unlink(missing_ok=True)
    return ended


def rating_imports_stuck(*, now: dt.datetime) -> list[int]:
    """The imports "being read" whose reading has not moved for
    RATINGS_READING_STUCK_MINUTES."""
    cutoff = now - dt.timedelta(minutes=settings.RATINGS_READING_STUCK_MINUTES)
    stuck = RatingImport.objects.filter(status=RatingImportStatus.READING).filter(
        models.Q(updated_at__lt=cutoff) | models.Q(updated_at__isnull=True, created_at__lt=cutoff))
    return list(stuck.order_by("pk").values_list("pk", flat=True))


def rating_imports_end(import_ids: list[int]) -> list[int]:
    """End the given stuck imports with a message; the ids of those that ended."""
    ended = []
    for import_id in import_ids:
        ri = _finish(import_id, _error(NOT_READ))
        if ri.status == RatingImportStatus.FAILED:
            ended.append(import_id)
    return ended


@transaction.atomic(durable=True)
def ratings_apply(
    *, actor: Actor, rating_import: RatingImport, confirmed: set[str] = frozenset(),  # type: ignore[assignment]
    accept_kind: bool = False,
) -> int:
    """Save the matched ratings with the list's date, and the confirmed lookalikes'
    ratings and numbers, in one action with one audit record: a FIDE list writes the
    members' FIDE ratings, a KNSB list their KNSB ratings. A rapid or blitz list is saved
    as the standard rating only when the leader says so (``accept_kind``). An entry
    without a rating leaves the member's rating as it is. Returns the number of members
    changed."""
    require(actor, IMPORT_PERM, of=rating_import)
    ri = RatingImport.objects.select_for_update().get(pk=rating_import.pk)
    if ri.status != RatingImportStatus.READY or not ri.matching:
        raise ValidationError(_("This list has been saved already or cannot be saved."))
    if ri.list_kind != STANDARD and not accept_kind:
        raise ValidationError(_(
            "This is a rapid or blitz list, not the standard rating list: tick that its "
            "ratings are to be saved as the standard rating, or upload the standard list."
        ))
    matching = Matching.from_json(ri.matching)
    number_field = "knsb_number" if matching.number_kind == KNSB else "fide_id"
    rating_field, date_field = rating_fields(ri.rating_kind)
    when = import_list_date(ri).isoformat()
    changes: dict[int, dict[str, Any]] = {}
    for m in matching.matched:
        changes[m.member_id] = {rating_field: m.new, date_field: when}
    chosen = [lk for lk in matching.lookalikes if lk.key in confirmed]
    if len({lk.member_id for lk in chosen}) != len(chosen):
        raise ValidationError(_("Confirm at most one list entry for each member."))
    for lk in chosen:
        changes[lk.member_id] = {rating_field: lk.new, date_field: when, number_field: lk.number}
    members = {u.pk: u for u in User.objects.select_for_update().filter(pk__in=changes)}
    taken = set(
        User.objects.exclude(pk__in=[lk.member_id for lk in chosen])
        .filter(**{f"{number_field}__in": [lk.number for lk in chosen]})
        .values_list(number_field, flat=True)
    )
    before, after = {}, {}
    for member_id, change in changes.items():
        member = members.get(member_id)
        if member is None:
            continue
        if change.get(number_field) in taken:
            raise ValidationError(
                _("Number %(n)s belongs to another member already.") % {"n": change[number_field]}
            )
        old = {k: _plain(getattr(member, k)) for k in change}
        if old == change:
            continue
        for k, v in change.items():
            setattr(member, k, dt.date.fromisoformat(v) if k == date_field else v)
        member.save(update_fields=list(change))
        before[str(member_id)], after[str(member_id)] = old, change
    ri.status = RatingImportStatus.APPLIED
    ri.applied_at = ri.updated_at = timezone.now()
    ri.save(update_fields=["status", "applied_at", "updated_at"])
    audit.record(actor=actor, action=Action.RATINGS_APPLY, before=before,
                 after={"import": ri.pk, "file": ri.file_name, "kind": ri.list_kind,
                        "members": after})
    pages_changed()
    return len(after)


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


@transaction.atomic(durable=True)
def season_start_from_ratings(*, actor: Actor, season: Season) -> list[Player]:
    """Each player's rating on 1 September becomes his member's current rating of the
    competition's kind (``Competition.start_rating``: KNSB or FIDE), and the starting
    order follows it (docs/rules.md 4.1). Only before the first game: afterwards the starting
    order decides standings that have been published."""
    require(actor, START_ORDER_PERM, of=season)
    season = Season.objects.select_for_update(of=("self",)).select_related("competition").get(pk=season.pk)
    kind = season.competition.start_rating
    if Game.objects.filter(evening__season=season).exists():
        raise ValidationError(
            _("The season has games already; its starting order is no longer set from ratings.")
        )
    players = list(Player.objects.select_for_update(of=("self",)).filter(season=season)
                   .select_related("member"))
    before, after = {}, {}
    for p in players:
        current = p.member.rating_of(kind)
        if p.rating != current:
            before[str(p.pk)], after[str(p.pk)] = p.rating, current
            p.rating = current
    Player.objects.bulk_update(players, ["rating"])
    audit.record(actor=actor, action=Action.RATINGS_SEASON_START, season=season,
                 before=before, after=after)
    pages_changed()
    with transaction.atomic():
        ordered = competition_services.players_order_by_rating(actor=actor, season=season)
    for half_id in season.halves.values_list("pk", flat=True):
        competition_services.schedule_recalculation(half_id)
    return ordered


@transaction.atomic(durable=True)
def competition_set_ratings(
    *, actor: Actor, competition: Competition, start_rating: str, trf_rating: str
) -> Competition:
    """Which of the members' ratings orders the competition's start, and which one its
    TRF export carries (KNSB or FIDE: different numbers). The leader's choice, as the
    rating lists he imports."""
    require(actor, IMPORT_PERM, of=competition)
    if start_rating not in RatingKind.values or trf_rating not in RatingKind.values:
        raise ValidationError(_("Choose the KNSB or the FIDE rating."))
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    before = {"start_rating": competition.start_rating, "trf_rating": competition.trf_rating}
    after = {"start_rating": start_rating, "trf_rating": trf_rating}
    if before == after:
        return competition
    competition.start_rating, competition.trf_rating = start_rating, trf_rating
    competition.save(update_fields=["start_rating", "trf_rating"])
    audit.record(actor=actor, action=Action.COMPETITION_RATINGS, before=before, after=after)
    pages_changed()
    return competition


@transaction.atomic(durable=True)
def trf_settings_set(
    *, actor: Actor, season: Season, city: str, arbiter: str, rating: str
) -> Any:
    """What the TRF files for rating carry of the club: the venue's city (022), the chief
    arbiter (102) and which rating (FIDE, or KNSB in NRS records). Audited."""
    from competition.models import Competition, RatingKind
    from core.singleline import is_single_line

    require(actor, IMPORT_PERM, of=season)
    city, arbiter = city.strip(), arbiter.strip()
    if not (is_single_line(city) and is_single_line(arbiter)):
        raise ValidationError(_("The city and the arbiter's name must be one line of text."))
    if rating not in RatingKind.values:
        raise ValidationError(_("Unknown rating."))
    competition = Competition.objects.select_for_update().get(season=season)
    before = {"venue_city": competition.venue_city, "chief_arbiter": competition.chief_arbiter,
              "trf_rating": competition.trf_rating}
    competition.venue_city, competition.chief_arbiter, competition.trf_rating = city, arbiter, rating
    competition.save(update_fields=["venue_city", "chief_arbiter", "trf_rating"])
    audit.record(actor=actor, action=Action.COMPETITION_PARAMETERS, season=season, before=before,
                 after={"venue_city": city, "chief_arbiter": arbiter, "trf_rating": rating})
    return competition
