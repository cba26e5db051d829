"""The players and teams that recur across a data set's matches, with skewed activity."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from matchkit.sampledata.sampling import Draw, WeightedTable, harmonic_weights

__all__ = ["Player", "Population", "Team", "build_population"]

_SYLLABLES = (
    "ka",
    "ri",
    "to",
    "mi",
    "zen",
    "dar",
    "vel",
    "nor",
    "sha",
    "lu",
    "qui",
    "bro",
    "fen",
    "gal",
    "hex",
    "ix",
    "jo",
    "ken",
    "lor",
    "mox",
    "nyx",
    "ori",
    "pa",
    "rho",
    "sol",
    "tur",
    "ul",
    "vyn",
    "wex",
    "yor",
    "zu",
    "ash",
    "bel",
    "cor",
    "dun",
    "eth",
)
_TEAM_WORDS = (
    "Iron",
    "Night",
    "Storm",
    "Ember",
    "Frost",
    "Golden",
    "Silent",
    "Crimson",
    "Azure",
    "Wild",
    "Lunar",
    "Solar",
    "Rogue",
    "Swift",
    "Hollow",
    "Vivid",
    "Wolves",
    "Ravens",
    "Titans",
    "Foxes",
    "Vipers",
    "Comets",
    "Owls",
    "Lions",
    "Drakes",
    "Sparks",
    "Tides",
    "Blades",
    "Ghosts",
    "Kings",
)


@dataclass(frozen=True)
class Player:
    """A registered player.

    Attributes:
        player_id: the player resource id (numeric string on global, UUID on na).
        name: a unique display name.
        level: the account level shown in the player's stats.
        favourite: index of the player's favourite character or hero.
    """

    player_id: str
    name: str
    level: int
    favourite: int


@dataclass(frozen=True)
class Team:
    """A team that enters matchmaking together: always the same registered members."""

    team_id: str
    name: str
    members: tuple[Player, ...]
    league: int
    division: int


@dataclass(frozen=True)
class Population:
    """The players and teams of one shard, each with a table to draw them by activity."""

    players: tuple[Player, ...]
    player_table: WeightedTable[Player]
    teams: dict[int, tuple[Team, ...]]
    team_tables: dict[int, WeightedTable[Team]]


def _unique_name(draw: Draw, used: set[str]) -> str:
    while True:
        name = "".join(draw.pick(_SYLLABLES) for _ in range(draw.integer(2, 3))).capitalize()
        if draw.chance("0.5"):
            name += str(draw.integer(1, 999))
        if name not in used:
            used.add(name)
            return name


def _unique_team_name(draw: Draw, used: set[str]) -> str:
    while True:
        name = f"{draw.pick(_TEAM_WORDS)} {draw.pick(_TEAM_WORDS)}"
        if draw.chance("0.3"):
            name += f" {draw.integer(2, 99)}"
        if name not in used and name.split()[0] != name.split()[1]:
            used.add(name)
            return name


def build_population(
    draw: Draw,
    *,
    players: int,
    player_skew: int,
    teams: Sequence[tuple[int, int]],
    team_skew: int,
    favourites: WeightedTable[int],
    new_id: Callable[[], str],
) -> Population:
    """Draw a shard's players and teams.

    Args:
        draw: the shard's random source.
        players: how many registered players.
        player_skew: activity weight of the player of rank r is 1 / (r + player_skew).
        teams: (team size, how many teams) pairs.
        team_skew: activity weight of the team of rank r is 1 / (r + team_skew).
        favourites: the table a player's favourite character is drawn from.
        new_id: makes a fresh player id.
    """
    names: set[str] = set()
    ids: set[str] = set()
    pool: list[Player] = []
    while len(pool) < players:
        player_id = new_id()
        if player_id in ids:
            continue
        ids.add(player_id)
        pool.append(
            Player(
                player_id, _unique_name(draw, names), draw.integer(1, 60), draw.table(favourites)
            )
        )
    player_table = WeightedTable(pool, harmonic_weights(len(pool), player_skew))
    team_names: set[str] = set()
    by_size: dict[int, tuple[Team, ...]] = {}
    for size, count in teams:
        made = []
        for _ in range(count):
            members: list[Player] = []
            while len(members) < size:
                member = draw.table(player_table)
                if member not in members:
                    members.append(member)
            made.append(
                Team(
                    team_id=draw.uuid(),
                    name=_unique_team_name(draw, team_names),
                    members=tuple(members),
                    league=draw.integer(0, 6),
                    division=draw.integer(1, 5),
                )
            )
        by_size[size] = tuple(made)
    return Population(
        players=tuple(pool),
        player_table=player_table,
        teams=by_size,
        team_tables={
            size: WeightedTable(made, harmonic_weights(len(made), team_skew))
            for size, made in by_size.items()
        },
    )
