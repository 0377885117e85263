// The explorer's addresses: what is shown, as a path under /explorer and a few parameters.
//
//   /explorer/                                  nothing yet: the search
//   /explorer/researcher/ID                     ID's coauthor network, ID's page in the panel
//   /explorer/researcher/ID?open=OTHER          ID's network, OTHER's page in the panel
//   /explorer/researcher/ID?open=               ID's network, the panel closed
//   /explorer/researcher/ID/same-name           …and the records under the name side by side
//   /explorer/researcher/ID/same-name?with=B    …with record B brought into view
//   /explorer/path/FROM/TO                      path mode between two researchers (TO, or
//                                               both, may be missing while being picked)
//
// The network's filters and look follow as parameters when they differ from the defaults:
// depth, minJoint, yearFrom, yearTo, maxAuthors, maxNodes, size, color; in path mode also
// center (the network drawn, when not FROM's) and strongest.
import type { NetworkFilters } from "./api";
import type { ColorBy, SizeBy, Style } from "./model";

export const BASE = "/explorer";

export const DEFAULT_FILTERS: NetworkFilters = {
  depth: 1,
  maxNodes: 200,
  minJointPapers: 1,
  yearFrom: null,
  yearTo: null,
  maxAuthors: null,
};
export const DEFAULT_STYLE: Style = { sizeBy: "papers", colorBy: "community" };

export type Route =
  | { kind: "home"; filters: NetworkFilters; style: Style }
  | {
      kind: "researcher";
      center: string;
      open: string | null;
      sameName: boolean;
      compare: string | null;
      filters: NetworkFilters;
      style: Style;
    }
  | {
      kind: "path";
      from: string | null;
      to: string | null;
      center: string | null;
      strongest: boolean;
      filters: NetworkFilters;
      style: Style;
    };

const FILTER_PARAMS: [keyof NetworkFilters, string][] = [
  ["depth", "depth"],
  ["minJointPapers", "minJoint"],
  ["yearFrom", "yearFrom"],
  ["yearTo", "yearTo"],
  ["maxAuthors", "maxAuthors"],
  ["maxNodes", "maxNodes"],
];
const ID = /^\d+$/;

function readInt(params: URLSearchParams, name: string): number | null {
  const text = params.get(name);
  if (text === null || !/^\d+$/.test(text)) return null;
  return Number.parseInt(text, 10);
}

function readFilters(params: URLSearchParams): NetworkFilters {
  const filters = { ...DEFAULT_FILTERS };
  for (const [field, name] of FILTER_PARAMS) {
    const value = readInt(params, name);
    if (value !== null) filters[field] = value as never;
  }
  filters.minJointPapers = Math.max(filters.minJointPapers, 1);
  return filters;
}

function readStyle(params: URLSearchParams): Style {
  const size = params.get("size");
  const color = params.get("color");
  return {
    sizeBy: size === "citations" ? "citations" : ("papers" as SizeBy),
    colorBy: color === "year" ? "year" : ("community" as ColorBy),
  };
}

function id(text: string | undefined): string | null {
  return text !== undefined && ID.test(text) ? text : null;
}

/** What an address shows; an address the explorer does not know shows the search. */
export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  const filters = readFilters(params);
  const style = readStyle(params);
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split("/").filter(Boolean).map(decodeURIComponent);
  const center = id(parts[1]);
  if (parts[0] === "researcher" && center && (parts.length === 2 || (parts.length === 3 && parts[2] === "same-name"))) {
    const open = params.has("open") ? id(params.get("open") ?? undefined) : center;
    const sameName = open !== null && parts[2] === "same-name";
    const compare = sameName ? id(params.get("with") ?? undefined) : null;
    return { kind: "researcher", center, open, sameName, compare, filters, style };
  }
  if (parts[0] === "path" && parts.length <= 3) {
    const from = id(parts[1]);
    const to = from ? id(parts[2]) : null;
    return {
      kind: "path",
      from,
      to,
      center: id(params.get("center") ?? undefined),
      strongest: params.get("strongest") === "1",
      filters,
      style,
    };
  }
  return { kind: "home", filters, style };
}

/** The address of a route: path, then the parameters that differ from the defaults. */
export function formatRoute(route: Route): string {
  const params = new URLSearchParams();
  let path = `${BASE}/`;
  if (route.kind === "researcher") {
    path = `${BASE}/researcher/${route.center}${route.sameName && route.open ? "/same-name" : ""}`;
    if (route.open !== route.center) params.set("open", route.open ?? "");
    if (route.sameName && route.open && route.compare) params.set("with", route.compare);
  } else if (route.kind === "path") {
    path = [`${BASE}/path`, route.from, route.from ? route.to : null].filter(Boolean).join("/");
    if (route.center && route.center !== route.from) params.set("center", route.center);
    if (route.strongest) params.set("strongest", "1");
  }
  for (const [field, name] of FILTER_PARAMS) {
    const value = route.filters[field];
    if (value !== null && value !== DEFAULT_FILTERS[field]) params.set(name, String(value));
  }
  if (route.style.sizeBy !== DEFAULT_STYLE.sizeBy) params.set("size", route.style.sizeBy);
  if (route.style.colorBy !== DEFAULT_STYLE.colorBy) params.set("color", route.style.colorBy);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The explorer's address for an old hash link (`#/researcher/ID`, from when the explorer
 * lived at `/`), or null for any other hash.
 */
export function fromHashLink(hash: string): string | null {
  const match = hash.match(/^#\/researcher\/(\d+)$/);
  return match ? `${BASE}/researcher/${match[1]}` : null;
}
