// Bundle src/graphview.js and Graphviz's WebAssembly build into one ES module that ships in
// the Python package (microtorch/viz/static/graphview.js), and the view alone, without Graphviz
// (src/view.js, next to it as view.js: what a live view loads first): `make widget-js`, or
// `node build.mjs --outfile PATH` (the test that checks the committed bundle builds to a temp
// folder; view.js goes beside PATH).
import { build } from "esbuild";
import path from "node:path";

const i = process.argv.indexOf("--outfile");
const outfile = i > 0 ? process.argv[i + 1] : "../microtorch/viz/static/graphview.js";

const options = {
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
};
await build({
  ...options,
  entryPoints: ["src/view.js"],
  outfile: path.join(path.dirname(outfile), "view.js"),
});
await build({ ...options, entryPoints: ["src/graphview.js"], outfile });
