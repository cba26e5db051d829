"""The report's ``index.html``: a link to each page, in order, and to the API reference."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from matchkit.report.api_reference import API_FOLDER

__all__ = ["index_page"]


def _module_name(path: str) -> str:
    return path.removeprefix(f"{API_FOLDER}/").removesuffix(".html").replace("/", ".")


def index_page(pages: Sequence[tuple[str, Path]], *, api_modules: Sequence[str]) -> str:
    """The index: ``pages`` (title, path of the page) as an ordered list, then the API
    reference's modules (their paths in the report)."""
    items = "\n".join(
        f'    <li><a href="{html.escape(path.name)}">{html.escape(title)}</a></li>'
        for title, path in pages
    )
    reference = ""
    if api_modules:
        modules = "\n".join(
            f'    <li><a href="{html.escape(path)}"><code>{html.escape(_module_name(path))}</code>'
            "</a></li>"
            for path in api_modules
        )
        reference = (
            f'  <h2>API reference</h2>\n  <p>The <a href="{html.escape(api_modules[0])}">API '
            "reference</a> documents the package (<code>Client</code>, <code>to_frames</code>, "
            "<code>MatchFrames</code> and the rest), module by module:</p>\n"
            f"  <ul>\n{modules}\n  </ul>\n"
        )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>matchkit report</title>
  <style>body {{ font-family: sans-serif; max-width: 48rem; margin: 2rem auto; }}</style>
</head>
<body>
  <h1>matchkit report</h1>
  <p>Each page is a notebook executed top to bottom by <code>matchkit report</code>.</p>
  <ol>
{items}
  </ol>
{reference}</body>
</html>
"""
