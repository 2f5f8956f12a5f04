"""The club scoping's old address: it is ``core.tenancy.scoping`` now (``core`` scopes its own
outbox rows and imports no app). Kept as a re-export because every model module imports
it from here."""

from core.tenancy.scoping import OutOfScopeQuerySet, ScopedManager, club_filter, club_path

__all__ = ["OutOfScopeQuerySet", "ScopedManager", "club_filter", "club_path"]
