// The same-name view: the records under one name side by side, with the scoring evidence.
import type { RecordProfile, SameNameData, SameNameRecordData } from "./api";
import { counted, formatCount, h, paperLink } from "./dom";

function profileRows(record: RecordProfile): HTMLElement[] {
  const row = (label: string, ...value: (Node | string | null)[]) =>
    h("div", { class: "row" }, h("span", { class: "row-label" }, label), h("div", {}, ...value));
  const list = (items: (Node | string)[]) =>
    items.length ? h("ul", { class: "plain" }, ...items.map((item) => h("li", {}, item))) : h("span", { class: "muted" }, "none known");
  return [
    row("Papers", `${formatCount(record.paperCount)}${record.hIndex !== null ? ` · h ${record.hIndex}` : ""}`),
    row("ORCID", record.orcid ?? h("span", { class: "muted" }, "none")),
    row("Fields", list(record.fields.slice(0, 4).map((f) => `${f.category.code} · ${f.papers}`))),
    row(
      "Affiliations",
      list(
        record.affiliations.edges.map(
          (e) => `${e.node.name}${e.firstYear ? ` ${e.firstYear}–${e.lastYear ?? ""}` : ""}`,
        ),
      ),
    ),
    row("Coauthors", list(record.coauthors.edges.map((e) => `${e.node.name} (${e.jointPapers})`))),
    row("Recent papers", list(record.papers.edges.map((e) => paperLink(e.node)))),
  ];
}

function evidence(record: SameNameRecordData): HTMLElement {
  if (!record.evidence.length) return h("p", { class: "muted" }, "No evidence items.");
  return h(
    "ul",
    { class: "evidence" },
    ...record.evidence.map((item) =>
      h(
        "li",
        { class: item.weight >= 0 ? "for" : "against", title: `${item.feature} = ${item.value}` },
        h("span", { class: "weight" }, `${item.weight >= 0 ? "+" : "−"}${Math.abs(item.weight).toFixed(1)}`),
        " ",
        item.text,
      ),
    ),
  );
}

export function sameNameView(data: SameNameData, open: (id: string) => void): HTMLElement {
  const records = data.sameName?.records ?? [];
  const anchor = h(
    "div",
    { class: "record anchor", "data-id": data.id },
    h("h3", {}, data.name),
    h("p", { class: "muted" }, `#${data.id} · the record you opened`),
    ...profileRows(data),
  );
  const columns = records.map((record) =>
    h(
      "div",
      { class: "record", "data-id": record.researcher.id },
      h("h3", {}, h("button", { type: "button", class: "link", onclick: () => open(record.researcher.id) }, record.researcher.name)),
      h("p", { class: "muted" }, `#${record.researcher.id}`),
      h(
        "div",
        { class: "verdict" },
        h("span", { class: record.probability >= 0.5 ? "score likely" : "score" }, `${Math.round(record.probability * 100)}% same person`),
        h("span", { class: "muted" }, ` · log-odds ${record.logOdds.toFixed(1)}`),
        record.rule ? h("span", { class: "chip" }, `rule: ${record.rule}`) : null,
        record.markedDistinct ? h("span", { class: "chip" }, "a curator marked them distinct") : null,
      ),
      evidence(record),
      ...profileRows(record.researcher),
    ),
  );
  return h(
    "div",
    { class: "same-name" },
    h(
      "p",
      { class: "muted" },
      records.length
        ? `${counted(records.length, "other record")} under this name (block of ${data.sameName?.blockSize ?? 0}), scored against ${data.name} #${data.id}.`
        : `No other record is filed under ${data.name}'s name.`,
    ),
    h("div", { class: "records" }, anchor, ...columns),
  );
}
