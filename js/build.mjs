// Bundle src/graphview.js and Graphviz's WebAssembly build into one ES module that ships in
// the Python package (microtorch/viz/static/graphview.js): `make widget-js`, or
// `node build.mjs --outfile PATH` (the test that checks the committed bundle builds to a temp file).
import { build } from "esbuild";

const i = process.argv.indexOf("--outfile");
const outfile = i > 0 ? process.argv[i + 1] : "../microtorch/viz/static/graphview.js";

await build({
  entryPoints: ["src/graphview.js"],
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  outfile,
  logLevel: "warning",
});
