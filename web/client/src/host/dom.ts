// The console's element builder and page helpers. Text from the server
// always goes in as text (a child string becomes a text node), never as
// HTML. Unlike ui/dom.ts's h(), which sets attributes (enough for the
// player panels), el() sets properties (checked, value, selected, open,
// onclick …), as the console's live forms need; names with a dash are
// attributes (aria-label, data-…).

type Plain = string | number | boolean | null | undefined;
/** An element's properties, plus dashed attributes. */
export type Attrs<E> = { [P in keyof E]?: E[P] | null | false } & { [attr: `${string}-${string}`]: Plain };
export type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs<HTMLElementTagNameMap[K]> | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {}) as [string, unknown][]) {
    if (v === undefined || v === null || v === false) continue;
    if (k.includes("-")) node.setAttribute(k, v === true ? "" : String(v));
    else (node as unknown as Record<string, unknown>)[k] = v;
  }
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** The page's element with that id; a missing one is a bug in the page. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`host console: no #${id} on the page`);
  return node as T;
}

/** The element with that id, or null when the page has none (yet). */
export function maybe<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** Replaces the children, leaving out the empty ones. */
export function replaceChildren(parent: Element, children: (Node | null | undefined | false)[]): void {
  parent.replaceChildren(...children.filter((c): c is Node => !!c));
}

export type Tone = "good" | "bad" | "warn" | "";

/** Writes a status line (a .msg paragraph) in the given tone. */
export function sayIn(p: HTMLElement, text: string, kind: Tone = ""): void {
  p.textContent = text || "";
  p.className = `msg${kind ? ` ${kind}` : ""}`;
}

/** Writes the status line with that id. */
export function say(id: string, text: string, kind: Tone = ""): void {
  sayIn($(id), text, kind);
}

/** The first file chosen in a file input, if any. */
export function chosenFile(input: HTMLInputElement): File | undefined {
  return input.files?.[0];
}

/** Runs fn once the page is parsed. */
export function onReady(fn: () => void): void {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
  else fn();
}
