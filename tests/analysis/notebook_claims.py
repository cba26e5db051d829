"""The findings the report's notebooks print, recomputed here from the sample set.

Each notebook formats its findings from its own tables and asserts them (nbval re-runs those
assertions); these helpers read the committed outputs and hold them against an independent
computation, so a notebook whose printed prose disagrees with the data fails the suite.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LABELS = {
    "QUICK2V2": "Quick 2v2",
    "QUICK3V3": "Quick 3v3",
    "ROYALRUMBLESOLO": "Royal Rumble solo",
    "ROYALRUMBLEDUO": "Royal Rumble duo",
}


def load(name: str) -> dict[str, Any]:
    """The committed notebook ``name`` (e.g. ``"02-durations.ipynb"``)."""
    return json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))


def rendered_prose(notebook: dict[str, Any]) -> list[str]:
    """The Markdown the notebook's code cells displayed (their findings), in order."""
    texts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/markdown")
            if text is not None:
                texts.append("".join(text))
    return texts


def static_prose(notebook: dict[str, Any]) -> str:
    """The text of the notebook's Markdown cells (written, not computed)."""
    return "\n".join(
        "".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"
    )


def code(notebook: dict[str, Any]) -> list[str]:
    """The sources of the notebook's code cells."""
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


# A share written into static prose is a finding that cannot follow the data (50% and 95% are
# the method's constants, not findings).
WRITTEN_SHARE = re.compile(r"(?<![\d.])(?!50%|95%)\d+(?:\.\d+)?\s?%")
WRITTEN_ORDER = re.compile(r"\b(longest|shortest|most popular|least popular)\b", re.IGNORECASE)
