"""The sample data generator and the committed sample set in data/."""

from __future__ import annotations

import gzip
import hashlib
import itertools
import os
import re
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson
import pytest

from matchkit.cli import main
from matchkit.errors import InvalidArgumentError
from matchkit.names import sample_names
from matchkit.rules.query import RANKING_TYPES, SERVER_TYPES
from matchkit.rules.windows import parse_time
from matchkit.sampledata import parameters as p
from matchkit.sampledata.dataset import open_dataset, sample_data_path
from matchkit.synth import iter_documents, model_parameters, write_dataset
from tools.data_readme import README_BEGIN, README_END, parameter_tables

REPO = Path(__file__).resolve().parents[2]
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
MATCH_ID = re.compile(r"^[0-9A-F]{32}$")
NUMERIC_ID = re.compile(r"^[1-9][0-9]{17}$")
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
HERO = re.compile(r"^\*Hero\d{3}\*$")
COSMETICS = {"attachment", "emote", "mount", "outfit"}
MODES = {mode.server_type: mode for mode in p.MODES}


@pytest.fixture(scope="module")
def committed():
    return open_dataset(sample_data_path())


@pytest.fixture(scope="module")
def global_documents(committed) -> list[dict[str, Any]]:
    return list(committed.iter_documents("global"))


@pytest.fixture(scope="module")
def na_documents(committed) -> list[dict[str, Any]]:
    return list(committed.iter_documents("na"))


def _included(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(item["type"], item["id"]): item for item in document["included"]}


def _references(resource: dict[str, Any]) -> list[tuple[str, str]]:
    found = []
    for relationship in (resource.get("relationships") or {}).values():
        data = relationship["data"]
        for ref in data if isinstance(data, list) else [data]:
            if ref is not None:
                found.append((ref["type"], ref["id"]))
    return found


def _members(document: dict[str, Any], roster: dict[str, Any]) -> list[dict[str, Any]]:
    index = _included(document)
    return [index[ref] for ref in _references(roster) if ref[0] == "participant"]


def _of_type(document: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [item for item in document["included"] if item["type"] == kind]


# -- determinism ---------------------------------------------------------------------------


@pytest.mark.slow
def test_regeneration_reproduces_the_committed_data_set(tmp_path, committed):
    manifest = write_dataset(tmp_path)

    assert manifest == committed.manifest
    assert (tmp_path / "manifest.json").read_bytes() == (
        committed.path / "manifest.json"
    ).read_bytes()
    for shard in ("global", "na"):
        fresh = tmp_path / manifest["shards"][shard]["path"]
        kept = committed.shard_file(shard)
        assert gzip.decompress(fresh.read_bytes()) == gzip.decompress(kept.read_bytes()), shard
        # The same zlib gives the same gzip bytes (mtime 0, no file name); a platform whose
        # zlib differs (zlib-ng, say) would fail only here, while the lines above still match.
        assert fresh.read_bytes() == kept.read_bytes(), shard


def test_a_fresh_process_generates_the_same_bytes(tmp_path):
    """Independent of hash randomization: the same arguments in another process, same bytes."""
    options = ["--seed", "11", "--matches", "30", "--na-matches", "6", "--days", "5"]
    assert main(["synth", "--out", str(tmp_path / "here"), *options]) == 0
    environment = dict(os.environ, PYTHONHASHSEED="12345")
    subprocess.run(
        [sys.executable, "-m", "matchkit", "synth", "--out", str(tmp_path / "there"), *options],
        check=True,
        capture_output=True,
        env=environment,
        cwd=REPO,
    )
    for name in ("manifest.json", "global.jsonl.gz", "na.jsonl.gz"):
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "there" / name).read_bytes()


def test_manifest_records_seed_window_counts_and_parameters(committed):
    manifest = committed.manifest
    assert manifest["seed"] == p.DEFAULT_SEED
    assert manifest["as_of"] == "2026-10-31T00:00:00Z"
    assert manifest["days"] == 120
    assert committed.match_count("global") >= 4000
    assert committed.match_count("na") >= 500
    assert manifest["parameters"] == orjson.loads(orjson.dumps(model_parameters()))
    for shard in ("global", "na"):
        lines = gzip.decompress(committed.shard_file(shard).read_bytes())
        assert hashlib.sha256(lines).hexdigest() == manifest["shards"][shard]["sha256"]
        assert lines.count(b"\n") == committed.match_count(shard)


def test_committed_data_set_is_small():
    total = sum(path.stat().st_size for path in sample_data_path().glob("*.gz"))
    assert total < 6_000_000


def test_readme_tables_are_current():
    readme = (sample_data_path() / "README.md").read_text(encoding="utf-8")
    block = readme.split(README_BEGIN, 1)[1].split(README_END, 1)[0]
    assert block.strip() == parameter_tables().strip()


# -- the match-level win probability -------------------------------------------------------


@pytest.mark.parametrize("round_win", ["0.5", "0.52", "0.545", "0.7", "0.1"])
def test_first_to_three_probability_matches_enumeration(round_win):
    p_round = Fraction(round_win)
    total = Fraction(0)
    # every sequence of five rounds; the match is decided by whoever wins three first, and
    # playing out the remaining rounds does not change who that is
    for outcome in itertools.product((True, False), repeat=5):
        weight = Fraction(1)
        for won in outcome:
            weight *= p_round if won else 1 - p_round
        if sum(outcome) >= 3:
            total += weight
    assert p.first_to_win_probability(p_round) == total


def test_manifest_states_the_implied_match_win_probabilities(committed):
    for record in committed.manifest["parameters"]["global"]["modes"]:
        if record["game"] != "Arena":
            continue
        exact = Fraction(record["side_one_match_win_exact"])
        assert exact == p.first_to_win_probability(Fraction(record["side_one_round_win"]))
        assert record["side_one_match_win"] == pytest.approx(float(exact))
        assert 0.5 < float(exact) < 0.65  # a small advantage, larger than the round-level one
        assert float(exact) > float(Fraction(record["side_one_round_win"]))


# -- global shard invariants over the whole committed set ----------------------------------


def test_global_documents_are_ordered_unique_and_within_the_window(global_documents, committed):
    as_of = committed.as_of
    start = as_of - timedelta(days=committed.manifest["days"])
    keys = []
    ids: Counter[tuple[str, str]] = Counter()
    for document in global_documents:
        match = document["data"]
        assert MATCH_ID.match(match["id"])
        created = match["attributes"]["createdAt"]
        assert TIMESTAMP.match(created)
        assert start <= parse_time(created) < as_of
        keys.append((created, match["id"]))
        ids[("match", match["id"])] += 1
        for item in document["included"]:
            if item["type"] not in {"player", "team"}:  # those recur across matches
                ids[(item["type"], item["id"])] += 1
            if item["type"] == "asset":
                assert TIMESTAMP.match(item["attributes"]["createdAt"])
                assert created <= item["attributes"]["createdAt"]
                assert parse_time(item["attributes"]["createdAt"]) < as_of
    assert keys == sorted(keys)
    assert max(ids.values()) == 1


def test_global_references_and_included_resources_match(global_documents):
    for document in global_documents:
        included = _included(document)
        assert len(included) == len(document["included"]), "duplicate included resource"
        referenced = set(_references(document["data"]))
        for item in document["included"]:
            referenced.update(_references(item))
        assert referenced == set(included), document["data"]["id"]


def test_global_match_attributes(global_documents):
    regions = {name for name, _ in p.REGIONS}
    for document in global_documents:
        attributes = document["data"]["attributes"]
        assert attributes["shardId"] == "global"
        assert attributes["titleId"] == p.GLOBAL_TITLE_ID
        tags = attributes["tags"]
        assert tags["serverType"] in SERVER_TYPES
        assert tags["rankingType"] in RANKING_TYPES
        stats = attributes["stats"]
        assert stats["type"] == tags["serverType"]
        assert stats["region"] in regions
        assert MATCH_ID.match(stats["mapID"])
        assert attributes["game"] == MODES[tags["serverType"]].game
        assert re.match(r"^\d+\.\d+$", attributes["patchVersion"])
        assert isinstance(attributes["duration"], int)
        assert attributes["duration"] > 0
        assert document["data"]["relationships"]["spectators"] == {"data": []}
        assets = _of_type(document, "asset")
        assert len(assets) == 1
        assert assets[0]["attributes"]["name"] == "telemetry"
        assert assets[0]["id"] in assets[0]["attributes"]["URL"]


def test_arena_matches_are_first_to_three(global_documents):
    arena = [d for d in global_documents if d["data"]["attributes"]["game"] == "Arena"]
    assert len(arena) > 2000
    for document in arena:
        mode = MODES[document["data"]["attributes"]["tags"]["serverType"]]
        rosters = _of_type(document, "roster")
        rounds = sorted(_of_type(document, "round"), key=lambda r: r["attributes"]["ordinal"])
        assert "game" not in document["data"]["attributes"]["stats"]
        assert len(rosters) == 2
        assert sorted(r["attributes"]["stats"]["side"] for r in rosters) == [1, 2]
        assert [r["attributes"]["ordinal"] for r in rounds] == list(range(len(rounds)))
        assert 3 <= len(rounds) <= 5
        wins = Counter(r["attributes"]["stats"]["winningTeam"] for r in rounds)
        assert set(wins) <= {1, 2}
        # the deciding round is the winner's third
        assert wins[rounds[-1]["attributes"]["stats"]["winningTeam"]] == 3
        for roster in rosters:
            side = roster["attributes"]["stats"]["side"]
            assert roster["attributes"]["stats"]["score"] == wins[side]
            assert roster["attributes"]["won"] == ("true" if wins[side] == 3 else "false")
            members = _members(document, roster)
            assert len(members) == mode.roster_size
            assert all(m["attributes"]["stats"]["side"] == side for m in members)
        assert sorted(r["attributes"]["won"] for r in rosters) == ["false", "true"]
        expected = p.ARENA_INTRO_SECONDS + sum(
            r["attributes"]["duration"] + p.ARENA_ROUND_BREAK_SECONDS for r in rounds
        )
        assert document["data"]["attributes"]["duration"] == expected
        participants = {("participant", item["id"]) for item in _of_type(document, "participant")}
        for one in rounds:
            assert set(_references(one)) == participants


def test_arena_kills_of_a_side_equal_deaths_of_the_other(global_documents):
    for document in global_documents:
        if document["data"]["attributes"]["game"] != "Arena":
            continue
        participants = _of_type(document, "participant")
        if any("kills" not in item["attributes"]["stats"] for item in participants):
            continue  # some participants' detailed stats are not recorded
        totals = Counter()
        for item in participants:
            stats = item["attributes"]["stats"]
            totals[("kills", stats["side"])] += stats["kills"]
            totals[("deaths", stats["side"])] += stats["deaths"]
            assert stats["score"] == 100 * stats["kills"] + (
                (stats["damageDone"] + stats["healingDone"]) // 2
            )
        assert totals[("kills", 1)] == totals[("deaths", 2)]
        assert totals[("kills", 2)] == totals[("deaths", 1)]


def test_royale_matches_have_one_winner_and_no_rounds(global_documents):
    royale = [d for d in global_documents if d["data"]["attributes"]["game"] == "Royale"]
    assert len(royale) > 500
    for document in royale:
        mode = MODES[document["data"]["attributes"]["tags"]["serverType"]]
        assert document["data"]["attributes"]["stats"]["game"] == "Royale"
        assert document["data"]["relationships"]["rounds"] == {"data": []}
        assert _of_type(document, "round") == []
        rosters = _of_type(document, "roster")
        assert len(rosters) == mode.rosters
        placements = sorted(r["attributes"]["stats"]["placement"] for r in rosters)
        assert placements == list(range(1, mode.rosters + 1))
        winners = [r for r in rosters if r["attributes"]["won"] == "true"]
        assert len(winners) == 1
        assert winners[0]["attributes"]["stats"]["placement"] == 1
        assert all(r["attributes"]["won"] in {"true", "false"} for r in rosters)
        for roster in rosters:
            assert len(_members(document, roster)) == mode.roster_size


def test_participants_are_registered_anonymous_or_bots(global_documents, committed):
    actors = {c["actor"] for c in committed.manifest["parameters"]["catalogue"]["characters"]}
    kinds: Counter[str] = Counter()
    players: Counter[str] = Counter()
    for document in global_documents:
        included = _included(document)
        for item in _of_type(document, "participant"):
            assert UUID.match(item["id"])
            attributes = item["attributes"]
            assert attributes["actor"] in actors
            assert attributes["shardId"] == "global"
            stats = attributes["stats"]
            assert isinstance(stats["side"], int)
            player = (item.get("relationships") or {}).get("player", {}).get("data")
            if player is not None:
                kinds["registered"] += 1
                players[player["id"]] += 1
                assert NUMERIC_ID.match(player["id"])
                assert set(stats) >= COSMETICS
                if "userID" in stats:
                    assert str(stats["userID"]) == player["id"]
                resource = included[("player", player["id"])]
                assert set(resource["attributes"]) == {
                    "name",
                    "patchVersion",
                    "shardId",
                    "stats",
                    "titleId",
                }
                assert resource["attributes"]["name"]
            elif stats.get("userID") == p.BOT_USER_ID:
                kinds["bot"] += 1
                assert not COSMETICS & set(stats)
            else:
                kinds["anonymous"] += 1
                assert set(stats) >= COSMETICS
                if "userID" in stats:
                    assert isinstance(stats["userID"], str)
                    assert NUMERIC_ID.match(stats["userID"])
            if COSMETICS & set(stats):
                assert all(isinstance(stats[name], int) for name in COSMETICS)
    assert min(kinds.values()) > 500, kinds
    # a few thousand distinct players, recurring with skewed activity
    assert 2000 <= len(players) <= p.GLOBAL_PLAYER_POOL
    assert sum(1 for count in players.values() if count >= 10) >= 100
    assert max(players.values()) >= 100


def test_teams_are_included_with_their_attributes(global_documents):
    team_rosters = 0
    for document in global_documents:
        included = _included(document)
        for roster in _of_type(document, "roster"):
            team = roster["relationships"]["team"]["data"]
            if team is None:
                continue
            team_rosters += 1
            assert UUID.match(team["id"])
            resource = included[("team", team["id"])]
            assert set(resource["attributes"]) == {"name", "shardId", "stats", "titleId"}
            members = _members(document, roster)
            assert all("relationships" in member for member in members)  # all registered
    assert team_rosters > 300


def test_side_one_wins_rounds_at_the_documented_rate(global_documents):
    """The committed data agree with the documented round-level advantage (4 standard errors)."""
    wins: Counter[tuple[str, int]] = Counter()
    for document in global_documents:
        server_type = document["data"]["attributes"]["tags"]["serverType"]
        for one in _of_type(document, "round"):
            wins[(server_type, one["attributes"]["stats"]["winningTeam"])] += 1
    for mode in p.MODES:
        if mode.side_one_round_win is None:
            continue
        played = wins[(mode.server_type, 1)] + wins[(mode.server_type, 2)]
        expected = float(Fraction(mode.side_one_round_win))
        error = (expected * (1 - expected) / played) ** 0.5
        assert abs(wins[(mode.server_type, 1)] / played - expected) < 4 * error


def test_modes_patches_and_cosmetics_follow_the_model(global_documents):
    modes = Counter(d["data"]["attributes"]["tags"]["serverType"] for d in global_documents)
    for mode in p.MODES:
        share = float(Fraction(mode.share))
        assert abs(modes[mode.server_type] / len(global_documents) - share) < 0.03
    patches = [
        tuple(map(int, d["data"]["attributes"]["patchVersion"].split(".")))
        for d in global_documents
    ]
    assert patches == sorted(patches)  # documents are in time order, patches only go up
    assert len(set(patches)) >= 5
    outfits: Counter[int] = Counter()
    defaults = set()
    for document in global_documents:
        for item in _of_type(document, "participant"):
            if "outfit" in item["attributes"]["stats"]:
                outfits[item["attributes"]["stats"]["outfit"]] += 1
    for character in model_parameters()["catalogue"]["characters"]:
        defaults.add(character["default_items"]["outfit"])
    default_share = sum(outfits[item] for item in defaults) / sum(outfits.values())
    assert abs(default_share - float(Fraction(p.COSMETIC_SLOTS[3].default_share))) < 0.03


# -- the na shard (older shape) ------------------------------------------------------------


def test_na_documents_have_the_older_shape(na_documents, committed):
    as_of = committed.as_of
    keys = []
    player_names: dict[str, str] = {}
    team_names: set[str] = set()
    for document in na_documents:
        match = document["data"]
        attributes = match["attributes"]
        assert UUID.match(match["id"])
        assert attributes["shardId"] == "na"
        assert attributes["gameMode"] in {"casual", "ranked"}
        assert isinstance(attributes["stats"], str)
        assert as_of - timedelta(days=120) <= parse_time(attributes["createdAt"]) < as_of
        keys.append((attributes["createdAt"], match["id"]))
        assert set(match["relationships"]) == {"rosters"}
        included = _included(document)
        referenced = set(_references(match))
        for item in document["included"]:
            referenced.update(_references(item))
        assert referenced == set(included)
        rosters = _of_type(document, "roster")
        assert len(rosters) == 2
        assert sorted(r["attributes"]["stats"]["side"] for r in rosters) == [
            "left/blue",
            "right/red",
        ]
        winners = {
            r["attributes"]["stats"]["side"]
            for r in rosters
            if r["attributes"].get("won") == "true"
        }
        assert len(winners) <= 1
        for roster in rosters:
            stats = roster["attributes"]["stats"]
            assert set(stats) == {
                "acesEarned",
                "gold",
                "heroKills",
                "krakenCaptures",
                "side",
                "turretKills",
                "turretsRemaining",
            }
            members = _members(document, roster)
            assert len(members) == p.NA_ROSTER_SIZE
            assert stats["heroKills"] == sum(m["attributes"]["stats"]["kills"] for m in members)
            if "won" in roster["attributes"]:
                won = roster["attributes"]["won"] == "true"
                assert all(m["attributes"]["stats"]["winner"] is won for m in members)
            team = roster["relationships"]["team"]["data"]
            if team is not None:
                team_names.add(included[("team", team["id"])]["attributes"]["name"])
            for member in members:
                assert HERO.match(member["attributes"]["actor"])
                stats = member["attributes"]["stats"]
                assert {"assists", "crystalMineCaptures", "deaths", "kills", "level"} <= set(stats)
                assert isinstance(stats["farm"], float)
                assert isinstance(stats["items"], list)
                assert isinstance(stats["itemGrants"], dict)
                player_id = member["relationships"]["player"]["data"]["id"]
                assert UUID.match(player_id)
                player_names[player_id] = included[("player", player_id)]["attributes"]["name"]
    assert keys == sorted(keys)
    assert len(player_names) >= 500
    assert len(team_names) >= 20


# -- renamed players -------------------------------------------------------------------------


@pytest.mark.parametrize("shard", ["global", "na"])
def test_a_name_belongs_to_one_player_at_a_time_and_renames_follow_the_manifest(committed, shard):
    renames = {rename["player_id"]: rename for rename in committed.manifest["renames"][shard]}
    assert len(renames) == len(p.RENAMES[shard])
    holders: dict[str, list[tuple[str, str]]] = {}  # name -> (createdAt, player id) in order
    names_of: dict[str, set[str]] = {}
    for document in committed.iter_documents(shard):
        created_at = document["data"]["attributes"]["createdAt"]
        for item in _of_type(document, "player"):
            name = item["attributes"]["name"]
            holders.setdefault(name, []).append((created_at, item["id"]))
            names_of.setdefault(item["id"], set()).add(name)
            rename = renames.get(item["id"])
            if rename is not None:
                assert name == (rename["to"] if created_at >= rename["at"] else rename["from"])
    for player_id, rename in renames.items():
        assert names_of[player_id] == {rename["from"], rename["to"]}  # seen under both names
    for name, seen in holders.items():
        owners = [player_id for _, player_id in seen]
        changes = sum(1 for before, after in itertools.pairwise(owners) if before != after)
        assert changes == 0 or (changes == 1 and any(r["to"] == name for r in renames.values()))
    assert sum(1 for rename in renames.values() if rename["to"] in renames_from(renames)) >= (
        1 if shard == "global" else 0
    )  # on global a given-up name is taken by another player


def test_global_player_stats_are_keyed_as_the_real_service_keyed_them(global_documents, committed):
    keys = committed.manifest["parameters"]["global"]["player_stats"]
    results: dict[str, list[tuple[int, int]]] = {}
    profiles: dict[str, set[tuple[int, int]]] = {}
    for document in global_documents:
        for item in _of_type(document, "player"):
            stats = item["attributes"]["stats"]
            assert list(stats) == ["picture", "title", "2", "3", "26"]
            assert set(stats) - {"picture", "title"} == set(keys) - {"picture", "title"}
            assert keys["picture"]["low"] <= stats["picture"] <= keys["picture"]["high"]
            assert keys["title"]["low"] <= stats["title"] <= keys["title"]["high"]
            results.setdefault(item["id"], []).append((stats["2"], stats["3"]))
            profiles.setdefault(item["id"], set()).add((stats["picture"], stats["title"]))
    assert all(len(seen) == 1 for seen in profiles.values())  # fixed per player
    for seen in results.values():  # one more win or loss a match, from the first on
        assert [wins + losses for wins, losses in seen] == list(range(1, len(seen) + 1))


def renames_from(renames: dict[str, dict[str, str]]) -> set[str]:
    return {rename["from"] for rename in renames.values()}


# -- the CLI and arguments -----------------------------------------------------------------


def test_cli_writes_a_small_data_set_of_another_seed(tmp_path, capsys, global_documents):
    out = tmp_path / "small"
    code = main(
        [
            "synth",
            "--out",
            str(out),
            "--seed",
            "7",
            "--matches",
            "60",
            "--na-matches",
            "12",
            "--as-of",
            "2026-01-15T12:00:00Z",
            "--days",
            "10",
        ]
    )
    assert code == 0
    assert str(out) in capsys.readouterr().out
    dataset = open_dataset(out)
    assert dataset.manifest["seed"] == 7
    assert dataset.manifest["as_of"] == "2026-01-15T12:00:00Z"
    assert dataset.manifest["days"] == 10
    assert (dataset.match_count("global"), dataset.match_count("na")) == (60, 12)
    documents = list(dataset.iter_documents("global"))
    assert len(documents) == 60
    low, high = parse_time("2026-01-05T12:00:00Z"), parse_time("2026-01-15T12:00:00Z")
    for document in documents + list(dataset.iter_documents("na")):
        assert low <= parse_time(document["data"]["attributes"]["createdAt"]) < high
    committed_ids = {d["data"]["id"] for d in global_documents}
    assert not committed_ids & {d["data"]["id"] for d in documents}


def test_iter_documents_is_a_prefix_independent_stream():
    """The na stream does not depend on the global count: shards draw from their own seeds."""
    small = list(iter_documents("na", seed=3, matches=5, days=3))
    assert len(small) == 5
    again = list(iter_documents("na", seed=3, matches=5, days=3))
    assert small == again
    other_seed = list(iter_documents("na", seed=4, matches=5, days=3))
    assert small != other_seed


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"days": 0}, "days"),
        ({"days": 121}, "days"),
        ({"matches": -1}, "matches"),
        ({"na_matches": 2.5}, "na_matches"),
        ({"seed": True}, "seed"),
        ({"as_of": "yesterday"}, "as_of"),
        ({"as_of": "2026-10-31T00:00:00.5Z"}, "as_of"),
    ],
)
def test_bad_arguments_name_the_parameter(tmp_path, options, parameter):
    with pytest.raises(InvalidArgumentError) as raised:
        write_dataset(tmp_path / "out", **options)
    assert raised.value.parameter == parameter
    assert not (tmp_path / "out").exists()


def test_cli_reports_bad_arguments(tmp_path, capsys):
    assert main(["synth", "--out", str(tmp_path), "--days", "0"]) == 2
    assert "days" in capsys.readouterr().err


def test_the_catalogue_names_every_actor_of_the_sample_set() -> None:
    names = dict(sample_names().names["character"])
    manifest_actors = {
        character["actor"]: character["name"]
        for character in open_dataset().manifest["parameters"]["catalogue"]["characters"]
    }
    assert names == manifest_actors
    assert len(set(names.values())) == len(names) == 30
    played = {
        participant["attributes"]["actor"]
        for document in itertools.islice(open_dataset().iter_documents("global"), 200)
        for participant in document["included"]
        if participant["type"] == "participant"
    }
    assert played <= set(names)
