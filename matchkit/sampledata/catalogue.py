"""The game's vocabulary: characters, cosmetic catalogues, maps, game modes, patches, heroes.

Built from :data:`matchkit.sampledata.parameters.CATALOGUE_SEED`, not from a data set's seed: two
data sets of different seeds describe the same game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from itertools import cycle

from matchkit.sampledata import parameters as p
from matchkit.sampledata.sampling import Draw, WeightedTable, harmonic_weights

__all__ = ["Catalogue", "Character", "CosmeticCatalogue", "Patch", "build_catalogue"]

# Invented character names, for the README and notebooks only: the wire carries the id.
CHARACTER_NAMES = (
    "Ashwind",
    "Bramble",
    "Cinder",
    "Dusk",
    "Ember",
    "Fable",
    "Gale",
    "Harrow",
    "Iris",
    "Juniper",
    "Kestra",
    "Lumen",
    "Marrow",
    "Nettle",
    "Onyx",
    "Pike",
    "Quill",
    "Rune",
    "Sable",
    "Thistle",
    "Umber",
    "Vesper",
    "Wren",
    "Xyla",
    "Yarrow",
    "Zephyr",
    "Alder",
    "Briar",
    "Coral",
    "Drift",
)


@dataclass(frozen=True)
class CosmeticCatalogue:
    """The items of one cosmetic slot for one character (or for all): the default first."""

    slot: str
    items: tuple[int, ...]
    table: WeightedTable[int]


@dataclass(frozen=True)
class Character:
    """A playable character of the global shard.

    Attributes:
        actor: the participant's ``actor`` (a numeric string).
        name: an invented display name (not on the wire).
        role: melee, ranged or support (support heals more).
        popularity: share of draws from the popularity table.
        cosmetics: slot name -> this character's catalogue (mount: the shared one).
    """

    actor: str
    name: str
    role: str
    popularity: Fraction
    cosmetics: dict[str, CosmeticCatalogue]


@dataclass(frozen=True)
class Patch:
    """A game patch: its version and the moment it went live."""

    version: str
    start: datetime


@dataclass(frozen=True)
class Catalogue:
    """Everything the generator draws names and ids from."""

    characters: tuple[Character, ...]
    character_table: WeightedTable[Character]
    arena_maps: tuple[str, ...]
    royale_map: str
    game_mode_ids: dict[str, str]
    heroes: WeightedTable[str]
    hero_skins: dict[str, tuple[str, ...]]
    items: tuple[str, ...]

    def record(self) -> dict[str, object]:
        """The catalogue as JSON-ready data for the manifest."""
        return {
            "characters": [
                {
                    "actor": character.actor,
                    "name": character.name,
                    "role": character.role,
                    "popularity": float(character.popularity),
                    "default_items": {
                        slot: catalogue.items[0] for slot, catalogue in character.cosmetics.items()
                    },
                }
                for character in self.characters
            ],
            "arena_maps": list(self.arena_maps),
            "royale_map": self.royale_map,
            "game_mode_ids": dict(self.game_mode_ids),
            "na_heroes": [
                {"actor": hero, "popularity": float(share)}
                for hero, share in zip(self.heroes.items, self.heroes.shares, strict=True)
            ],
        }


def _cosmetic_catalogue(slot: p.CosmeticSlot, items: tuple[int, ...]) -> CosmeticCatalogue:
    default = Fraction(slot.default_share)
    others = harmonic_weights(len(items) - 1, 0)
    total = sum(others, Fraction(0))
    weights = [default] + [(1 - default) * weight / total for weight in others]
    return CosmeticCatalogue(slot.name, items, WeightedTable(items, weights))


def build_catalogue() -> Catalogue:
    """The fixed game vocabulary (the same for every data set seed)."""
    draw = Draw(p.CATALOGUE_SEED)
    used: set[int] = set()
    roles = WeightedTable(*zip(*p.CHARACTER_ROLES, strict=True))
    slots = {slot.name: slot for slot in p.COSMETIC_SLOTS}
    shared = {
        slot.name: _cosmetic_catalogue(
            slot, draw.unique_integers(slot.items, used, low=100_000_000)
        )
        for slot in p.COSMETIC_SLOTS
        if not slot.per_character
    }
    popularity = harmonic_weights(p.CHARACTER_COUNT, p.CHARACTER_SKEW)
    total = sum(popularity, Fraction(0))
    characters = []
    for rank in range(p.CHARACTER_COUNT):
        actor = str(draw.unique_integers(1, used, low=100_000_000)[0])
        role = draw.table(roles)
        cosmetics = {}
        for name in sorted(slots):
            slot = slots[name]
            if slot.per_character:
                cosmetics[name] = _cosmetic_catalogue(
                    slot, draw.unique_integers(slot.items, used, low=100_000_000)
                )
            else:
                cosmetics[name] = shared[name]
        characters.append(
            Character(actor, CHARACTER_NAMES[rank], role, popularity[rank] / total, cosmetics)
        )
    arena_maps = tuple(draw.hex_id() for _ in range(p.ARENA_MAPS))
    royale_map = draw.hex_id()
    game_mode_ids = {
        mode.server_type: str(draw.unique_integers(1, used, low=100_000_000)[0]) for mode in p.MODES
    }
    heroes = WeightedTable(p.NA_HEROES, harmonic_weights(len(p.NA_HEROES), p.NA_HERO_SKEW))
    hero_skins = {
        hero: (
            f"{hero.strip('*')}_DefaultSkin",
            *(f"{hero.strip('*')}_Skin_T{tier}" for tier in range(1, p.NA_SKINS_PER_HERO)),
        )
        for hero in p.NA_HEROES
    }
    items = tuple(f"*{1000 + number}_Item_{name}*" for number, name in enumerate(ITEM_NAMES))
    return Catalogue(
        characters=tuple(characters),
        character_table=WeightedTable(characters, [c.popularity for c in characters]),
        arena_maps=arena_maps,
        royale_map=royale_map,
        game_mode_ids=game_mode_ids,
        heroes=heroes,
        hero_skins=hero_skins,
        items=items,
    )


# Item names of the na shard's participant stats (items, itemGrants, itemUses, itemSells).
ITEM_NAMES = (
    "HalcyonPotion",
    "WeaponBlade",
    "CrystalBit",
    "SwiftShooter",
    "SixSins",
    "Hourglass",
    "LightArmor",
    "LightShield",
    "SprintBoots",
    "TravelBoots",
    "HeavySteel",
    "EclipsePrism",
    "BlazingSalvo",
    "Sorrowblade",
    "TornadoTrigger",
    "Shatterglass",
    "CoatOfPlates",
    "Aegis",
    "ReflexBlock",
    "Frostburn",
    "BrokenMyth",
    "JourneyBoots",
    "TensionBow",
    "Contraption",
    "Flaregun",
    "LuckyStrike",
    "BreakingPoint",
    "HeavyPrism",
    "VoidBattery",
    "Clockwork",
)


def patch_schedule(start: datetime, end: datetime, first: tuple[int, int]) -> tuple[Patch, ...]:
    """The patches live between ``start`` and ``end``: the first began before ``start``."""
    major, minor = first
    moment = start + timedelta(days=p.FIRST_PATCH_OFFSET_DAYS)
    patches = []
    for gap in cycle(p.PATCH_INTERVALS_DAYS):
        if moment >= end:
            break
        patches.append(Patch(f"{major}.{minor}", moment))
        minor += 1
        moment += timedelta(days=gap)
    return tuple(patches)


def patch_at(patches: tuple[Patch, ...], moment: datetime) -> Patch:
    """The patch live at ``moment`` (``patches`` in time order, the first before it)."""
    live = patches[0]
    for patch in patches:
        if patch.start > moment:
            break
        live = patch
    return live
