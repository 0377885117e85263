// Apollo Client's persisted query link against a live server: the same query twice (POST),
// then once with hashed queries over GET. Prints what was sent and what came back, as JSON.
// Usage: node tests/api/apq.mjs http://127.0.0.1:PORT/graphql 'query { … }'
import { createHash } from "node:crypto";
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";

const [url, query] = process.argv.slice(2);
if (!url || !query) {
  console.error("usage: node tests/api/apq.mjs URL QUERY");
  process.exit(2);
}
const sent = [];
async function recordingFetch(input, init) {
  const address = new URL(typeof input === "string" ? input : input.url);
  const body = init?.body ? JSON.parse(init.body) : null;
  const response = await fetch(input, init);
  sent.push({
    method: init?.method ?? "GET",
    hasQuery: Boolean(body?.query ?? address.searchParams.get("query")),
    extensions: body?.extensions ?? JSON.parse(address.searchParams.get("extensions") ?? "null"),
    status: response.status,
  });
  return response;
}
const sha256 = (text) => createHash("sha256").update(text).digest("hex");

function client(useGETForHashedQueries) {
  const link = ApolloLink.from([
    new PersistedQueryLink({ sha256, useGETForHashedQueries }),
    new HttpLink({ uri: url, fetch: recordingFetch }),
  ]);
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

const document = gql(query);
const results = [];
const posting = client(false);
for (let i = 0; i < 2; i++) {
  const { data, error } = await posting.query({ query: document, fetchPolicy: "no-cache" });
  results.push({ data: data ?? null, error: error ? String(error) : null });
}
const getting = client(true);
const { data, error } = await getting.query({ query: document, fetchPolicy: "no-cache" });
results.push({ data: data ?? null, error: error ? String(error) : null });
console.log(JSON.stringify({ sent, results }));
