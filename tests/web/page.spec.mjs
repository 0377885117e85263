// Drives the explorer page in Debian's Chromium (headless, software WebGL) and asserts its
// state: run by tests/web/test_page.py, which serves the page on a small graph and passes
// EXPLORER_URL, ARTIFACTS_DIR and EXPLORER_EXPECT (the ids and names it expects, as JSON).
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium } from "playwright-core";

const base = process.env.EXPLORER_URL;
const artifacts = process.env.ARTIFACTS_DIR;
const expected = JSON.parse(process.env.EXPLORER_EXPECT ?? "{}");
assert.ok(base && artifacts, "EXPLORER_URL and ARTIFACTS_DIR must be set");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--enable-unsafe-swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];
const sorted = (ids) => [...ids].sort();

let current = "starting";
function step(name) {
  current = name;
  console.log(`· ${name}`);
}

const state = (page) => page.evaluate(() => window.__explorer.state());

/** Wait until the page is idle and `check(state, arg)` holds; then return that state. */
async function settled(page, check, what, arg = null) {
  try {
    await page.waitForFunction(
      ({ source, arg }) => {
        const s = window.__explorer.state();
        // The check travels as source text: the page cannot see this script's closures.
        return !s.loading && !s.cameraMoving && new Function("s", "arg", `return (${source})(s, arg);`)(s, arg);
      },
      { source: check.toString(), arg },
      { timeout: 15000, polling: 100 },
    );
  } catch (error) {
    throw new Error(`${what}: never happened; state ${JSON.stringify(await state(page))}`, { cause: error });
  }
  return state(page);
}

async function nodePoint(page, id) {
  // Positions hold once the camera has eased to its new frame.
  await settled(page, () => true, "a still camera");
  const point = await page.evaluate((node) => window.__explorer.nodePosition(node), id);
  assert.ok(point, `node ${id} is not drawn`);
  return point;
}

async function search(page, text, id) {
  await page.fill("#search-input", text);
  await page.press("#search-input", "Enter");
  const hit = page.locator(`#search-results .hit[data-id="${id}"]`);
  await hit.waitFor({ timeout: 10000 });
  await hit.click();
}

/** A seeded coauthor network of `order` researchers in twelve groups, as the API shapes it. */
function syntheticNetwork(order) {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const nodes = [];
  for (let i = 0; i < order; i++) {
    const community = i % 12;
    const angle = (2 * Math.PI * community) / 12;
    nodes.push({
      id: String(100000 + i),
      name: `Researcher ${i}`,
      paperCount: 1 + Math.floor(random() * random() * 200),
      citationCount: Math.floor(random() * 5000),
      meanYear: 1995 + random() * 30,
      hop: i === 0 ? 0 : 1 + Math.floor(random() * 2),
      community,
      x: Math.max(-1, Math.min(1, 0.6 * Math.cos(angle) + (random() - 0.5) * 0.5)),
      y: Math.max(-1, Math.min(1, 0.6 * Math.sin(angle) + (random() - 0.5) * 0.5)),
    });
  }
  const edges = new Map();
  for (let i = 1; i < order; i++) {
    for (let k = 0; k < 3; k++) {
      const j = k === 0 ? i % 12 : Math.floor(random() * order);
      if (j === i) continue;
      const [a, b] = [Math.min(i, j), Math.max(i, j)];
      edges.set(`${a}-${b}`, {
        source: String(100000 + a),
        target: String(100000 + b),
        jointPapers: 1 + Math.floor(random() * random() * 8),
        firstYear: 2001,
        lastYear: 2020,
      });
    }
  }
  // The centre sits apart, in the middle of the ring of groups.
  Object.assign(nodes[0], { x: 0, y: 0 });
  return { center: "100000", truncated: true, modularity: 0.61, communityCount: 12, nodes, edges: [...edges.values()] };
}

/** The network as the API sends it to the page: one graphology-format value. */
function asGraphology({ center, truncated, modularity, communityCount, nodes, edges }) {
  return {
    attributes: { center, truncated, modularity, communityCount },
    options: { type: "undirected", multi: false, allowSelfLoops: false },
    nodes: nodes.map(({ id, ...attributes }) => ({ key: id, attributes })),
    edges: edges.map(({ source, target, ...attributes }) => ({ source, target, attributes })),
  };
}

async function largeNetwork(page) {
  const network = syntheticNetwork(2000);
  const person = network.nodes[0];
  const researcher = {
    ...person, altNames: [], orcid: null, hIndex: null, hIndexS2: null, hIndexOpenalex: null,
    identity: { externalIds: [], mergedFrom: [] }, authorPositions: null, fields: [], mostCited: null,
    papers: { totalCount: 0, edges: [] }, affiliations: { edges: [] }, sameName: null,
  };
  // The API is stood in for here: the test graph has no network this large.
  await page.route("**/graphql", (route) => {
    const { query } = route.request().postDataJSON();
    const data = query.includes("query Network")
      ? { researcher: { network: { graphology: asGraphology(network) } } }
      : { researcher };
    return route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ data }) });
  });
  await page.goto(`${base}/#/researcher/${person.id}`);
  let s = await settled(page, (s) => s.nodes.length > 0, "the large network");
  assert.equal(s.nodes.length, 2000);
  assert.equal(s.edgeCount, network.edges.length);
  const labelled = await page.evaluate(() => window.__explorer.labelledNodes());
  assert.ok(labelled.length > 10, `only ${labelled.length} labels drawn`);
  assert.ok(labelled.length < 300, `${labelled.length} labels drawn: density culling is off`);
  const hub = person.id;
  const neighbours = new Set([hub]);
  for (const e of network.edges) {
    if (e.source === hub) neighbours.add(e.target);
    if (e.target === hub) neighbours.add(e.source);
  }
  const point = await nodePoint(page, hub);
  await page.mouse.move(point.x, point.y);
  s = await settled(page, (s) => s.hovered !== null, "a hover in the large network");
  assert.equal(s.hovered, hub);
  assert.deepEqual(s.highlighted, sorted(neighbours));
  await page.mouse.move(5, 300);
  await page.screenshot({ path: join(artifacts, "explorer-2000.png") });
  await page.close();
}

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
const problems = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });

  step("the page loads");
  const response = await page.goto(`${base}/`);
  assert.equal(response.status(), 200);
  await page.waitForFunction(() => window.__explorer !== undefined, null, { timeout: 10000 });
  assert.match(await page.title(), /researcher network/);

  step("a WebGL context exists");
  assert.ok((await state(page)).webglContexts >= 1, "sigma holds no live WebGL context");
  const contexts = await page.evaluate(() =>
    [...document.querySelectorAll("#graph canvas")]
      .map((canvas) => canvas.getContext("webgl2") ?? canvas.getContext("webgl"))
      .filter((gl) => gl && !gl.isContextLost())
      .map((gl) => gl.getParameter(gl.VERSION)),
  );
  assert.ok(contexts.length >= 1, "no canvas of the graph draws with WebGL");
  assert.match(contexts[0], /WebGL/);

  step("searching a name opens the coauthor network");
  await search(page, expected.you.name, expected.you.id);
  let s = await settled(page, (s) => s.center !== null && s.panelTitle !== null, "the network and panel");
  assert.equal(s.center, expected.you.id);
  assert.deepEqual(s.nodes, sorted(expected.youNetwork));
  assert.equal(s.panelTitle, expected.you.name);
  assert.equal(s.error, null);

  step("clicking a node opens the right panel");
  let point = await nodePoint(page, expected.hsieh.id);
  await page.mouse.click(point.x, point.y);
  s = await settled(page, (s) => s.panelTitle === "Cho-Jui Hsieh", "Hsieh's panel");
  assert.equal(s.selected, expected.hsieh.id);
  assert.equal(await page.textContent("#panel-name"), expected.hsieh.name);
  assert.match(await page.textContent("#panel"), /Author positions/);

  step("hovering a node highlights its neighbours");
  point = await nodePoint(page, expected.demmel.id);
  await page.mouse.move(point.x, point.y);
  s = await settled(page, (s) => s.hovered !== null, "a hover");
  assert.equal(s.hovered, expected.demmel.id);
  assert.deepEqual(s.highlighted, sorted([expected.demmel.id, expected.you.id]));
  await page.mouse.move(5, 300);
  s = await settled(page, (s) => s.hovered === null, "leaving the node");
  assert.deepEqual(s.highlighted, []);

  step("filters query the API again");
  await page.fill("#min-joint", "2");
  await page.dispatchEvent("#min-joint", "change");
  s = await settled(page, (s) => s.nodes.length === 2, "the min. joint papers filter");
  assert.deepEqual(s.nodes, sorted([expected.you.id, expected.hsieh.id]));
  await page.fill("#min-joint", "1");
  await page.fill("#max-authors", "3");
  await page.dispatchEvent("#max-authors", "change");
  s = await settled(page, (s) => s.nodes.length === 4, "the max. authors filter");
  assert.deepEqual(s.nodes, sorted(expected.smallPaperNetwork));
  await page.fill("#max-authors", "");
  await page.dispatchEvent("#max-authors", "change");
  s = await settled(page, (s) => s.nodes.length === 10, "clearing the filters");
  assert.deepEqual(s.nodes, sorted(expected.youNetwork));

  step("colour by mean year shows a legend");
  await page.check("input[name=color-by][value=year]");
  assert.match(await page.textContent("#legend"), /Mean publication year/);
  await page.check("input[name=size-by][value=citations]");
  s = await state(page);
  assert.deepEqual(s.style, { sizeBy: "citations", colorBy: "year" });
  await page.screenshot({ path: join(artifacts, "explorer-year.png") });
  await page.check("input[name=color-by][value=community]");
  await page.check("input[name=size-by][value=papers]");
  assert.match(await page.textContent("#legend"), /Communities/);

  step("double-clicking a node expands its network in place");
  point = await nodePoint(page, expected.hsieh.id);
  await page.mouse.dblclick(point.x, point.y);
  s = await settled(page, (s) => s.nodes.length > 10, "the expansion");
  assert.deepEqual(s.nodes, sorted([...expected.youNetwork, expected.keutzer.id]));
  assert.equal(s.center, expected.you.id);
  const keutzer = await nodePoint(page, expected.keutzer.id);
  const stage = await page.locator("#graph").boundingBox();
  assert.ok(
    keutzer.x > stage.x && keutzer.x < stage.x + stage.width && keutzer.y > stage.y && keutzer.y < stage.y + stage.height,
    `the new node is drawn outside the stage: ${JSON.stringify({ keutzer, stage })}`,
  );
  await page.mouse.move(5, 300);
  await page.screenshot({ path: join(artifacts, "explorer-network.png") });

  step("path mode highlights the chain and the papers behind each hop");
  point = await nodePoint(page, expected.you.id);
  await page.mouse.click(point.x, point.y);
  await settled(page, (s) => s.panelTitle === "Yang You", "You's panel");
  await page.click("#panel >> text=Path from here");
  s = await settled(page, (s) => s.mode === "path", "path mode");
  assert.deepEqual(s.pathEnds, [expected.you.id, null]);
  await search(page, "Gilbert", expected.gilbert.id);
  s = await settled(page, (s) => s.pathChain.length > 0, "a collaboration path");
  assert.deepEqual(s.pathChain, expected.throughDemmel);
  assert.deepEqual(s.highlighted, sorted(expected.throughDemmel));
  assert.ok(s.nodes.includes(expected.gilbert.id), "the path's end is drawn");
  assert.equal(await page.textContent("#path-message"), `${expected.you.name} and ${expected.gilbert.name} are 3 hops apart`);
  assert.equal(await page.locator("#panel .hop").count(), 3);
  assert.match(await page.textContent("#panel .hops"), /Parallel sparse matrix multiplication/);
  assert.equal(await page.locator("#panel .hop.uncertain").count(), 1);
  await page.check('#panel .chain input[value="1"]');
  s = await settled(page, (s, first) => s.pathChain[1] !== first, "the other chain", expected.throughDemmel[1]);
  assert.deepEqual(s.pathChain, expected.throughHsieh);
  assert.deepEqual(s.highlighted, sorted(expected.throughHsieh));
  await page.screenshot({ path: join(artifacts, "explorer-path.png") });
  await page.click("#path-mode");
  s = await settled(page, (s) => s.mode === "explore", "leaving path mode");
  assert.deepEqual(s.highlighted, []);

  step("an ORCID finds its researcher; the same-name view lists the records");
  await search(page, expected.ziming.orcid, expected.ziming.id);
  s = await settled(page, (s, id) => s.center === id && s.panelTitle !== null, "Ziming Liu", expected.ziming.id);
  assert.equal(s.panelTitle, expected.ziming.name);
  assert.match(await page.textContent("#panel"), /Same name \(3 other records/);
  await page.click("#open-same-name");
  s = await settled(page, (s) => s.sameNameRecords.length > 0, "the same-name view");
  assert.equal(s.sameNameOf, expected.ziming.id);
  assert.deepEqual(s.sameNameRecords[0], expected.ziming.id);
  assert.deepEqual(sorted(s.sameNameRecords.slice(1)), sorted(expected.sameNameRecords));
  assert.ok((await page.locator("#sheet .evidence li").count()) > 0, "no evidence is shown");
  await page.screenshot({ path: join(artifacts, "explorer-same-name.png") });

  await page.close();

  step("2,000 researchers draw with labels culled by density");
  await largeNetwork(await browser.newPage({ viewport: { width: 1440, height: 900 } }));

  assert.deepEqual(problems, [], "the page logged errors");
  console.log("explorer page: every step passed");
} catch (error) {
  console.error(`failed at "${current}": ${error.stack ?? error}`);
  if (problems.length) console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
}
