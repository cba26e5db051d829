"""``matchkit fetch``: fetch through the client and write the MatchFrames as Parquet."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from matchkit.cli import main
from matchkit.cli.options import filters_from_args
from matchkit.cli.parser import build_parser
from matchkit.client.client import Client
from matchkit.model.frames import MatchFrames
from matchkit.service import RunningService
from tests.client.conftest import assert_same_frames, service_client


def test_fetch_writes_parquet_and_prints_a_summary(
    service: RunningService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    out = tmp_path / "frames"
    span = ["--start", "2026-10-20T00:00:00Z", "--end", "2026-10-25T00:00:00Z"]
    code = main(
        [
            "fetch",
            "--base-url",
            service.base_url,
            *span,
            "--server-types",
            "quick2v2,quick3v3",
            "--now",
            "2026-10-31T00:00:00Z",
            "--rate-limit",
            "off",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed
    written = MatchFrames.read_parquet(out)
    with service_client(service, tmp_path / "other-cache", now="2026-10-31T00:00:00Z") as client:
        expected = client.matches(span[1], span[3], server_types=["QUICK2V2", "QUICK3V3"])
    assert len(written) == len(expected) > 0
    assert f"{len(expected):>9,} rows" in printed
    assert set(written.matches["server_type"].astype(str)) <= {"QUICK2V2", "QUICK3V3"}
    assert_same_frames(written, expected)
    assert service.api_key not in printed


def test_fetch_reports_a_bad_argument_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "fetch",
            "--base-url",
            "http://127.0.0.1:9",
            "--start",
            "not-a-time",
            "--cache-dir",
            str(tmp_path),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert code == 2
    assert "start='not-a-time' is not an ISO 8601 timestamp" in capsys.readouterr().err


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _subparsers(child)


def test_every_option_has_help_with_its_default() -> None:
    parsers = list(_subparsers(build_parser()))
    assert {p.prog for p in parsers} >= {
        "matchkit fetch",
        "matchkit report",
        "matchkit serve",
        "matchkit synth",
        "matchkit cache info",
        "matchkit cache clear",
    }
    undocumented = []
    for parser in parsers:
        for action in parser._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction):
                continue
            text = action.help or ""
            flag = isinstance(action, argparse._StoreTrueAction | argparse._StoreFalseAction)
            if not text or not (flag or action.required or "default" in text):
                undocumented.append(f"{parser.prog} {action.option_strings[0]}: {text!r}")
    assert undocumented == []


@pytest.mark.parametrize(
    ("option", "fragments"),
    [
        ("--start", ["2026-10-01T12:00:00Z", "default: 28 days"]),
        ("--end", ["exclusive", "default: now"]),
        ("--shard", ["default: global"]),
        ("--ranking-type", ["RANKED or UNRANKED"]),
        ("--sort", ["newest first", "default: createdAt"]),
        ("--max-matches", ["default: no limit"]),
        ("--cache-dir", ["MATCHKIT_CACHE_DIR"]),
    ],
)
def test_fetch_help_says_format_and_default(
    option: str, fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["fetch", "--help"])
    printed = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    options = printed[printed.index("options:") :]
    line = options[options.index(option + " ") :][:400]
    for fragment in fragments:
        assert fragment in line, (option, fragment)


@pytest.mark.parametrize("command", [[], ["serve"], ["synth"], ["fetch"], ["report"], ["cache"]])
def test_help_has_examples_and_no_raw_markup(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    assert exit_info.value.code == 0
    printed = capsys.readouterr().out
    assert "``" not in printed
    assert "examples:\n  matchkit " in printed
    if command == ["report"]:
        assert "(default: reports)" in " ".join(printed.split())
        assert "--jobs N" in printed
        assert "(default: 3, or 1 on a single core)" in " ".join(printed.split())


def test_cache_info_and_clear(
    service: RunningService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    cache = str(tmp_path / "cache")
    with Client(
        service.base_url,
        cache_dir=cache,
        now="2026-10-31T00:00:00Z",
        rate_limit="off",
        progress=False,
    ) as client:
        client.matches("2026-10-28T00:00:00Z", "2026-10-30T00:00:00Z")
        stored = client.cache_info().responses
    assert stored > 0
    capsys.readouterr()
    assert main(["cache", "info", "--cache-dir", cache]) == 0
    assert f"{stored} responses" in capsys.readouterr().out
    assert main(["cache", "clear", "--cache-dir", cache, "--older-than", "1"]) == 0
    assert "removed 0 cached responses" in capsys.readouterr().out
    assert main(["cache", "clear", "--cache-dir", cache]) == 0
    assert f"removed {stored} cached responses" in capsys.readouterr().out
    assert main(["cache", "info", "--cache-dir", cache]) == 0
    assert "0 responses" in capsys.readouterr().out


def test_cache_clear_refuses_a_negative_age(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["cache", "clear", "--cache-dir", str(tmp_path), "--older-than", "-1"])
    assert exit_.value.code == 2
    assert "--older-than: '-1' must be a finite number of days" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["fetch", "--out", "x"], ["archive", "sync", "x"]])
def test_filters_from_args_splits_lists_and_leaves_out_what_is_not_given(command) -> None:
    # fetch and archive sync read their filters alike, into what Client.matches and sync take
    args = build_parser().parse_args([*command, "--player-ids", "a,b", "--ranking-type", "RANKED"])
    assert filters_from_args(args) == {"player_ids": ["a", "b"], "ranking_type": "RANKED"}
