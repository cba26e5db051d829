"""The command line's tests use the services and data of the subsystems each command drives:
``fetch`` and ``cache`` the sample set's service (tests/client), ``archive`` the two periods'
service (tests/archive), ``serve`` the service tests' small data set (tests/service)."""

from __future__ import annotations

from tests.archive.conftest import service_a, store_dir, two_periods
from tests.client.conftest import service
from tests.service.conftest import dataset_dir

__all__ = ["dataset_dir", "service", "service_a", "store_dir", "two_periods"]
