"""Every parameter of the sample data generator, in one place.

The generator (:mod:`matchkit.synth`) reads its numbers from here and nowhere else, and
:func:`parameters_record` writes them into the data set's manifest, so that analyses can hold
their findings against the model that produced the data (``data/README.md`` shows them as
tables).

The telemetry model's parameters (per-round events, battlerites, queue times, pings) are in
:mod:`matchkit.sampledata.telemetry.parameters`: telemetry is generated on request, never written
into the data set, so its numbers stay out of the manifest.

Probabilities are written as decimal strings and read as exact :class:`fractions.Fraction`
values: the implied match-level win probabilities are then exact, and no float rounding of the
parameters can differ between platforms.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Literal

# The constants are read as attributes (``p.MODES``), by the generator, the telemetry renderer,
# the synthetic archive, the CLI's defaults and tools/data_readme.py; the types and functions are
# the module's interface.
__all__ = [
    "CosmeticSlot",
    "Mode",
    "NaGameMode",
    "first_to_win_probability",
    "parameters_record",
    "probability",
]

GENERATOR = "matchkit.synth/1"
#: The seed of the committed sample set (write_dataset's default).
DEFAULT_SEED = 20261031
#: The moment the sample set ends at.
DEFAULT_AS_OF = "2026-10-31T00:00:00Z"
#: The days before DEFAULT_AS_OF its matches spread over.
DAYS = 120
#: The sample set's matches of the global shard.
GLOBAL_MATCHES = 4200
#: The sample set's matches of the na shard (the older shape).
DEFAULT_NA_MATCHES = 600
# The game's vocabulary (characters, cosmetics, maps) does not depend on the data set's seed.
CATALOGUE_SEED = "matchkit-catalogue-1"

GLOBAL_TITLE_ID = "example-studio-arena"
# Where the global shard's documents point their telemetry asset: a CDN that serves nothing (the
# reference service serves the file under its own address instead, matchkit.sampledata.telemetry).
ASSET_BASE_URL = "https://cdn.example.com"
NA_TITLE_ID = "example-studio-legacy"

# No match starts in the last hour before as_of, so that every match and its telemetry asset
# (created when the match has ended) lie before as_of.
END_MARGIN_SECONDS = 3600

# Relative weight of each UTC hour of the day for match start times (a daily cycle).
HOURLY_ACTIVITY = (5, 4, 3, 2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 19, 18, 15, 11, 7)

# Server regions (match stats.region) and their shares of global matches.
REGIONS = (
    ("eu-west", "0.34"),
    ("na-east", "0.22"),
    ("na-west", "0.12"),
    ("south-america", "0.10"),
    ("asia", "0.14"),
    ("oceania", "0.08"),
)

# A new patch every few weeks: the gaps in days between patches, cycled; the first patch
# started before the data set's first day. Versions count up from FIRST_PATCH.
PATCH_INTERVALS_DAYS = (19, 23, 21, 16, 25, 20)
FIRST_PATCH_GLOBAL = (2, 4)
FIRST_PATCH_NA = (3, 1)
FIRST_PATCH_OFFSET_DAYS = -6

ARENA_ROUNDS_TO_WIN = 3
BOT_USER_ID = 0


def probability(text: str) -> Fraction:
    """An exact probability from its decimal string."""
    return Fraction(text)


@dataclass(frozen=True)
class Mode:
    """One server type of the global shard and how its matches are generated.

    Attributes:
        server_type: tags.serverType and stats.type.
        game: attributes.game ("Arena" or "Royale").
        share: share of global matches.
        rosters: rosters per match.
        roster_size: participants per roster.
        ranked_share: share of matches tagged RANKED (the rest UNRANKED).
        side_one_round_win: probability that side 1 wins a round (Arena); Royale has none.
        team_share: probability that a roster entered as a team, by ranking type.
        duration: (low, mode, high) seconds of a triangular distribution: of one round for
            Arena, of the whole match for Royale.
    """

    server_type: str
    game: Literal["Arena", "Royale"]
    share: str
    rosters: int
    roster_size: int
    ranked_share: str
    side_one_round_win: str | None
    team_share: tuple[tuple[str, str], ...]
    duration: tuple[int, int, int]


def _mode(
    server_type: str,
    game: Literal["Arena", "Royale"],
    share: str,
    rosters: int,
    roster_size: int,
    ranked_share: str,
    side_one_round_win: str | None,
    team_ranked: str,
    team_unranked: str,
    duration: tuple[int, int, int],
) -> Mode:
    """A Mode from one row of the table below (the team shares as two columns)."""
    team_share = (("RANKED", team_ranked), ("UNRANKED", team_unranked))
    return Mode(
        server_type,
        game,
        share,
        rosters,
        roster_size,
        ranked_share,
        side_one_round_win,
        team_share,
        duration,
    )


# One mode a row: server_type, game, share, rosters, roster_size, ranked_share,
# side_one_round_win, team_share of RANKED and of UNRANKED, duration (low, mode, high).
MODES = (
    _mode("QUICK2V2", "Arena", "0.40", 2, 2, "0.40", "0.52", "0.25", "0.10", (45, 90, 210)),
    _mode("QUICK3V3", "Arena", "0.35", 2, 3, "0.50", "0.545", "0.25", "0.10", (50, 105, 240)),
    _mode("ROYALRUMBLESOLO", "Royale", "0.13", 8, 1, "0.30", None, "0", "0", (360, 600, 900)),
    _mode("ROYALRUMBLEDUO", "Royale", "0.12", 5, 2, "0.30", None, "0.15", "0.15", (360, 600, 900)),
)

# Arena match duration = intro + sum over rounds of (round duration + break), in seconds.
ARENA_INTRO_SECONDS = 40
ARENA_ROUND_BREAK_SECONDS = 35
# In a round his side won, a participant dies with this probability (never the whole side).
ARENA_WINNER_DEATH = "0.25"

# Who fills a participant slot that is not part of a team, by ranking type.
SLOT_KINDS = (
    ("RANKED", (("registered", "1"), ("anonymous", "0"), ("bot", "0"))),
    ("UNRANKED", (("registered", "0.77"), ("anonymous", "0.15"), ("bot", "0.08"))),
)
# Share of registered and anonymous participants whose detailed stats were not recorded: their
# stats hold only the cosmetics and side (the recorded samples show about one in six).
COSMETICS_ONLY_SHARE = "0.08"
# Share of registered participants whose stats.userID is an integer, not a string (as recorded).
INTEGER_USER_ID_SHARE = "0.03"

CHARACTER_COUNT = 30
# Popularity weight of the character of rank r (1-based): 1 / (r + CHARACTER_SKEW).
CHARACTER_SKEW = 3
CHARACTER_ROLES = (("melee", "0.4"), ("ranged", "0.4"), ("support", "0.2"))
# A registered player plays their favourite character with this probability.
FAVOURITE_CHARACTER_SHARE = "0.35"


@dataclass(frozen=True)
class CosmeticSlot:
    """A cosmetic stat: catalogue size and how often its default item is picked.

    Attributes:
        name: the participant stat (attachment, emote, mount, outfit).
        items: items per catalogue, the default included.
        per_character: one catalogue per character (else one shared by all).
        default_share: probability of the default item; the other items are drawn with
            weight 1 / rank (rank 1 = the most popular non-default item).
    """

    name: str
    items: int
    per_character: bool
    default_share: str


COSMETIC_SLOTS = (
    CosmeticSlot("attachment", 6, per_character=True, default_share="0.55"),
    CosmeticSlot("emote", 6, per_character=True, default_share="0.60"),
    CosmeticSlot("mount", 20, per_character=False, default_share="0.40"),
    CosmeticSlot("outfit", 8, per_character=True, default_share="0.50"),
)

ARENA_MAPS = 8
GLOBAL_PLAYER_POOL = 3000
# A global player's stats, as the real service keyed them: "picture" and "title" (profile ids,
# fixed per player, drawn from these ranges), then lifetime figures under the real service's
# stackable ids (pybattlerite's table names them: 2 Wins, 3 Losses, 26 AccountLevel).
PLAYER_PICTURES = (39001, 39060)
PLAYER_TITLES = (60001, 60040)
PLAYER_STAT_KEYS = {"2": "wins", "3": "losses", "26": "account level"}
# Activity weight of the player of rank r (1-based): 1 / (r + PLAYER_SKEW).
PLAYER_SKEW = 10
TEAM_POOL = (("2", 250), ("3", 200))
TEAM_SKEW = 5

# The na shard (older shape).


@dataclass(frozen=True)
class NaGameMode:
    """A game mode of the na shard.

    Attributes:
        name: attributes.gameMode.
        share: share of na matches.
        left_blue_win: probability that the "left/blue" roster wins.
        team_share: probability that a roster entered as a team.
    """

    name: str
    share: str
    left_blue_win: str
    team_share: str


NA_GAME_MODES = (
    NaGameMode("casual", "0.55", left_blue_win="0.52", team_share="0.10"),
    NaGameMode("ranked", "0.45", left_blue_win="0.55", team_share="0.25"),
)
NA_ROSTER_SIZE = 3
NA_DURATION = (900, 1450, 2400)
NA_SURRENDER_SHARE = "0.15"
# Share of na rosters delivered without a `won` attribute (as some recorded ones are).
NA_MISSING_WON_SHARE = "0.05"
NA_HEROES = tuple(f"*Hero{number:03d}*" for number in range(1, 25))
NA_HERO_SKEW = 4
NA_SKINS_PER_HERO = 4
NA_DEFAULT_SKIN_SHARE = "0.45"
NA_PLAYER_POOL = 1200
NA_TEAM_POOL = 120
NA_TURRETS = 5

# Renamed players, per shard: (the player's activity rank, when as a fraction of the window,
# the rank of the player whose former name they take, or 0 for a new name). A name belongs to
# one player at a time, so a name is taken only after its holder gave it up.
RENAMES = {"global": ((1, "0.4", 0), (6, "0.65", 1)), "na": ((1, "0.5", 0),)}


def first_to_win_probability(
    round_win: Fraction, rounds_to_win: int = ARENA_ROUNDS_TO_WIN
) -> Fraction:
    """Exact probability of winning a first-to-``rounds_to_win`` match from a round probability.

    Rounds are independent with probability ``round_win``; the match is won by winning
    ``rounds_to_win`` rounds before the opponent does:
    ``sum_k C(n-1+k, k) p^n (1-p)^k`` for ``k`` in ``0..n-1``.

    Example:
        >>> first_to_win_probability(Fraction(1, 2))
        Fraction(1, 2)
    """
    lose = 1 - round_win
    return sum(
        (
            comb(rounds_to_win - 1 + lost, lost) * round_win**rounds_to_win * lose**lost
            for lost in range(rounds_to_win)
        ),
        Fraction(0),
    )


def _pairs(pairs: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return {name: share for name, share in pairs}


def _renames(shard: str) -> list[dict[str, object]]:
    keys = ("rank", "at_window_fraction", "takes_name_of_rank")
    return [dict(zip(keys, rename, strict=True)) for rename in RENAMES[shard]]


def parameters_record() -> dict[str, object]:
    """All parameters as JSON-ready data for the manifest (derived values included)."""
    modes = []
    for mode in MODES:
        record: dict[str, object] = {
            "server_type": mode.server_type,
            "game": mode.game,
            "share": mode.share,
            "rosters": mode.rosters,
            "roster_size": mode.roster_size,
            "ranked_share": mode.ranked_share,
            "team_share": _pairs(mode.team_share),
            "duration_triangular": {
                "applies_to": "round" if mode.game == "Arena" else "match",
                "low": mode.duration[0],
                "mode": mode.duration[1],
                "high": mode.duration[2],
            },
        }
        if mode.side_one_round_win is not None:
            match_win = first_to_win_probability(probability(mode.side_one_round_win))
            record["side_one_round_win"] = mode.side_one_round_win
            record["side_one_match_win"] = float(match_win)
            record["side_one_match_win_exact"] = f"{match_win.numerator}/{match_win.denominator}"
        else:
            record["winner"] = "uniform over rosters (no side advantage)"
        modes.append(record)
    return {
        "generator": GENERATOR,
        "catalogue_seed": CATALOGUE_SEED,
        "end_margin_seconds": END_MARGIN_SECONDS,
        "hourly_activity_utc": list(HOURLY_ACTIVITY),
        "regions": _pairs(REGIONS),
        "patches": {
            "intervals_days": list(PATCH_INTERVALS_DAYS),
            "first_global": ".".join(map(str, FIRST_PATCH_GLOBAL)),
            "first_na": ".".join(map(str, FIRST_PATCH_NA)),
            "first_offset_days": FIRST_PATCH_OFFSET_DAYS,
        },
        "global": {
            "title_id": GLOBAL_TITLE_ID,
            "modes": modes,
            "arena": {
                "rounds_to_win": ARENA_ROUNDS_TO_WIN,
                "intro_seconds": ARENA_INTRO_SECONDS,
                "round_break_seconds": ARENA_ROUND_BREAK_SECONDS,
                "winner_death_probability": ARENA_WINNER_DEATH,
                "score_formula": "100 * kills + (damageDone + healingDone) // 2",
            },
            "slot_kinds": {ranking: _pairs(kinds) for ranking, kinds in SLOT_KINDS},
            "cosmetics_only_share": COSMETICS_ONLY_SHARE,
            "integer_user_id_share": INTEGER_USER_ID_SHARE,
            "characters": {
                "count": CHARACTER_COUNT,
                "weight": f"1 / (rank + {CHARACTER_SKEW})",
                "roles": _pairs(CHARACTER_ROLES),
                "favourite_share": FAVOURITE_CHARACTER_SHARE,
            },
            "cosmetics": [
                {
                    "slot": slot.name,
                    "items": slot.items,
                    "per_character": slot.per_character,
                    "default_share": slot.default_share,
                    "other_weight": "1 / rank",
                }
                for slot in COSMETIC_SLOTS
            ],
            "arena_maps": ARENA_MAPS,
            "player_pool": GLOBAL_PLAYER_POOL,
            "player_weight": f"1 / (rank + {PLAYER_SKEW})",
            "renames": _renames("global"),
            "player_stats": {
                "picture": dict(zip(("low", "high"), PLAYER_PICTURES, strict=True)),
                "title": dict(zip(("low", "high"), PLAYER_TITLES, strict=True)),
                **PLAYER_STAT_KEYS,
            },
            "team_pool": {size: count for size, count in TEAM_POOL},
            "team_weight": f"1 / (rank + {TEAM_SKEW})",
        },
        "na": {
            "title_id": NA_TITLE_ID,
            "game_modes": [
                {
                    "name": mode.name,
                    "share": mode.share,
                    "left_blue_win": mode.left_blue_win,
                    "team_share": mode.team_share,
                }
                for mode in NA_GAME_MODES
            ],
            "roster_size": NA_ROSTER_SIZE,
            "duration_triangular": dict(zip(("low", "mode", "high"), NA_DURATION, strict=True)),
            "surrender_share": NA_SURRENDER_SHARE,
            "missing_won_share": NA_MISSING_WON_SHARE,
            "heroes": len(NA_HEROES),
            "hero_weight": f"1 / (rank + {NA_HERO_SKEW})",
            "skins_per_hero": NA_SKINS_PER_HERO,
            "default_skin_share": NA_DEFAULT_SKIN_SHARE,
            "player_pool": NA_PLAYER_POOL,
            "renames": _renames("na"),
            "team_pool": NA_TEAM_POOL,
            "turrets": NA_TURRETS,
        },
    }
