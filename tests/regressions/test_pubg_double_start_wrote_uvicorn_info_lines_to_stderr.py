"""Regression: notebook 09 failed once in CI because its first cell wrote uvicorn's
``INFO:     Started server process`` to standard error.

The PUBG double starts two servers (the API and its telemetry host). Each ``uvicorn.Config``
applied uvicorn's logging configuration to the whole process (a handler on standard error and
the ``uvicorn.error`` level at INFO) before lowering the level to WARNING; the second one did so
while the first server was starting, and its INFO line went through. An embedded service now
leaves the process's logging as it is, so there is no race to lose and nothing to clobber.
"""

from __future__ import annotations

import logging

import pytest

from matchkit.errors import InvalidArgumentError
from matchkit.service import running

_UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


def _logging_state():
    return {
        name: (
            logging.getLogger(name).level,
            list(logging.getLogger(name).handlers),
            logging.getLogger(name).propagate,
        )
        for name in _UVICORN_LOGGERS
    }


@pytest.mark.parametrize("profile", [None, "pubg"])
def test_an_embedded_service_leaves_the_process_logging_alone(profile, capfd):
    before = _logging_state()
    for _ in range(3):
        with running(profile=profile) as service:
            assert service.base_url.startswith("http://127.0.0.1:")
    assert _logging_state() == before
    captured = capfd.readouterr()
    assert "Started server process" not in captured.err + captured.out
    assert "Uvicorn running" not in captured.err + captured.out


def test_an_embedded_service_logs_to_the_uvicorn_error_logger(caplog):
    with caplog.at_level(logging.INFO, logger="uvicorn.error"), running(profile="pubg"):
        pass
    started = [r for r in caplog.records if r.name == "uvicorn.error" and "Started" in r.message]
    assert len(started) == 2  # the API and its telemetry host, through the process's logging


@pytest.mark.parametrize("profile", [None, "pubg"])
def test_an_embedded_service_takes_no_log_level(profile):
    with pytest.raises(InvalidArgumentError, match="log_level is not an option"):
        running(profile=profile, log_level="info")
