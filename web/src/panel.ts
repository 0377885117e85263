// The side panel's researcher page: who they are, where they stand, what they wrote.
import type { ResearcherPage } from "./api";
import { counted, formatCount, h, paperLink } from "./dom";

export interface PanelActions {
  centre(id: string): void;
  expand(id: string): void;
  pathFrom(id: string): void;
  compareSameName(id: string): void;
  open(id: string): void;
  inNetwork(id: string): boolean;
}

function section(title: string, ...body: (Node | null)[]): HTMLElement {
  return h("section", {}, h("h3", {}, title), ...body);
}

function positions(page: ResearcherPage): HTMLElement | null {
  const p = page.authorPositions;
  if (!p) return null;
  const cells: [string, number][] = [
    ["first", p.first],
    ["middle", p.middle],
    ["last", p.last],
    ["solo", p.solo],
    ["alphabetical", p.alphabetical],
  ];
  return section(
    "Author positions",
    h("div", { class: "positions" }, ...cells.map(([kind, n]) => h("span", { class: "chip" }, `${kind} ${n}`))),
    h("p", { class: "muted coverage" }, p.coverage),
  );
}

function fields(page: ResearcherPage): HTMLElement | null {
  if (!page.fields.length) return null;
  const top = Math.max(...page.fields.map((f) => f.papers), 1);
  return section(
    "Fields",
    h(
      "ul",
      { class: "bars" },
      ...page.fields.slice(0, 8).map((f) =>
        h(
          "li",
          { title: `${f.category.name}: ${counted(f.papers, "paper")}, ${f.primaryPapers} primary` },
          h("span", { class: "bar", style: `width: ${(100 * f.papers) / top}%` }),
          h("span", { class: "bar-label" }, `${f.category.code} · ${f.papers}`),
        ),
      ),
    ),
  );
}

function mostCited(page: ResearcherPage): HTMLElement | null {
  const cited = page.mostCited;
  if (!cited || !cited.papers.length) return null;
  return section(
    "Most cited",
    h(
      "ol",
      { class: "papers" },
      ...cited.papers.map((p) =>
        h("li", {}, paperLink(p), h("span", { class: "count" }, p.citationCount === null ? "–" : formatCount(p.citationCount))),
      ),
    ),
    h("p", { class: "muted coverage" }, cited.coverage),
  );
}

function papers(page: ResearcherPage): HTMLElement {
  return section(
    `Papers (${formatCount(page.papers.totalCount)})`,
    h(
      "ul",
      { class: "papers" },
      ...page.papers.edges.map((e) =>
        h(
          "li",
          {},
          paperLink(e.node),
          e.authorship ? h("span", { class: "muted" }, ` · author ${e.authorship.position} (${e.authorship.kind.toLowerCase()})`) : null,
        ),
      ),
    ),
  );
}

function affiliations(page: ResearcherPage): HTMLElement | null {
  if (!page.affiliations.edges.length) return null;
  return section(
    "Affiliations",
    h(
      "ul",
      { class: "plain" },
      ...page.affiliations.edges.map((e) =>
        h(
          "li",
          {},
          e.node.name,
          e.firstYear ? h("span", { class: "muted" }, ` ${e.firstYear}–${e.lastYear ?? ""}`) : null,
        ),
      ),
    ),
  );
}

function sameName(page: ResearcherPage, actions: PanelActions): HTMLElement | null {
  const cluster = page.sameName;
  if (!cluster || !cluster.records.length) return null;
  return section(
    `Same name (${counted(cluster.records.length, "other record")}, block of ${cluster.blockSize})`,
    h(
      "ul",
      { class: "plain same-name-list" },
      ...cluster.records.map((r) =>
        h(
          "li",
          {},
          h("button", { type: "button", class: "link", onclick: () => actions.open(r.researcher.id) }, r.researcher.name),
          h("span", { class: "muted" }, ` #${r.researcher.id} · ${counted(r.researcher.paperCount, "paper")}`),
          h("span", { class: r.probability >= 0.5 ? "score likely" : "score" }, `${Math.round(r.probability * 100)}%`),
          r.rule ? h("span", { class: "chip" }, r.rule) : null,
          r.markedDistinct ? h("span", { class: "chip" }, "marked distinct") : null,
        ),
      ),
    ),
    h("button", { type: "button", id: "open-same-name", onclick: () => actions.compareSameName(page.id) }, "Compare side by side"),
  );
}

export function researcherPanel(page: ResearcherPage, actions: PanelActions): HTMLElement {
  const hIndexes = [
    page.hIndex !== null ? `h ${page.hIndex}` : null,
    page.hIndexS2 !== null ? `S2 h ${page.hIndexS2}` : null,
    page.hIndexOpenalex !== null ? `OpenAlex h ${page.hIndexOpenalex}` : null,
  ].filter(Boolean);
  const ids = page.identity.externalIds.map((x) => x.key);
  return h(
    "article",
    { class: "researcher", "data-id": page.id },
    h("h2", { id: "panel-name" }, page.name),
    page.altNames.length ? h("p", { class: "muted" }, `also ${page.altNames.join(", ")}`) : null,
    h(
      "p",
      { class: "stats" },
      `${counted(page.paperCount, "paper")} · ${counted(page.citationCount, "citation")}`,
      hIndexes.length ? ` · ${hIndexes.join(" · ")}` : "",
    ),
    h(
      "p",
      { class: "muted ids" },
      `#${page.id}`,
      page.orcid ? h("span", {}, " · ORCID ", h("a", { href: `https://orcid.org/${page.orcid}`, target: "_blank", rel: "noopener" }, page.orcid)) : null,
      ids.length ? ` · ${ids.join(", ")}` : "",
    ),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", onclick: () => actions.centre(page.id) }, "Centre network here"),
      actions.inNetwork(page.id)
        ? h("button", { type: "button", onclick: () => actions.expand(page.id) }, "Expand")
        : null,
      h("button", { type: "button", onclick: () => actions.pathFrom(page.id) }, "Path from here"),
    ),
    positions(page),
    fields(page),
    mostCited(page),
    affiliations(page),
    papers(page),
    sameName(page, actions),
  );
}
