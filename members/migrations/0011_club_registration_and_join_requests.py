# The club opens its own registration; a request to join one club (registration or invitation).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('competition', '0034_clubwebsite_club_label'),
        ('members', '0010_sequence_catch_up_function'),
    ]

    operations = [
        migrations.AddField(
            model_name='club',
            name='open_registration',
            field=models.BooleanField(default=False, help_text='Anyone may ask for an account on the sign-up page; the competition leader accepts or refuses each registration.', verbose_name='open registration'),
        ),
        migrations.CreateModel(
            name='JoinRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('registration', 'registration'), ('invitation', 'invitation')], max_length=20, verbose_name='kind')),
                ('player_kind', models.CharField(blank=True, max_length=10, verbose_name='kind of player')),
                ('name', models.CharField(blank=True, max_length=120, verbose_name='name')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='asked')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='join_requests', to='members.club', verbose_name='club')),
                ('season', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='competition.season', verbose_name='season')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='join_requests', to=settings.AUTH_USER_MODEL, verbose_name='member')),
            ],
            options={
                'verbose_name': 'request to join',
                'verbose_name_plural': 'requests to join',
                'constraints': [models.UniqueConstraint(fields=('user', 'club'), name='join_request_once_per_club')],
            },
        ),
    ]


def registration_per_club(apps, schema_editor):
    """``OPEN_REGISTRATION`` opened every club: the clubs there are now (a new
    installation's first club included) keep what it said; a club added later starts
    closed. A registration still waiting asked every club: it now asks the installation's
    own club (the one of the settings' address), whose leader saw it first."""
    from members.clubs.memo import default_club_fields

    Club = apps.get_model("members", "Club")
    User = apps.get_model("members", "User")
    JoinRequest = apps.get_model("members", "JoinRequest")
    if getattr(settings, "OPEN_REGISTRATION", False):
        Club.objects.update(open_registration=True)
    home = (Club.objects.filter(slug=default_club_fields()["slug"]).first()
            or Club.objects.order_by("pk").first())
    if home is None:
        return
    for user in User.objects.filter(registration_pending=True, is_active=True, memberships__isnull=True):
        JoinRequest.objects.get_or_create(user=user, club=home, defaults={"kind": "registration"})


Migration.operations.append(migrations.RunPython(registration_per_club, migrations.RunPython.noop))
