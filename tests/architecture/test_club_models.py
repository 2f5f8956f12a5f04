"""Every model is platform-wide or club-scoped, and says which (docs/architecture.md,
"Many clubs"). A club-scoped model's default manager is the club's
(``core.tenancy.scoping.ScopedManager(club=path)``), its path leads to ``members.Club``, and
each of its unique constraints includes the club or the parent row the path goes through
(its season, evening ...) or another row of the club, so two clubs may hold the same
name, date or number."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import models

from core.tenancy.scoping import club_path

# Shared by every club: an account is national (e-mail, KNSB number, ratings), a club and
# its host names are the platform's list, a membership joins the two. Of the other apps:
# the sign-in's e-mail addresses and their confirmations are the person's (national too),
# the admin's log the operator's, and Django's own tables (groups, permissions, content
# types, sessions) the installation's.
PLATFORM_WIDE = {
    "members.User", "members.Club", "members.ClubDomain", "members.Membership",
    "members.JoinRequest",  # a request to join: every query of it names its club
    "account.EmailAddress", "account.EmailConfirmation", "admin.LogEntry", "auth.Group",
    "auth.Permission", "contenttypes.ContentType", "sessions.Session",
}

# Every other model is club-scoped, and its scoped manager is the one declaration of how
# its rows find their club (core.tenancy.scoping): the managers' filters, row-level security
# (core/tenancy/rowsecurity.py), the tasks' clubs (config/celery.py) and the permission check
# (core.permissions.club_of) all read it.
CLUB_SCOPED = {
    m._meta.label: path for m in apps.get_models() if (path := club_path(m)) is not None
}

# Club-scoped, or the platform's own where the club is empty (an e-mail address change
# asked on the platform's pages): with no club in scope its manager shows only those.
CLUB_OR_PLATFORM = {"core.Mail"}

# Unique across clubs on purpose: an outbox key is made of ids (``invitation:<member>:
# <uuid>``, ``club-duty:<request>:<version>``), never of a name two clubs could share.
UNIQUE_ACROSS_CLUBS = {"core.Mail": {("key",)}}


def our_models() -> dict[str, type[models.Model]]:
    """Every model of every installed app, Django's and allauth's included."""
    return {m._meta.label: m for m in apps.get_models()}


def test_every_model_is_declared_club_scoped_or_listed_platform_wide():
    assert not PLATFORM_WIDE & set(CLUB_SCOPED)
    unclassified = set(our_models()) - PLATFORM_WIDE - set(CLUB_SCOPED)
    assert not unclassified, (
        f"{sorted(unclassified)}: give it objects = ScopedManager(club=path) or list it in PLATFORM_WIDE")
    assert PLATFORM_WIDE <= set(our_models())


def test_the_outbox_and_the_season_rows_are_declared_club_scoped():
    """The declaration is read, not restated: the apps that hold club rows, core's too."""
    assert {label.split(".")[0] for label in CLUB_SCOPED} == {"competition", "pairing", "core"}
    assert {"core.Mail", "competition.Season", "pairing.PairingNotice"} <= set(CLUB_SCOPED)


def test_platform_wide_models_have_no_club_scope():
    for label in PLATFORM_WIDE:
        assert club_path(our_models()[label]) is None, label


@pytest.mark.parametrize("label", sorted(CLUB_SCOPED))
def test_a_club_scoped_model_is_scoped_by_its_club_path(label):
    model = our_models()[label]
    path = CLUB_SCOPED[label]
    assert club_path(model) == path, f"{label}: objects = ScopedManager(club={path!r})"
    assert model._default_manager is model.objects
    current = model
    for hop in path.split("__"):
        field = current._meta.get_field(hop)
        assert field.many_to_one or field.one_to_one, f"{label}: {hop} is no foreign key"
        assert not field.null or label in CLUB_OR_PLATFORM, (
            f"{label}: {hop} may be empty: a row without a club")
        current = field.related_model
    assert current._meta.label == "members.Club"
    assert getattr(model.objects, "_platform_rows", False) == (label in CLUB_OR_PLATFORM)


@pytest.mark.parametrize("label", sorted(CLUB_SCOPED))
def test_a_club_scoped_models_unique_constraints_include_its_club(label):
    model = our_models()[label]
    parent = CLUB_SCOPED[label].split("__")[0]
    uniques: list[tuple[str, ...]] = [
        tuple(c.fields) for c in model._meta.constraints
        if isinstance(c, models.UniqueConstraint) and c.fields
    ]
    uniques += [tuple(u) for u in model._meta.unique_together]
    uniques += [(f.name,) for f in model._meta.concrete_fields if f.unique and not f.primary_key]
    # The club, or a row of the club (its season, its half ...): unique within the club.
    under_club = {parent} | {
        f.name for f in model._meta.concrete_fields
        if f.is_relation and f.related_model._meta.label in CLUB_SCOPED | {"members.Club": ""}
    }
    for fields in uniques:
        if fields in UNIQUE_ACROSS_CLUBS.get(label, set()):
            continue
        assert under_club & set(fields), f"{label}: unique {fields} without its club: clubs would collide"
    for c in model._meta.constraints:  # unique on expressions (a lower-cased name ...)
        if isinstance(c, models.UniqueConstraint) and c.expressions:
            assert f"F({parent})" in repr(c.expressions) or f"'{parent}'" in repr(c.expressions), (
                f"{label}: unique {c.name} without {parent!r}")
