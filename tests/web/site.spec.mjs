// The reference site in Debian's Chromium: every page type and the 404, each with no console
// error, a screenshot and no serious or critical axe-core violation; then a person's walk from
// the home page to a researcher, a coauthor (through the drawn network), a paper and an
// institution, and all the way back and forth again with the browser's buttons. Run by
// tests/web/test_site.py, which passes SITE_URL, ARTIFACTS_DIR and SITE_EXPECT.
import assert from "node:assert/strict";
import { accessible, base, expected, open, problems, run, shot, sleep, step } from "./browser.mjs";

const path = (page) => new URL(page.url()).pathname;
const heading = (page) => page.locator("main h1").first().textContent();

/** The embedded coauthor network of a researcher's page, once drawn. */
async function drawnNetwork(page) {
  const deadline = Date.now() + 30000;
  let s = null;
  while (Date.now() < deadline) {
    s = await page.evaluate(() => window.__network?.state() ?? null);
    const still = await page.evaluate(() => window.__network?.cameraMoving() === false);
    if (s && !s.loading && still) return s;
    await sleep(100);
  }
  throw new Error(`the researcher page's network was never drawn: ${JSON.stringify(s)}`);
}

/** Load `address`; the page it ends on (after any redirect) must answer `status`. */
async function visit(page, address, status = 200) {
  const response = await page.goto(`${base}${address}`);
  assert.equal(response.status(), status, address);
  assert.match(response.headers()["content-type"], /^text\/html/, address);
  return response;
}

async function pageType(page, name, address, check) {
  step(`the ${name} page: ${address}`);
  await visit(page, address);
  await check();
  await shot(page, `site-${name}`);
  await accessible(page, `the ${name} page`);
}

async function walkBack(page, trail, direction) {
  for (const [where, title] of trail) {
    if (direction === "back") await page.goBack();
    else await page.goForward();
    await page.waitForLoadState("load");
    assert.equal(path(page), where, `${direction} should land on ${where}`);
    assert.equal((await heading(page)).trim(), title);
  }
}

/** Where the site's own redirects take a bare id: the canonical path. */
async function canonical(page, address) {
  const response = await page.request.get(`${base}${address}`, { headers: { accept: "text/html" }, timeout: 90000 });
  assert.equal(response.status(), 200, address);
  return new URL(response.url()).pathname;
}

await run("site", async (browser) => {
  const page = await open(browser);
  const { you, hsieh, keutzer, texPaper, paper, institution, category } = expected;
  you.path = await canonical(page, `/researchers/${you.id}`);
  hsieh.path = await canonical(page, `/researchers/${hsieh.id}`);
  keutzer.path = await canonical(page, `/researchers/${keutzer.id}`);
  texPaper.path = await canonical(page, `/papers/${texPaper.id}`);
  paper.path = await canonical(page, `/papers/${paper.id}`);
  institution.path = await canonical(page, `/institutions/${institution.id}`);
  for (const [what, address] of [[you, `/researchers/${you.id}`], [paper, `/papers/${paper.id}`]]) {
    assert.notEqual(what.path, address, `${address} does not redirect to a canonical address`);
  }

  await pageType(page, "home", "/", async () => {
    assert.ok(await page.locator("main form[role=search] input[type=search]").isVisible());
    assert.ok((await page.locator("main ol.papers li").count()) > 0, "no latest papers");
  });

  await pageType(page, "researcher", `/researchers/${you.id}`, async () => {
    assert.equal(path(page), you.path, "the bare id redirects to the canonical address");
    assert.equal((await heading(page)).trim(), you.name);
    const network = await drawnNetwork(page);
    assert.equal(network.error, null);
    assert.equal(network.center, you.id);
    assert.deepEqual([...network.nodes].sort(), [...expected.youNetwork].sort());
    assert.ok(await page.locator("#network canvas").first().isVisible(), "the network is not drawn");
    assert.ok(await page.locator("#network ul.coauthors").isVisible(), "the coauthor list is gone");
  });

  await pageType(page, "paper", `/papers/${texPaper.id}`, async () => {
    assert.equal(path(page), texPaper.path);
    const title = page.locator("main h1");
    assert.ok((await title.locator("math").count()) + (await title.locator(".katex").count()) > 0, "the title's TeX is not typeset");
    assert.doesNotMatch(await page.textContent("main"), /\$x<1\$|\\alpha/, "raw TeX on the page");
    assert.ok((await page.locator(`main a[href^="${base}/researchers/${you.id}"]`).count()) > 0, "the author is not linked");
  });

  await pageType(page, "institution", `/institutions/${institution.id}`, async () => {
    assert.equal(path(page), institution.path);
    assert.equal((await heading(page)).trim(), institution.name);
    assert.ok((await page.locator(`main a[href^="${base}/researchers/"]`).count()) > 0, "no researchers listed");
  });

  await pageType(page, "category", `/categories/${category}`, async () => {
    assert.match(await heading(page), new RegExp(category.replace(".", "\\.")));
    assert.ok((await page.locator(`main a[href^="${base}/papers/"]`).count()) > 0, "no papers listed");
  });

  await pageType(page, "search", `/search?q=${encodeURIComponent(you.name)}`, async () => {
    assert.ok((await page.locator(`main a[href="${base}${you.path}"]`).count()) > 0, "the researcher is not found");
  });

  for (const [name, address, link] of [
    ["researchers", "/researchers", "/researchers/"],
    ["institutions", "/institutions", "/institutions/"],
    ["papers", "/papers", "/papers/"],
    ["categories", "/categories", "/categories/"],
  ]) {
    await pageType(page, `index-${name}`, address, async () => {
      assert.ok((await page.locator(`main a[href^="${base}${link}"]`).count()) > 0, `the ${name} index lists nothing`);
    });
  }

  step("the 404 page: status 404, a search box and where to look next");
  const before = problems.length;
  await visit(page, `/researchers/${you.id}-and-more/nowhere`, 404);
  // The browser reports the document's own 404 on the console; that status is the point here.
  problems.splice(before, problems.length - before, ...problems.slice(before).filter((p) => !/status of 404/.test(p)));
  assert.ok(await page.locator("main form[role=search] input[type=search]").isVisible(), "no search box");
  await shot(page, "site-404");
  await accessible(page, "the 404 page");

  step("an old link to the explorer (/#/researcher/ID) opens it at the researcher's address");
  await page.goto(`${base}/#/researcher/${you.id}`);
  await page.waitForURL(`${base}/explorer/researcher/${you.id}`);
  const deadline = Date.now() + 60000;
  let explorer = null;
  while (Date.now() < deadline && explorer?.panelTitle !== you.name) {
    await sleep(200);
    explorer = await page.evaluate(() => window.__explorer?.state() ?? null);
  }
  assert.equal(explorer?.center, you.id, "the explorer does not show the researcher");
  assert.equal(explorer?.panelTitle, you.name);
  await page.close();

  step("from the home page to a researcher, by the search box");
  const walk = await open(browser);
  await visit(walk, "/");
  const trail = [["/", (await heading(walk)).trim()]];
  await walk.fill("#home-search", you.name);
  await Promise.all([walk.waitForURL(/\/search\?/), walk.press("#home-search", "Enter")]);
  trail.push([path(walk), (await heading(walk)).trim()]);
  await Promise.all([walk.waitForURL(`**${you.path}`), walk.click(`main a[href="${base}${you.path}"]`)]);
  assert.equal((await heading(walk)).trim(), you.name);
  trail.push([you.path, you.name]);

  step("to a coauthor, by clicking them in the drawn network");
  await drawnNetwork(walk);
  await walk.locator("#network canvas").first().scrollIntoViewIfNeeded();
  const point = await walk.evaluate((id) => window.__network.nodePosition(id), hsieh.id);
  assert.ok(point, "the coauthor is not drawn");
  await walk.mouse.move(point.x, point.y);
  await Promise.all([walk.waitForURL(`**${hsieh.path}`), walk.mouse.click(point.x, point.y)]);
  assert.equal((await heading(walk)).trim(), hsieh.name);
  trail.push([hsieh.path, hsieh.name]);

  step("to a paper of theirs");
  await Promise.all([walk.waitForURL(`**${paper.path}`), walk.click(`main a[href="${base}${paper.path}"]`)]);
  assert.equal((await heading(walk)).trim(), paper.title);
  trail.push([paper.path, paper.title]);

  step("to its other author, and to their institution");
  await Promise.all([walk.waitForURL(`**${keutzer.path}`), walk.click(`main ol.authors a[href="${base}${keutzer.path}"]`)]);
  trail.push([keutzer.path, keutzer.name]);
  await Promise.all([walk.waitForURL(`**${institution.path}`), walk.click(`main a[href="${base}${institution.path}"]`)]);
  assert.equal((await heading(walk)).trim(), institution.name);
  await shot(walk, "site-walk");

  step("back, one page at a time, to the home page");
  await walkBack(walk, [...trail].reverse(), "back");
  step("and forward again to the institution");
  await walkBack(walk, [...trail.slice(1), [institution.path, institution.name]], "forward");
  await walk.close();
});
