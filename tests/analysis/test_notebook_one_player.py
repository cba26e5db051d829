"""Notebook 07 ("One player"): its findings are computed, asserted, and hold on the sample set.

The figures it prints are held against the sample set's documents read in plain Python: the
player who holds the looked-up name at the end of the window, their matches and wins, their
most played character, and the names they used (the manifest's renames).
"""

from __future__ import annotations

from collections import Counter

import pytest

from matchkit.analysis import percent
from matchkit.names import sample_names
from matchkit.report import NOTEBOOKS
from matchkit.sampledata.dataset import open_dataset
from tests.analysis.helpers import wilson
from tests.analysis.notebook_claims import (
    WRITTEN_ORDER,
    WRITTEN_SHARE,
    code,
    load,
    rendered_prose,
    static_prose,
)

NAME = "07-one-player.ipynb"


@pytest.fixture(scope="module")
def notebook():
    return load(NAME)


@pytest.fixture(scope="module")
def looked_up(notebook) -> str:
    (parameters,) = [
        cell for cell in notebook["cells"] if "parameters" in cell["metadata"].get("tags", [])
    ]
    namespace: dict[str, object] = {}
    exec("".join(parameters["source"]), namespace)  # the notebook's own parameters
    return str(namespace["PLAYER_NAME"])


@pytest.fixture(scope="module")
def played(looked_up):
    """The holder of the name at the end of the window, and each of their matches."""
    dataset = open_dataset()
    holder = None
    rows = []
    documents = list(dataset.iter_documents("global"))
    for document in documents:
        for item in document["included"]:
            if item["type"] == "player" and item["attributes"]["name"] == looked_up:
                holder = item["id"]  # documents are in time order: the last holder stays
    for document in documents:
        included = document["included"]
        for item in included:
            player = (item.get("relationships") or {}).get("player", {}).get("data")
            if item["type"] == "participant" and player and player["id"] == holder:
                roster = next(
                    one
                    for one in included
                    if one["type"] == "roster"
                    and {"type": "participant", "id": item["id"]}
                    in one["relationships"]["participants"]["data"]
                )
                rows.append((item["attributes"]["actor"], roster["attributes"].get("won")))
    return holder, rows


def test_the_report_lists_it():
    assert NAME in NOTEBOOKS


def test_findings_are_computed_asserted_and_concluded(notebook):
    sources = code(notebook)
    assert any("assert " in source for source in sources)
    prose = rendered_prose(notebook)
    assert prose[-1].startswith("**Conclusion.**")
    assert "Markdown(" in sources[-1]
    written = static_prose(notebook)
    assert not WRITTEN_SHARE.findall(written)
    assert not WRITTEN_ORDER.findall(written)
    assert "client.players(names=" in "\n".join(sources)  # it looks the player up by name


def test_printed_figures_are_the_sample_sets(notebook, played, looked_up):
    holder, rows = played
    prose = " ".join(rendered_prose(notebook))
    assert f"belongs to the player `{holder}` now" in prose
    wins = sum(1 for _, won in rows if won == "true")
    decided = sum(1 for _, won in rows if won is not None)
    low, high = wilson(wins, decided)
    assert f"They played **{len(rows):,} matches**" in prose
    assert f"**{percent(wins / decided)}** [{percent(low)}, {percent(high)}]" in prose
    actor, count = Counter(actor for actor, _ in rows).most_common(1)[0]
    character = sample_names().name("character", actor)
    assert f"the one they play most is **{character}**, in {percent(count / len(rows))}" in prose


def test_the_names_used_are_the_manifests_renames(notebook, played, looked_up):
    holder, _ = played
    (rename,) = [
        r for r in open_dataset().manifest["renames"]["global"] if r["player_id"] == holder
    ]
    assert rename["to"] == looked_up
    prose = " ".join(rendered_prose(notebook))
    assert f"went by **{rename['from']}**" in prose
    assert f"then **{rename['to']}**" in prose
