"""The admin's derived labels ("pairing seed", "playoff brackets") are in the catalogue
and read Dutch; giving them a translation does not ask for a migration."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

from competition.models import Evening, PlayoffBracket
from core.labels import DERIVED_LABELS, derived_labels


def test_every_derived_label_is_listed_for_the_catalogue():
    missing = sorted(derived_labels() - set(DERIVED_LABELS))
    assert missing == [], f"add to core/labels.py DERIVED_LABELS and translate: {missing}"


def test_derived_labels_read_dutch_in_dutch_and_english_in_english():
    seed = Evening._meta.get_field("pairing_seed")
    with translation.override("nl"):
        assert str(PlayoffBracket._meta.verbose_name_plural) == "playoffschema's"
        assert str(seed.verbose_name) == "loting-startwaarde"
        assert str(Evening._meta.get_field("published_at").verbose_name) == "gepubliceerd op"
    with translation.override("en"):
        assert str(PlayoffBracket._meta.verbose_name_plural) == "playoff brackets"


@pytest.mark.django_db
def test_the_translated_labels_ask_for_no_migration():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
