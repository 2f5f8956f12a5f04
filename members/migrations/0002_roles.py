"""Create the club's roles as Groups with their explicit permissions."""

from django.db import migrations

from members.clubs.roles import ROLE_PERMISSIONS

PERMISSION_NAMES = {
    "register_self": "Can sign himself up and off",
    "enter_results": "Can enter results and rulings",
    "manage_registrations": "Can change anybody's sign-ups",
    "manage_pairings": "Can pair, publish and edit pairings",
    "approve_tempo": "Can approve tempo exceptions",
    "manage_calendar": "Can edit the calendar",
    "manage_season": "Can set up seasons and parameters",
    "override_eligibility": "Can override prize eligibility",
}


def create_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ContentType = apps.get_model("contenttypes", "ContentType")
    season_type, _ = ContentType.objects.get_or_create(app_label="competition", model="season")
    for role, perms in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role)
        for full in perms:
            app_label, codename = full.split(".")
            perm, _ = Permission.objects.get_or_create(
                content_type=season_type,
                codename=codename,
                defaults={"name": PERMISSION_NAMES[codename]},
            )
            group.permissions.add(perm)


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=list(ROLE_PERMISSIONS)).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("members", "0001_initial"),
        ("competition", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
