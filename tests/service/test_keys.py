"""Where ``matchkit serve`` takes its keys from (issue 11 item 13): arguments and a key file,
else ``MATCHKIT_API_KEY``, else a generated key; errors never show a key."""

from __future__ import annotations

import pytest

from matchkit.errors import InvalidArgumentError, MatchkitError
from matchkit.service.auth import ApiKeys, read_api_key_file, resolve_api_keys

SECRET = "s3cret-key-in-a-file"


def test_arguments_and_file_together_win_over_the_environment(tmp_path):
    key_file = tmp_path / "keys"
    key_file.write_text(f"{SECRET}\n")
    keys, source = resolve_api_keys(
        ["given-key"], api_key_file=key_file, environ={"MATCHKIT_API_KEY": "env-key"}
    )
    assert keys == ("given-key", SECRET)
    assert source == "given"


def test_environment_when_nothing_is_given():
    keys, source = resolve_api_keys(
        None, api_key_file=None, environ={"MATCHKIT_API_KEY": "  env-key \n"}
    )
    assert keys == ("env-key",)
    assert source == "from MATCHKIT_API_KEY"


@pytest.mark.parametrize("environ", [{}, {"MATCHKIT_API_KEY": ""}, {"MATCHKIT_API_KEY": "  "}])
def test_generated_when_there_is_no_key_anywhere(environ):
    assert resolve_api_keys(None, api_key_file=None, environ=environ) == (None, "generated")


def test_key_file_skips_blank_lines_and_comments(tmp_path):
    key_file = tmp_path / "keys"
    key_file.write_text(f"# service keys\n\n  {SECRET}  \r\nsecond\n")
    assert read_api_key_file(key_file) == (SECRET, "second")


@pytest.mark.parametrize(
    "content", [None, b"", b"# only a comment\n\n", b"\xff\xfe not text"], ids=str
)
def test_unusable_key_file_names_the_file_not_its_content(tmp_path, content):
    key_file = tmp_path / "keys"
    if content is not None:
        key_file.write_bytes(content)
    with pytest.raises(MatchkitError) as raised:
        read_api_key_file(key_file)
    assert str(key_file) in str(raised.value)
    assert "not text" not in str(raised.value)


def test_a_key_with_whitespace_in_the_file_is_refused_without_showing_it(tmp_path):
    key_file = tmp_path / "keys"
    key_file.write_text(f"{SECRET} extra\n")
    (keys,) = [read_api_key_file(key_file)]
    with pytest.raises(InvalidArgumentError) as raised:
        ApiKeys(keys)
    assert SECRET not in str(raised.value)
    assert SECRET not in repr(raised.value.args)
