// Bundles the explorer page with esbuild: web/src/main.ts and its packages into one ES
// module, next to index.html and styles.css, in the output folder (api/web/dist by default).
import { copyFile, mkdir, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = resolve(process.argv[2] ?? join(here, "..", "api", "web", "dist"));

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.ts")],
  outfile: join(outdir, "explorer.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2020"],
  // The ES module builds of graphology and sigma, not graphology's prebuilt UMD file.
  mainFields: ["module", "main"],
  minify: true,
  sourcemap: true,
  legalComments: "linked",
  logLevel: "warning",
});
await copyFile(join(here, "index.html"), join(outdir, "index.html"));
await copyFile(join(here, "styles.css"), join(outdir, "styles.css"));
console.log(`explorer page built in ${outdir}`);
