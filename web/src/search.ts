// Finding a researcher by name, ORCID or id: the search field and its list of hits.
import { graphql, LOOKUP, type ResearcherHit, SEARCH } from "./api";
import { counted, h, replace } from "./dom";

type Lookup = Partial<Record<"id" | "orcid" | "s2Id" | "openalexId", string>>;

/** The `researcher(…)` argument an id-shaped query names, or null for words. */
export function lookupFor(text: string): Lookup | null {
  const value = text.trim();
  const orcid = value.match(/^(?:https?:\/\/orcid\.org\/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$/i);
  if (orcid) return { orcid: orcid[1].toUpperCase() };
  if (/^\d+$/.test(value)) return { id: value };
  const s2 = value.match(/^s2:(\d+)$/i);
  if (s2) return { s2Id: s2[1] };
  const openalex = value.match(/^(?:openalex:|https?:\/\/openalex\.org\/)?(A\d{6,})$/i);
  if (openalex) return { openalexId: openalex[1].toUpperCase() };
  return null;
}

export async function findResearchers(text: string): Promise<ResearcherHit[]> {
  const lookup = lookupFor(text);
  if (lookup) {
    const found = await graphql<{ researcher: ResearcherHit | null }>(LOOKUP, lookup);
    if (found.researcher) return [found.researcher];
  }
  const data = await graphql<{
    search: { edges: { node: ResearcherHit & { __typename: string } }[] };
  }>(SEARCH, { query: text });
  return data.search.edges.map((e) => e.node).filter((node) => node.__typename === "Researcher");
}

export class SearchBox {
  hits: ResearcherHit[] = [];

  constructor(
    private readonly form: HTMLFormElement,
    private readonly input: HTMLInputElement,
    private readonly list: HTMLElement,
    private readonly pick: (hit: ResearcherHit) => void,
    private readonly fail: (message: string) => void,
  ) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.run();
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.close();
    });
  }

  async run(): Promise<void> {
    const text = this.input.value.trim();
    if (!text) return;
    this.form.classList.add("busy");
    try {
      this.hits = await findResearchers(text);
      this.show(text);
    } catch (error) {
      this.fail(String(error instanceof Error ? error.message : error));
    } finally {
      this.form.classList.remove("busy");
    }
  }

  close(): void {
    this.list.hidden = true;
    replace(this.list);
  }

  private show(text: string): void {
    this.list.hidden = false;
    if (!this.hits.length) {
      replace(this.list, h("li", { class: "empty" }, `No researcher matches “${text}”.`));
      return;
    }
    replace(
      this.list,
      ...this.hits.map((hit) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: "hit",
              "data-id": hit.id,
              onclick: () => {
                this.close();
                this.pick(hit);
              },
            },
            h("strong", {}, hit.name),
            h(
              "span",
              { class: "muted" },
              ` · ${counted(hit.paperCount, "paper")} · ${counted(hit.citationCount, "citation")}`,
              hit.hIndex !== null ? ` · h ${hit.hIndex}` : "",
              hit.orcid ? ` · ORCID ${hit.orcid}` : "",
              ` · #${hit.id}`,
            ),
          ),
        ),
      ),
    );
  }
}
