// GraphiQL for a browser at GET /graphql, from our own bundle: it loads with nothing from
// outside (the server under test is the only host reached) under a strict CSP, reads the
// schema, and runs a query. Run by tests/web/test_graphiql.py.
import assert from "node:assert/strict";
import { accessible, base, expected, open, run, shot, step } from "./browser.mjs";

await run("GraphiQL", async (browser) => {
  const page = await open(browser, { viewport: { width: 1280, height: 800 } });

  step("GET /graphql in a browser is our GraphiQL page");
  const response = await page.goto(`${base}/graphql`);
  assert.equal(response.status(), 200);
  assert.match(response.headers()["content-type"], /^text\/html/);
  assert.match(response.headers()["content-security-policy"] ?? "", /script-src 'self'/);
  assert.equal(await page.title(), "scholargraph · GraphiQL");
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.src));
  assert.deepEqual(scripts, [`${base}/explorer/graphiql/graphiql.js`]);

  step("the editor comes up and the schema is read");
  await page.locator(".graphiql-execute-button").waitFor();
  await page.locator(".graphiql-query-editor .CodeMirror").waitFor();
  await page.click('button[aria-label="Show Documentation Explorer"]');
  await page.locator(".graphiql-doc-explorer").getByText("Query", { exact: true }).first().waitFor();

  step("running the example query answers from the API");
  await page.click(".graphiql-execute-button");
  const result = page.locator(".graphiql-response .CodeMirror-code");
  await result.getByText(`"${expected.name}"`).first().waitFor();
  const text = await result.textContent();
  assert.match(text, /"data"/);
  assert.doesNotMatch(text, /"errors"/);
  await shot(page, "graphiql");

  step("GraphiQL passes axe-core");
  // The tab strip is GraphiQL's own markup (a role="tab" item holding its buttons), nothing
  // the page can change; all else is checked.
  await accessible(page, "GraphiQL", [".graphiql-tabs"]);
});
