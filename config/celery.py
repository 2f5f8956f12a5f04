"""The Celery app: settings from Django's, namespace ``CELERY_``; tasks found per app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("ranglijst")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Feature packages inside an app keep their tasks in their own module.
app.autodiscover_tasks(["competition.ratings"])
