"""The path the migrations name the single-line validator by (``competition.validators
.SingleLineValidator``); the validator itself is ``core.validators``, at the bottom of the
shell, where the club's and the account's models (members) import it from."""

from core.validators import SingleLineValidator, require_single_line, single_line

__all__ = ["SingleLineValidator", "require_single_line", "single_line"]
