// Incremental layout after an expansion: ForceAtlas2 in the browser, the drawn nodes fixed.
import forceAtlas2 from "graphology-layout-forceatlas2";

import { type ExplorerGraph, typicalEdgeLength } from "./model";

// The server's ForceAtlas2 settings (graph/analysis/layout.py), so new nodes settle the way
// the first view was drawn.
const SCALING_RATIO = 2;
const GRAVITY = 1;

/**
 * Move the `fresh` nodes to where ForceAtlas2 would put them among the others, which stay.
 *
 * The server normalises its layout into [-1, 1]², far smaller than ForceAtlas2's own scale
 * (where two linked nodes rest about sqrt(scalingRatio · m₁ · m₂ / weight) apart, m being
 * degree + 1), so the positions are scaled up for the iterations and back down after.
 */
export function settle(graph: ExplorerGraph, fresh: string[], iterations = 60): void {
  if (!fresh.length || graph.order < 2) return;
  const moving = new Set(fresh);
  const masses = graph.mapNodes((node) => graph.degree(node) + 1).sort((a, b) => a - b);
  const mass = masses[Math.floor(masses.length / 2)];
  const scale = Math.sqrt(SCALING_RATIO * mass * mass) / typicalEdgeLength(graph);
  graph.updateEachNodeAttributes((node, a) => ({
    ...a,
    x: a.x * scale,
    y: a.y * scale,
    fixed: !moving.has(node),
  }));
  forceAtlas2.assign(graph, {
    iterations: graph.order > 1000 ? Math.min(iterations, 30) : iterations,
    getEdgeWeight: "joint",
    settings: {
      scalingRatio: SCALING_RATIO,
      gravity: GRAVITY,
      slowDown: 1 + Math.log(graph.order),
      barnesHutOptimize: graph.order > 1000,
    },
  });
  graph.updateEachNodeAttributes((_, a) => {
    const { fixed: _fixed, ...rest } = a;
    return { ...rest, x: a.x / scale, y: a.y / scale };
  });
  keepNear(graph, moving);
}

/**
 * With everyone else fixed, repulsion from the whole network can push a new node far out
 * along its one tie; bring it back within a couple of edge lengths of its coauthors, in the
 * direction ForceAtlas2 chose. Nodes go in the order given, so along a chain each one is
 * placed by the one before it.
 */
function keepNear(graph: ExplorerGraph, moving: ReadonlySet<string>): void {
  const reach = 2 * typicalEdgeLength(graph);
  const placed = new Set<string>();
  for (const node of moving) {
    placed.add(node);
    const anchors = graph.filterNeighbors(node, (other) => !moving.has(other) || placed.has(other));
    if (!anchors.length) continue;
    const cx = anchors.reduce((sum, a) => sum + graph.getNodeAttribute(a, "x"), 0) / anchors.length;
    const cy = anchors.reduce((sum, a) => sum + graph.getNodeAttribute(a, "y"), 0) / anchors.length;
    const { x, y } = graph.getNodeAttributes(node);
    const distance = Math.hypot(x - cx, y - cy);
    if (distance > reach) {
      graph.mergeNodeAttributes(node, { x: cx + ((x - cx) * reach) / distance, y: cy + ((y - cy) * reach) / distance });
    }
  }
}
