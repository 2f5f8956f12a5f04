import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    """The notices become an outbox: rows are written with the change and sent after
    commit. Every row that exists already was sent under the old scheme."""

    dependencies = [
        ("competition", "0011_snapshot_digest"),
        ("pairing", "0002_notice_help"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="pairingnotice", name="notice_once_per_version"),
        migrations.AddField(
            model_name="pairingnotice", name="kind",
            field=models.CharField(choices=[("pairing", "pairing"), ("tempo", "tempo decision")],
                                   default="pairing", max_length=10),
        ),
        migrations.AddField(
            model_name="pairingnotice", name="state",
            field=models.CharField(
                choices=[("pending", "to be sent"), ("sent", "sent"),
                         ("superseded", "replaced before it was sent")],
                db_index=True, default="sent", max_length=10),
        ),
        migrations.AlterField(
            model_name="pairingnotice", name="state",
            field=models.CharField(
                choices=[("pending", "to be sent"), ("sent", "sent"),
                         ("superseded", "replaced before it was sent")],
                db_index=True, default="pending", max_length=10),
        ),
        migrations.AddField(
            model_name="pairingnotice", name="created_at",
            field=models.DateTimeField(auto_now_add=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="pairingnotice", name="claimed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="pairingnotice", name="sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="pairingnotice",
            index=models.Index(fields=["evening", "player"], name="notice_evening_player"),
        ),
    ]
