"""The telemetry vocabulary of each character: battlerites, abilities, role and archetype.

Built from the game catalogue (:func:`matchkit.sampledata.catalogue.build_catalogue`) and a fixed
seed, so it is the same for every data set. A character the catalogue does not know (documents
of other sources) gets a vocabulary drawn from its actor id.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from matchkit.errors import InvalidArgumentError
from matchkit.sampledata import parameters as p
from matchkit.sampledata.catalogue import build_catalogue
from matchkit.sampledata.sampling import Draw, WeightedTable, harmonic_weights
from matchkit.sampledata.telemetry import parameters as t

__all__ = [
    "BATTLERITE_NAMES",
    "CharacterKit",
    "battlerite_names",
    "character_kit",
    "featured_battlerite",
    "kit_catalogue",
]

_ROLES = ("melee", "ranged", "support")

# Invented battlerite names (not on the wire: a pick carries its id). Character number c (in
# catalogue order, from 0) names its battlerite of rank r (from 1) BATTLERITE_NAMES[(3c + r - 1)
# mod 20], prefixed by the character's name: ten distinct names per character, a different
# rotation for each.
BATTLERITE_NAMES = (
    "Quickening",
    "Ironhide",
    "Second Wind",
    "Ember Heart",
    "Frost Veil",
    "Piercing Light",
    "Stormcall",
    "Thornguard",
    "Deep Roots",
    "Swift Return",
    "Blood Pact",
    "Echoing Step",
    "Bright Ward",
    "Shadow Mark",
    "Tidal Surge",
    "Stone Skin",
    "Last Stand",
    "Hunter's Eye",
    "Wildfire",
    "Calm Mind",
)
_NAME_STEP = 3
_ARCHETYPES = dict(t.ARCHETYPES)
_WEIGHTS = tuple(harmonic_weights(t.BATTLERITES_PER_CHARACTER, t.BATTLERITE_SKEW))


@dataclass(frozen=True)
class CharacterKit:
    """What a character brings to telemetry: what was drawn for it, and what follows from that.

    Attributes:
        actor: the actor id.
        name: the display name ("" for an unknown actor).
        role: melee, ranged or support.
        battlerites: its battlerite ids, rank 1 (most picked) first.
        abilities: its ability ids (RoundEvent values, UserRoundSpell typeIds).
    """

    actor: str
    name: str
    role: str
    battlerites: tuple[int, ...]
    abilities: tuple[int, ...]

    @property
    def archetype(self) -> int:
        """QueueEvent.characterArchetype: its role's, 2, 4 or 8 (``t.ARCHETYPES``)."""
        return _ARCHETYPES[self.role]

    @property
    def weights(self) -> tuple[Fraction, ...]:
        """The pick weight of each battlerite, 1 / (rank + skew): the same for every kit."""
        return _WEIGHTS

    def table(self, exclude: frozenset[int] = frozenset()) -> WeightedTable[int]:
        """The battlerites not in ``exclude``, weighted."""
        pairs = [
            (rite, weight)
            for rite, weight in zip(self.battlerites, self.weights, strict=True)
            if rite not in exclude
        ]
        return WeightedTable([rite for rite, _ in pairs], [weight for _, weight in pairs])


def _kit(actor: str, name: str, role: str, draw: Draw, used: set[int]) -> CharacterKit:
    return CharacterKit(
        actor=actor,
        name=name,
        role=role,
        battlerites=draw.unique_integers(t.BATTLERITES_PER_CHARACTER, used, low=10_000_000),
        abilities=draw.unique_integers(t.ABILITIES_PER_CHARACTER, used, low=10_000_000),
    )


@lru_cache(maxsize=1)
def kit_catalogue() -> dict[str, CharacterKit]:
    """Actor id -> kit of every character of the sample catalogue."""
    catalogue = build_catalogue()
    draw = Draw(f"{p.CATALOGUE_SEED}:telemetry")
    used = {int(character.actor) for character in catalogue.characters}
    return {
        character.actor: _kit(character.actor, character.name, character.role, draw, used)
        for character in catalogue.characters
    }


@lru_cache(maxsize=256)
def character_kit(actor: str) -> CharacterKit:
    """The kit of ``actor``: the catalogue's, or one drawn from the actor id if unknown."""
    known = kit_catalogue().get(actor)
    if known is not None:
        return known
    draw = Draw(f"{p.CATALOGUE_SEED}:telemetry:{actor}")
    role = _ROLES[zlib.crc32(actor.encode()) % len(_ROLES)]
    return _kit(actor, "", role, draw, set())


def featured_battlerite() -> tuple[str, int]:
    """(actor, battlerite id) of the battlerite that goes with winning (the parameters')."""
    for kit in kit_catalogue().values():
        if kit.name == t.FEATURED_CHARACTER:
            return kit.actor, kit.battlerites[t.FEATURED_BATTLERITE_RANK - 1]
    raise InvalidArgumentError(
        f"the catalogue has no character named {t.FEATURED_CHARACTER!r}; fix FEATURED_CHARACTER",
        parameter="FEATURED_CHARACTER",
    )


def battlerite_names() -> dict[str, str]:
    """Battlerite id (as text) -> invented name of every catalogue character's battlerites.

    ``"Ashwind: Quickening"``: the character's name, then a name from
    :data:`BATTLERITE_NAMES` rotated by the character's place in the catalogue (see there).
    Fixed by the catalogue, like the ids; it takes no draws.
    """
    names: dict[str, str] = {}
    for number, kit in enumerate(kit_catalogue().values()):
        for rank, rite in enumerate(kit.battlerites):
            name = BATTLERITE_NAMES[(_NAME_STEP * number + rank) % len(BATTLERITE_NAMES)]
            names[str(rite)] = f"{kit.name}: {name}"
    return names
