"""The sample set's catalogue of names: what each id of the game's vocabulary is called.

The wire carries ids only (a character is a numeric ``actor``, a mount a 9-10 digit integer, a
map a hex id). The sample set ships with ``catalogue.json`` beside its shards, which the
reference service serves at ``GET /catalogue`` and :mod:`matchkit.names` reads, so that a copy
of the sample set served remotely speaks in names too. The names are invented, like the game;
they are fixed by the catalogue (not by a data set's seed) and take no draws from it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import orjson

from matchkit.model.atomic import atomic_write
from matchkit.rules.query import SERVER_TYPE_NAMES
from matchkit.sampledata.catalogue import Catalogue, build_catalogue
from matchkit.sampledata.dataset import CATALOGUE_FILE
from matchkit.sampledata.telemetry.catalogue import battlerite_names

__all__ = ["CATALOGUE_FILE", "CATALOGUE_FORMAT", "catalogue_document", "write_catalogue"]

CATALOGUE_FORMAT = "matchkit-catalogue/1"

MOUNT_NAMES = (
    "Plains Horse",
    "Ash Stag",
    "Dune Strider",
    "Frost Wolf",
    "Moss Boar",
    "Ember Lynx",
    "Tide Ray",
    "Storm Hawk",
    "Iron Ram",
    "Glass Moth",
    "Sun Camel",
    "Night Mare",
    "Reed Heron",
    "Thorn Bear",
    "Cloud Ox",
    "Salt Lizard",
    "Copper Goat",
    "Velvet Hare",
    "Cinder Drake",
    "Star Elk",
)
OUTFIT_STYLES = (
    "Classic",
    "Wanderer",
    "Gilded",
    "Frostbound",
    "Verdant",
    "Stormcaller",
    "Shadow",
    "Regal",
)
ATTACHMENT_NAMES = ("Banner", "Charm", "Lantern", "Pennant", "Totem", "Relic")
EMOTE_NAMES = ("Wave", "Bow", "Laugh", "Taunt", "Cheer", "Shrug")
MAP_NAMES = (
    "Blackstone Pit",
    "Sunken Temple",
    "Mount Araz",
    "Dragon Garden",
    "Orman Ruins",
    "Lunar Bay",
    "Jade Quarry",
    "Frostgate",
)
ROYALE_MAP_NAME = "Isle of Storms"


def _named(items: tuple[int, ...], names: tuple[str, ...], pattern: str) -> dict[str, str]:
    if len(items) > len(names):
        raise ValueError(f"{len(items)} items but only {len(names)} names for {pattern!r}")
    return {str(item): pattern.format(name) for item, name in zip(items, names, strict=False)}


def catalogue_document(catalogue: Catalogue | None = None) -> dict[str, Any]:
    """The catalogue file's content: ``{"format", "source", "names": {kind: {id: name}}}``.

    Kinds: ``character`` (by ``actor``), ``mount``, ``outfit``, ``attachment``, ``emote``
    (by cosmetic id), ``map`` (by ``map_id``), ``game_mode`` (by ``game_mode``) and
    ``battlerite`` (by telemetry ``battleriteType``). Per-character cosmetics and battlerites
    carry the character's name (``"Ashwind: Gilded outfit"``, ``"Ashwind: Quickening"``).
    """
    catalogue = catalogue or build_catalogue()
    names: dict[str, dict[str, str]] = {
        kind: {} for kind in ("character", "mount", "outfit", "attachment", "emote")
    }
    for character in catalogue.characters:
        names["character"][character.actor] = character.name
        cosmetics = character.cosmetics
        names["mount"].update(_named(cosmetics["mount"].items, MOUNT_NAMES, "{}"))
        own = character.name + ": {}"
        names["outfit"].update(_named(cosmetics["outfit"].items, OUTFIT_STYLES, own + " outfit"))
        names["attachment"].update(_named(cosmetics["attachment"].items, ATTACHMENT_NAMES, own))
        names["emote"].update(_named(cosmetics["emote"].items, EMOTE_NAMES, own))
    names["map"] = dict(zip(catalogue.arena_maps, MAP_NAMES, strict=True))
    names["map"][catalogue.royale_map] = ROYALE_MAP_NAME
    names["game_mode"] = {
        mode_id: SERVER_TYPE_NAMES.get(server_type, server_type)
        for server_type, mode_id in catalogue.game_mode_ids.items()
    }
    names["battlerite"] = battlerite_names()
    return {
        "format": CATALOGUE_FORMAT,
        "source": "matchkit sample data set (invented names)",
        "names": names,
    }


def write_catalogue(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """Write ``catalogue.json`` into ``folder`` atomically; return its manifest entry.

    Returns:
        ``{"path": "catalogue.json", "sha256": digest of the file}``.
    """
    path = Path(folder) / CATALOGUE_FILE
    body = orjson.dumps(catalogue_document(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    body += b"\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, body)  # shared, as a data set is
    return {"path": CATALOGUE_FILE, "sha256": hashlib.sha256(body).hexdigest()}
