"""Wording of other packages that the project's catalogue replaces.

The admin's labels are the models' own: every model and field gives its ``verbose_name``
as a translation (``gettext_lazy``), so the catalogue has it and the Dutch is written
there; tests/integration/test_admin_labels.py fails when a new one is derived instead.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

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
