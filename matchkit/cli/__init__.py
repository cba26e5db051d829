"""The ``matchkit`` command: ``serve``, ``fetch``, ``synth``, ``report`` and ``cache``.

- :mod:`matchkit.cli.parser`: the commands, their options, help texts and examples.
- :mod:`matchkit.cli.commands`: what each command does (:func:`main`).
"""

from __future__ import annotations

from matchkit.cli.commands import main

__all__ = ["main"]
