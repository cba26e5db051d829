"""A package's attributes loaded on first use (matchkit.lazy.lazy_getattr)."""

from __future__ import annotations

import json

import pytest

from matchkit.lazy import lazy_getattr


def test_a_name_is_imported_from_its_module_on_first_use():
    module_getattr = lazy_getattr("pkg", {"json": ("dumps", "loads")})
    assert module_getattr("dumps") is json.dumps
    assert module_getattr("loads") is json.loads


def test_an_unknown_name_is_an_attribute_error_naming_the_package():
    module_getattr = lazy_getattr("pkg", {"json": ("dumps",)})
    with pytest.raises(AttributeError, match="module 'pkg' has no attribute 'load'"):
        module_getattr("load")


def test_the_check_runs_before_each_lazy_import_and_can_refuse_it():
    calls = []

    def refuse() -> None:
        calls.append("checked")
        raise ImportError("install the extra")

    module_getattr = lazy_getattr("pkg", {"json": ("dumps",)}, before=refuse)
    with pytest.raises(ImportError, match="install the extra"):
        module_getattr("dumps")
    with pytest.raises(AttributeError):
        module_getattr("other")  # an unknown name is not checked, only refused
    assert calls == ["checked"]


def test_the_service_package_resolves_its_names_lazily():
    import matchkit.service as service
    from matchkit.service.doubles import create_app
    from matchkit.service.server import RunningService, running, serve

    assert (service.create_app, service.serve) == (create_app, serve)
    assert (service.running, service.RunningService) == (running, RunningService)
    with pytest.raises(AttributeError, match=r"matchkit\.service"):
        service.no_such_name  # noqa: B018
