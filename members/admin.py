from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from members.roles import may_manage_account

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ("name",)
    list_display = ("name", "email", "rating", "knsb_number", "is_active")
    search_fields = ("name", "email", "knsb_number")
    list_filter = ("groups", "is_active", "is_staff")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        (_("Member"), {"fields": ("name", "rating", "knsb_number", "phone", "public_as",
                                  "pairing_mail", "notice_mail", "registration_pending")}),
        (_("Roles"), {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        (_("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    def has_change_permission(self, request, obj=None) -> bool:
        # Also the admin's password form: a staff member never sets the e-mail address or
        # password of an account at or above his own place in the role order.
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or may_manage_account(request.user, obj))

    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "name", "rating", "password1", "password2")}),
    )
