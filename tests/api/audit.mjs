// Runs the graphql-http server audit against a live server and prints the results as JSON.
// Usage: node tests/api/audit.mjs http://127.0.0.1:PORT/graphql
import { auditServer } from "graphql-http";

const url = process.argv[2];
if (!url) {
  console.error("usage: node tests/api/audit.mjs URL");
  process.exit(2);
}
const results = await auditServer({ url });
const summary = await Promise.all(
  results.map(async (result) => ({
    id: result.id,
    name: result.name,
    status: result.status,
    reason: result.status === "ok" ? null : result.reason,
    response:
      result.status === "ok" || !result.response ? null : await result.response.text(),
  })),
);
console.log(JSON.stringify(summary));
