"""The reference Game Match Data Service: ``create_app`` (ASGI), ``serve`` and ``running``.

Each takes ``profile=``: the Gamelocker service by default, ``"pubg"`` the PUBG double
(:mod:`matchkit.service.pubg`); :mod:`matchkit.service.doubles` chooses.

Starlette and uvicorn (dependencies of matchkit) are imported only when one of these is used, so
that ``import matchkit`` stays light.

Example:
    >>> from matchkit.service import running
    >>> with running() as service:  # doctest: +SKIP
    ...     print(service.base_url)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matchkit.lazy import lazy_getattr

__all__ = ["RunningService", "create_app", "running", "serve"]

if TYPE_CHECKING:
    from matchkit.service.doubles import create_app
    from matchkit.service.server import RunningService, running, serve


__getattr__ = lazy_getattr(
    __name__,
    {
        "matchkit.service.doubles": ("create_app",),
        "matchkit.service.server": ("serve", "running", "RunningService"),
    },
)
