"""Every season belongs to a club; name and slug are unique within the club."""

import django.db.models.deletion

from competition.validators import single_line
from django.db import migrations, models


def seasons_to_home_club(apps, schema_editor):
    from members.clubs.memo import default_club_fields

    Club = apps.get_model("members", "Club")
    Season = apps.get_model("competition", "Season")
    if not Season.objects.exists():
        return
    club = Club.objects.order_by("pk").first()
    if club is None:
        fields = default_club_fields()
        club = Club.objects.create(**fields)
    Season.objects.update(club=club)


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0027_competition_trf_venue_and_arbiter"),
        ("members", "0007_clubs"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="club",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.PROTECT,
                related_name="seasons", to="members.club", verbose_name="club",
            ),
        ),
        migrations.RunPython(seasons_to_home_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="season",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seasons", to="members.club", verbose_name="club",
            ),
        ),
        migrations.AlterField(
            model_name="season", name="name",
            field=models.CharField(help_text="2026-2027", max_length=40, verbose_name="name",
                                   validators=[single_line]),
        ),
        migrations.AlterField(
            model_name="season", name="slug",
            field=models.SlugField(max_length=40, verbose_name="slug"),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(fields=("club", "name"), name="season_name_per_club"),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(fields=("club", "slug"), name="season_slug_per_club"),
        ),
    ]
