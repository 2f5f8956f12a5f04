"""The club as a layer below every feature: the one club context (``context``), the club
scoping of the queries (``scoping``), PostgreSQL's row-level security derived from the same
declaration (``rowsecurity``) and a club's time zone (``timezones``). It imports no app.

This package's own module is empty on purpose: ``manage.py`` imports
``core.tenancy.context`` before Django's settings load, which an import of the scoping
here would break."""
