// GraphiQL for GET /graphql in a browser, from our own bundle: React, GraphiQL and their
// stylesheets are all served from this origin, so it works offline and under a CSP of 'self'.
import "graphiql/style.css";
import "./page.css";
import { GraphiQL } from "graphiql";
import { type ComponentProps, createElement } from "react";
import { createRoot } from "react-dom/client";

type Fetcher = ComponentProps<typeof GraphiQL>["fetcher"];

const ENDPOINT = "/graphql";
const EXAMPLE = `# The researchers named Ziming Liu: their ids, paper counts and pages on the site.
query Example {
  search(query: "Ziming Liu", kinds: [RESEARCHER], first: 3) {
    edges {
      score
      node {
        ... on Researcher { id name paperCount path }
      }
    }
  }
}
`;

// Plain POSTs as the API documents them; headers typed in GraphiQL (an Authorization bearer
// token for the curator mutations) go along.
const fetcher: Fetcher = async (params, options) => {
  const response = await fetch(ENDPOINT, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json, application/json;q=0.9",
      ...(options?.headers ?? {}),
    },
    body: JSON.stringify(params),
  });
  return response.json();
};

/**
 * GraphiQL's CodeMirror editors take keys through unlabelled textareas and scroll in boxes a
 * keyboard cannot reach: name each textarea after its editor, and let the boxes take focus.
 */
function reachableEditors(root: HTMLElement): void {
  const names = (section: Element | null): string[] =>
    section?.classList.contains("graphiql-editor-tool") ? ["Variables", "Headers"] : [section?.getAttribute("aria-label") ?? "Editor"];
  for (const section of root.querySelectorAll(".graphiql-query-editor, .graphiql-editor-tool, .result-window")) {
    const labels = names(section);
    section.querySelectorAll("textarea").forEach((area, index) => {
      if (!area.hasAttribute("aria-label")) area.setAttribute("aria-label", labels[index] ?? labels[0]);
    });
  }
  for (const scroller of root.querySelectorAll('.CodeMirror-scroll:not([tabindex="0"])')) {
    scroller.setAttribute("tabindex", "0");
  }
}

const root = document.getElementById("graphiql");
if (root) {
  createRoot(root).render(createElement(GraphiQL, { fetcher, defaultQuery: EXAMPLE }));
  new MutationObserver(() => reachableEditors(root)).observe(root, { childList: true, subtree: true });
}
