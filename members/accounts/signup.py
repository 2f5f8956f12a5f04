"""allauth's sign-up form, made to cost the same for a known and an unknown address.

With ``ACCOUNT_PREVENT_ENUMERATION`` both answer alike, but a new account's password is
hashed (the slow part, by design) and a known address's was not, so the timing told
(0.27 s against 0.84 s). The known path now hashes the posted password too. The name
field comes from ``members.accounts.forms.SignupForm`` (``ACCOUNT_SIGNUP_FORM_CLASS``).
"""

from __future__ import annotations

from allauth.account.forms import SignupForm as AllauthSignupForm
from django.contrib.auth.hashers import make_password
from django.utils.crypto import get_random_string


class SignupForm(AllauthSignupForm):
    def try_save(self, request):
        if self.account_already_exists:
            make_password(self.cleaned_data.get("password1") or get_random_string(32))
        return super().try_save(request)
