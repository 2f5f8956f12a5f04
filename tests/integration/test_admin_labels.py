"""The admin's labels ("pairing seed", "playoff brackets") are the models' own, each given
in the code as a translation, so the catalogue has them and they read Dutch; nothing
rewrites a model's options at start-up, and the migrations record the labels as given."""

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.utils import translation
from django.utils.functional import Promise

from competition.models import Evening, PlayoffBracket

APPS = ("competition", "pairing", "members")


def _untranslated() -> list[str]:
    """Every model or field label of the project that is not given as a translation
    (derived from the name by Django, or a plain string)."""
    found = []
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            opts = model._meta
            for attr in ("verbose_name", "verbose_name_plural"):
                if not isinstance(opts.original_attrs.get(attr), Promise):
                    found.append(f"{opts.label} Meta.{attr}")
            for field in opts.get_fields(include_hidden=False):
                if not field.concrete or field.auto_created:
                    continue
                given = field.deconstruct()[3].get("verbose_name")  # as the code gives it
                if not isinstance(given, Promise):
                    found.append(f"{opts.label}.{field.name}")
    return found


def test_every_model_and_field_label_is_given_as_a_translation():
    missing = _untranslated()
    assert missing == [], f"give these a verbose_name=_('…') and translate it: {missing}"


def test_the_labels_read_dutch_in_dutch_and_english_in_english():
    seed = Evening._meta.get_field("pairing_seed")
    with translation.override("nl"):
        assert str(PlayoffBracket._meta.verbose_name_plural) == "playoffschema's"
        assert str(seed.verbose_name) == "loting-startwaarde"
        assert str(Evening._meta.get_field("published_at").verbose_name) == "gepubliceerd op"
    with translation.override("en"):
        assert str(PlayoffBracket._meta.verbose_name_plural) == "playoff brackets"


@pytest.mark.django_db
def test_the_migrations_record_the_labels_as_given():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
