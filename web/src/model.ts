// The drawn network as a graphology graph: what the API said, plus the look the page gives it.
import { UndirectedGraph } from "graphology";

import type { NetworkData, PathChain } from "./api";

export interface NodeAttributes {
  label: string;
  x: number;
  y: number;
  papers: number;
  citations: number;
  meanYear: number | null;
  community: number;
  hop: number;
  // graphology-layout-forceatlas2 leaves nodes with `fixed` where they are.
  fixed?: boolean;
}

export interface EdgeAttributes {
  joint: number;
  firstYear: number | null;
  lastYear: number | null;
}

export type ExplorerGraph = UndirectedGraph<NodeAttributes, EdgeAttributes>;
export type SizeBy = "papers" | "citations";
export type ColorBy = "community" | "year";

export interface Style {
  sizeBy: SizeBy;
  colorBy: ColorBy;
}

/** How the page draws each node and edge; the renderer's reducers apply it. */
export interface Look {
  nodeSize(node: NodeAttributes): number;
  nodeColor(node: NodeAttributes): string;
  edgeSize(edge: EdgeAttributes): number;
  legend: Legend;
}

export type Legend =
  | { kind: "community"; entries: { color: string; label: string; count: number }[] }
  | { kind: "year"; from: number; to: number; gradient: string; unknown: number };

export const UNGROUPED = -1;
const COMMUNITY_COLORS = [
  "#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#edc948",
  "#76b7b2", "#ff9da7", "#9c755f", "#17becf", "#bcbd22", "#8c6bb1",
];
const OTHER_COLOR = "#a3a8b0";
const YEAR_STOPS = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];
const UNKNOWN_YEAR_COLOR = "#c9ccd1";

export function createGraph(): ExplorerGraph {
  return new UndirectedGraph<NodeAttributes, EdgeAttributes>();
}

function nodeAttributes(node: NetworkData["nodes"][number], community: number): NodeAttributes {
  return {
    label: node.name,
    x: node.x,
    y: node.y,
    papers: node.paperCount,
    citations: node.citationCount,
    meanYear: node.meanYear,
    community,
    hop: node.hop,
  };
}

function addEdges(graph: ExplorerGraph, data: NetworkData): void {
  for (const edge of data.edges) {
    if (!graph.hasNode(edge.source) || !graph.hasNode(edge.target)) continue;
    graph.mergeEdge(edge.source, edge.target, {
      joint: edge.jointPapers,
      firstYear: edge.firstYear,
      lastYear: edge.lastYear,
    });
  }
}

/** Replace the graph's content with a network as the server laid it out. */
export function fillGraph(graph: ExplorerGraph, data: NetworkData): void {
  graph.clear();
  for (const node of data.nodes) graph.addNode(node.id, nodeAttributes(node, node.community));
  addEdges(graph, data);
}

/**
 * Add an expanded researcher's network to the graph; returns the ids of the new nodes.
 *
 * The server numbers the communities of each network on its own, so a community of the
 * expansion takes the community most of its already-drawn members have here; one with no
 * drawn member gets a new number. New nodes start on a ring around the expanded researcher
 * (their layout is then settled by the browser's ForceAtlas2).
 */
export function mergeNetwork(graph: ExplorerGraph, data: NetworkData, anchor: string): string[] {
  const votes = new Map<number, Map<number, number>>();
  for (const node of data.nodes) {
    if (!graph.hasNode(node.id)) continue;
    const here = graph.getNodeAttribute(node.id, "community");
    const tally = votes.get(node.community) ?? new Map<number, number>();
    tally.set(here, (tally.get(here) ?? 0) + 1);
    votes.set(node.community, tally);
  }
  let next = Math.max(-1, ...graph.mapNodes((_, a) => a.community)) + 1;
  const mapped = new Map<number, number>();
  const communityOf = (theirs: number): number => {
    let ours = mapped.get(theirs);
    if (ours === undefined) {
      const tally = [...(votes.get(theirs) ?? new Map<number, number>())].filter(([c]) => c !== UNGROUPED);
      tally.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      ours = tally.length ? tally[0][0] : next++;
      mapped.set(theirs, ours);
    }
    return ours;
  };
  const fresh = data.nodes.filter((node) => !graph.hasNode(node.id));
  const origin = graph.hasNode(anchor) ? graph.getNodeAttributes(anchor) : { x: 0, y: 0 };
  const radius = typicalEdgeLength(graph);
  fresh.forEach((node, index) => {
    const angle = (2 * Math.PI * index) / fresh.length + 0.3;
    const attributes = nodeAttributes(node, communityOf(node.community));
    attributes.x = origin.x + radius * Math.cos(angle);
    attributes.y = origin.y + radius * Math.sin(angle);
    graph.addNode(node.id, attributes);
  });
  addEdges(graph, data);
  return fresh.map((node) => node.id);
}

/** Median length of the drawn edges (a tenth of the box when there are none). */
export function typicalEdgeLength(graph: ExplorerGraph): number {
  const lengths = graph.mapEdges((_, __, ___, ____, a, b) => Math.hypot(a.x - b.x, a.y - b.y));
  if (!lengths.length) return 0.2;
  lengths.sort((p, q) => p - q);
  return Math.max(lengths[Math.floor(lengths.length / 2)], 1e-3);
}

/**
 * Draw the researchers of a collaboration chain that the network does not show, and its
 * hops: a missing researcher goes between its neighbours on the chain. Returns new node ids.
 */
export function addChain(graph: ExplorerGraph, chain: PathChain): string[] {
  const ids = chain.researchers.map((r) => r.id);
  const added: string[] = [];
  const step = typicalEdgeLength(graph);
  chain.researchers.forEach((researcher, index) => {
    if (graph.hasNode(researcher.id)) return;
    const before = ids.slice(0, index).reverse().find((id) => graph.hasNode(id));
    const after = ids.slice(index + 1).find((id) => graph.hasNode(id));
    const a = before ? graph.getNodeAttributes(before) : null;
    const b = after ? graph.getNodeAttributes(after) : null;
    const x = a && b ? (a.x + b.x) / 2 + step * 0.3 : (a ?? b ?? { x: 0 }).x + step;
    const y = a && b ? (a.y + b.y) / 2 + step * 0.3 : (a ?? b ?? { y: 0 }).y + step * (index % 2 ? 1 : -1);
    graph.addNode(researcher.id, {
      label: researcher.name,
      x,
      y,
      papers: researcher.paperCount,
      citations: researcher.citationCount,
      meanYear: null,
      community: UNGROUPED,
      hop: -1,
    });
    added.push(researcher.id);
  });
  for (const hop of chain.hops) {
    if (!graph.hasEdge(hop.source.id, hop.target.id)) {
      graph.addEdge(hop.source.id, hop.target.id, {
        joint: hop.jointPapers,
        firstYear: null,
        lastYear: null,
      });
    }
  }
  return added;
}

function yearColor(fraction: number): string {
  const scaled = Math.min(Math.max(fraction, 0), 1) * (YEAR_STOPS.length - 1);
  const low = Math.floor(scaled);
  const high = Math.min(low + 1, YEAR_STOPS.length - 1);
  const mix = scaled - low;
  const channel = (hex: string, at: number) => parseInt(hex.slice(1 + 2 * at, 3 + 2 * at), 16);
  const parts = [0, 1, 2].map((at) =>
    Math.round(channel(YEAR_STOPS[low], at) * (1 - mix) + channel(YEAR_STOPS[high], at) * mix),
  );
  return `rgb(${parts.join(", ")})`;
}

export function communityColor(community: number): string {
  return community >= 0 && community < COMMUNITY_COLORS.length ? COMMUNITY_COLORS[community] : OTHER_COLOR;
}

/** Size nodes by papers or citations and edges by joint papers; colour; say what means what. */
export function lookFor(graph: ExplorerGraph, style: Style): Look {
  const crowded = graph.order > 400;
  const [minSize, maxSize] = crowded ? [2, 11] : [4, 18];
  const value = (a: NodeAttributes) => Math.max(style.sizeBy === "papers" ? a.papers : a.citations, 0);
  let top = 1;
  let topJoint = 1;
  graph.forEachNode((_, a) => {
    top = Math.max(top, value(a));
  });
  graph.forEachEdge((_, a) => {
    topJoint = Math.max(topJoint, a.joint);
  });
  const years = graph.mapNodes((_, a) => a.meanYear).filter((y): y is number => y !== null);
  const from = years.length ? Math.floor(Math.min(...years)) : 0;
  const to = years.length ? Math.ceil(Math.max(...years)) : 0;
  const byYear = style.colorBy === "year";
  const gradient = `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map(yearColor).join(", ")})`;
  return {
    nodeSize: (a) => minSize + (maxSize - minSize) * Math.sqrt(value(a) / top),
    nodeColor: (a) => {
      if (!byYear) return communityColor(a.community);
      if (a.meanYear === null) return UNKNOWN_YEAR_COLOR;
      return yearColor(to > from ? (a.meanYear - from) / (to - from) : 1);
    },
    edgeSize: (a) => (crowded ? 0.6 : 1.5) + 4 * Math.sqrt((a.joint - 1) / Math.max(topJoint - 1, 1)),
    legend: byYear
      ? { kind: "year", from, to, gradient, unknown: graph.order - years.length }
      : { kind: "community", entries: communityEntries(graph) },
  };
}

function communityEntries(graph: ExplorerGraph): { color: string; label: string; count: number }[] {
  const members = new Map<number, { count: number; lead: string; leadPapers: number }>();
  graph.forEachNode((_, a) => {
    const group = members.get(a.community) ?? { count: 0, lead: a.label, leadPapers: -1 };
    group.count += 1;
    if (a.papers > group.leadPapers) {
      group.lead = a.label;
      group.leadPapers = a.papers;
    }
    members.set(a.community, group);
  });
  const ordered = [...members].sort((p, q) => q[1].count - p[1].count || p[0] - q[0]);
  const shown = ordered.filter(([c]) => c >= 0 && c < COMMUNITY_COLORS.length);
  const entries = shown.map(([community, group]) => ({
    color: communityColor(community),
    label: `around ${group.lead}`,
    count: group.count,
  }));
  const rest = graph.order - entries.reduce((sum, e) => sum + e.count, 0);
  if (rest > 0) entries.push({ color: OTHER_COLOR, label: "other groups", count: rest });
  return entries;
}
