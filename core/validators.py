"""The shell's validator for single-line text (names, event names, one-line notes,
reasons), on the pure definition of ``core.singleline``. On the model fields (so
the admin's forms and ``full_clean`` check it) and on the forms that are no model forms."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

from core.singleline import control_characters, is_single_line


# Deconstructed by its first path, which the migrations of members and competition name
# (competition/validators.py keeps it): moving the validator to the bottom of the shell
# changes no field.
@deconstructible(path="competition.validators.SingleLineValidator")
class SingleLineValidator:
    message = _("This must be one line of text: it contains a line break or another control "
                "character (%(codes)s).")
    code = "single_line"

    def __call__(self, value: object) -> None:
        if isinstance(value, str) and not is_single_line(value):
            raise ValidationError(self.message, code=self.code,
                                  params={"codes": ", ".join(control_characters(value))})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SingleLineValidator)

    def __hash__(self) -> int:
        return hash(self.code)


single_line = SingleLineValidator()


def require_single_line(value: str, *, field: str | None = None) -> str:
    """For services: ``value`` unchanged, or the validator's ValidationError (under
    ``field`` when given, so a form shows it beside that field). Every way in (a form, the
    admin, a command, an import) goes through a service, so this is where it holds."""
    try:
        single_line(value)
    except ValidationError as exc:
        raise ValidationError({field: exc}) if field else exc from None
    return value
