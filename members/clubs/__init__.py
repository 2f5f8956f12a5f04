"""The club as a layer below every feature (with ``core.tenancy`` under it and the models
``Club``, ``ClubDomain`` and ``Membership`` in ``members.models``): which club a request,
a task or a command is for (``middleware``, ``addresses``, ``memo``, ``commands``), the
apps' way into the club context (``context``), PostgreSQL's row security following it
(``rls``), the club's roles and the permission backend (``roles``, ``backends``,
``decorators``) and the person's clubs (``selectors``). It imports no feature:
``pyproject.toml``'s contract "The club is a layer below every feature" says so."""
