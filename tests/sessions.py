"""requests sessions for tests that keep one connection pool across many tests.

A server closes an idle keep-alive connection after its timeout (the service: 5 s, uvicorn's
default). A session that sends its next request on that connection in the same instant gets
``ConnectionResetError`` before any response: the request never reached the application. Browsers
and the matchkit client retry such a request; a bare ``requests.Session`` does not, so a test
whose previous request on the session happened about 5 s earlier failed at random (CI, session 4:
``test_files_of_other_sources_are_not_made_up``).
"""

from __future__ import annotations

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

__all__ = ["pooled_session"]


def pooled_session() -> requests.Session:
    """A session that sends a request once more if its connection fails before any answer.

    Only connection and protocol failures of idempotent methods are retried, once; a response,
    whatever its status, is returned as it came (tests assert on 4xx, 5xx and 429).
    """
    session = requests.Session()
    retry = Retry(total=1, connect=1, read=1, status=0, other=0, redirect=0, raise_on_status=False)
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
