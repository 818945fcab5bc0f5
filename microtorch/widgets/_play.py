"""The stepper's play, pause, stop and repeat buttons: each with a title and an aria-label.

ipywidgets' ``Play`` draws icon-only buttons that a screen reader announces as "button"; this
small anywidget keeps its traits (``value``, ``min``, ``max``, ``interval``, ``repeat``) and
counts in the page, as ``Play`` does, so a running animation needs no kernel round trip per tick
to decide when to move on. Its icons are inline SVG: no font needs a glyph for them.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["PlayControls"]

_ESM = """\
const ICONS = {
  play: "M4 2.5v11l9-5.5z",
  pause: "M4 2.5h3v11H4zM9 2.5h3v11H9z",
  stop: "M3.5 3.5h9v9h-9z",
  repeat: "M4 5h6V3l3 3-3 3V7H5v2H3V6a1 1 0 0 1 1-1zM12 11H6v2l-3-3 3-3v2h5V7h2v3a1 1 0 0 1-1 1z",
};
function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}
export default {
  render({ model, el }) {
    el.classList.add("mt-play");
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", "play the steps");
    let timer = null;
    const button = (name, label, action) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "jupyter-button widget-button mt-play-" + name;
      b.title = label;
      b.setAttribute("aria-label", label);
      b.appendChild(icon(name));
      b.addEventListener("click", action);
      el.appendChild(b);
      return b;
    };
    const move = (value) => {
      model.set("value", value);
      model.save_changes();
    };
    const halt = () => {
      clearInterval(timer);
      timer = null;
      play.setAttribute("aria-pressed", "false");
    };
    const tick = () => {
      const value = model.get("value");
      if (value < model.get("max")) return move(value + 1);
      if (model.get("repeat")) return move(model.get("min"));
      halt();
    };
    const start = () => {
      if (timer !== null) return;
      if (model.get("value") >= model.get("max")) move(model.get("min"));
      timer = setInterval(tick, model.get("interval"));
      play.setAttribute("aria-pressed", "true");
    };
    const play = button("play", "play: one step after another", start);
    button("pause", "pause", halt);
    button("stop", "stop and go back to the start", () => { halt(); move(model.get("min")); });
    const repeat = button("repeat", "repeat: start again after the last step", () => {
      model.set("repeat", !model.get("repeat"));
      model.save_changes();
    });
    const pressed = () => repeat.setAttribute("aria-pressed", String(Boolean(model.get("repeat"))));
    pressed();
    play.setAttribute("aria-pressed", "false");
    model.on("change:repeat", pressed);
    model.on("change:interval", () => {
      if (timer !== null) { halt(); start(); }
    });
    return () => { clearInterval(timer); model.off("change:repeat", pressed); };
  },
};
"""

_CSS = """\
.mt-play { display: flex; gap: 2px; align-items: center; }
.mt-play button { display: inline-flex; align-items: center; justify-content: center;
  width: auto; min-width: 34px; flex: 0 0 auto; padding: 0 8px; }
.mt-play button[aria-pressed="true"] {
  box-shadow: inset 0 0 0 2px var(--jp-brand-color1, #0072B2); }
"""


class PlayControls(anywidget.AnyWidget):
    """``value`` counts from ``min`` to ``max``, one step every ``interval`` ms, while playing."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    _css = traitlets.Unicode(_CSS).tag(sync=True)
    value = traitlets.Int(0).tag(sync=True)
    min = traitlets.Int(0).tag(sync=True)
    max = traitlets.Int(100).tag(sync=True)
    interval = traitlets.Int(700).tag(sync=True)
    repeat = traitlets.Bool(False).tag(sync=True)
