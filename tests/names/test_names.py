"""matchkit.names: the sample set's catalogue, mappings the user passes, names beside ids."""

from __future__ import annotations

import pandas as pd
import pytest

from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.names import Names, as_names, load_names, sample_names, with_names
from matchkit.sampledata.catalogue import build_catalogue
from matchkit.sampledata.dataset import sample_data_path
from matchkit.synth.names import CATALOGUE_FILE, catalogue_document, write_catalogue


def test_the_sample_catalogue_names_every_id_of_the_vocabulary():
    names = sample_names()
    catalogue = build_catalogue()
    characters = {character.actor: character.name for character in catalogue.characters}
    assert dict(names.names["character"]) == characters
    first = catalogue.characters[0]
    assert names.name("character", first.actor) == "Ashwind"
    assert names.name("outfit", first.cosmetics["outfit"].items[0]) == "Ashwind: Classic outfit"
    assert len(names.names["mount"]) == len(first.cosmetics["mount"].items) == 20
    for character in catalogue.characters:
        for slot, items in character.cosmetics.items():
            assert all(str(item) in names.names[slot] for item in items.items), slot
    assert set(names.names["map"]) == {*catalogue.arena_maps, catalogue.royale_map}
    assert len(set(names.names["map"].values())) == 9


def test_the_committed_catalogue_is_what_synth_writes(tmp_path):
    entry = write_catalogue(tmp_path)
    committed = sample_data_path() / CATALOGUE_FILE
    assert (tmp_path / CATALOGUE_FILE).read_bytes() == committed.read_bytes()
    manifest = pd.read_json(sample_data_path() / "manifest.json", typ="series")
    assert manifest["catalogue"] == entry
    assert catalogue_document()["format"] == "matchkit-catalogue/1"


def test_an_id_without_a_name_stays_its_id():
    names = load_names({"character": {"10": "Ashwind"}})
    assert names.name("character", 10) == "Ashwind"
    assert names.name("character", "11") == "11"
    assert names.name("mount", 3.0) == "3"
    assert names.name("mount", None) == "unknown"
    labelled = names.label("character", pd.Series(["10", None, "12"], dtype="string"))
    assert labelled.tolist()[0] == "Ashwind"
    assert labelled.tolist()[2] == "12"
    assert labelled.isna().tolist() == [False, True, False]


def test_a_flat_mapping_needs_its_kind():
    names = load_names({"10": "Ashwind"}, kind="character")
    assert names.name("character", "10") == "Ashwind"
    with pytest.raises(InvalidArgumentError, match="kind="):
        load_names({"10": "Ashwind"})
    assert as_names({"10": "Ashwind"}).name("character", "10") == "Ashwind"
    assert as_names(None).names == {}
    with pytest.raises(InvalidArgumentError, match="names must be"):
        as_names(["Ashwind"])


def test_names_from_csv_files(tmp_path):
    three = tmp_path / "names.csv"
    three.write_text("kind,id,name\ncharacter,10,Ashwind\nmount,7,Ash Stag\n", encoding="utf-8")
    names = load_names(three)
    assert (names.name("character", "10"), names.name("mount", 7)) == ("Ashwind", "Ash Stag")
    two = tmp_path / "characters.csv"
    two.write_text("id,name\n10,Ashwind\n", encoding="utf-8")
    assert load_names(two, kind="character").name("character", 10) == "Ashwind"
    with pytest.raises(InvalidArgumentError, match="columns kind, id, name"):
        load_names(two)


def test_names_from_json_files(tmp_path):
    plain = tmp_path / "names.json"
    plain.write_text('{"map": {"AB": "Lunar Bay"}}', encoding="utf-8")
    assert load_names(plain).name("map", "AB") == "Lunar Bay"
    catalogue = load_names(sample_data_path() / CATALOGUE_FILE)
    assert catalogue.names == sample_names().names
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(DocumentError, match="not valid JSON"):
        load_names(broken)
    with pytest.raises(InvalidArgumentError, match="no names file"):
        load_names(tmp_path / "missing.json")
    listed = tmp_path / "list.json"
    listed.write_text('["Ashwind"]', encoding="utf-8")
    with pytest.raises(InvalidArgumentError, match="expected"):
        load_names(listed)


def test_merge_and_repr():
    merged = Names({"character": {"1": "A"}}, source="x").merge(
        Names({"character": {"1": "B", "2": "C"}}, source="y")
    )
    assert dict(merged.names["character"]) == {"1": "B", "2": "C"}
    assert repr(merged) == "Names(character=2; from x + y)"


def test_with_names_puts_each_name_beside_its_id():
    table = pd.DataFrame(
        {
            "actor": ["10", "11"],
            "mount": pd.array([7, None], dtype="Int64"),
            "cosmetic_kind": ["outfit", "mount"],
            "cosmetic_id": [5, 7],
            "map_id": ["AB", "CD"],
        }
    )
    names = {"character": {"10": "Ashwind"}, "mount": {"7": "Ash Stag"}, "outfit": {"5": "Gilded"}}
    named = with_names(table, names)
    assert list(named.columns) == [
        "actor",
        "character",
        "mount",
        "mount_name",
        "cosmetic_kind",
        "cosmetic_id",
        "cosmetic",
        "map_id",
        "map",
    ]
    assert named["character"].tolist() == ["Ashwind", "11"]
    assert named["mount_name"].tolist()[0] == "Ash Stag"
    assert pd.isna(named["mount_name"][1])
    assert named["cosmetic"].tolist() == ["Gilded", "Ash Stag"]
    assert named["map"].tolist() == ["AB", "CD"]
    assert list(table.columns)[1] == "mount"  # the input is left alone
    last = with_names(table, names, ids="last")
    assert list(last.columns) == [
        "character",
        "mount_name",
        "cosmetic_kind",
        "cosmetic",
        "map",
        "actor",
        "mount",
        "cosmetic_id",
        "map_id",
    ]
    assert last[list(named.columns)].equals(named)  # the same columns, reordered
    with pytest.raises(InvalidArgumentError, match="ids='first'"):
        with_names(table, names, ids="first")  # type: ignore[arg-type]


def test_participant_view_carries_names_beside_ids_when_given():
    from tests.analysis.helpers import sample_frames

    frames = sample_frames()
    plain = frames.participant_view()
    named = frames.participant_view(names=sample_names())
    assert "character" not in plain.columns
    columns = list(named.columns)
    for kind, target in (("actor", "character"), ("mount", "mount_name"), ("emote", "emote_name")):
        assert columns.index(target) == columns.index(kind) + 1
    people = named["kind"].astype(str) != "bot"
    assert set(named.loc[people, "character"]) <= set(sample_names().names["character"].values())
    pd.testing.assert_frame_equal(named[list(plain.columns)], plain)


def test_participant_view_asks_the_names_it_is_given_and_refuses_a_plain_mapping():
    # model/ does not import matchkit.names: the view calls Names.label_table, so a plain
    # mapping has to go through load_names first, and is told so.
    from tests.analysis.helpers import sample_frames

    frames = sample_frames()
    names = sample_names()
    pd.testing.assert_frame_equal(
        frames.participant_view(names=names), with_names(frames.participant_view(), names)
    )
    with pytest.raises(InvalidArgumentError, match="load_names") as caught:
        frames.participant_view(names={"character": {"1261834060": "Ashwind"}})
    assert caught.value.parameter == "names"


def test_the_sample_catalogue_names_every_battlerite():
    from matchkit.sampledata.telemetry.catalogue import (
        BATTLERITE_NAMES,
        featured_battlerite,
        kit_catalogue,
    )

    names = sample_names()
    battlerites = names.names["battlerite"]
    kits = list(kit_catalogue().values())
    assert len(battlerites) == sum(len(kit.battlerites) for kit in kits) == 300
    for number, kit in enumerate(kits):
        own = [battlerites[str(rite)] for rite in kit.battlerites]
        assert len(set(own)) == len(own) == 10, kit.name
        assert all(name.startswith(f"{kit.name}: ") for name in own)
        assert own[0] == f"{kit.name}: {BATTLERITE_NAMES[(3 * number) % 20]}"  # data/README.md
    _actor, featured = featured_battlerite()
    assert names.name("battlerite", featured) == "Ashwind: Ember Heart"
    assert names.name("battlerite", 12345) == "12345"  # unknown: stays its id


def test_a_user_mapping_names_battlerites(tmp_path):
    path = tmp_path / "rites.csv"
    path.write_text("kind,id,name\nbattlerite,42,Steady Aim\ncharacter,7,Nova\n", encoding="utf-8")
    names = load_names(path)
    table = with_names(pd.DataFrame({"battlerite_type": [42, 43]}), names)
    assert table.columns.tolist() == ["battlerite_type", "battlerite_name"]
    assert table["battlerite_name"].tolist() == ["Steady Aim", "43"]
    flat = load_names({"42": "Steady Aim"}, kind="battlerite")
    assert flat.name("battlerite", "42") == "Steady Aim"
