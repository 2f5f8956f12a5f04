"""Input refused once, before any view: a NUL byte in the path, a query parameter or a
form field. PostgreSQL cannot store it in a text column and rejects it even in a WHERE
clause, so without this every view would have to catch the database error itself.

A cookie holding a NUL (``sessionid="\\000..."``, which Python's cookie parsing unescapes)
is dropped instead, and the browser told to forget it: the session would be looked up with
it on every page, and refusing the request would lock the visitor out until he cleared his
cookies. So this runs before the session middleware.

Under the read API (``/api/…`` or ``/<club>/api/…``) the refusal is the API's own: JSON
``{"detail": …}``, the 400 its document declares for every operation."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _

NUL = "\x00"
API_PATH = re.compile(r"^/(?:[^/]+/)?api/")


def _has_nul(query) -> bool:
    return any(NUL in key or any(NUL in value for value in values)
               for key, values in query.lists())


class RefuseNulBytesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        broken = [name for name, value in request.COOKIES.items() if NUL in name or NUL in value]
        for name in broken:
            del request.COOKIES[name]
        response = self._refuse_or_serve(request)
        for name in broken:
            if NUL not in name:
                response.delete_cookie(name)
        return response

    def _refuse_or_serve(self, request: HttpRequest) -> HttpResponse:
        body_is_form = request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded", "multipart/form-data")
        if (NUL in request.path or _has_nul(request.GET)
                or (body_is_form and _has_nul(request.POST))):
            message = _("The request contains a NUL character and was refused.")
            if API_PATH.match(request.path):
                return JsonResponse({"detail": message}, status=400)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
