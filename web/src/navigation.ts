// The explorer and the address bar, kept in step with the History API: each change a person
// makes becomes an address (a new history entry, or the current one rewritten for filters
// and looks), and back, forward, a reload or an edited address show what the address says.
import type { NetworkFilters } from "./api";
import type { Explorer } from "./explorer";
import type { Style } from "./model";
import { formatRoute, fromHashLink, parseRoute, type Route } from "./routes";

export interface Controls {
  read(): NetworkFilters;
  write(filters: NetworkFilters, style: Style): void;
}

/** The route of what the explorer shows or is loading now. */
export function routeOf(explorer: Explorer, filters: NetworkFilters): Route {
  const style = { ...explorer.style };
  const center = explorer.wanted?.center ?? null;
  if (explorer.mode === "path") {
    const { from, to } = explorer.ends;
    return { kind: "path", from: from?.id ?? null, to: to?.id ?? null, center, strongest: explorer.strongest, filters, style };
  }
  if (center === null) return { kind: "home", filters, style };
  const open = explorer.selected;
  const sameName = open !== null && explorer.sameNameWanted === open;
  const compare = sameName ? explorer.sameNameCompare : null;
  return { kind: "researcher", center, open, sameName, compare, filters, style };
}

/** Bring the explorer to what `route` shows, asking the API only for what differs. */
export function show(explorer: Explorer, controls: Controls, route: Route): void {
  controls.write(route.filters, route.style);
  if (route.style.sizeBy !== explorer.style.sizeBy || route.style.colorBy !== explorer.style.colorBy) {
    explorer.setStyle(route.style);
  }
  if (route.kind === "home") {
    explorer.reset();
    return;
  }
  const center = route.kind === "researcher" ? route.center : (route.center ?? route.from);
  const filters = JSON.stringify(controls.read());
  if (center !== null && (explorer.wanted?.center !== center || explorer.wanted.filters !== filters)) {
    void explorer.loadNetwork(center);
  }
  if (route.kind === "path") {
    void explorer.showPath(route.from, route.to, route.strongest);
    return;
  }
  if (explorer.mode === "path") explorer.setMode("explore");
  if (route.open === null) {
    if (explorer.panel !== null || explorer.selected !== null) explorer.closePanel();
  } else if (explorer.selected !== route.open || explorer.panel !== "researcher") {
    void explorer.openResearcher(route.open);
  }
  if (route.sameName && route.open !== null) {
    if (explorer.sameNameWanted !== route.open || explorer.sameNameCompare !== route.compare) {
      void explorer.openSameName(route.open, route.compare);
    }
  } else if (explorer.sameNameWanted !== null) {
    explorer.closeSameName();
  }
}

/** Follow the address bar from now on: the page's first address, then every move. */
export function followHistory(explorer: Explorer, controls: Controls): void {
  const current = () => {
    const legacy = fromHashLink(location.hash);
    if (legacy) history.replaceState(null, "", legacy);
    return parseRoute(location.pathname, location.search);
  };
  explorer.onNavigate = (push) => {
    const address = formatRoute(routeOf(explorer, controls.read()));
    if (address === location.pathname + location.search) return;
    if (push) history.pushState(null, "", address);
    else history.replaceState(null, "", address);
  };
  window.addEventListener("popstate", () => show(explorer, controls, current()));
  // An old link followed from the explorer itself changes only the hash.
  window.addEventListener("hashchange", () => {
    if (fromHashLink(location.hash)) show(explorer, controls, current());
  });
  show(explorer, controls, current());
}
