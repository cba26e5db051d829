"""to_frames: the rules of the model, one test per rule."""

from __future__ import annotations

import json
from collections.abc import Iterator

import orjson
import pandas as pd
import pytest

from matchkit import DocumentError, MatchFrames, to_frames
from matchkit.model.schema import DATETIME_DTYPE, TABLES
from tests.builders.resources import (
    arena,
    asset,
    identifier,
    match,
    page,
    participant,
    player,
    roster,
    round_,
    team,
)


def by_id(resources: list[dict], id_: str) -> dict:
    (found,) = [resource for resource in resources if resource["id"] == id_]
    return found


def test_empty_input_has_every_known_column_with_its_dtype() -> None:
    frames = to_frames({"data": []})
    assert len(frames) == 0
    for name, schema in TABLES.items():
        frame = frames.tables[name]
        assert list(frame.columns) == schema.column_names, name
        for column in schema.columns:
            assert frame[column.name].dtype == column.dtype, (name, column.name)


def test_key_and_foreign_key_dtypes() -> None:
    frames = to_frames(page(arena("m1")))
    assert frames.matches["match_id"].dtype == pd.StringDtype()
    assert frames.participants["roster_id"].dtype == pd.StringDtype()
    assert frames.matches["created_at"].dtype == DATETIME_DTYPE
    assert frames.rosters["won"].dtype == "boolean"
    assert frames.participants["mount"].dtype == "Int64"
    assert isinstance(frames.matches["server_type"].dtype, pd.CategoricalDtype)


def test_every_participant_carries_its_match_and_roster() -> None:
    frames = to_frames(page(arena("m1"), arena("m2")))
    participants = frames.participants.set_index("participant_id")
    assert participants.loc["m2-p10", "roster_id"] == "m2-r1"
    assert participants.loc["m2-p10", "match_id"] == "m2"
    assert participants.loc["m1-p21", "roster_id"] == "m1-r2"
    assert set(frames.rounds["match_id"]) == {"m1", "m2"}
    assert frames.assets.set_index("asset_id").loc["m2-asset", "match_id"] == "m2"
    assert len(frames.round_participants) == 2 * 3 * 2
    assert set(frames.round_participants["match_id"]) == {"m1", "m2"}


def test_data_as_object_or_list_and_raw_input() -> None:
    as_list = to_frames(page(arena("m1")))
    as_object = to_frames(page(arena("m1"), single=True))
    as_bytes = to_frames(orjson.dumps(page(arena("m1"))))
    as_text = to_frames(json.dumps(page(arena("m1"))))
    for frames in (as_object, as_bytes, as_text):
        pd.testing.assert_frame_equal(frames.participants, as_list.participants)
        pd.testing.assert_frame_equal(frames.matches, as_list.matches)


def test_resources_repeated_across_pages_are_kept_once_first_wins() -> None:
    first = page(arena("m1"), arena("m2"))
    second = page(arena("m2"), arena("m3"))
    second["included"].append(player("m1-player10", name="renamed later"))
    frames = to_frames([first, second])
    assert list(frames.matches["match_id"]) == ["m1", "m2", "m3"]
    assert frames.participants["participant_id"].is_unique
    assert len(frames.participants) == 3 * 4
    players = frames.players.set_index("player_id")
    assert players.loc["m1-player10", "name"] == ""
    assert frames.round_participants.duplicated().sum() == 0


def test_relationships_resolve_by_type_and_id_not_id_alone() -> None:
    resource, included = arena("m1")
    clash = included[1]["id"]  # a player id ...
    included.append(team(clash, name="a team with the same id"))  # ... also a team's
    by_id(included, "m1-r1")["relationships"]["team"] = {"data": identifier("team", clash)}
    frames = to_frames(page((resource, included)))
    assert frames.players.set_index("player_id").loc[clash, "name"] == ""
    assert frames.teams.set_index("team_id").loc[clash, "name"] == "a team with the same id"
    assert not frames.problems


def test_missing_referenced_resources_keep_their_id_and_are_reported() -> None:
    resource, included = arena("m1")
    included = [r for r in included if (r["type"], r["id"]) != ("player", "m1-player10")]
    included = [r for r in included if r["type"] != "asset"]
    frames = to_frames(page((resource, included)))
    participants = frames.participants.set_index("participant_id")
    assert participants.loc["m1-p10", "player_id"] == "m1-player10"
    problems = "\n".join(frames.problems)
    assert "participant 'm1-p10' refers to player 'm1-player10'" in problems
    assert "match 'm1' refers to asset 'm1-asset'" in problems


def test_orphans_are_kept_with_missing_parent_and_reported() -> None:
    resource, included = arena("m1")
    included.append(participant("stray", player=None))
    frames = to_frames(page((resource, included)))
    stray = frames.participants.set_index("participant_id").loc["stray"]
    assert stray["roster_id"] is pd.NA
    assert stray["match_id"] is pd.NA
    assert any("1 of 5 participants are listed by no roster" in p for p in frames.problems)


def test_unknown_keys_become_snake_case_extra_columns_after_the_known_ones() -> None:
    resource, included = arena("m1")
    resource["attributes"]["stats"]["endGameReason"] = "victory"
    resource["attributes"]["newThing"] = 5
    included[0]["attributes"]["stats"].update(abilityUses=3, healingDone=7, winner=True)
    frames = to_frames(page((resource, included)))
    known = TABLES["matches"].column_names
    assert list(frames.matches.columns[: len(known)]) == known
    assert list(frames.matches.columns[len(known) :]) == ["end_game_reason", "new_thing"]
    participants = frames.participants.set_index("participant_id")
    assert participants.loc["m1-p10", "ability_uses"] == 3
    assert participants.loc["m1-p10", "healing_done"] == 7
    assert participants.loc["m1-p10", "winner"] is True or participants.loc["m1-p10", "winner"]
    assert frames.participants["ability_uses"].dtype == "Int64"
    assert frames.participants["winner"].dtype == "boolean"
    assert participants["ability_uses"].isna().sum() == 3


def test_extra_names_that_collide_are_prefixed_by_their_section() -> None:
    resource, included = arena("m1")
    included[0]["attributes"]["stats"]["matchId"] = "x"  # snake_case: match_id, a known column
    resource["attributes"]["stats"]["duration"] = 12  # match already has duration
    frames = to_frames(page((resource, included)))
    assert frames.participants.set_index("participant_id").loc["m1-p10", "stats_match_id"] == "x"
    assert frames.participants.set_index("participant_id").loc["m1-p10", "match_id"] == "m1"
    assert frames.matches.loc[0, "stats_duration"] == 12
    assert frames.matches.loc[0, "duration"] == 600


def test_nested_values_are_compact_json_text_with_sorted_keys() -> None:
    resource, included = arena("m1")
    grants = {"*1002_Item_WeaponBlade*": 3, "*1000_Item_HalcyonPotion*": 4}
    included[0]["attributes"]["stats"].update(itemGrants=grants, items=["Boots3", "Crystal"])
    frames = to_frames(page((resource, included)))
    row = frames.participants.set_index("participant_id").loc["m1-p10"]
    assert row["item_grants"] == '{"*1000_Item_HalcyonPotion*":4,"*1002_Item_WeaponBlade*":3}'
    assert json.loads(row["item_grants"]) == grants
    assert row["items"] == '["Boots3","Crystal"]'
    assert frames.participants["items"].dtype == pd.StringDtype()


def test_user_id_as_text_or_integer_is_text() -> None:
    resource, included = arena("m1")
    included[0]["attributes"]["stats"]["userID"] = 933361447998726144
    frames = to_frames(page((resource, included)))
    user_ids = frames.participants.set_index("participant_id")["user_id"]
    assert user_ids["m1-p10"] == "933361447998726144"
    assert user_ids["m1-p11"] == "m1-player11"


def test_participant_kinds() -> None:
    resource, included = arena("m1")
    anonymous = participant("anon", stats={"side": 1, "userID": "555"})
    bot = participant("bot", stats={"side": 1, "userID": 0})
    real_bot = participant("bot0", player="0", stats={"side": 2, "userID": 0})
    included += [anonymous, bot, real_bot, player("0")]
    by_id(included, "m1-r1")["relationships"]["participants"]["data"] += [
        identifier("participant", "anon"),
        identifier("participant", "bot"),
        identifier("participant", "bot0"),
    ]
    frames = to_frames(page((resource, included)))
    participants = frames.participants.set_index("participant_id")
    assert participants.loc["anon", "kind"] == "anonymous"
    assert participants.loc["bot", "kind"] == "bot"
    assert participants.loc["bot0", "kind"] == "bot"
    assert participants.loc["m1-p10", "kind"] == "registered"
    assert list(participants["is_registered"]) == [True] * 4 + [False] * 3
    assert list(frames.participants["kind"].cat.categories) == ["registered", "anonymous", "bot"]


class TestSides:
    def test_integer_side_on_rosters(self) -> None:
        frames = to_frames(page(arena("m1")))
        assert list(frames.rosters["side"]) == [1, 2]
        assert frames.rosters["side_label"].isna().all()

    def test_text_sides_are_mapped_and_kept(self) -> None:
        resource, included = arena("m1")
        for resource_ in included:
            if resource_["type"] == "roster":
                side = resource_["attributes"]["stats"].pop("side")
                resource_["attributes"]["stats"]["side"] = ["left/blue", "right/red"][side - 1]
        frames = to_frames(page((resource, included)))
        assert list(frames.rosters["side"]) == [1, 2]
        assert list(frames.rosters["side_label"]) == ["left/blue", "right/red"]

    def test_side_from_participants_when_the_roster_has_none(self) -> None:
        resource, included = arena("m1")
        for resource_ in included:
            if resource_["type"] == "roster":
                del resource_["attributes"]["stats"]["side"]
        frames = to_frames(page((resource, included)))
        assert list(frames.rosters["side"]) == [1, 2]

    def test_no_common_side_stays_missing(self) -> None:
        resource, included = arena("m1")
        for resource_ in included:
            if resource_["type"] == "roster":
                del resource_["attributes"]["stats"]["side"]
        included[0]["attributes"]["stats"]["side"] = 2  # m1-p10 now disagrees with m1-p11
        frames = to_frames(page((resource, included)))
        assert frames.rosters["side"].isna().tolist() == [True, False]

    def test_unknown_text_side_is_reported(self) -> None:
        resource, included = arena("m1")
        by_id(included, "m1-r1")["attributes"]["stats"]["side"] = "middle"
        frames = to_frames(page((resource, included)))
        assert frames.rosters.loc[0, "side_label"] == "middle"
        assert frames.rosters.loc[0, "side"] == 1  # unreadable: its participants' common side
        assert any("'middle'" in problem for problem in frames.problems)


def test_won_words_and_missing_won() -> None:
    resource, included = arena("m1")
    by_id(included, "m1-r1")["attributes"].pop("won")
    frames = to_frames(page((resource, included)))
    assert frames.rosters["won"].tolist()[0] is pd.NA
    assert bool(frames.rosters["won"].tolist()[1]) is False
    resource, included = arena("m2")
    by_id(included, "m2-r1")["attributes"]["won"] = "TRUE"
    by_id(included, "m2-r2")["attributes"]["won"] = "maybe"
    frames = to_frames(page((resource, included)))
    assert frames.rosters["won"].tolist()[0] is True or frames.rosters["won"].tolist()[0]
    assert frames.rosters["won"].tolist()[1] is pd.NA
    assert any("'maybe'" in problem for problem in frames.problems)


def test_royale_game_and_empty_rounds() -> None:
    resource, included = arena("royale", rounds=0)
    resource["attributes"]["stats"]["game"] = "Royale"
    arena_match, arena_included = arena("arena")
    arena_match["attributes"]["game"] = "BattleriteArena"
    frames = to_frames(page((resource, included), (arena_match, arena_included)))
    matches = frames.matches.set_index("match_id")
    assert matches.loc["royale", "game"] == "Royale"
    assert bool(matches.loc["royale", "is_royale"]) is True
    assert matches.loc["arena", "game"] == "BattleriteArena"
    assert bool(matches.loc["arena", "is_royale"]) is False
    assert set(frames.rounds["match_id"]) == {"arena"}
    assert "stats_game" not in frames.matches


def test_older_variant_text_stats() -> None:
    resource, included = arena("na1")
    resource["attributes"]["stats"] = "victory"
    frames = to_frames(page((resource, included)))
    assert frames.matches.loc[0, "stats_text"] == "victory"
    assert frames.matches.loc[0, "map_id"] is pd.NA


def test_team_relationship_and_teams_table() -> None:
    resource, included = arena("m1")
    by_id(included, "m1-r1")["relationships"]["team"] = {"data": identifier("team", "t1")}
    included.append(team("t1", name="Wolves"))
    frames = to_frames(page((resource, included)))
    assert frames.rosters.loc[0, "team_id"] == "t1"
    assert frames.rosters.loc[1, "team_id"] is pd.NA
    assert frames.teams.loc[0, "name"] == "Wolves"
    assert frames.teams.loc[0, "wins"] == 1


def test_spectators_and_unknown_relationships() -> None:
    resource = match("m1", spectators=[("player", "9")])
    resource["relationships"]["highlights"] = {"data": [identifier("video", "v1")]}
    frames = to_frames({"data": [resource]})
    assert frames.spectators.to_dict("records") == [
        {"match_id": "m1", "spectator_type": "player", "spectator_id": "9"}
    ]
    assert json.loads(frames.matches.loc[0, "highlights"]) == [{"id": "v1", "type": "video"}]


def test_player_stubs_and_full_players() -> None:
    stub = player("1", stats=None)
    full = player("2", name="brubawil87", stats={"lifetimeGold": 16307.5, "played_ranked": 95})
    frames = to_frames({"data": [], "included": [stub, full]})
    players = frames.players.set_index("player_id")
    assert players.loc["2", "lifetime_gold"] == 16307.5
    assert players.loc["2", "played_ranked"] == 95
    assert players.loc["1", "played_ranked"] is pd.NA
    assert players.loc["1", "name"] == ""


def test_values_that_do_not_fit_their_column_are_reported_not_fatal() -> None:
    resource, included = arena("m1")
    resource["attributes"]["duration"] = "long"
    resource["attributes"]["createdAt"] = "yesterday"
    frames = to_frames(page((resource, included)))
    assert frames.matches.loc[0, "duration"] is pd.NA
    assert pd.isna(frames.matches.loc[0, "created_at"])
    problems = "\n".join(frames.problems)
    assert "matches.duration" in problems
    assert "matches.created_at" in problems


def test_numbers_beyond_64_bits_are_kept_as_text() -> None:
    resource, included = arena("m1")
    included[0]["attributes"]["stats"]["bigNumber"] = 2**70
    frames = to_frames(page((resource, included)))
    value = frames.participants.set_index("participant_id").loc["m1-p10", "big_number"]
    assert value == str(2**70)


def test_assets_and_rounds_columns() -> None:
    frames = to_frames(page(arena("m1")))
    assert frames.assets.loc[0, "url"] == "https://example.invalid/m1-asset.json"
    assert frames.assets.loc[0, "created_at"] == pd.Timestamp("2026-10-30T12:10:00Z")
    assert list(frames.rounds["ordinal"]) == [0, 1, 2]
    assert list(frames.rounds["winning_team"]) == [1, 1, 1]


class TestMalformedInput:
    def test_resource_without_id(self) -> None:
        document = page(arena("m1"))
        del document["included"][3]["id"]
        with pytest.raises(DocumentError, match="non-empty string 'type' and 'id'"):
            to_frames([page(arena("m0")), document])

    def test_error_document_names_its_position(self) -> None:
        with pytest.raises(DocumentError) as caught:
            to_frames([page(arena("m1")), {"errors": [{"title": "Too Many Requests"}]}])
        assert caught.value.document_index == 1
        assert "Too Many Requests" in str(caught.value)

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (lambda r: r.__setitem__("attributes", ["x"]), "'attributes' must be an object"),
            (
                lambda r: r["attributes"].__setitem__("stats", [1, 2]),
                "'attributes.stats' must be an object",
            ),
            (lambda r: r.__setitem__("relationships", "x"), "'relationships' must be an object"),
            (
                lambda r: r["relationships"].__setitem__("player", {"data": "7"}),
                "identifier, a list of them or null",
            ),
        ],
    )
    def test_wrong_shapes_name_the_resource(self, change, message: str) -> None:
        document = page(arena("m1"))
        target = document["included"][0]
        assert target["type"] == "participant"
        change(target)
        with pytest.raises(DocumentError, match=message) as caught:
            to_frames([page(arena("m0")), document])
        assert caught.value.document_index == 1
        assert caught.value.resource is not None

    def test_not_json(self) -> None:
        with pytest.raises(DocumentError, match="not valid JSON"):
            to_frames(b"<html>502 Bad Gateway</html>")


def test_returns_match_frames_with_a_short_repr() -> None:
    frames = to_frames(page(arena("m1")))
    assert isinstance(frames, MatchFrames)
    assert repr(frames).startswith("MatchFrames(matches=1, rosters=2, participants=4")


def test_a_generator_of_pages_is_consumed_once() -> None:
    yielded: list[int] = []

    def pages() -> Iterator[bytes]:
        for number in range(3):
            yielded.append(number)
            yield orjson.dumps(page(arena(f"m{number}")))

    generator = pages()
    frames = to_frames(generator)
    assert yielded == [0, 1, 2]  # each page read once, in order
    assert next(generator, None) is None  # nothing left unread
    assert frames.matches["match_id"].tolist() == ["m0", "m1", "m2"]
    assert len(frames.participants) == 12


def test_unexpected_identifier_types_are_ignored_and_reported() -> None:
    resource, included = arena("m1")
    resource["relationships"]["rosters"]["data"].append(identifier("team", "t9"))
    frames = to_frames(page((resource, included)))
    assert len(frames.rosters) == 2
    assert any("not of type 'roster'" in problem for problem in frames.problems)


def test_many_pages_with_mixed_shapes_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small chunks: types that differ between chunks still make one column."""
    monkeypatch.setattr("matchkit.normalize.walker.FLUSH_ROWS", 3)
    pages = []
    for number in range(6):
        resource, included = arena(f"m{number}")
        for resource_ in included:
            if resource_["type"] == "participant":
                stats = resource_["attributes"]["stats"]
                stats["farm"] = 1 if number % 2 else 1.5  # int in some chunks, float in others
                if number == 3:
                    stats["userID"] = 42  # an integer among text
        pages.append(page((resource, included)))
    frames = to_frames(pages)
    assert frames.participants["farm"].dtype == "float64"
    assert sorted(set(frames.participants["farm"])) == [1.0, 1.5]
    assert (frames.participants["user_id"] == "42").sum() == 4
    assert len(frames.participants) == 24
    assert frames.participants["match_id"].notna().all()
    assert list(frames.rounds.groupby("match_id").size()) == [3] * 6


def test_round_participant_pairs_and_asset_rows() -> None:
    resource = match("m1", rounds=["r0"], assets=["a1"])
    included = [round_("r0", participants=["p1", "p2"]), asset("a1")]
    included += [participant("p1"), participant("p2")]
    included.append(roster("ro", participants=["p1", "p2"]))
    resource["relationships"]["rosters"]["data"].append(identifier("roster", "ro"))
    frames = to_frames({"data": [resource], "included": included})
    assert frames.round_participants[["round_id", "participant_id"]].values.tolist() == [
        ["r0", "p1"],
        ["r0", "p2"],
    ]


def test_stats_with_the_same_keys_in_different_orders_keep_each_value_in_its_column() -> None:
    # Regression: with more than a few keys and two complete key orders in one chunk, values
    # were filed under the keys of the other order.
    keys = ["attachment", "emote", "mount", "outfit", "side", "kills", "deaths", "score"]
    first = {key: number for number, key in enumerate(keys, start=1)}
    second = dict(reversed(list(first.items())))
    resource, included = arena("m1", per_side=1)
    participants = [r for r in included if r["type"] == "participant"]
    participants[0]["attributes"]["stats"] = first
    participants[1]["attributes"]["stats"] = second
    frames = to_frames(page((resource, included)))
    for key in keys:
        column = {"side": "side"}.get(key, key)
        assert frames.participants[column].tolist() == [first[key], first[key]], key
