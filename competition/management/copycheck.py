"""What a restore takes from a club's copy, and what it never takes (docs/operations.md,
"Backups"; docs/trust.md, "A restore is data, never rights").

A copy is a file someone hands the operator, so every row of it is checked before it is
saved, and one bad row refuses the whole file:

- it holds the tables of a club's copy and no other (no permission, session, admin log
  or any table a backup never writes);
- the platform's rights are never taken from it: an account comes without staff,
  superuser, groups and permissions whatever the file says, and the role groups are the
  installation's own (the file's are not loaded);
- every field is checked as the forms check it (an e-mail address, a time zone, a club
  address, a role, a host name, the sites that may frame the embeds, a line of text);
- its outbox rows are the club's, addressed to e-mail addresses.

Which existing account may be linked and which e-mails go out is the loader's
(``clubcopy``); this module only reads rows."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from django.apps import apps
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import validate_email
from django.db import models

from competition.website.services import parse_origins
from core.validators import single_line
from members.clubs.roles import ROLES
from members.platform.services import SLUG, platform_segments

CLUB_APPS = ("competition", "pairing")
USER = "members.user"
GROUP = "auth.group"
# The platform's tables a club's copy holds (``club_backup``), beside the club apps' own.
PLATFORM_MODELS = (GROUP, USER, "members.club", "members.clubdomain", "members.membership",
                   "members.joinrequest", "account.emailaddress", "core.mail")
# The platform's rights on an account: never taken from a file.
RIGHTS = {"is_staff": False, "is_superuser": False, "groups": [], "user_permissions": []}
# A host name as a request names it: DNS labels, lower case.
_HOST = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$")
MAX_ERRORS = 10  # named in the refusal; the rest counted


class CopyRefused(Exception):
    """The copy is not a club's, or a row of it is not as the forms would take it."""


def copy_models() -> dict[str, type[models.Model]]:
    """Every table a club's copy may hold, by its label."""
    wanted = {label: apps.get_model(label) for label in PLATFORM_MODELS}
    for app in CLUB_APPS:
        for model in apps.get_app_config(app).get_models():
            wanted[model._meta.label_lower] = model
    return wanted


def refuse_other_tables(objects: list[dict[str, Any]]) -> None:
    """Refuses a copy with a row of a table a club's copy never holds, or a row that is
    not a row (an id and fields)."""
    known = copy_models()
    others = sorted({str(o.get("model")) for o in objects if o.get("model") not in known})
    if others:
        raise CopyRefused(
            f"the copy holds rows of {', '.join(others)}, which a club's backup never holds")
    for o in objects:
        if not isinstance(o.get("fields"), dict) or isinstance(o.get("pk"), bool) or not (
                isinstance(o.get("pk"), int) and o["pk"] > 0):
            raise CopyRefused(f"a row of {o['model']} has no id or no fields")


def without_rights(objects: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The copy's rows without the platform's rights: no role group (the installation
    keeps its own), every account without staff, superuser, groups and permissions.
    Returns the rows and the addresses of the accounts whose rights were left out."""
    kept: list[dict[str, Any]] = []
    dropped: list[str] = []
    for o in objects:
        if o["model"] == GROUP:
            continue
        if o["model"] == USER:
            fields = o["fields"]
            if any(fields.get(name) for name in RIGHTS):
                dropped.append(str(fields.get("email")))
            o = {**o, "fields": {**fields, **RIGHTS}}
        kept.append(o)
    return kept, dropped


def row_errors(instance: models.Model, *, own_hosts: Iterable[str], parents_saved: bool = True) -> list[str]:
    """What the forms would refuse in one row of the copy (before it is saved): its
    fields' validators and the model's own ``clean`` (references aside: the loader maps
    them, the database checks them), and what the forms of its kind check besides. The
    model's ``clean`` reads the rows it refers to: only when they were saved
    (``parents_saved``; after a refused row the others are read for their fields alone)."""
    relations = [f.name for f in instance._meta.get_fields()
                 if f.is_relation and (f.many_to_many or f.concrete)]
    # A field's own default is what the application writes itself (an empty list of
    # explanations, say), whatever its ``blank``; so is an empty structure (a bracket's
    # groups before the draw): no form types them.
    defaults = [f.name for f in instance._meta.concrete_fields
                if (f.has_default() and getattr(instance, f.attname) == f.get_default())
                or (isinstance(f, models.JSONField) and getattr(instance, f.attname) in ([], {}))]
    errors: dict[str, list[str]] = {}
    try:
        instance.clean_fields(exclude=[*relations, *defaults])
        if parents_saved:
            instance.clean()
    except ValidationError as exc:
        found: dict[str, list[str]] = (exc.message_dict if hasattr(exc, "error_dict")
                                       else {NON_FIELD_ERRORS: exc.messages})
        for name, messages in found.items():
            errors.setdefault(name, []).extend(messages)
    for name, message in _kind_errors(instance, set(own_hosts)):
        errors.setdefault(name, []).append(message)
    label = instance._meta.label_lower
    return [f"{label} {instance.pk}: {name}: {' '.join(messages)}" for name, messages in errors.items()]


def _kind_errors(instance: models.Model, own_hosts: set[str]) -> list[tuple[str, str]]:
    label = instance._meta.label_lower
    found: list[tuple[str, str]] = []
    if label == "members.club":
        slug = getattr(instance, "slug", "")
        if not SLUG.match(slug) or slug in platform_segments():
            found.append(("slug", f"{slug!r} is no club address (lower-case letters, digits, hyphens; "
                                  "not a part of the site itself)"))
        if getattr(instance, "language", "") not in dict(settings.LANGUAGES):
            found.append(("language", f"{getattr(instance, 'language', '')!r} is not a language of the site"))
        if not 0 <= getattr(instance, "deadline_weekday", 0) <= 6:
            found.append(("deadline_weekday", "a day of the week is 0 (Monday) to 6 (Sunday)"))
    elif label == "members.clubdomain":
        host = getattr(instance, "host", "")
        if not _HOST.match(host):
            found.append(("host", f"{host!r} is not a host name"))
        elif host in own_hosts:
            found.append(("host", f"{host!r} is this installation's own address"))
    elif label == "members.membership":
        if getattr(instance, "role", "") not in ROLES:
            found.append(("role", f"{getattr(instance, 'role', '')!r} is not a role ({', '.join(ROLES)})"))
    elif label == "competition.clubwebsite":
        origins = getattr(instance, "embed_origins", None)
        if not isinstance(origins, list) or not all(isinstance(o, str) for o in origins):
            found.append(("embed_origins", "not a list of sites"))
        else:
            try:
                if parse_origins(origins) != origins:
                    found.append(("embed_origins", "not written as the leader's page writes them"))
            except ValidationError as exc:
                found.append(("embed_origins", " ".join(exc.messages)))
    elif label == "core.mail":
        found.extend(_mail_errors(instance))
    return found


def _mail_errors(mail: Any) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if mail.club_id is None:
        found.append(("club", "an e-mail of no club (the platform's) is no club's to restore"))
    try:
        single_line(mail.subject)
    except ValidationError as exc:
        found.append(("subject", " ".join(exc.messages)))
    for name in ("to", "cc"):
        value = getattr(mail, name)
        if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
            found.append((name, "not a list of e-mail addresses"))
            continue
        for address in value:
            try:
                validate_email(address)
            except ValidationError:
                found.append((name, f"{address[:80]!r} is not an e-mail address"))
    if not (mail.to or mail.cc):
        found.append(("to", "an e-mail to nobody"))
    return found


def own_hosts() -> set[str]:
    """The installation's own host names (its address, ``SITE_URL``): no club's to take."""
    host = urlsplit(getattr(settings, "SITE_URL", "") or "").hostname
    return {host.lower()} if host else set()


def refusal(errors: list[str]) -> CopyRefused:
    shown = "; ".join(errors[:MAX_ERRORS])
    more = f"; and {len(errors) - MAX_ERRORS} more" if len(errors) > MAX_ERRORS else ""
    return CopyRefused(f"rows the forms would refuse: {shown}{more}")
