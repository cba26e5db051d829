"""Every parameter of the PUBG sample set, in one place (``docs/pubg.md`` shows them as tables).

The set is drawn when the PUBG double starts (:mod:`matchkit.sampledata.pubg.plan`), from
:data:`SEED`, and each match's details, document and telemetry when it is first asked for, from
the match's own seed: nothing is written ahead, so the repository holds no data file for it.

The model, which a notebook's findings can be held against:

- **Players.** :data:`PLAYERS` registered players per shard, each of a fixed skill: 1, 2 or 4
  (:data:`SKILLS`, a third each); their activity falls off as ``1 / (rank + ACTIVITY_SKEW)``, so
  a few play many matches. A slot a registered player does not fill is a bot (``ai.`` ids) of
  skill :data:`BOT_SKILL`, with the mode's bot share.
- **Placement.** Rosters are ranked by a Plackett-Luce draw on their strength (the sum of their
  members' skills): the winner is drawn with probability proportional to strength, then second
  place among the rest, and so on. So roster A outlasts roster B with probability
  ``S_A / (S_A + S_B)``, and a roster of skill-4 players places better than one of skill-1
  players four times in five.
- **Deaths and kills.** Rosters fall in reverse order of placement, at sorted uniform times
  between :data:`FIRST_DEATH_SECONDS` and the match's end; each member of a fallen roster dies
  at or before the roster's fall. Each death is by the zone with :data:`ZONE_DEATH_SHARE`,
  else by a player alive at that moment in another roster, drawn in proportion to skill: so
  kills follow skill, and a better placement gives more time to kill.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GameMode", "MapSpec"]

SEED = 20261120
"""The seed of the sample set."""
AS_OF = "2026-11-20T00:00:00Z"
"""The moment the sample set ends at; the double takes it as now by default."""
DAYS = 20
"""Days of matches before :data:`AS_OF`: more than the 14 days of retention, so that retention
(and an archive past it) can be tested."""
MATCHES_PER_DAY = {"steam": 24, "console": 6}
"""Matches a day on each shard with matches (the other platform shards are served, empty)."""
PLAYERS = 600
"""Registered players per shard."""
ACTIVITY_SKEW = 8
SKILLS = (1, 2, 4)
BOT_SKILL = 1
FIRST_DEATH_SECONDS = 90
ZONE_DEATH_SHARE = "0.06"
"""The share of deaths by the blue zone (no killer)."""
KNOCK_SHARE = "0.7"
"""In team modes, the share of kills by a player that knock the victim down first (``DBNOs``)."""
HEADSHOT_SHARE = "0.25"
SAMPLE_SHARE = "0.5"
"""The share of a day's matches its sample lists."""
TITLE_ID = "bluehole-pubg"
PATCH_VERSION = ""
SEASON_STATE = "progress"
TELEMETRY_TITLE = "bluehole-pubg"
"""The first folder of a telemetry URL
(``/<title>/<shard>/YYYY/MM/DD/HH/mm/<id>-telemetry.json``)."""
POSITION_SECONDS = 60
"""How often a telemetry file logs every living player's position (and the zone's state)."""


@dataclass(frozen=True)
class MapSpec:
    """A map: its id on the wire, its name, its size and how often it is played.

    Attributes:
        id: ``mapName`` (``Baltic_Main``).
        name: what players call it (Erangel).
        size: its side in centimetres (telemetry's unit).
        weight: relative share of battle royale matches.
    """

    id: str
    name: str
    size: int
    weight: int


MAPS = (
    MapSpec("Baltic_Main", "Erangel", 816_000, 6),
    MapSpec("Desert_Main", "Miramar", 816_000, 4),
    MapSpec("Savage_Main", "Sanhok", 408_000, 3),
    MapSpec("DihorOtok_Main", "Vikendi", 816_000, 2),
    MapSpec("Tiger_Main", "Taego", 816_000, 3),
    MapSpec("Kiki_Main", "Deston", 816_000, 2),
    MapSpec("Neon_Main", "Rondo", 816_000, 2),
)


@dataclass(frozen=True)
class GameMode:
    """A game mode: its id on the wire, its name and its lobby.

    Attributes:
        id: ``gameMode`` (``squad-fpp``).
        name: what players call it.
        team_size: players a roster.
        rosters: rosters a lobby.
        match_type: ``matchType`` (``official``, ``arcade``).
        weight: relative share of matches.
        bot_share: the share of slots bots fill.
        minutes: the match's length range, in minutes.
        maps: the maps it is played on (empty: every battle royale map).
    """

    id: str
    name: str
    team_size: int
    rosters: int
    match_type: str
    weight: int
    bot_share: str
    minutes: tuple[int, int]
    maps: tuple[str, ...] = ()


GAME_MODES = (
    GameMode("solo", "Solo TPP", 1, 64, "official", 2, "0.3", (25, 32)),
    GameMode("solo-fpp", "Solo FPP", 1, 64, "official", 2, "0.3", (25, 32)),
    GameMode("duo", "Duo TPP", 2, 32, "official", 2, "0.2", (26, 33)),
    GameMode("duo-fpp", "Duo FPP", 2, 32, "official", 3, "0.2", (26, 33)),
    GameMode("squad", "Squad TPP", 4, 16, "official", 3, "0.1", (27, 34)),
    GameMode("squad-fpp", "Squad FPP", 4, 16, "official", 5, "0.1", (27, 34)),
    GameMode("tdm", "Team Deathmatch", 8, 2, "arcade", 2, "0", (6, 10), ("Tiger_Main",)),
)
"""Lobbies are smaller than the real ones (64 players instead of 100), so the set stays quick
to draw and its documents quick to serve; the shapes are the real ones."""

SEASONS = (
    ("division.bro.official.pc-2018-01", False),
    ("division.bro.official.pc-2018-38", False),
    ("division.bro.official.pc-2018-39", True),
)
"""``(season id, isCurrentSeason)`` of ``/seasons``; none is an off-season."""

DAMAGE_CAUSERS = (
    ("WeapHK416_C", "M416"),
    ("WeapAK47_C", "AKM"),
    ("WeapSCAR-L_C", "SCAR-L"),
    ("WeapBerylM762_C", "Beryl M762"),
    ("WeapUMP_C", "UMP45"),
    ("WeapMini14_C", "Mini 14"),
    ("WeapSKS_C", "SKS"),
    ("WeapKar98k_C", "Kar98k"),
    ("WeapBerreta686_C", "S686"),
    ("WeapM24_C", "M24"),
)
"""Weapons a player kills with: ``damageCauserName`` -> name. The zone's causer is
:data:`ZONE_CAUSER`."""
ZONE_CAUSER = ("BlueZoneBomb_EffectActor_C", "Blue zone")
ITEMS = (
    ("Item_Heal_FirstAid_C", "First Aid Kit"),
    ("Item_Heal_Bandage_C", "Bandage"),
    ("Item_Boost_EnergyDrink_C", "Energy Drink"),
    ("Item_Armor_E_01_Lv1_C", "Police Vest (Level 1)"),
    ("Item_Head_E_01_Lv1_C", "Motorcycle Helmet (Level 1)"),
    ("Item_Back_B_01_StartParachutePack_C", "Parachute"),
    ("Item_Ammo_556mm_C", "5.56mm"),
    ("Item_Ammo_762mm_C", "7.62mm"),
)
"""Items picked up, used or dropped: ``itemId`` -> name."""
CARE_PACKAGE = ("Carapackage_RedBox_C", "Care package")
VEHICLES = (
    ("DummyTransportAircraft_C", "Aircraft"),
    ("Dacia_A_01_v2_C", "Dacia"),
    ("Uaz_A_01_C", "UAZ"),
    ("BP_Motorbike_04_C", "Motorbike"),
)
"""Vehicles ridden: ``vehicleId`` -> name; the first is the plane everyone leaves."""
