"""The service's catalogue of names (``GET /catalogue``): what :meth:`matchkit.Client.names` reads.

The catalogue holds no match data: it is asked without the API key, never cached (it is small,
and a service may change it), through the client's one request path. Its parse hook
(:func:`catalogue_parser`) turns the answer into :class:`matchkit.names.Names`, or refuses it:
an answer that is not a catalogue is retried like a 5xx, then a
:class:`matchkit.errors.DocumentError`.
"""

from __future__ import annotations

from collections.abc import Callable

import orjson

from matchkit.client.request import Fetched
from matchkit.client.responses import BadAnswerError
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names, catalogue_names
from matchkit.rules.jsonapi import repeated_members

__all__ = ["CATALOGUE_PATH", "catalogue_parser"]

CATALOGUE_PATH = "/catalogue"


def catalogue_parser(source: str) -> Callable[[Fetched], Names]:
    """The parse hook of ``GET /catalogue``: the names it holds, from ``source`` (its URL).

    Raises:
        BadAnswerError: the body is not JSON, or not a catalogue.
    """

    def parse(fetched: Fetched) -> Names:
        body = fetched.require_body()
        try:
            document = orjson.loads(body)
        except orjson.JSONDecodeError as error:
            raise BadAnswerError(f"a body that is not JSON ({error})") from None
        repeated = repeated_members(body)
        if repeated:
            raise BadAnswerError(f"a catalogue that gives {', '.join(map(repr, repeated))} twice")
        try:
            return catalogue_names(document, source=source)
        except InvalidArgumentError as error:
            raise BadAnswerError(f"a JSON body that is not a catalogue ({error})") from None

    return parse
