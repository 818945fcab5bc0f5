// Everything in one ES module: the view (view.js) and Graphviz compiled to WebAssembly, for the
// offline pages of save_html and for live views whose kernel sent no SVG.
import { Graphviz } from "@hpcc-js/wasm-graphviz";
import view, { setLayoutEngine } from "./view.js";

export * from "./view.js";

let graphvizReady = null; // one WebAssembly instance per page, shared by every view

/** The Graphviz instance, loaded on first use. */
export function loadGraphviz() {
  graphvizReady ??= Graphviz.load();
  return graphvizReady;
}

setLayoutEngine(loadGraphviz);

export default view;
