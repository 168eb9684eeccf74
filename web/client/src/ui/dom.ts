// A small element builder for the seat and character panels: text always
// goes in as text (names and titles come from other players and content).
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | number | undefined> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "className") node.className = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(c));
  }
  return node;
}

/** A plain button that runs fn on click. */
export function button(label: string, fn: () => void, className = "", attrs: Record<string, string | boolean | undefined> = {}): HTMLButtonElement {
  const b = h("button", { type: "button", className, ...attrs }, label);
  b.addEventListener("click", fn);
  return b;
}
