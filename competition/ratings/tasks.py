"""Celery entry point: read an uploaded rating list (a service does the work)."""

from celery import shared_task

from . import services


@shared_task(name="competition.ratings.tasks.read_rating_list", acks_late=True)
def read_rating_list(import_id: int) -> str:
    """Read, filter and match a stored list; the page polls its progress row."""
    ri = services.rating_import_read(import_id=import_id)
    return ri.status if ri else "missing"


@shared_task(name="competition.ratings.tasks.end_stuck_rating_imports", acks_late=True)
def end_stuck_rating_imports() -> list[int]:
    """Catch-up (beat): imports left "being read" by a lost task end with a message."""
    return services.rating_imports_end_stuck()
