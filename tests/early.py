"""Loaded before pytest's other plugins (``-p tests.early`` in pyproject.toml's ``addopts``).

nbval's plugin imports nbformat, and nbformat imports jsonschema, whose format checkers import
``rfc3987_syntax`` when it is installed (jupyter-events asks for it): that module builds about 35
Lark parsers as it is imported, 3.3 CPU-seconds in each of the suite's worker processes, for the
``iri`` format, which no notebook schema uses (python-jsonschema/jsonschema#1428). Marked absent
here, before nbval is imported, jsonschema leaves that format unchecked and nbformat imports in
0.3 s. Only the test processes are changed; matchkit itself never imports it.
"""

from __future__ import annotations

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[assignment]
