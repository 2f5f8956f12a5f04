"""Writes for rating lists: an upload is stored, read (by a task), matched and shown; the
leader saves the matched ratings in one audited action, and may then set a season's
starting order from them (RULES.md 2 and 4.1: by rating on 1 September)."""

from __future__ import annotations

import logging
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition import services as competition_services
from competition.audit import Action
from competition.models import Game, Player, RatingImport, RatingImportStatus, Season
from competition.pagecache import pages_changed
from members.models import User
from members.permissions import Actor, person, require

from .engine.errors import MISSING_COLUMN, UNKNOWN_FORMAT, RatingListError
from .engine.lists import CSV, CSV_REQUIRED, csv_header, detect, guess_mapping, open_list, read_list
from .engine.matching import FIDE, KNSB, NUMBER_KINDS, Matching, MemberRef, match, wanted_for
from .texts import error_text

log = logging.getLogger(__name__)

IMPORT_PERM = "competition.manage_calendar"  # the leader's pages: leader and administrator
START_ORDER_PERM = "competition.manage_season"  # as players_order_by_rating


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


@transaction.atomic(durable=True)
def rating_import_create(*, actor: Actor, upload: Any, number_kind: str = FIDE) -> RatingImport:
    """Store an uploaded list and recognise its format. A CSV waits for the leader's
    column mapping; a FIDE list is ready to be read (the caller queues the task).
    A refused file leaves nothing behind."""
    require(actor, IMPORT_PERM)
    limit = settings.RATINGS_UPLOAD_MAX_BYTES
    if upload.size > limit:
        raise ValidationError(
            _("The file is %(size)s MB; at most %(limit)s MB can be uploaded.")
            % {"size": upload.size // 2**20 + 1, "limit": limit // 2**20}
        )
    if number_kind not in NUMBER_KINDS:
        raise ValidationError(_("Choose which numbers the list carries."))
    target = upload_dir() / uuid.uuid4().hex
    with open(target, "wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    try:
        stream, _size = open_list(str(target))
        with stream:
            head = stream.peek(8192)[:8192]  # type: ignore[attr-defined]
            fmt = detect(head)
            columns = csv_header(head) if fmt == CSV else []
    except RatingListError as exc:
        target.unlink(missing_ok=True)
        raise _refused(exc) from None
    ri = RatingImport.objects.create(
        created_by=person(actor),
        file_name=Path(upload.name).name[:200],
        path=str(target),
        size=upload.size,
        format=fmt,
        number_kind=number_kind if fmt == CSV else FIDE,  # FIDE's lists carry FIDE ids
        columns=columns,
        mapping=guess_mapping(columns) if fmt == CSV else {},
        status=RatingImportStatus.MAPPING if fmt == CSV else RatingImportStatus.READING,
    )
    audit.record(actor=actor, action=Action.RATINGS_UPLOAD,
                 after={"import": ri.pk, "file": ri.file_name, "format": fmt})
    pages_changed()
    return ri


@transaction.atomic(durable=True)
def rating_import_set_mapping(
    *, actor: Actor, rating_import: RatingImport, mapping: dict[str, str], number_kind: str
) -> RatingImport:
    """The leader's column mapping of a CSV list; then the list can be read."""
    require(actor, IMPORT_PERM)
    ri = RatingImport.objects.select_for_update().get(pk=rating_import.pk)
    if ri.status != RatingImportStatus.MAPPING:
        raise ValidationError(_("This list is not waiting for its columns."))
    if number_kind not in NUMBER_KINDS:
        raise ValidationError(_("Choose which numbers the list carries."))
    for fld in CSV_REQUIRED:
        if not mapping.get(fld):
            raise ValidationError(error_text(MISSING_COLUMN, {"column": fld}), code=MISSING_COLUMN)
    unknown = [c for c in mapping.values() if c and c not in ri.columns]
    if unknown:
        raise ValidationError(error_text(MISSING_COLUMN, {"column": unknown[0]}))
    ri.mapping = {k: v for k, v in mapping.items() if v}
    ri.number_kind = number_kind
    ri.status = RatingImportStatus.READING
    ri.progress = 0
    ri.save(update_fields=["mapping", "number_kind", "status", "progress"])
    return ri


def member_refs() -> list[MemberRef]:
    return [
        MemberRef(pk, name, rating, knsb or "", fide or "")
        for pk, name, rating, knsb, fide in User.objects.members().values_list(
            "pk", "name", "rating", "knsb_number", "fide_id"
        )
    ]


def rating_import_read(*, import_id: int) -> RatingImport | None:
    """Read a stored list (the task's work): stream it, keep what concerns the members,
    match, store the result for the preview. Progress is written as it goes, outside a
    transaction, so the page sees it. Safe to run twice: only a list still to be read is
    read."""
    with transaction.atomic():
        ri = RatingImport.objects.select_for_update().filter(pk=import_id).first()
        if ri is None or ri.status != RatingImportStatus.READING or not ri.path:
            return ri
    members = member_refs()
    last = [-1]

    def progress(fraction: float) -> None:
        percent = int(fraction * 100)
        if percent != last[0]:
            last[0] = percent
            RatingImport.objects.filter(pk=import_id).update(progress=min(percent, 100))

    try:
        stream, size = open_list(ri.path)
        with stream:
            entries = read_list(
                stream, wanted=wanted_for(members, ri.number_kind), fmt=ri.format,
                mapping=ri.mapping, total=size, progress=progress,
            )
        result: dict[str, Any] = {"matching": match(entries, members, ri.number_kind).to_json()}
    except RatingListError as exc:
        result = {"error": {"code": exc.code, "params": exc.params}}
    except OSError:
        log.exception("rating list %s could not be read", import_id)
        result = {"error": {"code": UNKNOWN_FORMAT, "params": {}}}
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
        ri.save(update_fields=["path", "status", "error", "matching", "progress"])
    return ri


@transaction.atomic(durable=True)
def ratings_apply(
    *, actor: Actor, rating_import: RatingImport, confirmed: set[str] = frozenset()  # type: ignore[assignment]
) -> int:
    """Save the matched ratings, and the confirmed lookalikes' ratings and numbers, in
    one action with one audit record. Returns the number of members changed."""
    require(actor, IMPORT_PERM)
    ri = RatingImport.objects.select_for_update().get(pk=rating_import.pk)
    if ri.status != RatingImportStatus.READY or not ri.matching:
        raise ValidationError(_("This list has been saved already or cannot be saved."))
    matching = Matching.from_json(ri.matching)
    number_field = "knsb_number" if matching.number_kind == KNSB else "fide_id"
    changes: dict[int, dict[str, Any]] = {}
    for m in matching.matched:
        changes[m.member_id] = {"rating": m.new}
    chosen = [lk for lk in matching.lookalikes if lk.key in confirmed]
    if len({lk.member_id for lk in chosen}) != len(chosen):
        raise ValidationError(_("Confirm at most one list entry for each member."))
    for lk in chosen:
        changes[lk.member_id] = {"rating": lk.new, number_field: lk.number}
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
        old = {k: getattr(member, k) for k in change}
        if old == change:
            continue
        for k, v in change.items():
            setattr(member, k, v)
        member.save(update_fields=list(change))
        before[str(member_id)], after[str(member_id)] = old, change
    ri.status = RatingImportStatus.APPLIED
    ri.applied_at = timezone.now()
    ri.save(update_fields=["status", "applied_at"])
    audit.record(actor=actor, action=Action.RATINGS_APPLY, before=before,
                 after={"import": ri.pk, "file": ri.file_name, "members": after})
    pages_changed()
    return len(after)


@transaction.atomic(durable=True)
def season_start_from_ratings(*, actor: Actor, season: Season) -> list[Player]:
    """Each player's rating on 1 September becomes his member's current rating, and the
    starting order follows it (RULES.md 4.1). Only before the first game: afterwards the
    starting order decides standings that have been published."""
    require(actor, START_ORDER_PERM)
    season = Season.objects.select_for_update().get(pk=season.pk)
    if Game.objects.filter(evening__season=season).exists():
        raise ValidationError(
            _("The season has games already; its starting order is no longer set from ratings.")
        )
    players = list(Player.objects.select_for_update(of=("self",)).filter(season=season)
                   .select_related("member"))
    before, after = {}, {}
    for p in players:
        if p.rating != p.member.rating:
            before[str(p.pk)], after[str(p.pk)] = p.rating, p.member.rating
            p.rating = p.member.rating
    Player.objects.bulk_update(players, ["rating"])
    audit.record(actor=actor, action=Action.RATINGS_SEASON_START, season=season,
                 before=before, after=after)
    pages_changed()
    with transaction.atomic():
        ordered = competition_services.players_order_by_rating(actor=actor, season=season)
    for half_id in season.halves.values_list("pk", flat=True):
        competition_services.schedule_recalculation(half_id)
    return ordered
