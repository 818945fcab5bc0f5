"""Text in widgets that reads as text: ipywidgets' HTML widget double-spaces paragraphs.

ipywidgets gives every ``HTML`` widget the line height of a row of buttons (28 px), so the
stepper's panel and the explorers' intros looked double-spaced. ``text_html`` marks ours with
``mt-text``; ``TEXT_CSS`` (put into the page once, in a ``<style>`` inside a widget's HTML)
gives them a reading line height.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

__all__ = ["TEXT_CSS", "text_html"]

TEXT_CSS = (
    "<style>.mt-text > .widget-html-content, .mt-text > .jupyter-widget-html-content "
    "{ line-height: 1.4; } .mt-text p { margin: 4px 0; }</style>"
)


def text_html(value: str = "", **kwargs: Any) -> widgets.HTML:
    """An ``HTML`` widget with a reading line height (needs ``TEXT_CSS`` on the page)."""
    widget = widgets.HTML(value, **kwargs)
    widget.add_class("mt-text")
    return widget
