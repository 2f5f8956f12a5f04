"""The standings record the inputs version they were computed from (issue 19): a season
marked stale starts one version ahead of its standings, every other one level with them."""

import django.db.models.deletion
from django.db import migrations, models


def versions_from_the_mark(apps, schema_editor):
    Season = apps.get_model("competition", "Season")
    StandingsState = apps.get_model("competition", "StandingsState")
    Season.objects.filter(standings_stale_since__isnull=False).update(
        inputs_version=1, inputs_changed_at=models.F("standings_stale_since"))
    StandingsState.objects.bulk_create(
        StandingsState(season_id=pk, inputs_version=0)
        for pk in Season.objects.values_list("pk", flat=True)
    )


class Migration(migrations.Migration):

    dependencies = [
        ('competition', '0025_single_line_text'),
    ]

    operations = [
        migrations.CreateModel(
            name='StandingsState',
            fields=[
                ('season', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='standings_state', serialize=False, to='competition.season')),
                ('inputs_version', models.BigIntegerField(default=-1, help_text="The season's inputs version the stored standings were computed from (-1: never computed).")),
                ('computed_at', models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.AddField(
            model_name='season',
            name='inputs_changed_at',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='season',
            name='inputs_version',
            field=models.PositiveBigIntegerField(default=0, editable=False, help_text="Moved on by every write the standings depend on, in the write's own transaction; the standings record the version they were computed from (StandingsState), so a recalculation and the beat's catch-up see what is missing."),
        ),
        migrations.RunPython(versions_from_the_mark, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='season',
            name='standings_stale_since',
        ),
    ]
