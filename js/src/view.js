// The browser side of microtorch.widgets.GraphView, without Graphviz: the picture is the SVG the
// kernel sent (laid out by graphviz-pure, the same Graphviz 16.1.0 as the WebAssembly build), or,
// when it sent none, Graphviz compiled to WebAssembly (graphview.js) lays the DOT text out once; zoom, pan and the node panel work on that one picture, and a step of the
// backward stepper only changes classes and labels on it (no second layout).
//
// The model is an anywidget model, or the small stand-in `staticModel` makes for the offline
// HTML files of `save_html`. Traits read: dot, edges, nodes, highlight, selected, description,
// palette, theme, max_height, svg; written: selected.

const STATES = ["current", "done", "pending"];
const ZOOM_STEP = 1.25;
const MIN_SCALE = 0.01;
// The first view: the whole graph if it fits at READABLE_SCALE or more; otherwise the cell's
// width (never below MIN_FIRST_SCALE), on the output's end, the rest a pan away.
const READABLE_SCALE = 0.6;
const MIN_FIRST_SCALE = 0.5;
const MAX_SCALE = 8;
const PT_TO_PX = 4 / 3; // Graphviz sizes SVG in points
const SVG_NS = "http://www.w3.org/2000/svg";

let layoutEngine = null; // (model) -> Promise of a Graphviz instance: set by whoever brings one

/** Where a layout the kernel did not send comes from (graphview.js sets Graphviz's WebAssembly). */
export function setLayoutEngine(load) {
  layoutEngine = load;
}

/** The Graphviz instance for `model`'s views, loaded on first use. */
export function graphvizFor(model) {
  if (!layoutEngine) return Promise.reject(new Error("no Graphviz layout engine loaded"));
  return layoutEngine(model);
}

const BASE_CSS = `
.mt-gv { font-family: var(--jp-ui-font-family, Helvetica, Arial, sans-serif);
  color: var(--jp-ui-font-color1, #000); font-size: 13px; min-width: 0; }
.mt-gv-toolbar { display: flex; gap: 4px; align-items: center; margin-bottom: 4px; flex-wrap: wrap; }
.mt-gv-toolbar button { font: inherit; padding: 1px 8px; min-width: 2.2em; cursor: pointer;
  color: inherit; background: var(--jp-layout-color2, #eee);
  border: 1px solid var(--jp-border-color1, #999); border-radius: 3px; }
.mt-gv-toolbar button:focus-visible, .mt-gv-viewport:focus-visible { outline: 2px solid #0072B2; }
.mt-gv-zoom { min-width: 3.5em; text-align: right; font-variant-numeric: tabular-nums; }
.mt-gv-hint { color: var(--jp-ui-font-color2, #555); margin-left: 8px; }
.mt-gv-viewport { position: relative; overflow: hidden; cursor: grab; touch-action: none;
  border: 1px solid var(--jp-border-color2, #ddd); background: #fff; }
.mt-gv-viewport.mt-gv-dragging { cursor: grabbing; }
.mt-gv-canvas { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
.mt-gv-canvas svg { display: block; overflow: visible; }
.mt-gv g.node { cursor: pointer; }
.mt-gv g.node:focus { outline: none; }
.mt-gv g.node:focus > :is(ellipse, polygon, path), .mt-gv g.node.mt-selected > :is(ellipse, polygon, path) {
  stroke-width: 3px; }
.mt-gv g.node:focus-visible > :is(ellipse, polygon, path) { stroke: #0072B2; stroke-dasharray: 4,2; }
.mt-gv-panel { margin-top: 6px; padding: 4px 8px; border-left: 3px solid #0072B2;
  background: var(--jp-layout-color1, #fafafa); }
.mt-gv-panel h4 { margin: 2px 0 4px 0; font-size: 14px; }
.mt-gv-panel h5 { margin: 6px 0 2px 0; font-size: 13px; }
.mt-gv-panel p { margin: 2px 0; line-height: 1.4; }
.mt-gv-panel pre { margin: 1px 0 4px 0; font-size: 12px; white-space: pre; overflow-x: auto;
  font-family: var(--jp-code-font-family, monospace); }
.mt-gv-panel dl { margin: 0; display: grid; grid-template-columns: max-content minmax(0, 1fr);
  gap: 0 8px; line-height: 1.3; }
.mt-gv-panel dt { font-weight: bold; white-space: nowrap; }
.mt-gv-panel dd { margin: 0; min-width: 0; }
.mt-gv-text summary { cursor: pointer; color: var(--jp-ui-font-color2, #555); margin-top: 4px; }
.mt-gv-text pre { font-size: 12px; overflow-x: auto; }
.mt-gv text.mt-label { font: bold 11px Helvetica, sans-serif; paint-order: stroke;
  stroke: #fff; stroke-width: 3px; stroke-linejoin: round; pointer-events: none; }
.mt-gv text.mt-label.mt-under { text-anchor: middle; }
.mt-gv.mt-dark .mt-gv-viewport { background: var(--jp-layout-color0, #111); }
.mt-gv.mt-dark svg g.graph > polygon { fill: transparent; stroke: transparent; }
.mt-gv.mt-dark g.edge > path, .mt-gv.mt-dark g.cluster > :is(path, polygon),
.mt-gv.mt-dark g.node > :is(ellipse, polygon, path, polyline) { stroke: #ddd; }
.mt-gv.mt-dark g.edge > polygon { fill: #ddd; stroke: #ddd; }
.mt-gv.mt-dark g.cluster > text, .mt-gv.mt-dark g.edge > text { fill: #ddd; }
.mt-gv.mt-dark text.mt-label { stroke: #111; }
`;

/** CSS for the step states and the dark looks, from the Python style (one palette). */
function paletteCss(palette) {
  const rules = [];
  const widths = { current: 3.5, done: 2.2, pending: 1.0 };
  for (const state of STATES) {
    const colour = palette.states?.[state];
    if (!colour) continue;
    const dash = state === "pending" ? "5,3" : "none";
    // .mt-gv.mt-gv: one class more than the dark theme's outlines, so states show in both
    rules.push(
      `.mt-gv.mt-gv g.mt-${state} > :is(ellipse, polygon, path) { stroke: ${colour}; ` +
        `stroke-width: ${widths[state]}px; stroke-dasharray: ${dash}; }`,
      `.mt-gv.mt-gv g.edge.mt-${state} > polygon { fill: ${colour}; stroke-dasharray: none; }`,
      `.mt-gv text.mt-label.mt-${state} { fill: ${colour}; }`,
    );
  }
  for (const [kind, look] of Object.entries(palette.dark ?? {})) {
    rules.push(
      `.mt-gv.mt-dark g.mt-kind-${kind} > :is(ellipse, polygon, path) { fill: ${look.fill}; }`,
      `.mt-gv.mt-dark g.mt-kind-${kind} > text { fill: ${look.fontcolor}; }`,
    );
  }
  return rules.join("\n");
}

function addCss(root, id, text) {
  const doc = root.ownerDocument;
  if (doc.getElementById(id)) return;
  const style = doc.createElement("style");
  style.id = id;
  style.textContent = text;
  doc.head.appendChild(style);
}

function element(tag, attrs = {}, text) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  if (text !== undefined) el.textContent = text;
  return el;
}

// Icons for the offline page's buttons, drawn as SVG: no font in Chromium has ⏮ or ⏭.
const ICONS = {
  first: "M3 3h2v10H3zM13 3v10L6 8z",
  prev: "M12 3v10L5 8z",
  next: "M4 3v10l7-5z",
  last: "M11 3h2v10h-2zM3 3v10l7-5z",
};

function icon(name) {
  const svg = document.createElementNS(SVG_NS, "svg");
  for (const [key, value] of Object.entries({ viewBox: "0 0 16 16", width: "12", height: "12" })) {
    svg.setAttribute(key, value);
  }
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}

function pageIsDark() {
  const light = document.body?.dataset?.jpThemeLight;
  return light === "false";
}

class View {
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.items = new Map(); // graph id -> its <g> element in the SVG
    this.order = []; // node ids in the graph's order (keyboard navigation)
    this.states = new Map(); // graph id -> state class now applied
    this.anchors = new Map();
    this.scale = 1;
    this.tx = 0;
    this.ty = 0;
    this.fitted = false;
    this.cleanups = [];
    this.build();
  }

  build() {
    addCss(this.el, "mt-gv-css", BASE_CSS);
    const palette = this.model.get("palette") ?? {};
    addCss(this.el, `mt-gv-palette-${palette.name ?? "default"}`, paletteCss(palette));
    // keys pressed inside the view are the view's: JupyterLab's notebook shortcuts (↑/↓ move
    // between cells, 0 0 restarts the kernel...) stop at this attribute
    this.root = element("div", { class: "mt-gv", role: "figure", "data-lm-suppress-shortcuts": "true" });
    const toolbar = element("div", { class: "mt-gv-toolbar", role: "toolbar" });
    toolbar.setAttribute("aria-label", "graph view");
    const button = (text, label, action) => {
      const b = element("button", { type: "button", "aria-label": label, title: label }, text);
      b.addEventListener("click", action);
      toolbar.appendChild(b);
      return b;
    };
    button("−", "zoom out (-)", () => this.zoomBy(1 / ZOOM_STEP));
    button("+", "zoom in (+)", () => this.zoomBy(ZOOM_STEP));
    button("fit", "fit the whole graph (0)", () => this.fit(true));
    button("1:1", "natural size, output end in view (1)", () => this.natural());
    this.zoomLabel = element("span", { class: "mt-gv-zoom", "aria-live": "off" });
    toolbar.appendChild(this.zoomLabel);
    toolbar.appendChild(
      element(
        "span",
        { class: "mt-gv-hint" },
        "wheel: zoom, drag: pan, click a node (or Tab, ↑↓, Enter) to inspect it",
      ),
    );
    this.viewport = element("div", { class: "mt-gv-viewport", tabindex: "-1" });
    this.viewport.setAttribute("role", "group");
    this.viewport.setAttribute("aria-roledescription", "computation graph");
    this.canvas = element("div", { class: "mt-gv-canvas" });
    this.viewport.appendChild(this.canvas);
    this.panel = element("div", { class: "mt-gv-panel", "aria-live": "polite" });
    this.text = element("details", { class: "mt-gv-text" });
    this.text.appendChild(element("summary", {}, "Text description of the graph"));
    this.textPre = element("pre", { id: `mt-gv-desc-${Math.random().toString(36).slice(2)}` });
    this.text.appendChild(this.textPre);
    this.viewport.setAttribute("aria-describedby", this.textPre.id);
    this.root.append(toolbar, this.viewport, this.panel, this.text);
    this.el.appendChild(this.root);
    this.listen();
  }

  on(target, event, handler, options) {
    target.addEventListener(event, handler, options);
    this.cleanups.push(() => target.removeEventListener(event, handler, options));
  }

  onModel(event, handler) {
    this.model.on(event, handler);
    this.cleanups.push(() => this.model.off?.(event, handler));
  }

  listen() {
    this.onModel("change:highlight", () => this.restyle());
    this.onModel("change:nodes", () => this.showPanel());
    this.onModel("change:selected", () => this.select(this.model.get("selected"), false));
    this.onModel("change:description", () => this.describe());
    this.onModel("change:dot", () => this.layout());
    this.onModel("change:theme", () => this.theme());
    this.on(
      this.viewport,
      "wheel",
      (event) => {
        event.preventDefault();
        const box = this.viewport.getBoundingClientRect();
        const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.002));
        this.moved = true;
        this.zoomAt(this.scale * factor, event.clientX - box.left, event.clientY - box.top);
      },
      { passive: false },
    );
    let drag = null;
    this.on(this.viewport, "pointerdown", (event) => {
      if (event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, tx: this.tx, ty: this.ty, moved: false };
    });
    this.on(window, "pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return; // a click, not a drag
      drag.moved = this.moved = true;
      this.viewport.classList.add("mt-gv-dragging");
      this.tx = drag.tx + dx;
      this.ty = drag.ty + dy;
      this.apply();
    });
    this.on(window, "pointerup", () => {
      if (drag?.moved) this.suppressClick = true;
      drag = null;
      this.viewport.classList.remove("mt-gv-dragging");
    });
    this.on(this.viewport, "click", (event) => {
      if (this.suppressClick) {
        this.suppressClick = false;
        return;
      }
      const node = event.target.closest?.("g.node[data-mt]");
      if (node) this.select(node.dataset.mt, true, true);
    });
    this.on(this.root, "keydown", (event) => this.key(event));
    if (typeof ResizeObserver !== "undefined") {
      // until the student zooms or pans, a view that changes width (a panel wrapping, the
      // sidebar opening) is fitted again by the first view's rule
      const observer = new ResizeObserver(() => {
        const width = this.viewport.clientWidth;
        if (!this.svg || width === 0) return;
        if (!this.fitted || (!this.moved && width !== this.fittedWidth)) this.firstFit();
      });
      observer.observe(this.viewport);
      this.cleanups.push(() => observer.disconnect());
    }
    if (typeof MutationObserver !== "undefined" && document.body) {
      const observer = new MutationObserver(() => this.theme());
      observer.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light"] });
      this.cleanups.push(() => observer.disconnect());
    }
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const focused = event.target.closest?.("g.node[data-mt]")?.dataset.mt;
    const index = focused ? this.order.indexOf(focused) : -1;
    const move = (to) => {
      event.preventDefault();
      this.focusNode(this.order[Math.max(0, Math.min(this.order.length - 1, to))]);
    };
    switch (event.key) {
      case "+":
      case "=":
        event.preventDefault();
        return this.zoomBy(ZOOM_STEP);
      case "-":
        event.preventDefault();
        return this.zoomBy(1 / ZOOM_STEP);
      case "0":
        event.preventDefault();
        return this.fit(true);
      case "1":
        event.preventDefault();
        return this.natural();
    }
    if (!focused) return;
    if (event.shiftKey && event.key.startsWith("Arrow")) {
      event.preventDefault(); // pan by a tenth of the view
      const step = this.viewport.clientWidth / 10;
      const d = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      const [dx, dy] = d[event.key] ?? [0, 0];
      this.moved = true;
      this.tx += dx;
      this.ty += dy;
      return this.apply();
    }
    switch (event.key) {
      case "ArrowDown":
        return move(index + 1);
      case "ArrowUp":
        return move(index - 1);
      case "Home":
        return move(0);
      case "End":
        return move(this.order.length - 1);
      case "Enter":
      case " ":
        event.preventDefault();
        return this.select(focused, true);
      case "Escape":
        event.preventDefault();
        return this.select("", true);
    }
  }

  async layout() {
    const started = performance.now();
    // the kernel's SVG is what Graphviz's WebAssembly would draw (tests/widgets/test_svg_parity.py)
    let svgText = this.model.get("svg");
    this.el.dataset.mtLayoutBy = svgText ? "kernel" : "browser";
    if (!svgText) svgText = (await graphvizFor(this.model)).layout(this.model.get("dot"), "svg", "dot");
    const holder = document.createElement("div");
    holder.innerHTML = svgText; // Graphviz's own output: no scripts, text is escaped
    const svg = holder.querySelector("svg");
    const box = svg.viewBox.baseVal;
    this.width = box.width * PT_TO_PX;
    this.height = box.height * PT_TO_PX;
    svg.setAttribute("width", this.width);
    svg.setAttribute("height", this.height);
    // the natural width, for a container to give the graph its room (the stepper's row puts
    // the panel beside the graph only where both fit)
    this.el.style.setProperty("--mt-graph-width", `${Math.ceil(this.width) + 2}px`);
    svg.setAttribute("aria-hidden", "false");
    svg.removeAttribute("style");
    this.canvas.replaceChildren(svg);
    this.svg = svg;
    this.labels = document.createElementNS(SVG_NS, "g");
    this.labels.setAttribute("class", "mt-labels");
    svg.querySelector("g.graph")?.appendChild(this.labels);
    this.index(svg);
    this.el.dataset.mtLayoutMs = (performance.now() - started).toFixed(1);
    this.states.clear();
    this.anchors.clear();
    this.restyle();
    this.describe();
    this.theme();
    this.fitted = this.moved = false;
    if (this.viewport.clientWidth > 0) this.firstFit();
    this.select(this.model.get("selected") ?? "", false);
    this.el.dataset.mtReady = "1";
  }

  index(svg) {
    const nodes = this.model.get("nodes") ?? {};
    // Graphviz titles an edge "src->dst"; parallel edges share a title, in DOT order
    const edgeIds = new Map();
    for (const [id, src, dst] of this.model.get("edges") ?? []) {
      const key = `${src}->${dst}`;
      if (!edgeIds.has(key)) edgeIds.set(key, []);
      edgeIds.get(key).push(id);
    }
    this.items.clear();
    for (const g of svg.querySelectorAll("g.node, g.edge")) {
      const title = g.querySelector(":scope > title")?.textContent ?? "";
      g.querySelector(":scope > title")?.remove(); // no tooltip hiding the panel's text
      let id = null;
      if (g.classList.contains("edge")) id = edgeIds.get(title)?.shift() ?? null;
      else if (title in nodes) id = title;
      if (id === null) continue; // legend entries keep their look
      g.dataset.mt = id;
      this.items.set(id, g);
      if (g.classList.contains("node")) {
        const info = nodes[id];
        g.classList.add(`mt-kind-${info.kind}`);
        g.setAttribute("tabindex", "-1");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", info.label ?? info.title ?? id);
        g.addEventListener("focus", () => this.rove(id));
      }
    }
    // the graph's order (n0 is the output, then as the walk found them), not the keys' order
    const number = (id) => Number(id.slice(1));
    this.order = Object.keys(nodes).filter((id) => this.items.has(id));
    this.order.sort((a, b) => number(a) - number(b));
    if (this.order.length) this.rove(this.order[0]);
  }

  rove(id) {
    // one node in the tab order (the last one visited); arrows move between them
    for (const g of this.items.values()) if (g.classList.contains("node")) g.setAttribute("tabindex", "-1");
    this.items.get(id)?.setAttribute("tabindex", "0");
  }

  focusNode(id) {
    const g = this.items.get(id);
    if (!g) return;
    this.rove(id);
    g.focus({ preventScroll: true });
    this.reveal(g);
  }

  reveal(g) {
    // where the node is on screen now, relative to the view (CSS transform included)
    const view = this.viewport.getBoundingClientRect();
    const box = g.getBoundingClientRect();
    const [x0, y0] = [box.left - view.left, box.top - view.top];
    const [x1, y1] = [box.right - view.left, box.bottom - view.top];
    const [w, h] = [this.viewport.clientWidth, this.viewport.clientHeight];
    if (x0 >= 0 && y0 >= 0 && x1 <= w && y1 <= h) return;
    this.tx += w / 2 - (x0 + x1) / 2;
    this.ty += h / 2 - (y0 + y1) / 2;
    this.apply();
  }

  unit() {
    // SVG user units (points, from the viewBox) to canvas pixels
    const box = this.svg.viewBox.baseVal;
    return box.width ? this.width / box.width : PT_TO_PX;
  }

  firstFit() {
    // the whole graph when it fits the cell's width and max_height at a readable size;
    // otherwise the cell's width, and the output's end in view (see place)
    const width = this.viewport.clientWidth || this.el.clientWidth || 800;
    const maxHeight = this.model.get("max_height") || 640;
    const across = Math.min(1, width / this.width);
    const whole = Math.min(across, maxHeight / this.height);
    const scale = whole >= READABLE_SCALE ? whole : Math.max(MIN_FIRST_SCALE, across);
    this.viewport.style.height = `${Math.max(80, Math.min(maxHeight, this.height * scale + 2))}px`;
    this.fitted = this.viewport.clientWidth > 0;
    this.fittedWidth = this.viewport.clientWidth;
    this.place(scale);
    this.restyle(true);
  }

  /** Where the output node is, in canvas pixels at natural size (null before a layout). */
  outputAt() {
    const g = this.items.get(this.order[0]); // n0: the first output, in both views
    if (!g) return null;
    const canvas = this.canvas.getBoundingClientRect();
    const box = g.getBoundingClientRect();
    if (!box.width && !box.height) return null;
    return [
      ((box.left + box.right) / 2 - canvas.left) / this.scale,
      ((box.top + box.bottom) / 2 - canvas.top) / this.scale,
    ];
  }

  place(scale) {
    // Along each axis, a drawing that fits is centred; a larger one is centred on the output
    // node but never pulled past its own edge, so the output's end of the drawing (the top of
    // a backward view, the bottom of a forward view) fills the view, with no blank beside it.
    const at = this.outputAt() ?? [this.width / 2, 0];
    const [w, h] = [this.viewport.clientWidth, this.viewport.clientHeight];
    const offset = (view, size, centre) => {
      if (size <= view) return (view - size) / 2;
      return Math.min(0, Math.max(view - size, view / 2 - centre));
    };
    this.scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, scale));
    this.tx = offset(w, this.width * this.scale, at[0] * this.scale);
    this.ty = offset(h, this.height * this.scale, at[1] * this.scale);
    this.apply();
  }

  natural() {
    this.moved = true;
    this.place(1);
  }

  fit() {
    this.moved = true;
    const [w, h] = [this.viewport.clientWidth, this.viewport.clientHeight];
    this.scale = Math.min(w / this.width, h / this.height);
    this.tx = (w - this.width * this.scale) / 2;
    this.ty = (h - this.height * this.scale) / 2;
    this.apply();
  }

  zoomBy(factor) {
    this.zoomAt(this.scale * factor, this.viewport.clientWidth / 2, this.viewport.clientHeight / 2);
  }

  zoomAt(scale, x, y) {
    this.moved = true;
    const next = Math.max(MIN_SCALE, Math.min(MAX_SCALE, scale));
    // keep the point under (x, y) where it is
    this.tx = x - ((x - this.tx) * next) / this.scale;
    this.ty = y - ((y - this.ty) * next) / this.scale;
    this.scale = next;
    this.apply();
  }

  apply() {
    this.canvas.style.transform = `translate(${this.tx}px, ${this.ty}px) scale(${this.scale})`;
    this.zoomLabel.textContent = `${Math.round(this.scale * 100)}%`;
    this.el.dataset.mtScale = this.scale.toFixed(4);
  }

  theme() {
    const wanted = this.model.get("theme") || "auto";
    const dark = wanted === "dark" || (wanted === "auto" && pageIsDark());
    this.root.classList.toggle("mt-dark", dark);
  }

  describe() {
    this.textPre.textContent = this.model.get("description") ?? "";
    this.viewport.setAttribute("aria-label", this.model.get("summary") || "computation graph");
  }

  restyle(relabel = false) {
    if (!this.svg) return;
    const started = performance.now();
    const highlight = this.model.get("highlight") ?? {};
    const states = highlight.states ?? {};
    for (const [id, g] of this.items) {
      const state = states[id] ?? null;
      if ((this.states.get(id) ?? null) === state) continue;
      const old = this.states.get(id);
      if (old) g.classList.remove(`mt-${old}`);
      if (state) g.classList.add(`mt-${state}`);
      this.states.set(id, state);
    }
    const labels = highlight.labels ?? {};
    const key = JSON.stringify(labels);
    if (relabel || key !== this.labelKey) {
      this.labelKey = key;
      const texts = [];
      for (const [id, text] of Object.entries(labels)) {
        const at = this.anchor(id);
        if (!at) continue;
        const label = document.createElementNS(SVG_NS, "text");
        const under = at[2] ? " mt-under" : "";
        label.setAttribute("class", `mt-label mt-${states[id] ?? "current"}${under}`);
        label.setAttribute("x", at[0].toFixed(1));
        label.setAttribute("y", at[1].toFixed(1));
        label.dataset.for = id;
        label.textContent = text;
        texts.push(label);
      }
      this.labels.replaceChildren(...texts);
    }
    this.el.dataset.mtUpdateMs = (performance.now() - started).toFixed(2);
  }

  anchor(id) {
    if (this.anchors.has(id)) return this.anchors.get(id);
    const g = this.items.get(id);
    if (!g) return null;
    let at = null;
    if (g.classList.contains("edge")) {
      const path = g.querySelector("path");
      if (path) {
        const length = path.getTotalLength();
        const point = path.getPointAtLength(length / 2);
        at = [point.x + 5, point.y];
      }
    } else {
      // under the node, centred on it: to its right the badge ran into the next node
      const box = g.getBBox();
      if (box.width) at = [box.x + box.width / 2, box.y + box.height + 12, true];
    }
    if (at && (at[0] || at[1])) this.anchors.set(id, at);
    return at;
  }

  select(id, user, fromClick = false) {
    if (this.selected) this.items.get(this.selected)?.classList.remove("mt-selected");
    this.selected = id && this.items.has(id) ? id : "";
    if (this.selected) {
      const g = this.items.get(this.selected);
      g.classList.add("mt-selected");
      this.rove(this.selected);
      if (fromClick) g.focus({ preventScroll: true });
    }
    if (user && this.model.get("selected") !== this.selected) {
      this.model.set("selected", this.selected);
      this.model.save_changes();
    }
    this.showPanel();
  }

  showPanel() {
    const info = this.selected ? (this.model.get("nodes") ?? {})[this.selected] : null;
    if (!info) {
      this.panel.replaceChildren(
        element("p", {}, "Click a node, or press Tab then ↑/↓ and Enter, to see what it holds."),
      );
      this.panel.dataset.node = "";
      return;
    }
    const parts = [element("h4", {}, info.title)];
    if (info.what) parts.push(element("p", {}, info.what));
    for (const section of info.sections ?? []) {
      parts.push(element("h5", {}, section.heading));
      if (section.note) parts.push(element("p", {}, section.note));
      if (section.rows?.length) {
        const list = element("dl");
        for (const [term, value] of section.rows) {
          list.append(element("dt", {}, term));
          const dd = element("dd");
          dd.appendChild(element("pre", {}, value));
          list.append(dd);
        }
        parts.push(list);
      }
    }
    this.panel.replaceChildren(...parts);
    this.panel.dataset.node = this.selected;
  }

  destroy() {
    for (const cleanup of this.cleanups) cleanup();
    this.cleanups = [];
  }
}

/** anywidget's entry point. */
export function render({ model, el }) {
  const view = new View(model, el);
  view.layout().catch((error) => {
    el.appendChild(element("pre", {}, `GraphView could not lay the graph out: ${error}`));
  });
  return () => view.destroy();
}

/** A model for pages without a kernel: the same get/set/on interface, kept in the page. */
export function staticModel(state) {
  const listeners = new Map();
  return {
    get: (key) => state[key],
    set(key, value) {
      state[key] = value;
      for (const handler of listeners.get(`change:${key}`) ?? []) handler();
    },
    on(event, handler) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(handler);
    },
    off(event, handler) {
      listeners.get(event)?.delete(handler);
    },
    save_changes() {},
    send() {},
  };
}

/**
 * An offline page: the view, and, when `data.frames` holds recorded steps, buttons and arrow
 * keys (← →, PageUp/PageDown) that move through them. Each frame: highlight, nodes, status, panel.
 */
export function mountPage(root, data) {
  const model = staticModel({ ...data.view });
  const frames = data.frames ?? [];
  const top = element("div", { class: "mt-page" });
  root.appendChild(top);
  if (data.title) top.appendChild(element("h2", {}, data.title));
  let position = 0;
  let status, panel, buttons;
  if (frames.length) {
    const bar = element("div", { class: "mt-page-controls", role: "toolbar" });
    bar.setAttribute("aria-label", "backward steps");
    const make = (name, text, label, to) => {
      const b = element("button", { type: "button", "aria-label": label, title: label });
      const words = element("span", {}, text);
      if (name === "next" || name === "last") b.append(words, icon(name));
      else b.append(icon(name), words);
      b.addEventListener("click", () => go(to()));
      bar.appendChild(b);
      return b;
    };
    buttons = [
      make("first", "first", "first step (before backward)", () => 0),
      make("prev", "prev", "previous step (←)", () => position - 1),
      make("next", "next", "next step (→)", () => position + 1),
      make("last", "last", "last step", () => frames.length - 1),
    ];
    status = element("p", { class: "mt-page-status", "aria-live": "polite" });
    top.append(bar, status);
  }
  const body = element("div", { class: "mt-page-body" });
  const graph = element("div", { class: "mt-page-graph" });
  body.appendChild(graph);
  if (frames.length) {
    panel = element("div", { class: "mt-page-panel mt-stepper-panel", "aria-live": "polite" });
    body.appendChild(panel);
  }
  top.appendChild(body);
  render({ model, el: graph });
  function go(to) {
    position = Math.max(0, Math.min(frames.length - 1, to));
    const frame = frames[position];
    model.set("nodes", frame.nodes);
    model.set("highlight", frame.highlight);
    status.textContent = frame.status;
    panel.innerHTML = frame.panel; // HTML written by microtorch, values escaped there
    buttons[0].disabled = buttons[1].disabled = position === 0;
    buttons[2].disabled = buttons[3].disabled = position === frames.length - 1;
    root.dataset.position = String(position);
  }
  if (frames.length) {
    go(data.start ?? 0);
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const step = { ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 }[event.key];
      if (step === undefined || event.target.closest?.("input, textarea")) return;
      event.preventDefault();
      go(position + step);
    });
  }
  return model;
}

export default { render };
