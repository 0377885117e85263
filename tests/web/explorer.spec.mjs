// Drives the explorer in Debian's Chromium (headless, software WebGL) and asserts its state:
// run by tests/web/test_explorer.py, which serves it on a small graph and passes SITE_URL,
// ARTIFACTS_DIR and SITE_EXPECT (the ids and names it expects, as JSON).
import assert from "node:assert/strict";
import { accessible, base, expected, open, run, shot, sleep, step } from "./browser.mjs";

const sorted = (ids) => [...ids].sort();
const state = (page) => page.evaluate(() => window.__explorer.state());
const address = (page) => {
  const url = new URL(page.url());
  return decodeURIComponent(url.pathname + url.search);
};

/** Wait until `check(state)` holds on an idle page with a still camera; that state. */
async function settled(page, check, what) {
  const deadline = Date.now() + 30000;
  let s = null;
  while (Date.now() < deadline) {
    s = await page.evaluate(() => window.__explorer?.state() ?? null);
    if (s && !s.loading && !s.cameraMoving && check(s)) return s;
    await sleep(100);
  }
  throw new Error(`${what}: never happened; state ${JSON.stringify(s)}`);
}

async function visit(page, path) {
  const response = await page.goto(`${base}${path}`);
  assert.equal(response.status(), 200, path);
  return settled(page, () => true, `the explorer at ${path}`);
}

async function nodePoint(page, id) {
  await settled(page, () => true, "a still camera");
  const point = await page.evaluate((node) => window.__explorer.nodePosition(node), id);
  assert.ok(point, `node ${id} is not drawn`);
  return point;
}

async function search(page, text, id) {
  await page.fill("#search-input", text);
  await page.press("#search-input", "Enter");
  const hit = page.locator(`#search-results .hit[data-id="${id}"]`);
  await hit.waitFor({ timeout: 30000 });
  await hit.click();
}

/** The labels drawn: none covers another, and each lies on the stage. */
async function assertLabelsApart(page, what) {
  const boxes = await page.evaluate(() => window.__explorer.labelBoxes());
  const stage = await page.locator("#graph").boundingBox();
  for (const [i, a] of boxes.entries()) {
    assert.ok(a.left >= stage.x - 1 && a.right <= stage.x + stage.width + 1, `${what}: label ${a.id} runs off the stage`);
    for (const b of boxes.slice(i + 1)) {
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      assert.ok(apart, `${what}: the labels of ${a.id} and ${b.id} overlap: ${JSON.stringify([a, b])}`);
    }
  }
  return boxes.map((b) => b.id);
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
  let s = await visit(page, `/explorer/researcher/${person.id}`);
  s = await settled(page, (s) => s.nodes.length > 0, "the large network");
  assert.equal(s.nodes.length, 2000);
  assert.equal(s.edgeCount, network.edges.length);
  const labelled = await page.evaluate(() => window.__explorer.labelledNodes());
  assert.ok(labelled.length > 10, `only ${labelled.length} labels drawn`);
  assert.ok(labelled.length < 300, `${labelled.length} labels drawn: density culling is off`);
  await assertLabelsApart(page, "2,000 researchers");
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
  await assertLabelsApart(page, "a hover among 2,000 researchers");
  await page.mouse.move(5, 300);
  await shot(page, "explorer-2000");
}

await run("explorer", async (browser) => {
  const { you, hsieh, demmel, keutzer, gilbert, ziming, cheng } = expected;
  const page = await open(browser);

  step("the explorer loads at /explorer/ under a strict Content-Security-Policy");
  const response = await page.goto(`${base}/explorer/`);
  assert.equal(response.status(), 200);
  assert.match(response.headers()["content-security-policy"] ?? "", /script-src 'self'/);
  await settled(page, () => true, "the explorer's script");
  assert.match(await page.title(), /researcher network/);
  assert.equal((await state(page)).center, null);

  step("a WebGL context exists");
  assert.ok((await state(page)).webglContexts >= 1, "sigma holds no live WebGL context");

  step("searching a name opens the coauthor network at its own address");
  await search(page, you.name, you.id);
  let s = await settled(page, (s) => s.center !== null && s.panelTitle !== null, "the network and panel");
  assert.equal(s.center, you.id);
  assert.deepEqual(s.nodes, sorted(expected.youNetwork));
  assert.equal(s.panelTitle, you.name);
  assert.equal(s.error, null);
  assert.equal(address(page), `/explorer/researcher/${you.id}`);
  assert.match(await page.title(), new RegExp(you.name));

  step("TeX in a title is typeset, not shown as source");
  const tex = page.locator("#panel .paper .katex");
  assert.ok((await tex.count()) >= 2, "the TeX paper's title has no typeset formula");
  assert.ok((await page.locator("#panel .paper .katex-mathml math").count()) >= 2, "no MathML for screen readers");
  assert.ok(!(await page.textContent("#panel")).includes("$x<1$"), "the title shows raw TeX");

  step("clicking a node opens its panel, as a new history entry; labels stay apart");
  const entries = await page.evaluate(() => history.length);
  let point = await nodePoint(page, hsieh.id);
  await page.mouse.click(point.x, point.y);
  s = await settled(page, (s) => s.panelTitle === hsieh.name, "Hsieh's panel");
  assert.equal(s.selected, hsieh.id);
  assert.match(await page.textContent("#panel"), /Author positions/);
  assert.equal(address(page), `/explorer/researcher/${you.id}?open=${hsieh.id}`);
  assert.equal(await page.evaluate(() => history.length), entries + 1);
  const labelled = await assertLabelsApart(page, "a selected node");
  assert.ok(labelled.includes(hsieh.id) && labelled.includes(you.id), `labels: ${labelled}`);

  step("back and forward show what the address says");
  await page.goBack();
  s = await settled(page, (s) => s.panelTitle === you.name, "back to You's panel");
  assert.equal(address(page), `/explorer/researcher/${you.id}`);
  assert.equal(s.center, you.id);
  await page.goForward();
  s = await settled(page, (s) => s.panelTitle === hsieh.name, "forward to Hsieh's panel");
  assert.equal(s.selected, hsieh.id);

  step("hovering a node highlights its neighbours");
  point = await nodePoint(page, demmel.id);
  await page.mouse.move(point.x, point.y);
  s = await settled(page, (s) => s.hovered !== null, "a hover");
  assert.equal(s.hovered, demmel.id);
  assert.deepEqual(s.highlighted, sorted([demmel.id, you.id]));
  await assertLabelsApart(page, "a hover beside a selected node");
  await page.mouse.move(5, 300);
  s = await settled(page, (s) => s.hovered === null, "leaving the node");
  assert.deepEqual(s.highlighted, []);

  step("filters query the API again and rewrite the address (no new entry)");
  const before = await page.evaluate(() => history.length);
  await page.fill("#min-joint", "2");
  await page.dispatchEvent("#min-joint", "change");
  s = await settled(page, (s) => s.nodes.length === 2, "the min. joint papers filter");
  assert.deepEqual(s.nodes, sorted([you.id, hsieh.id]));
  assert.equal(address(page), `/explorer/researcher/${you.id}?open=${hsieh.id}&minJoint=2`);
  assert.equal(await page.evaluate(() => history.length), before);
  await page.fill("#min-joint", "1");
  await page.fill("#max-authors", "3");
  await page.dispatchEvent("#max-authors", "change");
  s = await settled(page, (s) => s.nodes.length === 4, "the max. authors filter");
  assert.deepEqual(s.nodes, sorted(expected.smallPaperNetwork));
  await page.fill("#max-authors", "");
  await page.dispatchEvent("#max-authors", "change");
  s = await settled(page, (s) => s.nodes.length === 10, "clearing the filters");
  assert.deepEqual(s.nodes, sorted(expected.youNetwork));
  assert.equal(address(page), `/explorer/researcher/${you.id}?open=${hsieh.id}`);

  step("colour by mean year shows a legend and goes into the address");
  await page.check("input[name=color-by][value=year]");
  assert.match(await page.textContent("#legend"), /Mean publication year/);
  await page.check("input[name=size-by][value=citations]");
  s = await state(page);
  assert.deepEqual(s.style, { sizeBy: "citations", colorBy: "year" });
  assert.match(address(page), /size=citations&color=year$/);
  await shot(page, "explorer-year");
  await page.check("input[name=color-by][value=community]");
  await page.check("input[name=size-by][value=papers]");
  assert.match(await page.textContent("#legend"), /Communities/);

  step("double-clicking a node expands its network in place");
  point = await nodePoint(page, hsieh.id);
  await page.mouse.dblclick(point.x, point.y);
  s = await settled(page, (s) => s.nodes.length > 10, "the expansion");
  assert.deepEqual(s.nodes, sorted([...expected.youNetwork, keutzer.id]));
  assert.equal(s.center, you.id);
  const k = await nodePoint(page, keutzer.id);
  const stage = await page.locator("#graph").boundingBox();
  assert.ok(
    k.x > stage.x && k.x < stage.x + stage.width && k.y > stage.y && k.y < stage.y + stage.height,
    `the new node is drawn outside the stage: ${JSON.stringify({ k, stage })}`,
  );
  await page.mouse.move(5, 300);
  await shot(page, "explorer-network");

  step("path mode highlights the chain and the papers behind each hop, at its own address");
  point = await nodePoint(page, you.id);
  await page.mouse.click(point.x, point.y);
  await settled(page, (s) => s.panelTitle === you.name, "You's panel");
  await page.click("#panel >> text=Path from here");
  s = await settled(page, (s) => s.mode === "path", "path mode");
  assert.deepEqual(s.pathEnds, [you.id, null]);
  assert.equal(address(page), `/explorer/path/${you.id}`);
  await search(page, "Gilbert", gilbert.id);
  s = await settled(page, (s) => s.pathChain.length > 0, "a collaboration path");
  assert.deepEqual(s.pathChain, expected.throughDemmel);
  assert.deepEqual(s.highlighted, sorted(expected.throughDemmel));
  assert.ok(s.nodes.includes(gilbert.id), "the path's end is drawn");
  assert.equal(address(page), `/explorer/path/${you.id}/${gilbert.id}`);
  assert.equal(await page.textContent("#path-message"), `${you.name} and ${gilbert.name} are 3 hops apart`);
  assert.equal(await page.locator("#panel .hop").count(), 3);
  assert.match(await page.textContent("#panel .hops"), /Parallel sparse matrix multiplication/);
  assert.equal(await page.locator("#panel .hop.uncertain").count(), 1);
  await page.check('#panel .chain input[value="1"]');
  s = await settled(page, (s) => s.pathChain[1] !== expected.throughDemmel[1], "the other chain");
  assert.deepEqual(s.pathChain, expected.throughHsieh);
  assert.deepEqual(s.highlighted, sorted(expected.throughHsieh));
  await shot(page, "explorer-path");

  step("back leaves the path's end, then path mode; forward comes back to the path");
  await page.goBack();
  s = await settled(page, (s) => s.mode === "path" && s.pathEnds[1] === null, "back to one end");
  assert.deepEqual(s.pathEnds, [you.id, null]);
  assert.deepEqual(s.pathChain, []);
  await page.goBack();
  s = await settled(page, (s) => s.mode === "explore" && s.panelTitle === you.name, "back out of path mode");
  assert.equal(address(page), `/explorer/researcher/${you.id}`);
  await page.goForward();
  await page.goForward();
  s = await settled(page, (s) => s.pathChain.length > 0, "forward to the path");
  assert.deepEqual(s.pathChain, expected.throughDemmel);
  await page.click("#path-mode");
  s = await settled(page, (s) => s.mode === "explore", "leaving path mode");
  assert.deepEqual(s.highlighted, []);

  step("one paper is '1 paper'");
  await search(page, cheng.name, cheng.id);
  s = await settled(page, (s) => s.panelTitle === cheng.name, "Cheng's panel");
  const stats = await page.textContent("#panel .stats");
  assert.match(stats, /^1 paper · /);
  // "the 1 of 1 papers" (a coverage sentence from the API) is a share, not a count.
  assert.doesNotMatch(await page.textContent("body"), /(?<!of )\b1 (papers|citations|researchers|ties|communities|other records)\b/);

  step("an ORCID finds its researcher; the same-name view has an address too");
  await search(page, ziming.orcid, ziming.id);
  s = await settled(page, (s) => s.center === ziming.id && s.panelTitle !== null, "Ziming Liu");
  assert.equal(s.panelTitle, ziming.name);
  assert.match(await page.textContent("#panel"), /Same name \(3 other records/);
  await page.click("#open-same-name");
  s = await settled(page, (s) => s.sameNameRecords.length > 0, "the same-name view");
  assert.equal(s.sameNameOf, ziming.id);
  assert.deepEqual(s.sameNameRecords[0], ziming.id);
  assert.deepEqual(sorted(s.sameNameRecords.slice(1)), sorted(expected.sameNameRecords));
  assert.ok((await page.locator("#sheet .evidence li").count()) > 0, "no evidence is shown");
  assert.equal(address(page), `/explorer/researcher/${ziming.id}/same-name`);
  await shot(page, "explorer-same-name");
  await page.goBack();
  s = await settled(page, (s) => s.sameNameOf === null, "back from the same-name view");
  assert.ok(await page.locator("#sheet").isHidden());
  await page.goForward();
  s = await settled(page, (s) => s.sameNameRecords.length > 0, "forward to the same-name view");

  step("the explorer passes axe-core");
  await accessible(page, "the explorer with a network, a panel and the same-name view");
  await page.close();

  step("edited and shared addresses show what they say");
  const fresh = await open(browser);
  s = await visit(fresh, `/explorer/researcher/${you.id}?open=${hsieh.id}&minJoint=2`);
  s = await settled(fresh, (s) => s.nodes.length === 2 && s.panelTitle === hsieh.name, "an edited address");
  assert.equal(await fresh.inputValue("#min-joint"), "2");
  await visit(fresh, `/explorer/path/${you.id}/${gilbert.id}`);
  s = await settled(fresh, (s) => s.pathChain.length > 0, "a shared path");
  assert.deepEqual(s.pathChain, expected.throughDemmel);
  assert.equal(s.center, you.id);
  await visit(fresh, `/explorer/researcher/${ziming.id}/same-name?with=${expected.zimingMit}`);
  s = await settled(fresh, (s) => s.sameNameRecords.length > 0, "a shared same-name view");
  assert.equal(await fresh.locator(`#sheet .record.compared[data-id="${expected.zimingMit}"]`).count(), 1);
  await visit(fresh, "/explorer/");
  s = await settled(fresh, (s) => s.center === null, "the empty explorer");
  assert.equal(s.panel, null);

  step("an old hash link opens the researcher at the new address");
  await fresh.goto(`${base}/explorer/#/researcher/${you.id}`);
  s = await settled(fresh, (s) => s.center === you.id && s.panelTitle === you.name, "the old hash link");
  assert.equal(address(fresh), `/explorer/researcher/${you.id}`);
  await fresh.close();

  step("at 390 px wide, by touch: everything fits and the labels stay apart");
  const phone = await open(browser, {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  await visit(phone, `/explorer/researcher/${you.id}?open=`);
  s = await settled(phone, (s) => s.nodes.length === 10, "the network on a phone");
  assert.equal(s.panel, null);
  assert.ok((await phone.evaluate(() => document.documentElement.scrollWidth)) <= 390, "the page scrolls sideways");
  const graph = await phone.locator("#graph").boundingBox();
  assert.ok(graph.width >= 380 && graph.height >= 400, `the stage is ${graph.width}×${graph.height}`);
  assert.ok(await phone.locator("#controls").isHidden(), "the options cover the network");
  await assertLabelsApart(phone, "the network on a phone");
  point = await nodePoint(phone, hsieh.id);
  await phone.touchscreen.tap(point.x, point.y);
  s = await settled(phone, (s) => s.panelTitle === hsieh.name, "a tap opens the panel");
  const panel = await phone.locator("#panel").boundingBox();
  assert.ok(panel.x >= 0 && panel.x + panel.width <= 390, "the panel is wider than the screen");
  const shrunk = await phone.locator("#graph").boundingBox();
  assert.ok(shrunk.y + shrunk.height <= panel.y + 1 && shrunk.height >= 300, "the panel covers the network");
  const onPhone = await assertLabelsApart(phone, "a tapped node on a phone");
  assert.ok(onPhone.includes(hsieh.id), `labels: ${onPhone}`);
  await shot(phone, "explorer-phone");
  await phone.click("#controls-toggle");
  assert.ok(await phone.locator("#controls").isVisible(), "the options do not open");
  assert.equal(await phone.getAttribute("#controls-toggle", "aria-expanded"), "true");
  await shot(phone, "explorer-phone-options");
  await accessible(phone, "the explorer on a phone");
  await phone.close();

  step("2,000 researchers draw with labels culled by density and kept apart");
  await largeNetwork(await open(browser));
});
