"""A standings row's explanation lines are stored as arrays of their fields, in the order
of ``KEIZER_LINE`` / ``LADDER_LINE`` (competition/models/season.py), instead of objects
with their keys: the rows stored before are rewritten so (and back, going back).

Only the last snapshot of a half holds lines; the other rows' ``[]`` are left alone. The
snapshots' fingerprints need nothing here: the store's form (``standings.STORE_FORM``)
changed with this, so each season's next recalculation writes its snapshots anew.
"""

from django.db import migrations

# As competition/models/season.py has them (a migration keeps its own copy).
KEIZER_LINE = ("date", "outcome", "opponent", "value", "points", "exact", "over_limit")
LADDER_LINE = ("date", "outcome", "opponent", "delta", "bonus", "points")
BATCH = 500


def _as_array(line):
    if not isinstance(line, dict):
        return line
    fields = LADDER_LINE if "delta" in line else KEIZER_LINE
    return [line.get(name, False if name == "over_limit" else None) for name in fields]


def _as_object(line):
    if isinstance(line, dict):
        return line
    fields = KEIZER_LINE if len(line) == len(KEIZER_LINE) else LADDER_LINE
    return dict(zip(fields, line, strict=True))


def _rewrite(apps, convert):
    Standing = apps.get_model("competition", "Standing")
    rows = Standing.objects.filter(explanation__0__isnull=False).only("pk", "explanation")
    changed = []
    for row in rows.iterator(chunk_size=BATCH):
        lines = [convert(line) for line in row.explanation]
        if lines != row.explanation:
            row.explanation = lines
            changed.append(row)
        if len(changed) >= BATCH:
            Standing.objects.bulk_update(changed, ["explanation"])
            changed = []
    Standing.objects.bulk_update(changed, ["explanation"])


def forward(apps, schema_editor):
    _rewrite(apps, _as_array)


def backward(apps, schema_editor):
    _rewrite(apps, _as_object)


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0036_swissevent_pairing_edition"),
    ]

    operations = [migrations.RunPython(forward, backward)]
