"""A service's refusal into what the member reads, one way (core.web.refusal)."""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import RequestFactory

from core.web import refusal


class _Form(forms.Form):
    name = forms.CharField()


def _request():
    request = RequestFactory().post("/")
    request._messages = CookieStorage(request)
    return request


def test_a_refusal_on_the_page_one_message_per_reason_after_the_prefix():
    request = _request()
    with refusal(request, prefix="vr 4 dec: ") as refused:
        raise ValidationError(["Te laat.", "Niet aangemeld."])
    assert refused and refused.messages == ["Te laat.", "Niet aangemeld."]
    assert [str(m) for m in get_messages(request)] == ["vr 4 dec: Te laat.", "vr 4 dec: Niet aangemeld."]


def test_a_refusal_on_the_form_its_own_errors_a_field_or_the_field_it_names():
    form = _Form({"name": "x"})
    assert form.is_valid()
    with refusal(_request(), form=form):
        raise ValidationError({"name": "Bestaat al.", "other": "Elders."})
    assert form.non_field_errors() == ["Bestaat al.", "Elders."]
    form = _Form({"name": "x"})
    form.is_valid()
    with refusal(_request(), form=form, by_field=True):
        raise ValidationError({"name": "Bestaat al.", "other": "Elders."})
    assert form.errors["name"] == ["Bestaat al."] and form.non_field_errors() == ["Elders."]
    form = _Form({"name": "x"})
    form.is_valid()
    with refusal(_request(), form=form, field="name"):
        raise ValidationError("Te lang.")
    assert form.errors["name"] == ["Te lang."]


def test_no_refusal_is_falsy_and_other_errors_pass_through():
    request = _request()
    with refusal(request) as refused:
        pass
    assert not refused and not list(get_messages(request))
    with pytest.raises(PermissionDenied), refusal(request):
        raise PermissionDenied
