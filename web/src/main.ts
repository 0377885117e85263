// The explorer's script. On the explorer's own page (which has #graph) it wires the controls,
// follows the address bar and exposes a read-only view of its state; on any other page with
// <div id="network" data-researcher="ID"> (a researcher's page) it draws that researcher's
// coauthor network there, and nothing else.
import type { NetworkFilters } from "./api";
import { byId } from "./dom";
import { embedNetwork } from "./embed";
import { Explorer } from "./explorer";
import type { ColorBy, SizeBy, Style } from "./model";
import { type Controls, followHistory } from "./navigation";
import { SearchBox } from "./search";

function numberOrNull(id: string): number | null {
  const text = byId<HTMLInputElement>(id).value.trim();
  if (!text) return null;
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) ? value : null;
}

function writeNumber(id: string, value: number | null): void {
  byId<HTMLInputElement | HTMLSelectElement>(id).value = value === null ? "" : String(value);
}

function writeControls(filters: NetworkFilters, style: Style): void {
  writeNumber("depth", filters.depth);
  writeNumber("max-nodes", filters.maxNodes);
  writeNumber("min-joint", filters.minJointPapers);
  writeNumber("year-from", filters.yearFrom);
  writeNumber("year-to", filters.yearTo);
  writeNumber("max-authors", filters.maxAuthors);
  // A value the list does not offer (an edited address) is added to it, so it shows.
  for (const [id, value] of [["depth", filters.depth], ["max-nodes", filters.maxNodes]] as const) {
    const select = byId<HTMLSelectElement>(id);
    if (select.value !== String(value)) select.add(new Option(String(value), String(value), false, true));
  }
  byId<HTMLInputElement>(`size-by-${style.sizeBy}`).checked = true;
  byId<HTMLInputElement>(`color-by-${style.colorBy}`).checked = true;
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

function startExplorer(): void {
  const explorer = new Explorer(readFilters);
  new SearchBox(
    byId<HTMLFormElement>("search"),
    byId<HTMLInputElement>("search-input"),
    byId("search-results"),
    (hit) => explorer.act(() => explorer.pick(hit)),
    (message) => explorer.showError(message),
  );
  byId<HTMLFormElement>("filters").addEventListener("submit", (event) => event.preventDefault());
  byId<HTMLFormElement>("filters").addEventListener("change", () => {
    const center = explorer.wanted?.center;
    if (center) explorer.act(() => void explorer.loadNetwork(center), false);
  });
  for (const input of document.querySelectorAll<HTMLInputElement>("input[name=size-by]")) {
    input.addEventListener("change", () => explorer.act(() => explorer.setStyle({ sizeBy: input.value as SizeBy }), false));
  }
  for (const input of document.querySelectorAll<HTMLInputElement>("input[name=color-by]")) {
    input.addEventListener("change", () => explorer.act(() => explorer.setStyle({ colorBy: input.value as ColorBy }), false));
  }
  byId("path-mode").addEventListener("click", () =>
    explorer.act(() => explorer.setMode(explorer.mode === "path" ? "explore" : "path")),
  );
  byId("panel-close").addEventListener("click", () =>
    explorer.act(() => {
      if (explorer.mode === "path") explorer.setMode("explore");
      else explorer.closePanel();
    }),
  );
  byId("sheet-close").addEventListener("click", () => explorer.act(() => explorer.closeSameName()));
  const toggle = byId("controls-toggle");
  toggle.addEventListener("click", () => {
    const open = document.body.classList.toggle("controls-open");
    toggle.setAttribute("aria-expanded", String(open));
  });

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
      labelBoxes: () => explorer.view.labelBoxes(),
    }),
  });

  const controls: Controls = { read: readFilters, write: writeControls };
  followHistory(explorer, controls);
}

function start(): void {
  if (document.getElementById("graph")) {
    startExplorer();
    return;
  }
  const host = document.querySelector<HTMLElement>("#network[data-researcher]");
  if (host?.dataset.researcher) embedNetwork(host, host.dataset.researcher);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
else start();
