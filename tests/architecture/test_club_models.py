"""Every model is platform-wide or club-scoped, and says which (docs/architecture.md,
"Many clubs"). A club-scoped model's default manager is the club's
(``members.scoping.ScopedManager(club=path)``), its path leads to ``members.Club``, and
each of its unique constraints includes the club or the parent row the path goes through
(its season, evening ...) or another row of the club, so two clubs may hold the same
name, date or number."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import models

from members.scoping import club_path

OUR_APPS = ("competition", "pairing", "members")

# Shared by every club: an account is national (e-mail, KNSB number, ratings), a club and
# its host names are the platform's list, a membership joins the two, and so does a request
# to join (every query of it names its club).
PLATFORM_WIDE = {"members.User", "members.Club", "members.ClubDomain", "members.Membership",
                 "members.JoinRequest"}

CLUB_SCOPED = {
    "competition.Season": "club",
    "competition.AuditRecord": "club",
    "competition.RatingImport": "club",
    "competition.ClubWebsite": "club",
    "competition.Competition": "season__club",
    "competition.Half": "season__club",
    "competition.Evening": "season__club",
    "competition.Player": "season__club",
    "competition.StandingsState": "season__club",
    "competition.SwissEvent": "season__club",
    "competition.Prize": "season__club",
    "competition.PlayoffBracket": "season__club",
    "competition.Registration": "evening__season__club",
    "competition.ClubDutyRequest": "evening__season__club",
    "competition.Game": "evening__season__club",
    "competition.Bye": "evening__season__club",
    "competition.StandingsSnapshot": "half__season__club",
    "competition.EligibilityOverride": "half__season__club",
    "competition.Standing": "snapshot__half__season__club",
    "competition.SwissEntrant": "event__season__club",
    "competition.SwissRound": "event__season__club",
    "competition.SwissGame": "round__event__season__club",
    "competition.PlayoffResult": "bracket__season__club",
    "competition.PlayoffDate": "bracket__season__club",
    "pairing.PairingNotice": "evening__season__club",
}


def our_models() -> dict[str, type[models.Model]]:
    return {m._meta.label: m for app in OUR_APPS for m in apps.get_app_config(app).get_models()}


def test_every_model_is_listed_once():
    listed = PLATFORM_WIDE | set(CLUB_SCOPED)
    assert not PLATFORM_WIDE & set(CLUB_SCOPED)
    assert set(our_models()) == listed, "say whether a new model is platform-wide or club-scoped"


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
        assert not field.null, f"{label}: {hop} may be empty: a row without a club"
        current = field.related_model
    assert current._meta.label == "members.Club"


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
        assert under_club & set(fields), f"{label}: unique {fields} without its club: clubs would collide"
    for c in model._meta.constraints:  # unique on expressions (a lower-cased name ...)
        if isinstance(c, models.UniqueConstraint) and c.expressions:
            assert f"F({parent})" in repr(c.expressions) or f"'{parent}'" in repr(c.expressions), (
                f"{label}: unique {c.name} without {parent!r}")
