"""Every root row belongs to a club: the audit trail, the rating-list uploads and the
club's website settings (one row per club, no longer one for the installation)."""

import django.db.models.deletion
from django.db import migrations, models

import members.clubs.context


def rows_to_home_club(apps, schema_editor):
    from members.clubs.memo import default_club_fields

    Club = apps.get_model("members", "Club")
    models_ = [apps.get_model("competition", name)
               for name in ("AuditRecord", "RatingImport", "ClubWebsite")]
    if not any(m.objects.exists() for m in models_):
        return
    club = Club.objects.order_by("pk").first()
    if club is None:
        club = Club.objects.create(**default_club_fields())
    AuditRecord, RatingImport, ClubWebsite = models_
    # An audit record of a season is that season's club's.
    Season = apps.get_model("competition", "Season")
    for season_id, club_id in Season.objects.values_list("pk", "club_id"):
        AuditRecord.objects.filter(season_id=season_id).update(club_id=club_id)
    AuditRecord.objects.filter(club__isnull=True).update(club=club)
    RatingImport.objects.update(club=club)
    first = ClubWebsite.objects.order_by("pk").first()
    if first is not None:
        ClubWebsite.objects.exclude(pk=first.pk).delete()
        ClubWebsite.objects.filter(pk=first.pk).update(club=club)


def _fk(null, one=False):
    kind = models.OneToOneField if one else models.ForeignKey
    return kind(
        null=null, default=members.clubs.context.current_club_id,
        on_delete=django.db.models.deletion.CASCADE,
        related_name="website" if one else "+", to="members.club",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0030_labels_given_as_translations"),
        ("members", "0007_clubs"),
    ]

    operations = [
        migrations.AddField(model_name="auditrecord", name="club", field=_fk(True)),
        migrations.AddField(model_name="ratingimport", name="club", field=_fk(True)),
        migrations.AddField(model_name="clubwebsite", name="club", field=_fk(True, one=True)),
        migrations.RunPython(rows_to_home_club, migrations.RunPython.noop),
        migrations.AlterField(model_name="auditrecord", name="club", field=_fk(False)),
        migrations.AlterField(model_name="ratingimport", name="club", field=_fk(False)),
        migrations.AlterField(model_name="clubwebsite", name="club", field=_fk(False, one=True)),
    ]
