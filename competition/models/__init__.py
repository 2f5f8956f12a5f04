"""The app's models, each defined in its feature's room and re-exported here, so
``competition.models.X`` and every migration keep working (docs/architecture.md).
"""

from __future__ import annotations

from competition.models.audit import (  # noqa: F401
    AuditAction,
    AuditRecord,
)
from competition.models.events import (  # noqa: F401
    EventKind,
    PairingEdition,
    RoundStatus,
    SwissEntrant,
    SwissEvent,
    SwissGame,
    SwissRound,
    TiebreakRules,
)
from competition.models.prizes import (  # noqa: F401
    EligibilityOverride,
    PlayoffBracket,
    PlayoffDate,
    PlayoffResult,
    Prize,
    PrizeKind,
)
from competition.models.ratings import (  # noqa: F401
    RatingImport,
    RatingImportStatus,
)
from competition.models.season import (  # noqa: F401
    Attendance,
    Bye,
    ByePolicy,
    ClubDutyRequest,
    ClubDutyState,
    Competition,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    GameQuerySet,
    Half,
    HalfKind,
    Player,
    PlayerKind,
    RatingKind,
    Registration,
    Result,
    Season,
    Standing,
    StandingsSnapshot,
    StandingsState,
    System,
    Tempo,
    still_member,
)
from competition.models.website import (  # noqa: F401
    ClubWebsite,
)

__all__ = [
    "System",
    "ByePolicy",
    "Season",
    "RatingKind",
    "Competition",
    "HalfKind",
    "Half",
    "EveningKind",
    "EveningStatus",
    "Evening",
    "PlayerKind",
    "Player",
    "still_member",
    "Attendance",
    "Registration",
    "ClubDutyState",
    "ClubDutyRequest",
    "Result",
    "Tempo",
    "GameQuerySet",
    "Game",
    "Bye",
    "StandingsSnapshot",
    "StandingsState",
    "Standing",
    "AuditAction",
    "AuditRecord",
    "EventKind",
    "PairingEdition",
    "TiebreakRules",
    "SwissEvent",
    "SwissEntrant",
    "RoundStatus",
    "SwissRound",
    "SwissGame",
    "EligibilityOverride",
    "PrizeKind",
    "Prize",
    "PlayoffBracket",
    "PlayoffResult",
    "PlayoffDate",
    "RatingImportStatus",
    "RatingImport",
    "ClubWebsite",
]
