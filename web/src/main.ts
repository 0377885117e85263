// Starts the explorer page: wires the controls, and exposes a read-only view of its state.
import type { NetworkFilters } from "./api";
import { byId } from "./dom";
import { Explorer } from "./explorer";
import type { ColorBy, SizeBy } from "./model";
import { SearchBox } from "./search";

function numberOrNull(id: string): number | null {
  const text = byId<HTMLInputElement>(id).value.trim();
  if (!text) return null;
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) ? value : null;
}

function readFilters(): NetworkFilters {
  return {
    depth: Number(byId<HTMLSelectElement>("depth").value),
    maxNodes: Number(byId<HTMLSelectElement>("max-nodes").value),
    minJointPapers: Math.max(numberOrNull("min-joint") ?? 1, 1),
    yearFrom: numberOrNull("year-from"),
    yearTo: numberOrNull("year-to"),
    maxAuthors: numberOrNull("max-authors"),
  };
}

export interface ExplorerState {
  center: string | null;
  nodes: string[];
  edgeCount: number;
  selected: string | null;
  hovered: string | null;
  highlighted: string[];
  mode: "explore" | "path";
  panel: "researcher" | "path" | null;
  panelTitle: string | null;
  pathEnds: [string | null, string | null];
  pathChain: string[];
  sameNameOf: string | null;
  sameNameRecords: string[];
  filters: NetworkFilters;
  style: { sizeBy: SizeBy; colorBy: ColorBy };
  loading: boolean;
  cameraMoving: boolean;
  error: string | null;
  webglContexts: number;
}

function start(): void {
  const explorer = new Explorer(readFilters);
  new SearchBox(
    byId<HTMLFormElement>("search"),
    byId<HTMLInputElement>("search-input"),
    byId("search-results"),
    (hit) => explorer.pick(hit),
    (message) => explorer.showError(message),
  );
  byId<HTMLFormElement>("filters").addEventListener("submit", (event) => event.preventDefault());
  byId<HTMLFormElement>("filters").addEventListener("change", () => {
    if (explorer.center) void explorer.loadNetwork(explorer.center);
  });
  for (const input of document.querySelectorAll<HTMLInputElement>("input[name=size-by]")) {
    input.addEventListener("change", () => explorer.setStyle({ sizeBy: input.value as SizeBy }));
  }
  for (const input of document.querySelectorAll<HTMLInputElement>("input[name=color-by]")) {
    input.addEventListener("change", () => explorer.setStyle({ colorBy: input.value as ColorBy }));
  }
  byId("path-mode").addEventListener("click", () =>
    explorer.setMode(explorer.mode === "path" ? "explore" : "path"),
  );
  byId("panel-close").addEventListener("click", () => {
    if (explorer.mode === "path") explorer.setMode("explore");
    else explorer.closePanel();
  });
  byId("sheet-close").addEventListener("click", () => explorer.closeSameName());

  // Read-only, for the browser tests and for people poking at the page from the console.
  const state = (): ExplorerState => {
    const focus = explorer.focus();
    const chain = explorer.mode === "path" ? explorer.path?.chains[explorer.chosenChain] : undefined;
    return {
      center: explorer.center,
      nodes: explorer.graph.nodes().sort(),
      edgeCount: explorer.graph.size,
      selected: explorer.selected,
      hovered: explorer.hovered,
      highlighted: focus ? [...focus.nodes].sort() : [],
      mode: explorer.mode,
      panel: explorer.panel,
      panelTitle: document.querySelector("#panel:not([hidden]) h2")?.textContent ?? null,
      pathEnds: [explorer.ends.from?.id ?? null, explorer.ends.to?.id ?? null],
      pathChain: chain ? chain.researchers.map((r) => r.id) : [],
      sameNameOf: explorer.sameNameOf,
      sameNameRecords: [...document.querySelectorAll<HTMLElement>("#sheet:not([hidden]) .record")].map(
        (e) => e.dataset.id ?? "",
      ),
      filters: readFilters(),
      style: { ...explorer.style },
      loading: explorer.pending > 0,
      cameraMoving: explorer.view.cameraMoving(),
      error: explorer.error,
      webglContexts: explorer.view.webglContexts(),
    };
  };
  Object.defineProperty(window, "__explorer", {
    value: Object.freeze({
      state,
      nodePosition: (id: string) => explorer.view.nodePosition(id),
      labelledNodes: () => explorer.view.labelledNodes(),
    }),
  });

  const linked = location.hash.match(/^#\/researcher\/(\d+)$/);
  if (linked) {
    void explorer.loadNetwork(linked[1]);
    void explorer.openResearcher(linked[1]);
  }
}

start();
