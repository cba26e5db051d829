"""Issue 11 item 13: a fixed key could only be passed as ``--api-key`` (visible in ``ps``), and a
generated key was printed among the access log. Now ``matchkit serve`` also reads the key from
``MATCHKIT_API_KEY`` or ``--api-key-file``, and prints a generated key on its own line on
standard error, apart from the access log (standard output)."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.builders.datasets import build_dataset
from tests.serve_process import run_serve, started_serve

PLANTED = "planted-serve-key-3f9a1c"


@pytest.fixture(scope="module")
def dataset_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("serve-keys")
    build_dataset(folder, global_matches=20, na_matches=10)
    return folder


def _command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def _served_list(served, key: str) -> requests.Response:
    return requests.get(
        f"{served.base_url}/shards/global/matches",
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )


def test_key_from_the_environment(dataset_dir, tmp_path):
    environment = {"MATCHKIT_API_KEY": PLANTED}
    with started_serve("--data", str(dataset_dir), cache_dir=tmp_path, env=environment) as served:
        assert served.banner[1].strip() == "accepting the 1 API key(s) from MATCHKIT_API_KEY"
        assert PLANTED not in _command_line(served.process.pid)
        assert _served_list(served, PLANTED).status_code == 200
        assert _served_list(served, "another-key").status_code == 401
    assert PLANTED not in served.key_output + served.output


def test_keys_from_a_file(dataset_dir, tmp_path):
    key_file = tmp_path / "keys"
    key_file.write_text(f"# keys of the service\n{PLANTED}\n\nsecond-key-77\n")
    # A key in the environment is not used when keys are given.
    environment = {"MATCHKIT_API_KEY": "environment-key-11"}
    arguments = ("--data", str(dataset_dir), "--api-key-file", str(key_file))
    with started_serve(*arguments, cache_dir=tmp_path, env=environment) as served:
        assert served.banner[1].strip() == "accepting the 2 API key(s) given"
        assert PLANTED not in _command_line(served.process.pid)
        assert _served_list(served, PLANTED).status_code == 200
        assert _served_list(served, "second-key-77").status_code == 200
        assert _served_list(served, "environment-key-11").status_code == 401
    assert PLANTED not in served.key_output + served.output


def test_generated_key_is_on_its_own_line_on_stderr_never_in_the_access_log(dataset_dir, tmp_path):
    with started_serve("--data", str(dataset_dir), cache_dir=tmp_path) as served:
        key = served.api_key
        assert key
        assert served.key_output.splitlines()[-1] == f"API key: {key}"
        assert _served_list(served, key).status_code == 200
    assert "GET /shards/global/matches" in served.stdout  # the access log is on
    assert key not in served.stdout
    assert key not in served.stderr  # printed once, at start, and never again
    assert key not in served.banner[0] + served.banner[2]


def test_unreadable_key_file_is_refused_without_showing_a_key(dataset_dir, tmp_path):
    missing = tmp_path / "no-such-file"
    result = run_serve(
        "--api-key-file", str(missing), "--data", str(dataset_dir), cache_dir=tmp_path
    )
    assert result.returncode == 2
    assert str(missing) in result.stderr
    assert "API key file" in result.stderr
