// Bundles the browser side with esbuild into the output folder (api/web/dist by default), which
// the server mounts at /explorer:
//
//   index.html, styles.css, favicon.svg  the explorer page (its deep links get index.html too)
//   explorer.js, explorer.css            the explorer (also draws the network embedded on a
//                                        researcher page) and KaTeX's stylesheet
//   fonts/                               KaTeX's fonts (woff2 only: every browser we serve reads it)
//   hashlinks.js                         sends old /#/researcher/ID links to the explorer
//   graphiql/                            GraphiQL, React and their CSS, for GET /graphql in a browser
//
// Everything a page loads comes from our own origin: no CDN, nothing inline.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = resolve(process.argv[2] ?? join(here, "..", "api", "web", "dist"));

const common = {
  bundle: true,
  platform: "browser",
  target: ["es2020"],
  minify: true,
  sourcemap: true,
  legalComments: "linked",
  logLevel: "warning",
};

/** KaTeX's stylesheet names woff2, woff and ttf for each font; keep the woff2 alone. */
const woff2Only = {
  name: "woff2-only",
  setup(build) {
    build.onLoad({ filter: /katex(\.min)?\.css$/ }, async (args) => {
      const css = await readFile(args.path, "utf8");
      return { contents: css.replace(/,\s*url\([^)]*\.(woff|ttf)\) format\("[a-z]+"\)/g, ""), loader: "css" };
    });
  },
};

/**
 * GraphiQL's stylesheet carries its fonts and icons as data: URLs, which a Content-Security-
 * Policy of 'self' refuses; write each to a file of its own beside the stylesheet.
 */
async function externaliseDataUrls(cssFile, folder) {
  const css = await readFile(cssFile, "utf8");
  const written = new Map();
  const extensions = { "font/woff2": "woff2", "font/woff": "woff", "image/png": "png", "image/svg+xml": "svg" };
  const pattern = /url\(\s*["']?data:([a-z0-9+/.-]+);base64,([A-Za-z0-9+/=]+)["']?\s*\)/g;
  const replaced = css.replace(pattern, (match, type, data) => {
    const extension = extensions[type];
    if (!extension) return match;
    const name = `${createHash("sha256").update(data).digest("hex").slice(0, 12)}.${extension}`;
    written.set(name, Buffer.from(data, "base64"));
    return `url(assets/${name})`;
  });
  await mkdir(join(folder, "assets"), { recursive: true });
  await Promise.all([...written].map(([name, bytes]) => writeFile(join(folder, "assets", name), bytes)));
  await writeFile(cssFile, replaced);
}

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await build({
  ...common,
  entryPoints: { explorer: join(here, "src", "main.ts"), hashlinks: join(here, "src", "hashlinks.ts") },
  outdir,
  // A classic script as well as a module: a page may load it either way.
  format: "iife",
  // The ES module builds of graphology and sigma, not graphology's prebuilt UMD file.
  mainFields: ["module", "main"],
  loader: { ".woff2": "file" },
  assetNames: "fonts/[name]-[hash]",
  plugins: [woff2Only],
});
const graphiql = join(outdir, "graphiql");
await build({
  ...common,
  entryPoints: { graphiql: join(here, "graphiql", "main.ts") },
  outdir: graphiql,
  format: "iife",
  define: { "process.env.NODE_ENV": '"production"' },
});
await externaliseDataUrls(join(graphiql, "graphiql.css"), graphiql);
for (const file of ["index.html", "styles.css", "favicon.svg"]) {
  await copyFile(join(here, file), join(outdir, file));
}
await copyFile(join(here, "graphiql", "graphiql.html"), join(graphiql, "graphiql.html"));
console.log(`explorer and GraphiQL built in ${outdir}`);
