"""The member a mail is about, so that the leader's to-do list can name him when it is
given up; invitations and e-mail changes already queued get theirs from their key."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def members_from_keys(apps, schema_editor):
    Mail = apps.get_model("core", "Mail")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    for mail in Mail.objects.filter(key__startswith="invitation:", member__isnull=True):
        member_id = mail.key.split(":")[1]
        if member_id.isdigit() and User.objects.filter(pk=int(member_id)).exists():
            Mail.objects.filter(pk=mail.pk).update(member_id=int(member_id))


class Migration(migrations.Migration):

    dependencies = [
        ("core", "0001_outbox"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="mail",
            name="member",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(members_from_keys, migrations.RunPython.noop),
    ]
