// What the Library card decides, apart from drawing it (so Node tests it):
// the order and labels of modules and campaigns, a creature's name, what
// players may read of a page, and whether players would see nothing of a
// map.
import type { DeepPartial } from "./partial";
import type { Token } from "./types";

type MapToken = DeepPartial<Token>;
import { plural } from "./format";

export interface Library {
  id: string;
  name: string;
  kind?: string;
  pages: number;
  maps: number;
  encounters: number;
}

export interface LibraryItem {
  id: string;
  type: string;
  name: string;
  slug?: string;
  /** A page's or a table's address. */
  url?: string;
  shown?: string;
  onScreen?: boolean;
  creatures?: number;
  children?: LibraryItem[];
}

export interface PageView {
  page: { id: string; name: string };
  html: string;
  url: string;
  shown?: string;
  shownSections?: string[];
  sections: { id: string; title: string; level: number }[];
  maps?: { id: string; name: string }[];
  encounters?: { id: string; name: string }[];
}


/** Modules and campaigns with something to read first (compendiums last), then by name. */
export function sortLibraries(list: Library[]): Library[] {
  const rank = (l: Library) => (l.pages + l.encounters + l.maps > 0 ? 0 : 1);
  return [...list].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** A library's line in the picker: its name, kind and counts. */
export function libraryLabel(l: Library): string {
  return (
    l.name +
    (l.kind === "campaign" ? " (campaign)" : "") +
    " — " +
    plural(l.pages, "page", "pages") +
    ", " +
    plural(l.maps, "map", "maps") +
    ", " +
    plural(l.encounters, "encounter", "encounters")
  );
}

/** What a tree row is, in words (no icon font is assumed); "" for a group. */
export function kindLabel(type: string): string {
  return type === "page" || type === "map" || type === "encounter" || type === "asset" || type === "table" ? type : "";
}

/** A name made of a reference's slug: "/monster/ford-toad" is "Ford Toad". */
export function nameFrom(ref: string | undefined): string {
  const slug = (ref || "").split("/").pop() ?? "";
  return slug
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}

/** An encounter's creature as listed: its name (or its reference's), count and label. */
export function creatureLine(c: { name?: string; reference?: string; label?: string; count?: number }): string {
  return (c.name || nameFrom(c.reference) || c.label || "Creature") + ((c.count ?? 0) > 1 ? ` ×${c.count}` : "") + (c.label ? ` (${c.label})` : "");
}

/** What players may read of a page. */
export function shownText(v: PageView): string {
  if (v.shown === "page") return "Players may read this page.";
  if (v.shown === "sections") {
    const titles = v.sections.filter((s) => (v.shownSections ?? []).includes(s.id)).map((s) => s.title);
    return `Players may read: ${titles.join(", ")}.`;
  }
  return "Players cannot read this page.";
}

/**
 * Whether players see nothing of a map: its line of sight is on and no
 * party token (friendly or a player's, not hidden, with vision: the
 * tokens whose sight players receive) stands on it.
 */
export function playersSeeNothing(m: { lineOfSight?: boolean; tokens?: MapToken[] } | null): boolean {
  if (!m?.lineOfSight) return false;
  return !(m.tokens ?? []).some((t) => !t.hidden && t.vision?.enabled && (t.role === "friendly" || !!t.player));
}

/**
 * alreadyRun tells the server's refusal of an encounter whose creatures
 * still stand on its map (409, "already on map") from its other conflicts
 * (no map to play it on): only that one is worth asking "once more?".
 */
export function alreadyRun(status: number, message: string): boolean {
  return status === 409 && message.includes("already on map");
}
