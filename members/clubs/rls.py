"""PostgreSQL row-level security: the backstop behind the club scoping.

The application's own filters (the club context, docs/architecture.md "Many clubs") keep
one club's rows from another's pages; if a query ever forgets, PostgreSQL itself refuses
to return the rows. Every club-owned table carries a ``club_id`` (Season, and the root
rows that have a ``club`` of their own, natively; every other table a denormalised copy
kept by a trigger from its parent row: migration ``competition.0033_row_level_security``)
and a policy: a row is visible and writable only when ``club_id`` is the connection's
``ranglijst.club_id``, or when ``ranglijst.all_clubs`` is ``on`` (the platform's own
work: the operator's admin, the deadline dispatcher, the command line). A connection
with neither sees no club rows at all.

Policies bind the role the application connects as in production, which must not own
the tables (``manage.py database_app_role``, docs/operations.md); the owner (migrations)
and superusers are exempt, as PostgreSQL has it. The two settings follow the work in hand
without any call site: an execute wrapper on every PostgreSQL connection compares what
the connection has with the club context's (core/tenancy/context.py) before each query and, only
when they differ, sets them on the raw connection (not a Django query: no page's query
count moves). A value set inside a transaction may be rolled back with it: it is
remembered for as long as its transaction (or savepoint) stands, as a commit hook
tells (``_set_in_transaction``), so the queries of one transaction set it once, not
before each query."""

from __future__ import annotations

from typing import Any

from core.tenancy.context import current_club_id, in_all_clubs

__all__ = ["install", "wanted"]

CLUB_SETTING = "ranglijst.club_id"
ALL_SETTING = "ranglijst.all_clubs"

NOTHING = ("", "")


def wanted() -> tuple[str, str]:
    """(club id, all clubs) as the connection should have them for the work in hand."""
    club_id = current_club_id()
    if club_id is not None:
        return (str(club_id), "")
    return ("", "on") if in_all_clubs() else NOTHING


def _guard(execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    connection = context["connection"]
    want = wanted()
    raw = connection.connection
    if _has(connection) != want and not _failed(raw):
        raw.execute(
            "SELECT set_config(%s, %s, false), set_config(%s, %s, false)",
            [CLUB_SETTING, want[0], ALL_SETTING, want[1]],
        )
        if connection.in_atomic_block:
            _set_in_transaction(connection, want)
        else:
            connection.ranglijst_rls = want
    return execute(sql, params, many, context)


def _has(connection: Any) -> tuple[str, str] | None:
    """What the connection has now: the value set in the transaction under way while it
    holds, else the one set outside any (None: unknown)."""
    pending = getattr(connection, "ranglijst_rls_pending", None)
    if pending is not None:
        value, marker = pending
        if connection.in_atomic_block and any(entry[1] is marker
                                              for entry in connection.run_on_commit):
            return value  # type: ignore[no-any-return]
        connection.ranglijst_rls_pending = None
    return getattr(connection, "ranglijst_rls", NOTHING)  # type: ignore[no-any-return]


def _set_in_transaction(connection: Any, want: tuple[str, str]) -> None:
    """A value set inside a transaction holds until that transaction, or the savepoint it
    was set under, is rolled back: exactly as long as a commit hook registered with it is
    still waiting (Django drops the hooks of a rolled-back savepoint or transaction with
    the work). So the hook marks it, and on commit it becomes the connection's own. Each
    query of a transaction checks the mark instead of setting the value again. (A savepoint
    made by hand, ``transaction.savepoint()``, drops no hooks when rolled back: the code
    makes its savepoints with ``atomic`` only.)"""

    def committed() -> None:
        connection.ranglijst_rls = want

    connection.on_commit(committed)
    connection.ranglijst_rls_pending = (want, committed)


def _failed(raw: Any) -> bool:
    """A transaction that has failed takes only its ROLLBACK (TO SAVEPOINT)."""
    from psycopg.pq import TransactionStatus

    return bool(raw.info.transaction_status == TransactionStatus.INERROR)


def install(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: a new PostgreSQL connection starts with neither setting."""
    if connection.vendor != "postgresql":
        return
    connection.ranglijst_rls = NOTHING
    if _guard not in connection.execute_wrappers:
        connection.execute_wrappers.append(_guard)
