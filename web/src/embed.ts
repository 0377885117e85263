// A researcher's coauthor network drawn inside another page of the site.
//
// The page agrees to nothing but this: it has <div id="network" data-researcher="ID"> and
// loads /explorer/explorer.js (as a module or a classic script). The drawing goes first in
// that box, above whatever the page put there (a list of the coauthors, say, which stays the
// text for screen readers: the drawing is hidden from them). The network comes from /graphql
// like the explorer's; hovering brings a researcher's coauthors forward, clicking opens their
// page (/researchers/ID, which redirects to the canonical address).
import { fromGraphology, type GraphologyNetwork, graphql, NETWORK } from "./api";
import { h } from "./dom";
import { createGraph, fillGraph, lookFor } from "./model";
import { NetworkView } from "./renderer";
import { DEFAULT_FILTERS } from "./routes";

const HEIGHT = "min(360px, 70vh)";

export interface EmbeddedState {
  center: string | null;
  nodes: string[];
  loading: boolean;
  error: string | null;
}

export function embedNetwork(host: HTMLElement, researcher: string): void {
  const graph = createGraph();
  const state: EmbeddedState = { center: null, nodes: [], loading: true, error: null };
  const stage = h("div", { class: "network-drawing", "aria-hidden": "true" });
  stage.style.position = "relative";
  stage.style.height = HEIGHT;
  host.prepend(stage);

  let hovered: string | null = null;
  const view = new NetworkView(stage, graph, {
    click: (node) => location.assign(`/researchers/${encodeURIComponent(node)}`),
    doubleClick: (node) => location.assign(`/researchers/${encodeURIComponent(node)}`),
    hover: (node) => {
      hovered = node;
      const focus =
        node && graph.hasNode(node)
          ? { nodes: new Set([node, ...graph.neighbors(node)]), edges: new Set(graph.edges(node)), path: false }
          : null;
      view.setFocus(focus, null, state.center);
    },
    stageClick: () => view.setFocus(null, null, state.center),
  });

  Object.defineProperty(window, "__network", {
    value: Object.freeze({
      state: (): EmbeddedState => ({ ...state, nodes: [...state.nodes] }),
      hovered: () => hovered,
      nodePosition: (id: string) => view.nodePosition(id),
      cameraMoving: () => view.cameraMoving(),
    }),
  });

  void (async () => {
    try {
      const data = await graphql<{ researcher: { network: { graphology: GraphologyNetwork } } | null }>(NETWORK, {
        ...DEFAULT_FILTERS,
        id: researcher,
        maxNodes: 150,
      });
      if (!data.researcher) throw new Error(`no researcher #${researcher}`);
      const network = fromGraphology(data.researcher.network.graphology);
      if (network.nodes.length < 2) throw new Error("no coauthors to draw");
      fillGraph(graph, network);
      state.center = network.center;
      state.nodes = graph.nodes().sort();
      view.setLook(lookFor(graph, { sizeBy: "papers", colorBy: "community" }));
      view.setFocus(null, null, state.center);
      view.redraw(true);
    } catch (error) {
      // The page's own content says who the coauthors are; the drawing just goes.
      state.error = error instanceof Error ? error.message : String(error);
      stage.remove();
    } finally {
      state.loading = false;
    }
  })();
}
