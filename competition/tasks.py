"""Celery tasks of the competition: they receive ids and are safe to run twice."""

from celery import shared_task

from .models import Half
from .standings import recalculate_season


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def recalculate_half(half_id: int) -> int:
    """Recalculate the season of a half (the summer half depends on the winter one)."""
    season_id = Half.objects.filter(pk=half_id).values_list("season_id", flat=True).first()
    if season_id is None:
        return 0
    return recalculate_season(season_id)
