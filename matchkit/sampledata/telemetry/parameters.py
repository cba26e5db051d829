"""Every parameter of the telemetry model, in one place (the match model is in ``parameters``).

The telemetry of a match is rendered from its document (:mod:`matchkit.sampledata.telemetry`);
what the document does not fix (per-round splits, picks, queue times, pings, round events, rating
changes) is drawn with these numbers. ``data/README.md`` shows them as tables (written by
``tools/data_readme.py``), so that an analysis can hold its findings against them. They are kept
apart from :mod:`matchkit.sampledata.parameters`: the committed manifest records the match model,
and telemetry is rendered on request, never committed.

Probabilities and factors are decimal strings read as exact fractions.
"""

from __future__ import annotations

from fractions import Fraction

# The constants are read as attributes (``t.SEASON``), by the renderer, the tests and
# tools/data_readme.py; the functions are the module's interface.
__all__ = ["featured_win_rate", "queue_mean_seconds"]

SEASON = 7

# -- battlerites ---------------------------------------------------------------------------------
BATTLERITES_PER_CHARACTER = 10
BATTLERITE_PICKS = 5
# Catalogue weight of the battlerite of rank r (1-based): 1 / (r + BATTLERITE_SKEW); a player's
# five picks are drawn one after another without replacement by these weights.
BATTLERITE_SKEW = 2
LOADOUT_TYPES = (("HOMEMADE", "0.7"), ("MODIFIED_HOMEMADE", "0.3"))
# The finding: one battlerite of one character goes with winning. Its pick probability depends
# on the match result of the player's roster (the other four picks are drawn from the rest).
FEATURED_CHARACTER = "Ashwind"
FEATURED_BATTLERITE_RANK = 4
FEATURED_PICK_WHEN_WON = "0.70"
FEATURED_PICK_WHEN_LOST = "0.35"

# -- abilities and round events ------------------------------------------------------------------
ABILITIES_PER_CHARACTER = 8
# Per player and round: events per minute alive (a count of floor(rate * t) plus one with the
# remaining fraction as probability, so the mean is exactly rate * minutes alive).
ROUND_EVENT_RATES = (
    ("ENERGY_ABILITY_USED", "0.9"),
    ("ULTIMATE_USED", "0.35"),
    ("RUNE_LASTHIT", "0.25"),
    ("HEALTH_SHARD_PICKUP", "0.6"),
    ("ENERGY_SHARD_PICKUP", "0.3"),
)
# Every player has one MOUNT_DURATION event (14-23 s) at the start of each round; one player a
# round gets MOUNTS_AFTER_ELEVATOR with this probability; each death of an ally still standing
# gives each living ally an ALLY_DEATH_ENERGY_PICKUP (50, 75 or 100) with this probability.
MOUNTS_AFTER_ELEVATOR_SHARE = "0.5"
ALLY_DEATH_PICKUP_SHARE = "0.5"
# UserRoundSpell events per player and round, uniform in [low, high].
USER_ROUND_SPELLS = (3, 8)

# -- per-round stats the participant does not carry ------------------------------------------------
# disablesDone per minute alive by the character's role; each round's value is jittered by a
# factor uniform in [1 - SPLIT_JITTER, 1 + SPLIT_JITTER] (mean 1).
DISABLES_PER_MINUTE = (("melee", 45), ("ranged", 35), ("support", 55))
ENERGY_PER_SECOND = "2.4"
SPLIT_JITTER = "0.2"
# characterArchetype of QueueEvent by role (telemetry.md: 2 melee, 4 ranged, 8 support).
ARCHETYPES = (("melee", 2), ("ranged", 4), ("support", 8))

# -- queue times ------------------------------------------------------------
# League of a player (0..6), drawn once per player id with these weights (a team: its league).
LEAGUES = (
    ("0", "0.22"),
    ("1", "0.22"),
    ("2", "0.19"),
    ("3", "0.15"),
    ("4", "0.11"),
    ("5", "0.07"),
    ("6", "0.04"),
)
# timeInQueue (s) = base of the player's league * factor of the match region
#                   * (night factor in the night region at night) * spread,
# spread triangular (low, mode, high), mean (low + mode + high) / 3.
QUEUE_SECONDS_BY_LEAGUE = (40, 45, 55, 70, 90, 120, 170)
QUEUE_REGION_FACTOR = (
    ("eu-west", "1.0"),
    ("na-east", "1.1"),
    ("na-west", "1.3"),
    ("south-america", "1.6"),
    ("asia", "1.2"),
    ("oceania", "1.8"),
)
QUEUE_NIGHT_REGION = "eu-west"
# The match's start hour (UTC) in [low, high): night in the night region.
QUEUE_NIGHT_HOURS_UTC = (0, 6)
QUEUE_NIGHT_FACTOR = "2.5"
QUEUE_SPREAD = ("0.4", "0.8", "2.2")

# -- pings -----------------------------------------------------------------------------------------
# Latency (ms) of a player to the match's region, triangular (low, mode, high), by that region;
# other regions of unknown names use the first row's numbers.
PING_MS = (
    ("eu-west", (15, 30, 70)),
    ("na-east", (15, 35, 80)),
    ("na-west", (15, 35, 80)),
    ("south-america", (30, 60, 140)),
    ("asia", (25, 50, 120)),
    ("oceania", (25, 55, 130)),
)
# Each QueueEvent samples this many regions: the match region and others, each other one
# slower by a triangular extra (low, mode, high) ms; sorted by latency.
REGION_SAMPLES = 3
OTHER_REGION_EXTRA_PING_MS = (20, 60, 160)
PREFERRED_REGION_SHARE = "0.85"

# -- ranked teams and the server --------------------------------------------------
# divisionRating change of a ranked team: +low..high if it won, -low..high if it lost (clamped
# to 0..99; league and division stay).
RATING_CHANGE = (12, 24)
# ServerShutdown.matchTime = matchLength + uniform extra seconds in [low, high].
SHUTDOWN_EXTRA_SECONDS = (5, 15)


def featured_win_rate(base_win_rate: Fraction | str, *, picked: bool = True) -> Fraction:
    """Win rate of the featured character's players who picked (or not) the featured battlerite.

    Bayes' rule from the pick probabilities when won and when lost, given the character's win
    rate ``base_win_rate``:
    ``P(won | picked) = q_w * pi / (q_w * pi + q_l * (1 - pi))``.

    Example:
        >>> featured_win_rate("1/2")
        Fraction(2, 3)
    """
    base = Fraction(base_win_rate)
    won = Fraction(FEATURED_PICK_WHEN_WON)
    lost = Fraction(FEATURED_PICK_WHEN_LOST)
    if not picked:
        won, lost = 1 - won, 1 - lost
    return won * base / (won * base + lost * (1 - base))


def queue_mean_seconds(league: int, region: str, *, night: bool = False) -> Fraction:
    """The mean timeInQueue (s) of a player of ``league`` queueing for ``region``."""
    factor = Fraction(dict(QUEUE_REGION_FACTOR).get(region, "1"))
    if night and region == QUEUE_NIGHT_REGION:
        factor *= Fraction(QUEUE_NIGHT_FACTOR)
    spread = sum((Fraction(value) for value in QUEUE_SPREAD), Fraction(0)) / 3
    return QUEUE_SECONDS_BY_LEAGUE[league] * factor * spread
