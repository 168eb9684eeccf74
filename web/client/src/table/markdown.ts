// Markdown from chat and handouts, made safe to put in the page: marked
// turns it into HTML, DOMPurify keeps only harmless markup (no script, no
// event handlers, no styles, no forms, no frames). Images from another
// site are not loaded (they would tell that site who reads the table):
// each becomes a link the reader may follow. Links open in a new tab,
// except links to the server's entity pages (`/monster/goblin`), which the
// page opens in its reference panel (data-entity).
import DOMPurify from "dompurify";
import { marked } from "marked";
import { t } from "../i18n";

/** A path to an entity page: /<kind>/<slug>, or /entity/<uuid>. */
const entityPath = /^\/([a-z][a-z0-9_-]*)\/([A-Za-z0-9][A-Za-z0-9_.-]*)$/;

let entityKinds: Set<string> | null = null;

/** The system's entity kinds (from GET /api/system); until then any /kind/slug path is an entity link. */
export function setEntityKinds(kinds: Iterable<string>): void {
  entityKinds = new Set([...kinds, "entity"]);
}

/** Whether href names an entity page on this server. */
export function entityHref(href: string): string | null {
  let path = href;
  if (/^https?:/i.test(href)) {
    try {
      const u = new URL(href);
      if (u.origin !== location.origin) return null;
      path = u.pathname;
    } catch {
      return null;
    }
  }
  const m = entityPath.exec(path);
  if (!m) return null;
  if (entityKinds && !entityKinds.has(m[1])) return null;
  if (["api", "client", "host", "ws", "systems", "assets"].includes(m[1])) return null;
  return path;
}

/** Bare entity paths in text (`see /monster/goblin`) become Markdown links. */
function linkBarePaths(md: string): string {
  return md.replace(/(^|[\s(])(\/[a-z][a-z0-9_-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*)(?=$|[\s),.;:!?])/g, (all, pre: string, path: string) =>
    entityHref(path) && pre !== "(" ? `${pre}[${path}](${path})` : all,
  );
}

/** An image this server serves (a rooted path such as /assets/…), never another site's. */
function ownImage(src: string): boolean {
  return /^\/(?!\/)/.test(src) && !src.includes("\\");
}

/** Markdown to a sanitised fragment, ready to append. */
export function renderMarkdown(md: string): DocumentFragment {
  const html = marked.parse(linkBarePaths(md), { async: false, gfm: true, breaks: true }) as string;
  const frag = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "svg", "math"],
    FORBID_ATTR: ["style", "class", "id"],
  }) as DocumentFragment;
  for (const img of [...frag.querySelectorAll("img")]) {
    const src = img.getAttribute("src") ?? "";
    if (ownImage(src)) {
      img.setAttribute("loading", "lazy");
      continue;
    }
    const a = document.createElement("a");
    a.textContent = t.imageLink(img.getAttribute("alt") ?? "");
    if (/^https?:/i.test(src)) a.href = src;
    img.replaceWith(a);
  }
  for (const a of frag.querySelectorAll("a")) {
    const href = a.getAttribute("href") ?? "";
    const entity = entityHref(href);
    if (entity) {
      a.dataset.entity = entity;
      a.removeAttribute("target");
    } else {
      a.target = "_blank";
      a.rel = "noopener noreferrer";
    }
  }
  return frag;
}
