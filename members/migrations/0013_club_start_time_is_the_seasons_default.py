"""A club's start time becomes its new seasons' default (competition.season.services):
its default is a competition's, 20:15, and the clubs still at the old, never read 20:00
get 20:15, so their next season starts as every season did."""

import datetime as dt

from django.db import migrations, models


def never_read_default_to_the_seasons(apps, schema_editor):
    Club = apps.get_model("members", "Club")
    Club.objects.filter(start_time=dt.time(20, 0)).update(start_time=dt.time(20, 15))


class Migration(migrations.Migration):
    dependencies = [("members", "0012_club_part_on_membership")]

    operations = [
        migrations.AlterField(
            model_name="club", name="start_time",
            field=models.TimeField(default=dt.time(20, 15), verbose_name="first round starts"),
        ),
        migrations.RunPython(never_read_default_to_the_seasons, migrations.RunPython.noop),
    ]
