"""How the model writes a JSON value as text, wherever a column holds values of mixed kinds.

The normalizer writes a column whose values mix kinds (text and numbers, say) as text, and
:meth:`matchkit.model.frames.MatchFrames.concat` writes a column that frames hold with
different kinds the same way, with :func:`text_value` (see docs/model.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, overload

import orjson

__all__ = ["EXACT_IN_FLOAT", "text_value"]

EXACT_IN_FLOAT = 2**53
"""Integers up to this size (either sign) are held exactly by a float64: a column of integers
and decimals is ``float64`` when its integers are within it, and text (every value exact)
when one is beyond."""


@overload
def text_value(value: None) -> None: ...
@overload
def text_value(value: Mapping[str, Any] | Sequence[Any] | float) -> str: ...
@overload
def text_value(value: Any) -> str | None: ...
def text_value(value: Any) -> str | None:
    """A value as text: strings as they are, anything else as compact JSON (sorted keys).

    A decimal number is written in its shortest form, and one without a fraction as an integer
    (``3.0`` as ``3``, up to :data:`EXACT_IN_FLOAT`), so that its text is the same whether or not
    integers shared its chunk (where it and they became decimals) before the column turned out
    to be text.
    """
    if value is None or type(value) is str:
        return value
    if type(value) is int:  # its JSON, at any size
        return str(value)
    if type(value) is float:
        whole = value.is_integer() and abs(value) <= EXACT_IN_FLOAT
        return str(int(value)) if whole else repr(value)
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except orjson.JSONEncodeError:
        # Integers beyond 64 bits, or nesting deeper than orjson's 255 levels.
        return _json_text(value)


def _json_text(value: Any) -> str:
    """Compact JSON with sorted keys, written without recursion (any depth, any integer)."""
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Literal):
            parts.append(item.text)
        elif isinstance(item, dict):
            parts.append("{")
            pending: list[Any] = []
            for index, key in enumerate(sorted(item, key=str)):
                pending += [
                    _Literal(("," if index else "") + json.dumps(str(key)) + ":"),
                    item[key],
                ]
            pending.append(_Literal("}"))
            stack.extend(reversed(pending))
        elif isinstance(item, list | tuple):
            parts.append("[")
            pending = []
            for index, element in enumerate(item):
                pending += ([_Literal(",")] if index else []) + [element]
            pending.append(_Literal("]"))
            stack.extend(reversed(pending))
        else:
            parts.append(json.dumps(item))
    return "".join(parts)


class _Literal:
    """A piece of JSON text waiting on the stack of :func:`_json_text`."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
