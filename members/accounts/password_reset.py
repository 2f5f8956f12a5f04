"""allauth's password reset, sent only to an address the member signs in with.

allauth looks a reset address up among all of a member's addresses, the unverified ones
too; a new address waiting for its owner's confirmation (``members.accounts.email_change``) would
then receive a reset link, and whoever typed it in would have the account. Here only the
member's own address (``User.email``) and verified ones count. And a password set from
such a link proves the address it went to: the invitation's address is verified then.
"""

from __future__ import annotations

from allauth.account.forms import ResetPasswordForm as AllauthResetPasswordForm
from allauth.account.models import EmailAddress


class ResetPasswordForm(AllauthResetPasswordForm):
    def clean_email(self) -> str:
        email = super().clean_email()
        wanted = email.lower()
        verified = set(
            EmailAddress.objects.filter(email__iexact=wanted, verified=True).values_list("user_id", flat=True)
        )
        self.users = [u for u in self.users if u.email.lower() == wanted or u.pk in verified]
        return email


def verify_on_reset(sender, request, user, **kwargs) -> None:
    """``password_reset`` signal: the link went to ``user.email`` (the form above), so
    whoever used it holds that mailbox."""
    EmailAddress.objects.filter(user=user, email__iexact=user.email, verified=False).update(verified=True)
