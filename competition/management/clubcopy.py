"""One club's copy: what ``manage.py backup --club`` writes and ``manage.py restore`` loads
(docs/operations.md, "Backups").

A club's backup holds the club's rows and nothing of another club's: its ``Club`` row,
host names and memberships, the accounts of its members (accounts are national: the
``User`` rows and their e-mail addresses, never another club's membership) and of anyone
its rows name (an operator who acted in it), every row of its seasons and of everything
under them, its audit trail, rating imports, website settings and e-mails; and the role
groups (the platform's names, no club's data). On an installation of one club the
accounts that belong to no club (a registration not yet accepted) are that club's too.

A restore puts the club into an installation beside the clubs there, touching none of
them: every row is inserted (never an update of a row that is there), under its own id
when that id is free in its table and under a new one otherwise (every reference in the
copy follows). An account whose e-mail address exists already is that person's, and is
used as it is (his password, name and ratings stay the installation's); a new one comes
without the operator's rights (``is_superuser``) unless the installation was empty. It is
refused, and nothing saved, when the club's address or one of its host names is taken, or
when an account of the copy is new but its address belongs to another account (one of his
other addresses): the two cannot be told apart. An empty installation (a new, migrated
database: no account, season, host name or e-mail, at most one club) takes the copy whole,
every id kept, in place of the empty club the migration made."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, models, transaction

from competition.models import Season
from core.models import Mail
from core.pagecache import pages_changed
from members.context import club_context, platform_context
from members.models import Club, ClubDomain, Membership, User

# The apps whose club-scoped models are the club's (every one of them: the scoping says
# which rows).
CLUB_APPS = ("competition", "pairing")
USER = "members.user"


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
        user_ids = member_ids | _user_references([*rows, mails])
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
    inserted, members/rls.py), otherwise in the order given."""
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


def installation_is_empty() -> bool:
    """A new, migrated database: at most the one club the migration made, with nothing in
    it or of it (no account, season, host name or e-mail)."""
    return (Club.objects.count() <= 1 and not User.objects.exists() and not Season.objects.exists()
            and not ClubDomain.objects.exists() and not Mail.objects.exists())


def club_restore(objects: list[dict[str, Any]]) -> Club:
    """Load a club's copy (``club_backup``'s rows, read as JSON) into the installation;
    returns the restored club. Raises ``RestoreRefused`` (nothing saved) when it cannot
    go in beside the clubs there."""
    with platform_context(), transaction.atomic():
        empty = installation_is_empty()
        clubs = [o for o in objects if o.get("model") == "members.club"]
        if not clubs or (len(clubs) > 1 and not empty):
            raise RestoreRefused(
                f"the copy holds {len(clubs)} clubs: a club's backup holds one "
                "(a copy of a whole installation goes only into an empty database)")
        if empty:
            Club.objects.all().delete()  # the migration's empty club: the copy's takes its place
        loader = _Loader(objects, empty)
        loader.check()
        loader.load()
        pages_changed()  # nothing cached before the restore is shown after it
        club = Club.objects.get(pk=loader.new_pk("members.club", clubs[0]["pk"]))
    return club


class _Loader:
    def __init__(self, objects: list[dict[str, Any]], empty: bool) -> None:
        self.objects = objects
        self.empty = empty
        self.models: dict[str, type[models.Model]] = {}
        for o in objects:
            label = o["model"]
            if label not in self.models:
                self.models[label] = apps.get_model(label)
        self.ids: dict[str, dict[Any, Any]] = defaultdict(dict)  # label → old id → new id
        self.reused: set[tuple[str, Any]] = set()  # rows that are the installation's own
        self.user_by_email: dict[str, int] = {}
        self.reused_emails: set[str] = set()  # the accounts that are there already

    def of(self, label: str) -> list[dict[str, Any]]:
        return [o for o in self.objects if o["model"] == label]

    def new_pk(self, label: str, old: Any) -> Any:
        return self.ids[label][old]

    # The installation's rows that the copy's are: accounts by e-mail, groups by name.
    def check(self) -> None:
        for o in self.of("members.club"):
            slug = o["fields"]["slug"]
            if Club.objects.filter(slug=slug).exists():
                raise RestoreRefused(f"a club with the address {slug!r} exists already here")
        for o in self.of("members.clubdomain"):
            host = o["fields"]["host"]
            if ClubDomain.objects.filter(host=host).exists():
                raise RestoreRefused(f"the host name {host!r} is another club's here")
        for o in self.of("auth.group"):
            found = Group.objects.filter(name=o["fields"]["name"]).first()
            if found is not None:
                self._reuse("auth.group", o["pk"], found.pk)
        addresses = defaultdict(list)
        for o in self.of("account.emailaddress"):
            addresses[o["fields"]["user"][0].lower()].append(o["fields"]["email"].lower())
        for o in self.of(USER):
            email = o["fields"]["email"].lower()
            found = User.objects.filter(email__iexact=email).first()
            if found is not None:
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
        for o in self.of("core.mail"):
            if Mail.objects.filter(key=o["fields"]["key"]).exists():
                o["fields"]["key"] = f"{o['fields']['key']}@restored"[:200]
        for model in in_dependency_order(list(self.models.values())):
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
            email = o["fields"]["email"].lower()
            self.user_by_email.setdefault(email, self.ids[USER][o["pk"]])

    def _reuse(self, label: str, old: Any, new: Any) -> None:
        self.ids[label][old] = new
        self.reused.add((label, old))

    def load(self) -> None:
        rows = []
        order = {model._meta.label_lower: i
                 for i, model in enumerate(in_dependency_order(list(self.models.values())))}
        for o in sorted(self.objects, key=lambda o: order[o["model"]]):
            label = o["model"]
            if (label, o["pk"]) in self.reused:
                continue  # the installation's own row, as it is
            if label == "account.emailaddress" and o["fields"]["user"][0].lower() in self.reused_emails:
                continue  # an account that is there keeps its own addresses
            rows.append(self._renumbered(o))
        touched: set[type[models.Model]] = set()
        deferred = []
        for obj in serializers.deserialize("python", rows, handle_forward_references=True):
            if isinstance(obj.object, User) and not self.empty:
                obj.object.is_superuser = False  # a club's copy makes nobody an operator here
            obj.save(force_insert=True)  # never over a row that is there
            touched.add(type(obj.object))
            if obj.deferred_fields:
                deferred.append(obj)
        for obj in deferred:
            obj.save_deferred_fields()
        with connection.cursor() as cursor:  # the sequences past the ids given
            for sql in connection.ops.sequence_reset_sql(no_style(), sorted(touched, key=str)):
                cursor.execute(sql)

    def _renumbered(self, o: dict[str, Any]) -> dict[str, Any]:
        label = o["model"]
        model = self.models[label]
        fields = {}
        for name, value in o["fields"].items():
            field = model._meta.get_field(name)
            if field.many_to_many:
                value = [self._ref(field.related_model, v) for v in value]
            elif field.is_relation and value is not None:
                value = self._ref(field.related_model, value)
            fields[name] = value
        return {"model": label, "pk": self.ids[label][o["pk"]], "fields": fields}

    def _ref(self, model: Any, value: Any) -> Any:
        label = model._meta.label_lower
        if label == USER:  # by e-mail address in the copy: the account it is here
            email = (value[0] if isinstance(value, list) else value).lower()
            if email not in self.user_by_email:
                raise RestoreRefused(f"the copy names the account {email}, which it does not hold")
            return self.user_by_email[email]
        if isinstance(value, list):  # a natural key (a group, a permission): found by it
            return value
        if value not in self.ids[label]:
            raise RestoreRefused(f"the copy names {label} {value}, which it does not hold")
        return self.ids[label][value]
