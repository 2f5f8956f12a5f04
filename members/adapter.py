"""allauth adapter: a member's name is required at sign-up and stored on the user."""

from allauth.account.adapter import DefaultAccountAdapter


class AccountAdapter(DefaultAccountAdapter):
    def populate_username(self, request, user) -> None:  # no usernames: e-mail only
        return None

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=False)
        name = form.cleaned_data.get("name") or user.email.split("@")[0]
        user.name = name
        if commit:
            user.save()
        return user
