"""The admin's platform-wide models, as a club's administrator may see them
(members/platform/adminscope.py): his club's members' accounts and addresses; the clubs and the
role groups are the operator's."""

from allauth.account.admin import EmailAddressAdmin as BaseEmailAddressAdmin
from allauth.account.models import EmailAddress
from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import GroupAdmin as BaseGroupAdmin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.http import Http404
from django.utils.html import escape
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from competition.models import System
from members.models import Club, ClubDomain, User
from members.platform.adminscope import OperatorOnlyAdmin, members_only
from members.platform.services import clean_slug, club_create, is_operator


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ("name",)
    list_display = ("name", "email", "rating", "knsb_number", "is_active")
    search_fields = ("name", "email", "knsb_number")
    list_filter = ("groups", "is_active", "is_staff")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        # Phone, e-mail preferences and the public name are each club's (Membership).
        (_("Member"), {"fields": ("name", "rating", "knsb_number", "registration_pending")}),
        (_("Roles"), {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        (_("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    # The platform's rights: handed out by the operator alone.
    PLATFORM_RIGHTS = ("is_staff", "is_superuser", "groups", "user_permissions")

    def get_queryset(self, request):
        return members_only(request, super().get_queryset(request))  # his club's members

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if is_operator(request.user) else fields + self.PLATFORM_RIGHTS

    def has_change_permission(self, request, obj=None) -> bool:
        # The change form and the password form (which asks this too) are the operator's
        # alone: an account's e-mail address and password are its person's, changed on his
        # own pages ("My details", with his password); a club's administrator made staff
        # sees his club's members' accounts, read-only (docs/operations.md, "Roles").
        return is_operator(request.user) and super().has_change_permission(request, obj)

    def user_change_password(self, request, id, form_url=""):
        # An account outside his club's members is not there for him (a 404 before the
        # 403 that every account not the operator's to change gets).
        if self.get_object(request, unquote(id)) is None:
            raise Http404
        return super().user_change_password(request, id, form_url)

    def has_add_permission(self, request) -> bool:
        # A club adds a member on its members page (his membership with him); an account
        # made here would be nobody's.
        return is_operator(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        # A member leaves on his club's pages; the account may be another club's member too.
        return is_operator(request.user)

    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "name", "rating", "password1", "password2")}),
    )


# The operator's club page (the address is read-only there: its links are out there).
CLUB_FIELDS = ("name", "site_name", "sender_name", "reply_to", "venue", "time_zone",
                    "language", "default_system", "deadline_weekday", "deadline_time", "start_time")


def rules_field() -> forms.ChoiceField:
    """The club's default rules: one of the presets, never a free text."""
    return forms.ChoiceField(label=capfirst(_("default rules")), choices=System.choices, initial=System.PION)


class ClubChangeForm(forms.ModelForm):
    """The operator's club page: the presets as choices."""

    default_system = rules_field()

    class Meta:
        model = Club
        fields = CLUB_FIELDS


class ClubCreateForm(forms.ModelForm):
    """The operator's "Add club": the club and the person who will run it, who becomes the
    club's administrator."""

    default_system = rules_field()
    leader_email = forms.EmailField(
        label=capfirst(_("e-mail address of the club's administrator")),
        help_text=_("He becomes the club's administrator: he sets up the club and its "
                    "competition and gives the other members their roles."),
    )
    leader_name = forms.CharField(
        label=capfirst(_("name of the club's administrator")), required=False, max_length=120,
        help_text=_("Needed when he has no account yet; he gets an invitation to set his password."),
    )

    class Meta:
        model = Club
        fields = ("name", "slug", "venue", "time_zone", "default_system")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The admin shows a help text as HTML: the address is escaped, "<address>" shown.
        where = f"{settings.SITE_URL}/<{_('address')}>/"
        self.fields["slug"].help_text = escape(_(
            "The club's pages will be at %(where)s (lower-case letters, digits and hyphens)."
        ) % {"where": where})

    def clean_slug(self) -> str:
        try:
            return clean_slug(self.cleaned_data["slug"])
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["slug"]) from exc

    def clean(self):
        data = super().clean()
        email = data.get("leader_email")
        if email and not data.get("leader_name", "").strip() and not User.objects.filter(
            email__iexact=email
        ).exists():
            self.add_error("leader_name", _("He has no account yet: give his name."))
        return data

    def validate_unique(self) -> None:
        pass  # clean_slug says it in words


class ClubDomainInline(admin.TabularInline):
    model = ClubDomain
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Platform operators only: a club's own people run it on its own pages."""

    list_display = ("name", "slug", "member_count")
    search_fields = ("name", "slug")
    inlines = (ClubDomainInline,)
    fields = ("name", "slug", *CLUB_FIELDS[1:])

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(members=Count("memberships"))

    @admin.display(description=_("members"), ordering="members")
    def member_count(self, obj: Club) -> int:
        return obj.members

    def has_module_permission(self, request) -> bool:
        return is_operator(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return is_operator(request.user)

    def has_add_permission(self, request) -> bool:
        return is_operator(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return is_operator(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a club's results are never deleted by a click

    def get_readonly_fields(self, request, obj=None):
        return ("slug",) if obj is not None else ()  # its links are out there

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = ClubCreateForm if obj is None else ClubChangeForm
        if obj is None:
            kwargs["fields"] = None
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("name", "slug", "venue", "time_zone", "default_system", "leader_email", "leader_name")
        return self.fields

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else ()

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        # The form has checked what club_create checks; one service makes every club.
        club, _leader = club_create(
            actor=request.user, name=form.cleaned_data["name"], slug=form.cleaned_data["slug"],
            leader_email=form.cleaned_data["leader_email"],
            leader_name=form.cleaned_data["leader_name"], venue=form.cleaned_data["venue"],
            time_zone=form.cleaned_data["time_zone"],
            default_system=form.cleaned_data["default_system"],
        )
        obj.pk, obj._state.adding = club.pk, False


admin.site.unregister(EmailAddress)


@admin.register(EmailAddress)
class EmailAddressAdmin(BaseEmailAddressAdmin):
    """A club's administrator sees his club's members' addresses; they are changed by
    their owner (the e-mail change he confirms) or the operator."""

    def get_queryset(self, request):
        return members_only(request, super().get_queryset(request), "user")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            kwargs["queryset"] = members_only(request, User.objects.all())
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_add_permission(self, request) -> bool:
        return is_operator(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return is_operator(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        return is_operator(request.user)


admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(OperatorOnlyAdmin, BaseGroupAdmin):
    """The role groups of a single-club installation: the platform's names, granting
    nothing of a club's (the roles are memberships); the operator's."""
