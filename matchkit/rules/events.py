"""The telemetry wire vocabulary: event types and the per-round stats a player carries.

Pure constants from ``docs/telemetry-format.md``, shared by the telemetry reader
(:mod:`matchkit.telemetry.schema`) and the telemetry renderer
(:mod:`matchkit.sampledata.telemetry`).
"""

from __future__ import annotations

__all__ = [
    "DEATH",
    "EVENT_TYPES",
    "MATCH_FINISHED",
    "MATCH_START",
    "PICK",
    "QUEUE",
    "RESERVED_USER",
    "ROUND_EVENT",
    "ROUND_FINISHED",
    "ROYALE_EVENT_TYPES",
    "SHUTDOWN",
    "SPELL",
    "STAT_KEYS",
    "TEAM_UPDATE",
]

QUEUE = "com.stunlock.service.matchmaking.avro.QueueEvent"
MATCH_START = "Structures.MatchStart"
RESERVED_USER = "Structures.MatchReservedUser"
PICK = "Structures.BattleritePickEvent"
ROUND_EVENT = "Structures.RoundEvent"
DEATH = "Structures.DeathEvent"
ROUND_FINISHED = "Structures.RoundFinishedEvent"
SPELL = "Structures.UserRoundSpell"
MATCH_FINISHED = "Structures.MatchFinishedEvent"
TEAM_UPDATE = "com.stunlock.battlerite.team.TeamUpdateEvent"
SHUTDOWN = "Structures.ServerShutdown"
EVENT_TYPES = (
    QUEUE,
    MATCH_START,
    RESERVED_USER,
    PICK,
    ROUND_EVENT,
    DEATH,
    ROUND_FINISHED,
    SPELL,
    MATCH_FINISHED,
    TEAM_UPDATE,
    SHUTDOWN,
)
"""Every event type of a match's telemetry, in the order they occur."""
ROYALE_EVENT_TYPES = (QUEUE, MATCH_START, RESERVED_USER, DEATH, SHUTDOWN)
"""The event types of a Royale match's telemetry: match-level events only (telemetry.md, "What
matchkit decides"; no real Royale file is known)."""

STAT_KEYS = (
    "kills",
    "deaths",
    "score",
    "damageDone",
    "damageReceived",
    "healingDone",
    "healingReceived",
    "disablesDone",
    "disablesReceived",
    "energyGained",
    "energyUsed",
    "timeAlive",
    "abilityUses",
)
"""RoundFinishedEvent.playerStats members after ``userID``, in the order of the real file."""
