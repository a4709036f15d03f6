// Builds the kiosk into dist/ (committed, embedded in the binary by src/server/kiosk.rs):
// dist/index.html, dist/kiosk.js (the TypeScript bundled with the client, minified) and
// dist/kiosk.css. The output depends only on the sources and the locked esbuild version, so
// CI rebuilds it and fails on a difference.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  minify: true,
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
};
await esbuild.build({
  ...common,
  entryPoints: [join(here, "src/main.ts")],
  outfile: join(dist, "kiosk.js"),
  format: "esm",
  target: ["es2022", "chrome100", "safari15", "firefox100"],
  platform: "browser",
  conditions: ["source"],
});
await esbuild.build({
  ...common,
  entryPoints: [join(here, "src/kiosk.css")],
  outfile: join(dist, "kiosk.css"),
  target: ["chrome100", "safari15", "firefox100"],
});
for (const file of ["index.html", "favicon.svg"]) {
  copyFileSync(join(here, file), join(dist, file));
}
console.log("kiosk: built dist/index.html, dist/favicon.svg, dist/kiosk.js, dist/kiosk.css");
