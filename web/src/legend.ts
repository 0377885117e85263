// What the colours mean: communities, or a gradient of mean publication years.
import { h } from "./dom";
import type { Legend } from "./model";

export function legendView(legend: Legend): HTMLElement {
  if (legend.kind === "year") {
    return h(
      "div",
      {},
      h("h3", {}, "Mean publication year"),
      h("div", { class: "gradient", style: `background: ${legend.gradient}` }),
      h("div", { class: "gradient-labels" }, h("span", {}, String(legend.from)), h("span", {}, String(legend.to))),
      legend.unknown ? h("p", { class: "muted" }, `${legend.unknown} without a dated paper, in grey`) : null,
    );
  }
  return h(
    "div",
    {},
    h("h3", {}, "Communities (Louvain)"),
    h(
      "ul",
      { class: "plain swatches" },
      ...legend.entries.map((e) =>
        h("li", {}, h("span", { class: "swatch", style: `background: ${e.color}` }), `${e.label} (${e.count})`),
      ),
    ),
  );
}
