"""The static form of a widget: HTML and plain text for places where widgets cannot run.

Exported HTML, a notebook viewed on GitHub and nbval show ``_repr_html_`` or the text; both
are deterministic (no memory addresses, no widget ids), so nbval can compare them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

__all__ = ["StaticView", "html_table", "text_table"]


class StaticView:
    """Fixed HTML with a plain-text twin; Jupyter shows the HTML, ``print`` the text."""

    def __init__(self, html_text: str, text: str) -> None:
        self.html = html_text
        self.text = text

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]], raw: bool = False) -> str:
    """An HTML table; cells are escaped unless ``raw`` (already HTML)."""

    def cell(text: str, tag: str) -> str:
        return f"<{tag}>{text if raw and tag == 'td' else html.escape(text)}</{tag}>"

    head = "".join(cell(h, "th") for h in header)
    body = "".join("<tr>" + "".join(cell(c, "td") for c in row) + "</tr>" for row in rows)
    return f'<table class="mt-table"><tr>{head}</tr>{body}</table>'


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table with aligned columns (multi-line cells are joined with " ")."""
    cells = [list(header)] + [[" ".join(c.split()) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
