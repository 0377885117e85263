// Every call into sigma.js lives here: the WebGL view of the graph, its reducers and events.
import Sigma from "sigma";
import type { EdgeDisplayData, NodeDisplayData } from "sigma/types";

import { type Box, type LabelData, LabelPlacer } from "./labels";
import type { EdgeAttributes, ExplorerGraph, Look, NodeAttributes } from "./model";

export interface ViewEvents {
  click(node: string): void;
  doubleClick(node: string): void;
  hover(node: string | null): void;
  stageClick(): void;
}

/** What to bring forward: everything else fades. */
export interface Focus {
  nodes: ReadonlySet<string>;
  edges: ReadonlySet<string>;
  // Path mode draws its hops in a colour of their own.
  path: boolean;
}

// Opaque colours: WebGL blends translucent edges unevenly under software rendering.
const FADED_NODE = "#e3e5e9";
const FADED_EDGE = "#eef0f3";
const PATH_EDGE = "#d6336c";
const FOCUS_EDGE = "#5a6478";
const EDGE_COLOR = "#c2c8d2";

export class NetworkView {
  private readonly sigma: Sigma<NodeAttributes, EdgeAttributes>;
  private readonly graph: ExplorerGraph;
  private look: Look | null = null;
  private focus: Focus | null = null;
  private selected: string | null = null;
  private center: string | null = null;
  private hovered: string | null = null;
  private readonly labels = new LabelPlacer((node) => this.labelRank(node));

  constructor(container: HTMLElement, graph: ExplorerGraph, events: ViewEvents) {
    this.graph = graph;
    this.sigma = new Sigma<NodeAttributes, EdgeAttributes>(graph, container, {
      allowInvalidContainer: true,
      zIndex: true,
      renderEdgeLabels: false,
      labelFont: "system-ui, -apple-system, 'Segoe UI', sans-serif",
      labelSize: 12,
      labelWeight: "500",
      labelColor: { color: "#1f2430" },
      defaultDrawNodeLabel: (context, data) => this.labels.offer(context, data as LabelData),
      defaultEdgeColor: EDGE_COLOR,
      nodeReducer: (node, data) => this.reduceNode(node, data),
      edgeReducer: (edge, data) => this.reduceEdge(edge, data),
    });
    this.sigma.on("clickNode", ({ node }) => events.click(node));
    this.sigma.on("doubleClickNode", (payload) => {
      // Expanding replaces sigma's zoom-on-double-click.
      payload.preventSigmaDefault();
      events.doubleClick(payload.node);
    });
    this.sigma.on("enterNode", ({ node }) => {
      this.hovered = node;
      events.hover(node);
    });
    this.sigma.on("leaveNode", () => {
      this.hovered = null;
      events.hover(null);
    });
    this.sigma.on("afterRender", () => this.labels.draw(this.sigma.getSettings()));
    this.sigma.on("clickStage", () => events.stageClick());
    // Sigma follows the window's size only; the stage also changes when the panel opens.
    new ResizeObserver(() => this.sigma.resize().refresh()).observe(container);
    this.adaptToSize();
  }

  /** Label culling and edge hiding by how crowded the network is (smooth at 2,000 nodes). */
  adaptToSize(): void {
    const order = this.graph.order;
    const size = this.graph.size;
    this.sigma.setSettings({
      // Room for the outermost nodes and their labels, less of it on a phone.
      stagePadding: Math.min(this.sigma.getContainer().clientWidth, this.sigma.getContainer().clientHeight) < 500 ? 30 : 80,
      // A few dozen researchers are all labelled; past that, sigma keeps the labels of the
      // largest nodes in each grid cell, and more come as one zooms in.
      labelDensity: order <= 60 ? 1 : order <= 400 ? 0.35 : 0.12,
      labelGridCellSize: order <= 60 ? 20 : 90,
      labelRenderedSizeThreshold: order <= 60 ? 0 : order <= 400 ? 6 : 9,
      hideEdgesOnMove: size > 4000,
      hideLabelsOnMove: order > 1000,
    });
  }

  /** Sizes and colours are computed as sigma draws (no bulk attribute writes to the graph). */
  setLook(look: Look): void {
    this.look = look;
  }

  setFocus(focus: Focus | null, selected: string | null, center: string | null): void {
    this.focus = focus;
    this.selected = selected;
    this.center = center;
    // Sizes and z-indices change with the focus, so sigma indexes again (cheap at 2,000
    // nodes); at once rather than on the next frame, so what the page reports is what is drawn.
    this.sigma.refresh();
  }

  /** Re-read the graph after its nodes or edges changed, and frame it again. */
  redraw(reframe: boolean): void {
    this.adaptToSize();
    this.sigma.refresh();
    if (reframe) this.sigma.getCamera().animatedReset({ duration: 300 });
  }

  /** Where a node is drawn, in page coordinates (its centre), or null if hidden. */
  nodePosition(node: string): { x: number; y: number } | null {
    const data = this.sigma.getNodeDisplayData(node);
    if (!data || data.hidden) return null;
    const point = this.sigma.framedGraphToViewport(data);
    const box = this.sigma.getContainer().getBoundingClientRect();
    return { x: box.left + point.x, y: box.top + point.y };
  }

  cameraMoving(): boolean {
    return this.sigma.getCamera().isAnimated();
  }

  labelledNodes(): string[] {
    return [...this.labels.drawn().keys()].sort();
  }

  /** Where the last frame drew each label, in page coordinates. */
  labelBoxes(): (Box & { id: string })[] {
    const frame = this.sigma.getContainer().getBoundingClientRect();
    return [...this.labels.drawn()].map(([id, box]) => ({
      id,
      left: frame.left + box.left,
      right: frame.left + box.right,
      top: frame.top + box.top,
      bottom: frame.top + box.bottom,
    }));
  }

  /** Labels come in this order, each only where it covers none drawn before it. */
  private labelRank(node: string): number {
    if (node === this.selected) return 0;
    if (node === this.hovered) return 1;
    if (node === this.center) return 2;
    return this.focus?.nodes.has(node) ? 3 : 4;
  }

  /** The WebGL contexts sigma draws with (WebGL 2 or 1), alive. */
  webglContexts(): number {
    let count = 0;
    for (const canvas of Object.values(this.sigma.getCanvases())) {
      const gl = canvas.getContext("webgl2") ?? canvas.getContext("webgl");
      if (gl && !gl.isContextLost()) count += 1;
    }
    return count;
  }

  private reduceNode(node: string, data: NodeAttributes): Partial<NodeDisplayData> {
    const shown: Partial<NodeDisplayData> = { ...data };
    if (this.look) {
      shown.size = this.look.nodeSize(data);
      shown.color = this.look.nodeColor(data);
    }
    if (node === this.center) shown.forceLabel = true;
    if (this.focus) {
      if (this.focus.nodes.has(node)) {
        shown.zIndex = 2;
        shown.forceLabel = true;
      } else {
        shown.color = FADED_NODE;
        shown.label = null;
        shown.forceLabel = false;
        shown.zIndex = 0;
      }
    }
    if (node === this.selected) {
      shown.highlighted = true;
      shown.forceLabel = true;
      shown.zIndex = 3;
    }
    return shown;
  }

  private reduceEdge(edge: string, data: EdgeAttributes): Partial<EdgeDisplayData> {
    const size = this.look ? this.look.edgeSize(data) : 1;
    const shown: Partial<EdgeDisplayData> = { size, color: EDGE_COLOR };
    if (!this.focus) return shown;
    if (this.focus.edges.has(edge)) {
      shown.color = this.focus.path ? PATH_EDGE : FOCUS_EDGE;
      shown.size = Math.max(size, this.focus.path ? 4 : 1.5);
      shown.zIndex = 2;
    } else {
      shown.color = FADED_EDGE;
      shown.zIndex = 0;
    }
    return shown;
  }
}
