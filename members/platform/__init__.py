"""The platform operator's part: a new club handed to its first leader (``services``), the
platform's list of clubs (``views``) and the admin per club (``adminscope``: the admin is
the platform's window, a club's administrator sees his club's rows)."""
