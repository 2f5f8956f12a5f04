"""A member's own pages at ``me/`` ("Mijn gegevens", URL namespace ``me``): his details,
e-mail address, calendar feed, data, leaving and deleting his account, and his answer to
an invitation to join a club. Pages that compose his account (``members.accounts``) with
the season's reads, so they sit with the other composing pages, above every feature."""
