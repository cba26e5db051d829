"""The reference Game Match Data Service: ``create_app`` (ASGI), ``serve`` and ``running``.

Starlette and uvicorn are imported only when one of these is used; without them the import
fails with an install hint.

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
    from matchkit.service.app import create_app
    from matchkit.service.server import RunningService, running, serve


def _require_server_packages() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        raise ImportError(
            "the matchkit service needs starlette and uvicorn: pip install 'starlette>=0.37' "
            "'uvicorn>=0.29' (or reinstall matchkit)"
        ) from error


__getattr__ = lazy_getattr(
    __name__,
    {
        "matchkit.service.app": ("create_app",),
        "matchkit.service.server": ("serve", "running", "RunningService"),
    },
    before=_require_server_packages,
)
