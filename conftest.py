"""Settings for the whole run, ``tests/`` and ``notebooks/`` alike.

``make test`` runs the suite on two pytest-xdist workers (``-n 2``) with the scheduler below: a
module's tests stay together on one worker, in order, so that a module-scoped fixture (a report
built once, a service started once, a notebook's kernel: nbval runs a notebook's cells in one
kernel) is built once. The modules in :data:`SPREAD` hold independent units of work (the chaos
seeds, ten to a test) and are spread over the workers test by test. The longest modules
(:data:`FIRST`) start first and the rest follow in collection order, so that the run does not end
with one worker busy on a long module while the other has nothing left (xdist's own order, by
number of tests, put the one-test modules last: the type check, the live JupyterLab test).

(xdist's own ``--dist loadgroup`` would do this with markers, but it renames node ids in a way
pytest 9.2 no longer allows; a scheduler that reads the module from the node id needs neither.)
"""

from __future__ import annotations

from typing import Any

SPREAD = ("tests/chaos/test_chaos.py",)
"""Modules whose tests are spread over the workers one by one."""

FIRST = (
    "tests/test_types.py",
    "notebooks/10-pubg-a-match-and-all-of-them.ipynb",
    "tests/client/test_service.py",
    "tests/browser/test_report_offline.py",
    "tests/archive/test_analysis.py",
    "tests/client/test_faults.py",
    "tests/analysis/test_lazy_equal.py",
    "tests/browser/test_explorer_live.py",
    "tests/analysis/test_on_cluster.py",
    "tests/report/test_report.py",
    "notebooks/08-a-year-of-matches.ipynb",
)
"""The modules started first, longest first (by their wall time in a whole run)."""


def pytest_configure(config: Any) -> None:
    if hasattr(config.option, "loadscopereorder"):  # xdist's: keep the order set below
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """:data:`FIRST`'s modules first, in its order; every other test where it was."""
    rank = {module: number for number, module in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(FIRST)))


def pytest_xdist_make_scheduler(config: Any, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        """Whole modules to a worker, except the tests of :data:`SPREAD`, one by one."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return nodeid if module in SPREAD else module

    return ModuleScheduling(config, log)
