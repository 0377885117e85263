// The page's controller: what is shown, and what each click, filter and search asks the API.
import {
  graphql,
  fromGraphology,
  LOOKUP,
  type GraphologyNetwork,
  NETWORK,
  type NetworkData,
  type NetworkFilters,
  PATH,
  type PathData,
  RESEARCHER_PAGE,
  type ResearcherHit,
  type ResearcherPage,
  SAME_NAME,
  type SameNameData,
} from "./api";
import { byId, counted, replace } from "./dom";
import { settle } from "./layout";
import { legendView } from "./legend";
import {
  addChain,
  createGraph,
  type ExplorerGraph,
  fillGraph,
  lookFor,
  mergeNetwork,
  type Style,
} from "./model";
import { researcherPanel } from "./panel";
import { type PathEnds, pathPanel } from "./pathmode";
import { type Focus, NetworkView } from "./renderer";
import { sameNameView } from "./samename";

export type Mode = "explore" | "path";
export type PanelKind = "researcher" | "path" | null;

export class Explorer {
  readonly graph: ExplorerGraph = createGraph();
  readonly view: NetworkView;
  center: string | null = null;
  /** The network asked for last (drawn or on its way), and with which filters. */
  wanted: { center: string; filters: string } | null = null;
  selected: string | null = null;
  hovered: string | null = null;
  mode: Mode = "explore";
  panel: PanelKind = null;
  sameNameOf: string | null = null;
  /** Whose same-name view is open or on its way, and which record it brings into view. */
  sameNameWanted: string | null = null;
  sameNameCompare: string | null = null;
  /** Told after each change a person makes, to write it into the address bar. */
  onNavigate: (push: boolean) => void = () => {};
  ends: PathEnds = { from: null, to: null };
  path: PathData | null = null;
  chosenChain = 0;
  strongest = false;
  style: Style = { sizeBy: "papers", colorBy: "community" };
  error: string | null = null;
  truncated = false;
  modularity = 0;
  pending = 0;
  private networkRequest = 0;
  private panelRequest = 0;
  private pathRequest = 0;
  private sameNameRequest = 0;

  constructor(private readonly filters: () => NetworkFilters) {
    this.view = new NetworkView(byId("graph"), this.graph, {
      click: (node) => this.clickNode(node),
      doubleClick: (node) => void this.expand(node),
      hover: (node) => this.hover(node),
      stageClick: () => this.hover(null),
    });
  }

  /** A change a person made: do it, then record it in the history (a new entry if `push`). */
  act(work: () => void, push = true): void {
    work();
    this.onNavigate(push);
  }

  focus(): Focus | null {
    const chain = this.mode === "path" ? this.path?.chains[this.chosenChain] : undefined;
    if (chain) {
      const edges = chain.hops
        .map((hop) => this.graph.edge(hop.source.id, hop.target.id))
        .filter((edge): edge is string => edge !== undefined);
      return { nodes: new Set(chain.researchers.map((r) => r.id)), edges: new Set(edges), path: true };
    }
    if (this.hovered && this.graph.hasNode(this.hovered)) {
      const nodes = new Set([this.hovered, ...this.graph.neighbors(this.hovered)]);
      return { nodes, edges: new Set(this.graph.edges(this.hovered)), path: false };
    }
    return null;
  }

  /** Draw again with what is hovered, selected or on the chosen path brought forward. */
  private refreshFocus(): void {
    this.view.setFocus(this.focus(), this.selected, this.center);
  }

  private async busy<T>(work: () => Promise<T>): Promise<T | undefined> {
    this.pending += 1;
    document.body.classList.add("loading");
    try {
      const result = await work();
      this.showError(null);
      return result;
    } catch (error) {
      this.showError(error instanceof Error ? error.message : String(error));
      return undefined;
    } finally {
      this.pending -= 1;
      if (!this.pending) document.body.classList.remove("loading");
    }
  }

  showError(message: string | null): void {
    this.error = message;
    const status = byId("status");
    status.classList.toggle("error", message !== null);
    if (message !== null) status.textContent = message;
    else this.showStatus();
  }

  private async fetchNetwork(id: string, depth?: number): Promise<{ researcher: { network: NetworkData } | null }> {
    const filters = this.filters();
    const data = await graphql<{ researcher: { network: { graphology: GraphologyNetwork } } | null }>(NETWORK, {
      id,
      ...filters,
      depth: depth ?? filters.depth,
    });
    return { researcher: data.researcher && { network: fromGraphology(data.researcher.network.graphology) } };
  }

  async loadNetwork(id: string): Promise<void> {
    const request = ++this.networkRequest;
    this.wanted = { center: id, filters: JSON.stringify(this.filters()) };
    await this.busy(async () => {
      const data = await this.fetchNetwork(id);
      if (request !== this.networkRequest) return;
      if (!data.researcher) throw new Error(`No researcher #${id}.`);
      fillGraph(this.graph, data.researcher.network);
      this.center = data.researcher.network.center;
      this.truncated = data.researcher.network.truncated;
      this.modularity = data.researcher.network.modularity;
      this.hovered = null;
      if (this.mode === "path") this.ensureChain();
      this.restyle();
      this.view.redraw(true);
      byId("empty").hidden = true;
    });
  }

  /** Back to an empty stage: no network, no panel, no path, no same-name view. */
  reset(): void {
    this.networkRequest += 1;
    this.wanted = null;
    this.center = null;
    this.graph.clear();
    this.setMode("explore");
    this.closePanel();
    this.closeSameName();
    this.restyle();
    this.view.redraw(false);
    byId("empty").hidden = false;
  }

  async expand(id: string): Promise<void> {
    await this.busy(async () => {
      const data = await this.fetchNetwork(id, 1);
      if (!data.researcher) throw new Error(`No researcher #${id}.`);
      const fresh = mergeNetwork(this.graph, data.researcher.network, id);
      settle(this.graph, fresh);
      this.restyle();
      this.view.redraw(fresh.length > 0);
    });
  }

  restyle(): void {
    const look = lookFor(this.graph, this.style);
    this.view.setLook(look);
    replace(byId("legend"), this.graph.order ? legendView(look.legend) : null);
    this.showStatus();
    this.refreshFocus();
  }

  private showStatus(): void {
    if (this.error !== null) return;
    const status = byId("status");
    if (!this.center) {
      status.textContent = "";
      return;
    }
    const communities = new Set(this.graph.mapNodes((_, a) => a.community)).size;
    status.textContent =
      `${counted(this.graph.order, "researcher")} · ${counted(this.graph.size, "tie")} · ` +
      `${counted(communities, "community", "communities")} (modularity ${this.modularity.toFixed(2)})` +
      (this.truncated ? " · cut at the maximum number of researchers" : "");
  }

  private hover(node: string | null): void {
    if (node === this.hovered) return;
    this.hovered = node;
    this.refreshFocus();
  }

  private clickNode(node: string): void {
    this.act(() => {
      if (this.mode === "path") this.pickEnd({ id: node, name: this.graph.getNodeAttribute(node, "label") });
      else void this.openResearcher(node);
    });
  }

  /** A search hit: in path mode it fills the next end, otherwise it becomes the centre. */
  pick(hit: ResearcherHit): void {
    if (this.mode === "path") {
      this.pickEnd({ id: hit.id, name: hit.name });
      return;
    }
    void this.loadNetwork(hit.id);
    void this.openResearcher(hit.id);
  }

  async openResearcher(id: string): Promise<void> {
    const request = ++this.panelRequest;
    this.selected = id;
    this.refreshFocus();
    await this.busy(async () => {
      const data = await graphql<{ researcher: ResearcherPage | null }>(RESEARCHER_PAGE, { id });
      if (request !== this.panelRequest) return;
      if (!data.researcher) throw new Error(`No researcher #${id}.`);
      this.panel = "researcher";
      document.title = `${data.researcher.name} · scholargraph researcher network`;
      this.showPanel(
        researcherPanel(data.researcher, {
          centre: (rid) => this.act(() => void this.loadNetwork(rid)),
          expand: (rid) => void this.expand(rid),
          pathFrom: (rid) => this.act(() => this.setMode("path", { id: rid, name: data.researcher?.name ?? rid })),
          compareSameName: (rid) => this.act(() => void this.openSameName(rid)),
          open: (rid) => this.act(() => void this.openResearcher(rid)),
          inNetwork: (rid) => this.graph.hasNode(rid),
        }),
      );
    });
  }

  private showPanel(content: HTMLElement | null): void {
    const panel = byId("panel");
    panel.hidden = content === null;
    replace(byId("panel-body"), content);
  }

  closePanel(): void {
    this.panelRequest += 1;
    this.panel = null;
    this.selected = null;
    document.title = "scholargraph · researcher network";
    this.showPanel(null);
    this.refreshFocus();
  }

  async openSameName(id: string, compare: string | null = null): Promise<void> {
    const request = ++this.sameNameRequest;
    this.sameNameWanted = id;
    this.sameNameCompare = compare;
    await this.busy(async () => {
      const data = await graphql<{ researcher: SameNameData | null }>(SAME_NAME, { id });
      if (request !== this.sameNameRequest) return;
      if (!data.researcher) throw new Error(`No researcher #${id}.`);
      this.sameNameOf = id;
      byId("sheet-title").textContent = `Records named ${data.researcher.name}`;
      replace(
        byId("sheet-body"),
        sameNameView(data.researcher, (rid) =>
          this.act(() => {
            this.closeSameName();
            void this.openResearcher(rid);
          }),
        ),
      );
      byId("sheet").hidden = false;
      const other = compare ? document.querySelector(`#sheet .record[data-id="${CSS.escape(compare)}"]`) : null;
      other?.classList.add("compared");
      other?.scrollIntoView({ block: "nearest", inline: "center" });
    });
  }

  closeSameName(): void {
    this.sameNameRequest += 1;
    this.sameNameWanted = null;
    this.sameNameCompare = null;
    this.sameNameOf = null;
    byId("sheet").hidden = true;
  }

  /** Path mode starts from `from`, else from the selected researcher if drawn. */
  setMode(mode: Mode, from: { id: string; name: string } | null = null): void {
    this.mode = mode;
    this.pathRequest += 1;
    const button = byId("path-mode");
    button.setAttribute("aria-pressed", String(mode === "path"));
    document.body.classList.toggle("path-mode", mode === "path");
    if (mode === "path") {
      const selected = this.selected && this.graph.hasNode(this.selected) ? this.selected : null;
      const start = from ?? (selected ? { id: selected, name: this.graph.getNodeAttribute(selected, "label") } : null);
      this.ends = { from: start, to: null };
      this.path = null;
      this.renderPath();
    } else {
      this.path = null;
      if (this.panel === "path") this.closePanel();
    }
    this.refreshFocus();
  }

  /** Path mode between the researchers given (names are looked up when not drawn). */
  async showPath(from: string | null, to: string | null, strongest: boolean): Promise<void> {
    if (this.mode !== "path") this.setMode("path");
    const same = this.ends.from?.id === from && this.ends.to?.id === to && this.strongest === strongest;
    if (same) return;
    this.strongest = strongest;
    const request = ++this.pathRequest;
    const end = async (id: string | null) => (id ? { id, name: await this.nameOf(id) } : null);
    const [first, second] = await Promise.all([end(from), end(to)]);
    if (request !== this.pathRequest || this.mode !== "path") return;
    this.ends = { from: first, to: first ? second : null };
    this.path = null;
    this.renderPath();
    this.refreshFocus();
    if (this.ends.from && this.ends.to) void this.findPath();
  }

  private async nameOf(id: string): Promise<string> {
    if (this.graph.hasNode(id)) return this.graph.getNodeAttribute(id, "label");
    const found = await this.busy(() => graphql<{ researcher: ResearcherHit | null }>(LOOKUP, { id }));
    return found?.researcher?.name ?? `#${id}`;
  }

  private pickEnd(end: { id: string; name: string }): void {
    this.pathRequest += 1;
    if (!this.ends.from || this.ends.to) this.ends = { from: end, to: null };
    else this.ends = { ...this.ends, to: end };
    this.path = null;
    this.renderPath();
    this.refreshFocus();
    if (this.ends.from && this.ends.to) void this.findPath();
  }

  private renderPath(): void {
    this.panel = "path";
    this.showPanel(
      pathPanel(this.ends, this.path, this.chosenChain, this.strongest, {
        chooseChain: (index) => {
          this.chosenChain = index;
          this.ensureChain();
          this.renderPath();
          this.refreshFocus();
        },
        clear: () =>
          this.act(() => {
            this.pathRequest += 1;
            this.ends = { from: null, to: null };
            this.path = null;
            this.renderPath();
            this.refreshFocus();
          }),
        setStrongest: (strongest) =>
          this.act(() => {
            this.strongest = strongest;
            if (this.ends.from && this.ends.to) void this.findPath();
          }, false),
      }),
    );
  }

  private async findPath(): Promise<void> {
    const { from, to } = this.ends;
    if (!from || !to) return;
    const filters = this.filters();
    const request = ++this.pathRequest;
    await this.busy(async () => {
      const data = await graphql<{ collaborationPath: PathData }>(PATH, {
        from: from.id,
        to: to.id,
        k: this.strongest ? 1 : 3,
        strongest: this.strongest,
        yearFrom: filters.yearFrom,
        yearTo: filters.yearTo,
      });
      if (request !== this.pathRequest || this.mode !== "path") return;
      this.path = data.collaborationPath;
      this.chosenChain = 0;
      this.ensureChain();
      this.renderPath();
      this.refreshFocus();
    });
  }

  /** Draw the chosen chain's researchers and hops that the network does not show. */
  private ensureChain(): void {
    const chain = this.path?.chains[this.chosenChain];
    if (!chain) return;
    const added = addChain(this.graph, chain);
    if (added.length) {
      settle(this.graph, added);
      this.restyle();
      this.view.redraw(true);
    }
  }

  setStyle(style: Partial<Style>): void {
    this.style = { ...this.style, ...style };
    this.restyle();
  }
}
