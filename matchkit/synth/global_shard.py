"""Match documents of the ``global`` shard (the current shape): Arena and Royale."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from matchkit.sampledata import parameters as p
from matchkit.sampledata.catalogue import Catalogue, Character, patch_at, patch_schedule
from matchkit.sampledata.sampling import Draw, WeightedTable
from matchkit.synth.combat import ArenaRound, Fighter, play_arena, play_royale
from matchkit.synth.population import Player, Population, Team, build_population
from matchkit.synth.renames import Renames
from matchkit.synth.timeline import format_moment, ref, resource, team_resource

__all__ = ["GlobalMatches"]

SHARD = "global"


@dataclass(frozen=True)
class Seat:
    """Who fills a participant slot: a registered player, an anonymous user or a bot."""

    kind: str
    player: Player | None = None
    user_id: str | None = None


@dataclass
class _Roster:
    """A roster while its match is generated: who sits where, and (once played) its result."""

    side: int
    team: Team | None
    members: list[tuple[Seat, Character]]
    fighters: list[Fighter]
    stats: dict[str, int] = field(default_factory=dict)
    won: bool = False


class GlobalMatches:
    """Builds one global match document after another, in time order."""

    def __init__(self, seed: int, catalogue: Catalogue, *, as_of: datetime, days: int) -> None:
        self.draw = Draw(f"{seed}:global:matches")
        self.catalogue = catalogue
        favourites = WeightedTable(
            range(len(catalogue.characters)), [c.popularity for c in catalogue.characters]
        )
        players_draw = Draw(f"{seed}:global:players")
        self.population: Population = build_population(
            players_draw,
            players=p.GLOBAL_PLAYER_POOL,
            player_skew=p.PLAYER_SKEW,
            teams=[(int(size), count) for size, count in p.TEAM_POOL],
            team_skew=p.TEAM_SKEW,
            favourites=favourites,
            new_id=players_draw.numeric_id,
        )
        self.player_ids = {player.player_id for player in self.population.players}
        self.renames = Renames(seed, SHARD, self.population, as_of=as_of, days=days)
        # Profile ids from their own stream, so that every other draw is as it was.
        profiles = Draw(f"{seed}:global:profiles")
        self.profiles = {
            player.player_id: (
                profiles.integer(*p.PLAYER_PICTURES),
                profiles.integer(*p.PLAYER_TITLES),
            )
            for player in self.population.players
        }
        self.results: dict[str, tuple[int, int]] = {}  # player id -> (wins, losses) so far
        self.modes = WeightedTable(p.MODES, [mode.share for mode in p.MODES])
        self.regions = WeightedTable(*zip(*p.REGIONS, strict=True))
        self.slot_kinds = {
            ranking: WeightedTable(*zip(*kinds, strict=True)) for ranking, kinds in p.SLOT_KINDS
        }
        self.patches = patch_schedule(as_of - timedelta(days=days), as_of, p.FIRST_PATCH_GLOBAL)

    # -- who plays -------------------------------------------------------------------------

    def _team(self, size: int, taken: set[str]) -> Team | None:
        table = self.population.team_tables.get(size)
        if table is None:
            return None
        for _ in range(5):
            team = self.draw.table(table)
            if not any(member.player_id in taken for member in team.members):
                return team
        return None

    def _seat(self, ranking: str, taken: set[str]) -> Seat:
        kind = self.draw.table(self.slot_kinds[ranking])
        if kind == "registered":
            while True:
                player = self.draw.table(self.population.player_table)
                if player.player_id not in taken:
                    taken.add(player.player_id)
                    return Seat("registered", player=player)
        if kind == "anonymous":
            while True:
                user_id = self.draw.numeric_id()
                if user_id not in self.player_ids:
                    return Seat("anonymous", user_id=user_id)
        return Seat("bot")

    def _character(self, seat: Seat, picked: set[str]) -> Character:
        characters = self.catalogue.characters
        if (
            seat.player is not None
            and self.draw.chance(p.FAVOURITE_CHARACTER_SHARE)
            and characters[seat.player.favourite].actor not in picked
        ):
            character = characters[seat.player.favourite]
        else:
            character = self.draw.table(self.catalogue.character_table)
            while character.actor in picked:
                character = self.draw.table(self.catalogue.character_table)
        picked.add(character.actor)
        return character

    # -- the document ----------------------------------------------------------------------

    def _seat_rosters(self, mode: p.Mode, ranking: str) -> list[_Roster]:
        taken: set[str] = set()
        rosters = []
        team_share = dict(mode.team_share)[ranking]
        for side in range(1, mode.rosters + 1):
            team = self._team(mode.roster_size, taken) if self.draw.chance(team_share) else None
            if team is not None:
                taken.update(member.player_id for member in team.members)
                seats = [Seat("registered", player=member) for member in team.members]
            else:
                seats = [self._seat(ranking, taken) for _ in range(mode.roster_size)]
            picked: set[str] = set()
            members = [(seat, self._character(seat, picked)) for seat in seats]
            fighters = [Fighter(side, character.role == "support") for _, character in members]
            rosters.append(_Roster(side, team, members, fighters))
        return rosters

    def _play(self, mode: p.Mode, rosters: list[_Roster]) -> tuple[int, tuple[ArenaRound, ...]]:
        """Play the match out; set each roster's stats and result; (duration, rounds)."""
        if mode.side_one_round_win is not None:
            result = play_arena(
                self.draw,
                {roster.side: roster.fighters for roster in rosters},
                side_one_round_win=Fraction(mode.side_one_round_win),
                round_duration=mode.duration,
            )
            for roster in rosters:
                roster.stats = {"score": result.rounds_won[roster.side], "side": roster.side}
                roster.won = result.rounds_won[roster.side] == p.ARENA_ROUNDS_TO_WIN
            return result.duration, result.rounds
        outcome = play_royale(
            self.draw, [roster.fighters for roster in rosters], match_duration=mode.duration
        )
        for index, roster in enumerate(rosters):
            roster.stats = {
                "placement": outcome.placements[index],
                "score": outcome.kills_by_roster[index],
                "side": roster.side,
            }
            roster.won = outcome.placements[index] == 1
        return outcome.duration, ()

    def match(self, match_id: str, start: datetime) -> dict[str, Any]:
        """The single-match document of the match ``match_id`` that starts at ``start``."""
        draw = self.draw
        mode = draw.table(self.modes)
        ranking = "RANKED" if draw.chance(mode.ranked_share) else "UNRANKED"
        rosters = self._seat_rosters(mode, ranking)
        patch = patch_at(self.patches, start).version
        duration, rounds = self._play(mode, rosters)

        roster_resources, participants, players, teams = [], [], [], []
        for roster in draw.shuffled(rosters):
            roster_id = draw.uuid()
            member_refs = []
            for (seat, character), fighter in zip(roster.members, roster.fighters, strict=True):
                participant = self._participant(seat, character, fighter)
                member_refs.append(ref("participant", participant["id"]))
                participants.append(participant)
                if seat.player is not None:
                    players.append(self._player(seat.player, patch, start, won=roster.won))
            if roster.team is not None:
                teams.append(team_resource(roster.team, shard=SHARD, title_id=p.GLOBAL_TITLE_ID))
            team_ref = None if roster.team is None else ref("team", roster.team.team_id)
            won = "true" if roster.won else "false"
            attributes: dict[str, Any] = {"shardId": SHARD, "stats": roster.stats, "won": won}
            relationships = {"participants": {"data": member_refs}, "team": {"data": team_ref}}
            roster_resources.append(resource("roster", roster_id, attributes, relationships))
        # every participant plays every round
        all_participants = [ref("participant", one["id"]) for one in participants]
        round_resources = [
            resource(
                "round",
                draw.uuid(),
                {
                    "duration": one.duration,
                    "ordinal": one.ordinal,
                    "stats": {"winningTeam": one.winning_team},
                },
                {"participants": {"data": all_participants}},
            )
            for one in rounds
        ]
        asset = self._asset(start + timedelta(seconds=duration + draw.integer(20, 600)))
        attributes = {
            "createdAt": format_moment(start),
            "duration": duration,
            "game": mode.game,
            "gameMode": self.catalogue.game_mode_ids[mode.server_type],
            "patchVersion": patch,
            "shardId": SHARD,
            "stats": self._match_stats(mode),
            "tags": {"rankingType": ranking, "serverType": mode.server_type},
            "titleId": p.GLOBAL_TITLE_ID,
        }
        relationships = {
            "assets": {"data": [ref("asset", asset["id"])]},
            "rosters": {"data": [ref("roster", one["id"]) for one in roster_resources]},
            "rounds": {"data": [ref("round", one["id"]) for one in round_resources]},
            "spectators": {"data": []},
        }
        match = resource("match", match_id, attributes, relationships)
        included = roster_resources + participants + round_resources + players + teams + [asset]
        return {"data": match, "included": included}

    def _match_stats(self, mode: p.Mode) -> dict[str, str]:
        if mode.game == "Royale":
            map_id = self.catalogue.royale_map
        else:
            map_id = self.draw.pick(self.catalogue.arena_maps)
        stats = {"mapID": map_id, "region": self.draw.table(self.regions), "type": mode.server_type}
        if mode.game == "Royale":
            stats["game"] = "Royale"
        return stats

    def _participant(self, seat: Seat, character: Character, fighter: Fighter) -> dict[str, Any]:
        draw = self.draw
        stats: dict[str, Any] = {}
        if seat.kind != "bot":
            for slot, catalogue in character.cosmetics.items():
                stats[slot] = draw.table(catalogue.table)
        stats["side"] = fighter.side
        if seat.kind == "bot" or not draw.chance(p.COSMETICS_ONLY_SHARE):
            stats.update(fighter.stats())
            if seat.kind == "bot":
                stats["userID"] = p.BOT_USER_ID
            elif seat.player is not None:
                user_id = seat.player.player_id
                stats["userID"] = int(user_id) if draw.chance(p.INTEGER_USER_ID_SHARE) else user_id
            else:
                stats["userID"] = seat.user_id
        attributes = {
            "actor": character.actor,
            "shardId": SHARD,
            "stats": dict(sorted(stats.items())),
        }
        player = seat.player
        relationships = (
            None if player is None else {"player": {"data": ref("player", player.player_id)}}
        )
        return resource("participant", draw.uuid(), attributes, relationships)

    def _player(self, player: Player, patch: str, start: datetime, *, won: bool) -> dict[str, Any]:
        wins, losses = self.results.get(player.player_id, (0, 0))
        wins, losses = wins + won, losses + (not won)
        self.results[player.player_id] = (wins, losses)
        picture, title = self.profiles[player.player_id]
        # The keys of parameters.PLAYER_STAT_KEYS: wins, losses, account level.
        stats = {"picture": picture, "title": title, "2": wins, "3": losses, "26": player.level}
        attributes = {
            "name": self.renames.name(player, start),
            "patchVersion": patch,
            "shardId": SHARD,
            "stats": stats,
            "titleId": p.GLOBAL_TITLE_ID,
        }
        return resource("player", player.player_id, attributes, {"assets": {"data": []}})

    def _asset(self, created: datetime) -> dict[str, Any]:
        asset_id = self.draw.uuid()
        folder = f"{p.GLOBAL_TITLE_ID}/{SHARD}/{created.strftime('%Y/%m/%d/%H/%M')}"
        attributes = {
            "URL": f"{p.ASSET_BASE_URL}/{folder}/{asset_id}-telemetry.json",
            "createdAt": format_moment(created),
            "description": "",
            "name": "telemetry",
        }
        return resource("asset", asset_id, attributes)
