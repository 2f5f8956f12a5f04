"""Django's JSON serialisation without its rounding: ``DjangoJSONEncoder`` cuts times to
milliseconds (for JavaScript); a backup keeps them to the microsecond. The files are
ordinary fixtures, read back by the stock JSON deserialiser."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.serializers import json as django_json
from django.core.serializers.json import Deserializer, DjangoJSONEncoder

__all__ = ["Deserializer", "Serializer"]


class ExactEncoder(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime | dt.time):
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    def _init_options(self) -> None:
        self.options["cls"] = ExactEncoder
        super()._init_options()
