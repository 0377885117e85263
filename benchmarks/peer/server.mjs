// The official Neo4j GraphQL library (@neo4j/graphql 7) over the same store as scholargraph,
// for benchmarks/bench_peer.py: typeDefs.graphql beside this file, served with graphql-http
// on 127.0.0.1 only.
//
//   NEO4J_URI=bolt://127.0.0.1:7687 NEO4J_USER=neo4j NEO4J_PASSWORD=… PEER_PORT=4001 \
//     PEER_NODELAY=1 node benchmarks/peer/server.mjs
//
// PEER_NODELAY=1 sets TCP_NODELAY on every socket this process connects (its Bolt sockets:
// the HTTP server's own sockets are accepted, not connected), before the driver's own socket
// set-up. With Nagle's algorithm on, a Bolt message written in two parts waits for the
// server's delayed ACK. neo4j-driver 6.3.0 (neo4j-driver-bolt-connection's configureSocket)
// already sets TCP_NODELAY itself, so with this pin both settings end with it on; the flag
// matters for drivers that leave it off. The server prints one JSON line when it is ready,
// with the setting it runs with; GET /nodelay counts the connected sockets and those this
// flag set.
import http from "node:http";
import net from "node:net";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

import { Neo4jGraphQL } from "@neo4j/graphql";
import { createHandler } from "graphql-http/lib/use/http";
import neo4j from "neo4j-driver";

const nodelay = ["1", "true", "yes"].includes((process.env.PEER_NODELAY ?? "").toLowerCase());
const sockets = { connected: 0, nodelay: 0 };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  sockets.connected += 1;
  if (nodelay) {
    this.setNoDelay(true);
    sockets.nodelay += 1;
  }
  return connect.apply(this, args);
};

const here = dirname(fileURLToPath(import.meta.url));
const typeDefs = readFileSync(join(here, "typeDefs.graphql"), "utf8");
const driver = neo4j.driver(
  process.env.NEO4J_URI ?? "bolt://127.0.0.1:7687",
  neo4j.auth.basic(process.env.NEO4J_USER ?? "neo4j", process.env.NEO4J_PASSWORD ?? ""),
  { disableLosslessIntegers: true },
);
await driver.verifyConnectivity();
const schema = await new Neo4jGraphQL({ typeDefs, driver }).getSchema();
const graphql = createHandler({ schema, context: () => ({}) });

const server = http.createServer((req, res) => {
  if (req.url === "/nodelay") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ enabled: nodelay, ...sockets }));
  } else if (req.url?.startsWith("/graphql")) {
    graphql(req, res).catch((error) => {
      res.writeHead(500).end(String(error));
    });
  } else {
    res.writeHead(404).end();
  }
});
server.listen(Number(process.env.PEER_PORT ?? 4001), "127.0.0.1", () => {
  const { port } = server.address();
  console.log(JSON.stringify({ ready: true, port, nodelay }));
});

const stop = async () => {
  server.close();
  await driver.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
