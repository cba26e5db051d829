"""Settings for the whole run, ``tests/`` and ``notebooks/`` alike.

``make test`` runs the suite on two pytest-xdist workers (``-n 2``) with the scheduler below: a
module's tests stay together on one worker, in order, so that a module-scoped fixture (a report
built once, a service started once, a notebook's kernel: nbval runs a notebook's cells in one
kernel) is built once. The modules in :data:`SPREAD` hold independent units of work (the chaos
seeds, ten to a test) and are spread over the workers test by test.

(xdist's own ``--dist loadgroup`` would do this with markers, but it renames node ids in a way
pytest 9.2 no longer allows; a scheduler that reads the module from the node id needs neither.)
"""

from __future__ import annotations

from typing import Any

SPREAD = ("tests/chaos/test_chaos.py",)
"""Modules whose tests are spread over the workers one by one."""


def pytest_xdist_make_scheduler(config: Any, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        """Whole modules to a worker, except the tests of :data:`SPREAD`, one by one."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return nodeid if module in SPREAD else module

    return ModuleScheduling(config, log)
