"""Session 5, ``matchkit serve --port 99999`` as a newcomer: a Python traceback ending in
``OverflowError: bind(): port must be 0-65535``, after the data set had been loaded. A port is
now checked first: ``InvalidArgumentError`` naming the range, and the command exits 2 with one
line."""

from __future__ import annotations

import pytest

from matchkit.cli import main
from matchkit.errors import InvalidArgumentError
from matchkit.service import running, serve


@pytest.mark.parametrize("port", [65536, 99999, -1, True, "8000"])
def test_a_port_outside_0_to_65535_is_refused_before_anything_runs(port):
    with (
        pytest.raises(InvalidArgumentError, match="from 0 to 65535") as refused,
        running(port=port, data="/nonexistent"),  # the data would fail later
    ):
        pass
    assert refused.value.parameter == "port"
    with pytest.raises(InvalidArgumentError, match="from 0 to 65535"):
        serve(port=port, data="/nonexistent")


def test_the_command_says_so_in_one_line(capsys):
    assert main(["serve", "--port", "99999"]) == 2
    error = capsys.readouterr().err
    assert error.strip() == (
        "matchkit serve: port=99999 must be a whole number from 0 to 65535 (0: a free port)"
    )
