"""One club's copy: what ``manage.py backup --club`` writes and ``manage.py restore`` loads
(docs/operations.md, "Backups").

A club's backup holds the club's rows and nothing of another club's: its ``Club`` row,
host names, memberships and pending requests to join (registrations at its address,
invitations of existing accounts), the accounts of its members (accounts are national: the
``User`` rows and their e-mail addresses, never another club's membership) and of anyone
its rows name (an operator who acted in it), every row of its seasons and of everything
under them, its audit trail, rating imports, website settings and e-mails; and the role
groups (the platform's names, no club's data). On an installation of one club the
accounts that belong to no club (a registration not yet accepted) are that club's too.

A restore puts the club into an installation beside the clubs there, touching none of
them: every row is inserted (never an update of a row that is there), under its own id
when that id is free in its table and under a new one otherwise (every reference in the
copy follows). A restore is data, never rights (``copycheck``): every row is checked as
the forms check it; no account gets staff, superuser, groups or permissions from the file;
an account whose e-mail address exists already is that person's, used as it is (his
password, addresses, name and ratings stay the installation's) and linked to the restored
club only when the operator confirms it; the copy's e-mails still to go out are held back
unless the operator releases them, and go out from the club's address, never the file's.
It is refused, and nothing saved, when the club's address or one of its host names is
taken, when an account of the copy is new but its address belongs to another account (one
of his other addresses: the two cannot be told apart), when an existing account is not
confirmed, or when a row is not as the forms would take it or names anything outside the
copy's club. An empty installation (a new, migrated database: no account, season, host
name or e-mail, at most one club) takes the copy whole, every id kept, in place of the
empty club the migration made."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.management.color import no_style
from django.db import DatabaseError, connection, models, transaction

from competition.management.copycheck import (
    CLUB_APPS,
    USER,
    CopyRefused,
    copy_models,
    own_hosts,
    refusal,
    refuse_other_tables,
    row_errors,
    without_rights,
)
from competition.models import Season
from core.jobs import enqueue_on_commit
from core.mail import SEND_TASK
from core.models import Mail, MailState
from core.pagecache import pages_changed
from members.clubs.addresses import club_sender
from members.clubs.context import club_context, platform_context
from members.clubs.roles import ensure_groups
from members.models import Club, ClubDomain, JoinRequest, Membership, User
from pairing.models import NoticeState, PairingNotice


class RestoreRefused(Exception):
    """The copy cannot go into this installation; nothing was saved."""


# --- The backup ------------------------------------------------------------------------


def _club_models() -> list[type[models.Model]]:
    return [m for app in CLUB_APPS for m in apps.get_app_config(app).get_models()]


def _user_references(querysets: list[models.QuerySet]) -> set[int]:  # type: ignore[type-arg]
    """The accounts the club's rows name (its players, who entered a result, ...)."""
    ids: set[int] = set()
    for queryset in querysets:
        for field in queryset.model._meta.concrete_fields:
            if field.is_relation and field.related_model is User:
                ids.update(v for v in queryset.values_list(field.attname, flat=True) if v is not None)
    return ids


def club_backup(club: Club) -> str:
    """The club's rows as a JSON fixture (Django's format, ids and microseconds kept;
    references to accounts by e-mail address)."""
    with club_context(club):  # every club-scoped query is the club's; the row security too
        rows = [model._default_manager.order_by("pk") for model in _club_models()]
        mails = Mail.objects.filter(club=club).order_by("pk")
        member_ids = set(Membership.objects.filter(club=club).values_list("user_id", flat=True))
        # Its pending requests to join: a registration at its address, an invitation of an
        # account (never another club's requests, nor that account's other clubs).
        joins = JoinRequest.objects.filter(club=club).order_by("pk")
        user_ids = member_ids | _user_references([*rows, mails, joins])
        users = User.objects.filter(pk__in=user_ids)
        if Club.objects.count() == 1:  # nobody's accounts are the one club's
            users = users | User.objects.filter(memberships__isnull=True)
        platform = [
            Group.objects.order_by("pk"),
            users.distinct().order_by("pk"),
            Club.objects.filter(pk=club.pk),
            ClubDomain.objects.filter(club=club).order_by("pk"),
            Membership.objects.filter(club=club).order_by("pk"),
            EmailAddress.objects.filter(user__in=users).order_by("pk"),
            joins,
        ]
        querysets = [*platform, *rows, mails]
        by_model = {qs.model: qs for qs in querysets}
        return serializers.serialize(
            "exactjson", _chain(by_model[model] for model in in_dependency_order(list(by_model))),
            use_natural_foreign_keys=True, indent=1,
        )


def in_dependency_order(wanted: list[type[models.Model]]) -> list[type[models.Model]]:
    """Every model after the models its foreign keys point to (a parent's rows before its
    children's: on PostgreSQL a child's ``club_id`` is copied from its parent row as it is
    inserted, members/clubs/rls.py), otherwise in the order given."""
    done: list[type[models.Model]] = []
    left = list(wanted)
    while left:
        for model in left:
            parents = {f.related_model for f in model._meta.concrete_fields if f.is_relation}
            if not (parents - {model}) & set(left):
                break
        else:
            model = left[0]  # a cycle: nullable references, as given
        done.append(model)
        left.remove(model)
    return done


def _chain(querysets: Any) -> Any:
    for queryset in querysets:
        yield from queryset.iterator()


# --- The restore -----------------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    """What a restore did, for the operator to read."""

    club: Club
    # Accounts the copy gave platform rights (staff, superuser, groups, permissions): left out.
    rights_dropped: tuple[str, ...] = ()
    # Accounts that were here already and that the operator confirmed: now members of the club.
    linked: tuple[str, ...] = ()
    # The copy's e-mails that were still to go out: held back (never sent), or released.
    held: int = 0
    released: int = 0


def installation_is_empty() -> bool:
    """A new, migrated database: at most the one club the migration made, with nothing in
    it or of it (no account, season, host name or e-mail)."""
    return (Club.objects.count() <= 1 and not User.objects.exists() and not Season.objects.exists()
            and not ClubDomain.objects.exists() and not Mail.objects.exists())


def club_restore(objects: list[dict[str, Any]], *, link_existing: Iterable[str] = (),
                 release_mail: bool = False) -> Restored:
    """Load a club's copy (``club_backup``'s rows, read as JSON) into the installation.

    Data, never rights (``copycheck``): no account gets the platform's rights from the
    file; an account that exists here is linked to the restored club only when the
    operator names it in ``link_existing`` (its password and addresses stay as they are);
    the copy's e-mails not sent yet are held back unless ``release_mail`` (and go out, if
    at all, from the club's address, never the file's). Raises ``RestoreRefused`` (nothing
    saved) when it cannot go in beside the clubs there."""
    try:
        refuse_other_tables(objects)
        objects, dropped = without_rights(objects)
        with platform_context(), transaction.atomic():
            empty = installation_is_empty()
            clubs = [o for o in objects if o["model"] == "members.club"]
            if not clubs or (len(clubs) > 1 and not empty):
                raise RestoreRefused(
                    f"the copy holds {len(clubs)} clubs: a club's backup holds one "
                    "(a copy of a whole installation goes only into an empty database)")
            if empty:
                Club.objects.all().delete()  # the migration's empty club: the copy's takes its place
            ensure_groups()  # the role groups are the installation's, never the file's
            loader = _Loader(objects, empty, {e.strip().lower() for e in link_existing})
            loader.check()
            loader.load()
            restored = list(Club.objects.filter(pk__in=loader.ids["members.club"].values()))
            loader.confine(restored)
            held, released = _outbox(loader, restored, release_mail)
            pages_changed()  # nothing cached before the restore is shown after it
            club = Club.objects.get(pk=loader.new_pk("members.club", clubs[0]["pk"]))
    except CopyRefused as exc:
        raise RestoreRefused(str(exc)) from exc
    return Restored(club=club, rights_dropped=tuple(sorted(dropped)), linked=tuple(loader.linked),
                    held=held, released=released)


def _outbox(loader: _Loader, clubs: list[Club], release: bool) -> tuple[int, int]:
    """The copy's e-mails: sent (if at all) as the club's, from its address (From and
    Reply-To of the club's settings, never the row's); those still to go out (pending, or
    given up and so on the leader's list to try again) held back, never sent
    (``superseded``), unless the operator releases them. Returns (held, released)."""
    by_pk = {c.pk: c for c in clubs}
    mails = Mail.objects.filter(pk__in=list(loader.ids["core.mail"].values()))
    for club_id in set(mails.values_list("club_id", flat=True)):
        from_email, reply_to = club_sender(by_pk[club_id])
        mails.filter(club_id=club_id).update(from_email=from_email, reply_to=reply_to)
    waiting_mails = mails.filter(state__in=[MailState.PENDING, MailState.FAILED])
    waiting_notices = PairingNotice.objects.filter(
        pk__in=list(loader.ids["pairing.pairingnotice"].values()),
        state__in=[NoticeState.PENDING, NoticeState.FAILED])
    if release:  # the pending ones go out; the given-up ones stay on the leader's list
        pending = list(mails.filter(state=MailState.PENDING).values_list("pk", flat=True))
        if pending:  # the pairing e-mails go with the outbox's catch-up job
            enqueue_on_commit(SEND_TASK, pending)
        return 0, len(pending) + waiting_notices.filter(state=NoticeState.PENDING).count()
    count = waiting_mails.count() + waiting_notices.count()
    held = "held back by the restore"
    waiting_mails.update(state=MailState.SUPERSEDED, claimed_at=None, last_error=held)
    waiting_notices.update(state=NoticeState.SUPERSEDED, claimed_at=None, last_error=held)
    return count, 0


class _Loader:
    def __init__(self, objects: list[dict[str, Any]], empty: bool, link_existing: set[str]) -> None:
        self.objects = objects
        self.empty = empty
        self.link_existing = link_existing
        self.models = copy_models()
        self.ids: dict[str, dict[Any, Any]] = defaultdict(dict)  # label → old id → new id
        self.reused: set[tuple[str, Any]] = set()  # rows that are the installation's own
        self.user_by_email: dict[str, int] = {}
        self.reused_emails: set[str] = set()  # the accounts that are there already
        self.linked: list[str] = []
        self.inserted: dict[type[models.Model], list[Any]] = defaultdict(list)

    def of(self, label: str) -> list[dict[str, Any]]:
        return [o for o in self.objects if o["model"] == label]

    def new_pk(self, label: str, old: Any) -> Any:
        return self.ids[label][old]

    # The installation's rows that the copy's are: accounts by e-mail.
    def check(self) -> None:
        for o in self.of("members.club"):
            slug = o["fields"].get("slug")
            if Club.objects.filter(slug=slug).exists():
                raise RestoreRefused(f"a club with the address {slug!r} exists already here")
        for o in self.of("members.clubdomain"):
            host = o["fields"].get("host")
            if ClubDomain.objects.filter(host=host).exists():
                raise RestoreRefused(f"the host name {host!r} is another club's here")
        addresses = defaultdict(list)
        for o in self.of("account.emailaddress"):
            addresses[_email_of(o["fields"].get("user"))].append(str(o["fields"].get("email", "")).lower())
        existing: dict[str, User] = {}
        seen: set[str] = set()
        for o in self.of(USER):
            email = str(o["fields"].get("email", "")).lower()
            if email in seen:  # said here, by name, on every database (not by its constraint)
                raise RestoreRefused(f"the copy names the account {email} twice")
            seen.add(email)
            found = User.objects.filter(email__iexact=email).first()
            if found is not None:
                existing[email] = found
                self._reuse(USER, o["pk"], found.pk)
                self.user_by_email[email] = found.pk
                self.reused_emails.add(email)
                continue
            for address in {email, *addresses[email]}:
                owner = (EmailAddress.objects.filter(email__iexact=address)
                         .values_list("user__email", flat=True).first()
                         or User.objects.filter(email__iexact=address)
                         .values_list("email", flat=True).first())
                if owner is not None:
                    raise RestoreRefused(
                        f"the account {email} is new here, but {address} is the address of "
                        f"the account {owner}: they cannot be told apart")
        self._confirm(existing)
        for o in self.of("core.mail"):
            if Mail.objects.filter(key=o["fields"].get("key")).exists():
                o["fields"]["key"] = f"{o['fields']['key']}@restored"[:200]
        for model in in_dependency_order(list(self._models_in_copy())):
            label = model._meta.label_lower
            rows = [o for o in self.of(label) if (label, o["pk"]) not in self.reused]
            if model._meta.pk.is_relation:  # its id is its parent's (a season's state)
                for o in rows:
                    self.ids[label][o["pk"]] = self._ref(model._meta.pk.related_model, o["pk"])
                continue
            wanted = [o["pk"] for o in rows]
            taken = model._base_manager.filter(pk__in=wanted).exists()
            highest = (model._base_manager.aggregate(m=models.Max("pk"))["m"] or 0) if taken else 0
            for o in rows:
                self.ids[label][o["pk"]] = o["pk"] + highest
        for o in self.of(USER):
            email = str(o["fields"].get("email", "")).lower()
            self.user_by_email.setdefault(email, self.ids[USER][o["pk"]])

    def _confirm(self, existing: dict[str, User]) -> None:
        """An account that is here already is linked to the restored club only when the
        operator says so for each (``--link-existing EMAIL``), having seen its clubs."""
        unknown = sorted(self.link_existing - set(existing))
        if unknown:
            raise RestoreRefused(
                f"--link-existing {', '.join(unknown)}: the copy names no account with that "
                "address that exists here")
        unconfirmed = sorted(set(existing) - self.link_existing)
        if unconfirmed:
            described = [f"{email} ({_clubs_of(existing[email])})" for email in unconfirmed]
            raise RestoreRefused(
                "the copy names accounts that exist here already: " + "; ".join(described)
                + ". A restore links an existing account to the club only when you confirm it: "
                "check that each is the same person, then name each with --link-existing EMAIL")
        self.linked = sorted(existing)

    def _models_in_copy(self) -> list[type[models.Model]]:
        labels = {o["model"] for o in self.objects}
        return [m for label, m in self.models.items() if label in labels]

    def _reuse(self, label: str, old: Any, new: Any) -> None:
        self.ids[label][old] = new
        self.reused.add((label, old))

    def load(self) -> None:
        rows = []
        order = {model._meta.label_lower: i
                 for i, model in enumerate(in_dependency_order(self._models_in_copy()))}
        for o in sorted(self.objects, key=lambda o: order[o["model"]]):
            label = o["model"]
            if (label, o["pk"]) in self.reused:
                continue  # the installation's own row, as it is
            if label == "account.emailaddress" and _email_of(o["fields"].get("user")) in self.reused_emails:
                continue  # an account that is there keeps its own addresses
            rows.append(self._renumbered(o))
        hosts = own_hosts()
        errors: list[str] = []
        deferred = []
        try:
            for obj in serializers.deserialize("python", rows, handle_forward_references=True):
                problems = row_errors(obj.object, own_hosts=hosts, parents_saved=not errors)
                if problems:
                    errors.extend(problems)
                    continue
                if errors:
                    continue  # refused anyway: the rest only checked
                obj.save(force_insert=True)  # never over a row that is there
                self.inserted[type(obj.object)].append(obj.object.pk)
                if obj.deferred_fields:
                    deferred.append(obj)
        except (serializers.base.DeserializationError, ValidationError, ValueError, TypeError) as exc:
            raise RestoreRefused(f"a row of the copy cannot be read: {exc}") from exc
        except DatabaseError as exc:  # a constraint (two rows of one key, say): rolled back
            raise RestoreRefused(f"the database refused a row of the copy: {exc}".strip()) from exc
        if errors:
            raise refusal(errors)
        for obj in deferred:
            obj.save_deferred_fields()
        _sequences_past(sorted(self.inserted, key=str))

    def confine(self, clubs: list[Club]) -> None:
        """Every row restored is one of the restored clubs' (its club scoping, as its pages
        read it): a file that names anything outside its club is refused whole."""
        for model, pks in self.inserted.items():
            if not _is_scoped(model):
                continue
            seen: set[Any] = set()
            for club in clubs:
                with club_context(club):
                    seen.update(model._default_manager.filter(pk__in=pks).values_list("pk", flat=True))
            outside = sorted(set(pks) - seen)
            if outside:
                raise RestoreRefused(
                    f"the copy's {model._meta.label_lower} {outside[:5]} are not the restored club's")

    def _renumbered(self, o: dict[str, Any]) -> dict[str, Any]:
        label = o["model"]
        model = self.models[label]
        fields = {}
        for name, value in o["fields"].items():
            try:
                model_field = model._meta.get_field(name)
            except FieldDoesNotExist as exc:
                raise RestoreRefused(f"{label} has no field {name!r}") from exc
            if model_field.many_to_many:
                if not isinstance(value, list):
                    raise RestoreRefused(f"{label} {o['pk']}: {name} is not a list")
                value = [self._ref(model_field.related_model, v) for v in value]
            elif model_field.is_relation and value is not None:
                value = self._ref(model_field.related_model, value)
            fields[name] = value
        return {"model": label, "pk": self.ids[label][o["pk"]], "fields": fields}

    def _ref(self, model: Any, value: Any) -> Any:
        """A reference of the copy, as this installation's id: an account by its e-mail
        address, every other row by the copy's own id (a row the copy does not hold,
        another club's or this installation's, is refused)."""
        label = model._meta.label_lower
        if label == USER:  # by e-mail address in the copy: the account it is here
            email = _email_of(value)
            if email not in self.user_by_email:
                raise RestoreRefused(f"the copy names the account {email}, which it does not hold")
            return self.user_by_email[email]
        if isinstance(value, (list, dict, bool)) or value not in self.ids[label]:
            raise RestoreRefused(f"the copy names {label} {value!r}, which it does not hold")
        return self.ids[label][value]


def _email_of(value: Any) -> str:
    """An account as the copy names it (its natural key: ``["address"]``)."""
    return str(value[0] if isinstance(value, list) and value else value).lower()


def _clubs_of(user: User) -> str:
    names = sorted(Membership.objects.filter(user=user).values_list("club__name", flat=True))
    return f"member of {', '.join(names)}" if names else "a member of no club"


def _is_scoped(model: type[models.Model]) -> bool:
    """Every model of the club apps is scoped to a club (the backup reads them so)."""
    return model._meta.app_label in CLUB_APPS


def _sequences_past(touched: list[type[models.Model]]) -> None:
    """Each table's id sequence past the ids the copy gave. On PostgreSQL through
    ``ranglijst_sequence_catch_up`` (migration members 0010), which moves a sequence up to
    its table's highest id and no further: the application's role may not set sequences
    itself (it has USAGE, not UPDATE), and needs no more than this."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), touched):
                cursor.execute(sql)
        return
    with connection.cursor() as cursor:
        for model in touched:
            pk = model._meta.pk
            if isinstance(pk, models.AutoField):  # BigAutoField, SmallAutoField too
                cursor.execute("SELECT ranglijst_sequence_catch_up(%s::regclass, %s)",
                               [connection.ops.quote_name(model._meta.db_table), pk.column])
