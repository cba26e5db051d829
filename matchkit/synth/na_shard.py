"""Match documents of the ``na`` shard: the older resource shapes (decision 16).

A match has a text ``stats`` value and only a ``rosters`` relationship with two rosters of three;
rosters carry acesEarned, gold, heroKills, krakenCaptures, side ("left/blue" or "right/red"),
turretKills and turretsRemaining; participants carry hero tokens such as ``*Hero010*`` and
the older participant stats (assists, crystalMineCaptures, deaths, farm, items, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from matchkit.sampledata import parameters as p
from matchkit.sampledata.catalogue import Catalogue, patch_at, patch_schedule
from matchkit.sampledata.sampling import Draw, WeightedTable, harmonic_weights
from matchkit.synth.population import Player, Team, build_population
from matchkit.synth.renames import Renames
from matchkit.synth.timeline import format_moment, ref, resource, team_resource

__all__ = ["NaMatches"]

SHARD = "na"
SIDES = ("left/blue", "right/red")
# Display names of the final build's items, as the recorded `items` lists show them.
BUILD_ITEMS = (
    "Weapon3",
    "Crystal3",
    "Boots3",
    "Critical",
    "BreakingPoint",
    "Crystal Matrix",
    "LuckyStrike",
    "Tornado Trigger",
    "Tension Bow",
    "Serpent Mask",
    "Halcyon Chargers",
    "Clockwork",
    "Contraption",
    "Heavy Prism",
    "EveOfHarvest",
    "Broken Myth",
    "Frostburn",
    "Oakheart",
    "Aegis",
    "Fountain of Renewal",
    "Shiversteel",
    "War Treads",
)


@dataclass
class _PlayerRecord:
    """A na player's running account stats (shown in the included player resource)."""

    lifetime_gold: int = 0  # counted in half pieces: shown divided by 2, a float as recorded
    played: int = 0
    played_ranked: int = 0
    wins: int = 0
    win_streak: int = 0
    loss_streak: int = 0
    xp: int = 0


@dataclass(frozen=True)
class _Tally:
    """A participant's share of its roster's kills, deaths and captures."""

    team_kills: int
    kills: int
    deaths: int
    turret_captures: int
    kraken_captures: int


def _spread(draw: Draw, total: int, parts: int) -> list[int]:
    counts = [0] * parts
    for _ in range(total):
        counts[draw.integer(0, parts - 1)] += 1
    return counts


class NaMatches:
    """Builds one na match document (older shape) after another, in time order."""

    def __init__(self, seed: int, catalogue: Catalogue, *, as_of: datetime, days: int) -> None:
        self.draw = Draw(f"{seed}:na:matches")
        self.catalogue = catalogue
        players_draw = Draw(f"{seed}:na:players")
        self.population = build_population(
            players_draw,
            players=p.NA_PLAYER_POOL,
            player_skew=p.PLAYER_SKEW,
            teams=[(p.NA_ROSTER_SIZE, p.NA_TEAM_POOL)],
            team_skew=p.TEAM_SKEW,
            favourites=WeightedTable(range(len(catalogue.heroes.items)), catalogue.heroes.shares),
            new_id=players_draw.uuid,
        )
        self.renames = Renames(seed, SHARD, self.population, as_of=as_of, days=days)
        self.records: dict[str, _PlayerRecord] = {}
        self.modes = WeightedTable(p.NA_GAME_MODES, [mode.share for mode in p.NA_GAME_MODES])
        self.patches = patch_schedule(as_of - timedelta(days=days), as_of, p.FIRST_PATCH_NA)
        self.items = catalogue.items
        skins = harmonic_weights(p.NA_SKINS_PER_HERO - 1, 0)
        default = p.probability(p.NA_DEFAULT_SKIN_SHARE)
        total = sum(skins)
        self.skins = WeightedTable(
            range(p.NA_SKINS_PER_HERO),
            [default] + [(1 - default) * weight / total for weight in skins],
        )

    def _roster_players(
        self, mode: p.NaGameMode, taken: set[str]
    ) -> tuple[Team | None, list[Player]]:
        draw = self.draw
        if draw.chance(mode.team_share):
            for _ in range(5):
                team = draw.table(self.population.team_tables[p.NA_ROSTER_SIZE])
                if not any(member.player_id in taken for member in team.members):
                    taken.update(member.player_id for member in team.members)
                    return team, list(team.members)
        members: list[Player] = []
        while len(members) < p.NA_ROSTER_SIZE:
            player = draw.table(self.population.player_table)
            if player.player_id not in taken:
                taken.add(player.player_id)
                members.append(player)
        return None, members

    def _hero(self, player: Player, picked: set[str]) -> str:
        heroes = self.catalogue.heroes
        hero = heroes.items[player.favourite]
        if hero in picked or not self.draw.chance(p.FAVOURITE_CHARACTER_SHARE):
            hero = self.draw.table(heroes)
            while hero in picked:
                hero = self.draw.table(heroes)
        picked.add(hero)
        return hero

    def _items(self) -> tuple[list[str], dict[str, int], dict[str, int], dict[str, int]]:
        draw = self.draw
        build = sorted(draw.shuffled(range(len(BUILD_ITEMS)))[:6])
        granted = sorted(draw.shuffled(range(len(self.items)))[: draw.integer(8, 18)])
        grants = {self.items[index]: draw.integer(1, 4) for index in granted}
        uses = {item: draw.integer(1, 12) for item in grants if draw.chance("0.35")}
        sells = {item: 1 for item in grants if draw.chance("0.08")}
        return [BUILD_ITEMS[index] for index in build], grants, uses, sells

    def _participant(
        self, player: Player, picked: set[str], *, duration: int, tally: _Tally, winner: bool
    ) -> tuple[dict[str, Any], int, int]:
        """A participant resource, the gold its farm earned and the gold it added to its roster."""
        draw = self.draw
        hero = self._hero(player, picked)
        farm = draw.integer(duration // 2, duration * 3)
        earned = farm * 12 + draw.integer(2000, 6000)
        items, grants, uses, sells = self._items()
        minion_kills = farm // 40 + draw.integer(0, 20)
        jungle_kills = draw.integer(0, minion_kills // 2)
        afk = draw.chance("0.01")
        stats = {
            "assists": sum(1 for _ in range(tally.team_kills - tally.kills) if draw.chance("0.5")),
            "crystalMineCaptures": draw.integer(0, 2),
            "deaths": tally.deaths,
            "farm": farm / 40,
            "firstAfkTime": draw.integer(60, duration) if afk else -1,
            "goldMineCaptures": draw.integer(0, 2),
            "itemGrants": grants,
            "itemSells": sells,
            "itemUses": uses,
            "items": items,
            "jungleKills": jungle_kills,
            "karmaLevel": draw.integer(0, 2),
            "kills": tally.kills,
            "krakenCaptures": tally.kraken_captures,
            "level": draw.integer(1, 30),
            "minionKills": minion_kills,
            "nonJungleMinionKills": minion_kills - jungle_kills,
            "skillTier": draw.integer(-1, 29),
            "skinKey": self.catalogue.hero_skins[hero][draw.table(self.skins)],
            "turretCaptures": tally.turret_captures,
            "wentAfk": afk,
            "winner": winner,
        }
        relationships = {"player": {"data": ref("player", player.player_id)}}
        participant = resource(
            "participant", draw.uuid(), {"actor": hero, "stats": stats}, relationships
        )
        return participant, farm * 12, earned

    def match(self, match_id: str, start: datetime) -> dict[str, Any]:
        draw = self.draw
        mode = draw.table(self.modes)
        duration = draw.triangular(*p.NA_DURATION)
        winner = 0 if draw.chance(mode.left_blue_win) else 1
        surrender = draw.chance(p.NA_SURRENDER_SHARE)
        taken: set[str] = set()
        sides = [self._roster_players(mode, taken) for _ in SIDES]
        minutes = max(1, duration // 60)
        kills = [draw.integer(minutes // 3, minutes), draw.integer(minutes // 4, minutes * 3 // 4)]
        if winner == 1:
            kills.reverse()
        remaining = [0, 0]
        remaining[winner] = draw.integer(1, p.NA_TURRETS)
        remaining[1 - winner] = draw.integer(1, 3) if surrender else 0
        krakens = [draw.integer(0, 2), draw.integer(0, 2)]
        patch = patch_at(self.patches, start).version

        rosters, participants, players, teams = [], [], [], []
        for index, (team, members) in enumerate(sides):
            kills_of = _spread(draw, kills[index], len(members))
            deaths_of = _spread(draw, kills[1 - index], len(members))
            turret_kills = p.NA_TURRETS - remaining[1 - index]
            captures = _spread(draw, turret_kills, len(members))
            kraken_of = _spread(draw, krakens[index], len(members))
            picked: set[str] = set()
            member_refs, gold = [], 0
            for position, player in enumerate(members):
                participant, farm_gold, earned = self._participant(
                    player,
                    picked,
                    duration=duration,
                    tally=_Tally(
                        team_kills=kills[index],
                        kills=kills_of[position],
                        deaths=deaths_of[position],
                        turret_captures=captures[position],
                        kraken_captures=kraken_of[position],
                    ),
                    winner=index == winner,
                )
                gold += earned
                member_refs.append(ref("participant", participant["id"]))
                participants.append(participant)
                players.append(
                    self._player(player, mode, won=index == winner, gold=farm_gold, start=start)
                )
            attributes: dict[str, Any] = {
                "stats": {
                    "acesEarned": draw.integer(0, 3 if index == winner else 1),
                    "gold": gold,
                    "heroKills": kills[index],
                    "krakenCaptures": krakens[index],
                    "side": SIDES[index],
                    "turretKills": turret_kills,
                    "turretsRemaining": remaining[index],
                },
            }
            if not draw.chance(p.NA_MISSING_WON_SHARE):
                attributes["won"] = "true" if index == winner else "false"
            if team is not None:
                teams.append(team_resource(team, shard=SHARD, title_id=p.NA_TITLE_ID))
            team_ref = None if team is None else ref("team", team.team_id)
            relationships = {"participants": {"data": member_refs}, "team": {"data": team_ref}}
            rosters.append(resource("roster", draw.uuid(), attributes, relationships))
        attributes = {
            "createdAt": format_moment(start),
            "duration": duration,
            "gameMode": mode.name,
            "patchVersion": patch,
            "shardId": SHARD,
            "stats": "surrender" if surrender else "victory",
            "titleId": p.NA_TITLE_ID,
        }
        roster_refs = [ref("roster", roster["id"]) for roster in rosters]
        match = resource("match", match_id, attributes, {"rosters": {"data": roster_refs}})
        return {"data": match, "included": rosters + participants + players + teams}

    def _player(
        self, player: Player, mode: p.NaGameMode, *, won: bool, gold: int, start: datetime
    ) -> dict[str, Any]:
        record = self.records.setdefault(player.player_id, _PlayerRecord())
        record.played += 1
        record.played_ranked += mode.name == "ranked"
        record.wins += won
        record.win_streak = record.win_streak + 1 if won else 0
        record.loss_streak = 0 if won else record.loss_streak + 1
        record.lifetime_gold += gold
        record.xp += self.draw.integer(80, 320)
        stats = {
            "level": player.level,
            "lifetimeGold": record.lifetime_gold / 2,
            "lossStreak": record.loss_streak,
            "played": record.played,
            "played_ranked": record.played_ranked,
            "winStreak": record.win_streak,
            "wins": record.wins,
            "xp": record.xp,
        }
        attributes = {
            "name": self.renames.name(player, start),
            "shardId": SHARD,
            "stats": stats,
            "titleId": p.NA_TITLE_ID,
        }
        return resource("player", player.player_id, attributes, {"assets": {"data": []}})
