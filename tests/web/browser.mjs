// What the browser scripts share: Debian's Chromium, headless, launched by playwright-core
// (each launch gets a new, empty user-data-dir of its own), pages that record every console
// error, page error and request leaving the server under test, axe-core, and the steps log.
import assert from "node:assert/strict";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium } from "playwright-core";

export const base = process.env.SITE_URL;
export const artifacts = process.env.ARTIFACTS_DIR;
export const expected = JSON.parse(process.env.SITE_EXPECT ?? "{}");
assert.ok(base && artifacts, "SITE_URL and ARTIFACTS_DIR must be set");

// The machine has no internet and no GPU: nothing in the background, WebGL in software.
export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--enable-unsafe-swiftshader",
];

export function launch() {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROME_FLAGS, timeout: 30000 });
}

let current = "starting";
export function step(name) {
  current = name;
  console.log(`· ${name}`);
}

export const problems = [];

/** A new page in a context of its own; what goes wrong on it lands in `problems`. */
export async function open(browser, options = { viewport: { width: 1440, height: 900 } }) {
  const context = await browser.newContext(options);
  // A fresh server on a busy machine plans each page's statements on first use: slow once.
  context.setDefaultTimeout(60000);
  context.setDefaultNavigationTimeout(90000);
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error on ${page.url()}: ${message.text()}`);
  });
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${base}/`) && !url.startsWith("data:") && !url.startsWith("blob:")) {
      problems.push(`request away from the server: ${url}`);
    }
  });
  return page;
}

/** axe-core on the page as it is (less the `excluded` selectors): no serious or critical violation. */
export async function accessible(page, what, excluded = []) {
  const builder = new AxeBuilder({ page });
  for (const selector of excluded) builder.exclude(selector);
  const results = await builder.analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const described = bad.map(
    (v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`,
  );
  assert.deepEqual(described, [], `${what}: axe-core found serious or critical violations`);
  return results;
}

export async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: false });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Run the steps in `body`, then fail on any problem recorded; close the browser either way.
 * The last line says "every step passed" only when all did.
 */
export async function run(name, body) {
  const browser = await launch();
  try {
    await body(browser);
    assert.deepEqual(problems, [], "the pages logged errors or left the server");
    console.log(`${name}: every step passed`);
  } catch (error) {
    console.error(`failed at "${current}": ${error.stack ?? error}`);
    if (problems.length) console.error(problems.join("\n"));
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}
