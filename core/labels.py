"""The admin's labels in the member's language.

Most model fields and models carry no ``verbose_name`` of their own: Django derives one
from the name ("pairing seed", "playoff brackets"), in English. ``translate_labels``
(called from ``CompetitionConfig.ready``) makes each derived label a lazy translation of
itself; ``DERIVED_LABELS`` puts them in the catalogue, where the Dutch is written. Only
the derived label is replaced, never one given in the code, so migrations do not see a
change (they record the ``verbose_name`` given, not the derived one).

tests/unit/i18n/test_admin_labels.py fails when a new field's label is missing here.
"""

from __future__ import annotations

from django.apps import apps
from django.utils import translation
from django.utils.translation import gettext_lazy, gettext_noop

APPS = ("competition", "pairing", "members")


def derived_labels() -> set[str]:
    """Every label Django derives for the project's models and fields."""
    found: set[str] = set()
    with translation.override(None):  # the English the labels are derived in
        for model in _models():
            found |= _labels(model)
    return found


def _models():
    for label in APPS:
        yield from apps.get_app_config(label).get_models()


def _labels(model) -> set[str]:
    opts = model._meta
    found = set()
    if "verbose_name" not in opts.original_attrs:
        found.add(str(opts.verbose_name))
    if "verbose_name_plural" not in opts.original_attrs:
        found.add(str(opts.verbose_name_plural))
    for field in opts.get_fields(include_hidden=False):
        if getattr(field, "_verbose_name", "given") is None and field.concrete:
            found.add(str(field.verbose_name))
    return found


def translate_labels() -> None:
    with translation.override(None):
        for model in _models():
            opts = model._meta
            # Both read in English first: a derived plural is built from the name.
            name, plural = str(opts.verbose_name), str(opts.verbose_name_plural)
            if "verbose_name" not in opts.original_attrs:
                opts.verbose_name = gettext_lazy(name)
            if "verbose_name_plural" not in opts.original_attrs:
                opts.verbose_name_plural = gettext_lazy(plural)
            for field in opts.get_fields(include_hidden=False):
                if getattr(field, "_verbose_name", "given") is None and field.concrete:
                    field.verbose_name = gettext_lazy(str(field.verbose_name))


DERIVED_LABELS = (
    gettext_noop('eligibility'),
    gettext_noop('notice claimed at'),
    gettext_noop('notice sent at'),
    gettext_noop('attempts'),
    gettext_noop('last error'),
    gettext_noop('recipient'),
    gettext_noop('absent with notice'),
    gettext_noop('absent without notice'),
    gettext_noop('action'),
    gettext_noop('actor'),
    gettext_noop('after'),
    gettext_noop('applied at'),
    gettext_noop('at'),
    gettext_noop('before'),
    gettext_noop('black'),
    gettext_noop('black points'),
    gettext_noop('blacks'),
    gettext_noop('bracket'),
    gettext_noop('byes'),
    gettext_noop('changed by'),
    gettext_noop('claimed at'),
    gettext_noop('club duty'),
    gettext_noop('columns'),
    gettext_noop('computed at'),
    gettext_noop('confirmed at'),
    gettext_noop('confirmed by'),
    gettext_noop('created at'),
    gettext_noop('created by'),
    gettext_noop('decided at'),
    gettext_noop('decided by'),
    gettext_noop('digest'),
    gettext_noop('drawn'),
    gettext_noop('drawn from'),
    gettext_noop('entered at'),
    gettext_noop('entered by'),
    gettext_noop('error'),
    gettext_noop('evening'),
    gettext_noop('event'),
    gettext_noop('explanation'),
    gettext_noop('game points'),
    gettext_noop('games'),
    gettext_noop('group'),
    gettext_noop('groups'),
    gettext_noop('half'),
    gettext_noop('inputs changed at'),
    gettext_noop('inputs version'),
    gettext_noop('kind'),
    gettext_noop('lost'),
    gettext_noop('mapping'),
    gettext_noop('match'),
    gettext_noop('matching'),
    gettext_noop('member'),
    gettext_noop('notes'),
    gettext_noop('pairing points'),
    gettext_noop('pairing seed'),
    gettext_noop('parent'),
    gettext_noop('path'),
    gettext_noop('player'),
    gettext_noop('playoff bracket'),
    gettext_noop('playoff brackets'),
    gettext_noop('playoff date'),
    gettext_noop('playoff dates'),
    gettext_noop('playoff result'),
    gettext_noop('playoff results'),
    gettext_noop('points'),
    gettext_noop('present'),
    gettext_noop('progress'),
    gettext_noop('published at'),
    gettext_noop('rank'),
    gettext_noop('result'),
    gettext_noop('round'),
    gettext_noop('rounds fixed'),
    gettext_noop('score'),
    gettext_noop('score exact'),
    gettext_noop('season'),
    gettext_noop('seed'),
    gettext_noop('sent at'),
    gettext_noop('signature'),
    gettext_noop('size'),
    gettext_noop('snapshot'),
    gettext_noop('standing'),
    gettext_noop('standings'),
    gettext_noop('standings snapshot'),
    gettext_noop('standings snapshots'),
    gettext_noop('standings state'),
    gettext_noop('standings states'),
    gettext_noop('state'),
    gettext_noop('tempo decided by'),
    gettext_noop('tempo requested by'),
    gettext_noop('updated at'),
    gettext_noop('value'),
    gettext_noop('version'),
    gettext_noop('white'),
    gettext_noop('white points'),
    gettext_noop('whites'),
    gettext_noop('won'),
)

# allauth's own Dutch says "aanmelden" for signing in and "afmelden" for signing out,
# the words this site uses for an evening. The project's catalogue (LOCALE_PATHS) comes
# before allauth's, so these strings read "inloggen" and "uitloggen" here.
ALLAUTH_WORDING = (
    gettext_noop("Sign In"),
    gettext_noop("Sign Out"),
    gettext_noop("Are you sure you want to sign out?"),
    gettext_noop("You have signed out."),
    gettext_noop("Send me a sign-in code"),
    gettext_noop("Other sign-in options"),
)
