"""``load_demo`` in production (issue 12, finding 2): refused without an explicit flag,
and with it no account gets the published password."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from competition.demo import PASSWORD
from competition.models import Season
from members.models import User

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=False)
def test_load_demo_refuses_in_production_without_the_flag():
    err = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("load_demo", stdout=StringIO(), stderr=err)
    assert exit_.value.code == 2 and "--allow-production" in err.getvalue()
    assert not Season.objects.exists() and not User.objects.exists()


@override_settings(DEBUG=False)
def test_load_demo_with_the_flag_gives_a_random_password_printed_once():
    out = StringIO()
    call_command("load_demo", "--allow-production", stdout=out, stderr=StringIO())
    printed = re.search(r"password '([^']+)'", out.getvalue()).group(1)
    assert printed != PASSWORD and len(printed) >= 20
    admin = User.objects.get(email="beheer@demo.club")
    assert admin.is_superuser and not admin.check_password(PASSWORD)
    assert admin.check_password(printed)
    assert not any(u.check_password(PASSWORD) for u in User.objects.all()[:5])


@override_settings(DEBUG=True)
def test_load_demo_in_development_keeps_the_published_password():
    out = StringIO()
    call_command("load_demo", "--if-empty", stdout=out, stderr=StringIO())
    assert f"'{PASSWORD}'" in out.getvalue()
    assert User.objects.get(email="speler1@demo.club").check_password(PASSWORD)
