"""The club's roles, as Groups with explicit permissions (created by a data migration).

A role is the set of things a person may do; the permission codenames live on the
competition models (``Meta.permissions``) so checks read as ``user.has_perm(...)``.
"""

PLAYER = "player"
ARBITER = "arbiter"
LEADER = "leader"
ADMINISTRATOR = "administrator"

ROLES = (PLAYER, ARBITER, LEADER, ADMINISTRATOR)

# app_label.codename for each role; every later role includes what it needs explicitly.
ROLE_PERMISSIONS: dict[str, tuple[str, ...]] = {
    PLAYER: (
        "competition.register_self",
    ),
    ARBITER: (
        "competition.register_self",
        "competition.enter_results",
    ),
    LEADER: (
        "competition.register_self",
        "competition.enter_results",
        "competition.manage_registrations",
        "competition.manage_pairings",
        "competition.approve_tempo",
        "competition.manage_calendar",
    ),
    ADMINISTRATOR: (
        "competition.register_self",
        "competition.enter_results",
        "competition.manage_registrations",
        "competition.manage_pairings",
        "competition.approve_tempo",
        "competition.manage_calendar",
        "competition.manage_season",
        "competition.override_eligibility",
    ),
}
