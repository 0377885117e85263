// Small DOM helpers: every text from the API goes in as text, never as markup (TeX in
// titles is typeset by KaTeX from the text).
import { withTex } from "./tex";

type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string | boolean | ((event: Event) => void)> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === "function") {
      element.addEventListener(name.replace(/^on/, ""), value);
    } else if (name === "style" && typeof value === "string") {
      // Through the CSSOM: a Content-Security-Policy of 'self' refuses style attributes.
      element.style.cssText = value;
    } else if (value === true) {
      element.setAttribute(name, "");
    } else if (value !== false) {
      element.setAttribute(name, value);
    }
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** A count and its noun, singular for one: "1 paper", "2 papers", "1 community". */
export function counted(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

export function paperLink(paper: { title: string; url: string | null; year: number | null }): HTMLElement {
  const title = paper.url
    ? h("a", { href: paper.url, target: "_blank", rel: "noopener" }, ...withTex(paper.title))
    : h("span", {}, ...withTex(paper.title));
  return h("span", { class: "paper" }, title, paper.year ? h("span", { class: "muted" }, ` (${paper.year})`) : null);
}
