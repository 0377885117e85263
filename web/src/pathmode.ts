// Path mode's panel: the two ends, the chains found, and the papers behind each hop.
import type { PathChain, PathData } from "./api";
import { counted, h, paperLink } from "./dom";

export interface PathEnds {
  from: { id: string; name: string } | null;
  to: { id: string; name: string } | null;
}

export interface PathPanelActions {
  chooseChain(index: number): void;
  clear(): void;
  setStrongest(strongest: boolean): void;
}

function slot(label: string, end: { id: string; name: string } | null): HTMLElement {
  return h(
    "div",
    { class: end ? "slot filled" : "slot" },
    h("span", { class: "row-label" }, label),
    end ? h("strong", {}, end.name) : h("span", { class: "muted" }, "click a node, or search"),
  );
}

function chainView(chain: PathChain): HTMLElement {
  return h(
    "ol",
    { class: "hops" },
    ...chain.hops.map((hop) =>
      h(
        "li",
        { class: hop.uncertain ? "hop uncertain" : "hop" },
        h("div", {}, h("strong", {}, hop.source.name), " — ", h("strong", {}, hop.target.name)),
        h(
          "div",
          { class: "muted" },
          counted(hop.jointPapers, "joint paper"),
          hop.uncertain ? ` · uncertain match (confidence ${hop.confidence.toFixed(2)})` : "",
        ),
        h("ul", { class: "papers" }, ...hop.papers.map((p) => h("li", {}, paperLink(p)))),
      ),
    ),
  );
}

export function pathPanel(
  ends: PathEnds,
  result: PathData | null,
  chosen: number,
  strongest: boolean,
  actions: PathPanelActions,
): HTMLElement {
  const options = result?.chains.length
    ? h(
        "div",
        { class: "chains" },
        ...result.chains.map((chain, index) =>
          h(
            "label",
            { class: index === chosen ? "chain chosen" : "chain" },
            h("input", {
              type: "radio",
              name: "chain",
              value: String(index),
              checked: index === chosen,
              onchange: () => actions.chooseChain(index),
            }),
            ` ${chain.researchers.map((r) => r.name).join(" → ")}`,
            h(
              "span",
              { class: "muted" },
              ` · weakest hop ${chain.weakestHop}, ${counted(chain.totalJointPapers, "joint paper")}${chain.uncertain ? " · uncertain" : ""}`,
            ),
          ),
        ),
      )
    : null;
  const chain = result?.chains[chosen];
  return h(
    "article",
    { class: "path" },
    h("h2", {}, "Collaboration path"),
    slot("From", ends.from),
    slot("To", ends.to),
    h(
      "div",
      { class: "actions" },
      h(
        "label",
        {},
        h("input", {
          type: "checkbox",
          id: "path-strongest",
          checked: strongest,
          onchange: (event: Event) => actions.setStrongest((event.target as HTMLInputElement).checked),
        }),
        " strongest chain",
      ),
      h("button", { type: "button", onclick: () => actions.clear() }, "Start again"),
    ),
    result ? h("p", { id: "path-message", class: result.found ? "message" : "message none" }, result.message) : null,
    options,
    chain ? chainView(chain) : null,
  );
}
