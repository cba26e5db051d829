"""Session 5, ``matchkit synth --out`` on a folder that already exists: the generator wrote its
four files into it whatever they were, so a user's own ``manifest.json`` (or ``catalogue.json``)
there was replaced without a word. Files of those names are now replaced only when the folder
holds a matchkit data set; any other file is left alone either way."""

from __future__ import annotations

import pytest

from matchkit.cli import main
from matchkit.errors import InvalidArgumentError
from matchkit.synth import write_dataset

SMALL = {"matches": 6, "na_matches": 2}


@pytest.mark.parametrize("name", ["manifest.json", "catalogue.json", "global.jsonl.gz"])
def test_a_foreign_file_of_a_data_set_name_is_kept_and_the_write_refused(tmp_path, name):
    (tmp_path / name).write_text("mine\n")
    with pytest.raises(InvalidArgumentError, match="not a matchkit data set") as refused:
        write_dataset(tmp_path, **SMALL)
    assert refused.value.parameter == "out"
    assert (tmp_path / name).read_text() == "mine\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == [name]


def test_a_data_set_is_written_again_beside_other_files(tmp_path):
    (tmp_path / "README.md").write_text("notes\n")
    first = write_dataset(tmp_path, seed=1, **SMALL)
    second = write_dataset(tmp_path, seed=2, **SMALL)  # replaces its own data set
    assert first["seed"] == 1
    assert second["seed"] == 2
    assert (tmp_path / "README.md").read_text() == "notes\n"


def test_the_command_refuses_in_one_line(tmp_path, capsys):
    (tmp_path / "manifest.json").write_text("{}\n")
    assert main(["synth", "--out", str(tmp_path), "--matches", "6", "--na-matches", "2"]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"matchkit synth: {tmp_path} holds manifest.json, and it is not")
    assert (tmp_path / "manifest.json").read_text() == "{}\n"


def test_a_file_in_place_of_the_folder_is_refused(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(InvalidArgumentError, match="is not a folder"):
        write_dataset(target, **SMALL)
