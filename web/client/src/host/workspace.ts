// The console as one working surface (docs/host-console.md, "Layout"): the
// header's tabs open the panels that are not the fight in a drawer over the
// map's left side; a stat block opens in the same drawer; the selected
// token's card gains hit points, armour class and conditions. The combat
// rows call openStatBlock and entityFacts; the selected token's card
// follows the "companion:campaign" event sent with each campaign view.
import { hostAPI } from "../net/host-api";
import { gmHandle } from "../gm/handle";
import { $, maybe } from "./dom";
import { onCampaign } from "./events";
import { factsOf, healthKey, hitPoints, isStatReference, type EntityFacts } from "./entity-facts";
import type { Combatant, Game } from "./types";

const TITLES: Record<string, string> = {
  library: "Library",
  maps: "Maps, grid, export and backups",
  screen: "Player screen, handouts and sound",
  messages: "Messages",
  seats: "Seats, join key and clients",
  content: "Content: imports, modules, web client",
  settings: "Settings and game system",
  stat: "Stat block",
};
// Which tab holds a card (a link to #import opens "content").
const TAB_OF_CARD: Record<string, string> = {
  library: "library",
  campaign: "maps",
  "maps-admin": "maps",
  screen: "screen",
  journal: "screen",
  sound: "screen",
  messages: "messages",
  seats: "seats",
  clients: "seats",
  offers: "content",
  import: "content",
  modules: "content",
  "web-client": "content",
  settings: "settings",
  system: "settings",
  statblock: "stat",
};

export function openTab(name: string | null): void {
  const d = maybe("drawer");
  if (!d) return;
  if (name) d.dataset.tab = name;
  else delete d.dataset.tab;
  $("drawer-title").textContent = name === "stat" ? $("statblock-title").textContent || TITLES.stat : (name && TITLES[name]) || "";
  for (const b of document.querySelectorAll<HTMLElement>("#tabs [data-tab]")) b.setAttribute("aria-expanded", String(b.dataset.tab === name));
  if (name) d.scrollTop = 0;
  // Narrow, every card is on the page: the tab scrolls to its first one.
  if (name && name !== "stat" && window.matchMedia("(max-width: 1099.98px)").matches) {
    const first = Object.keys(TAB_OF_CARD)
      .map((id) => maybe(id))
      .find((c) => c && TAB_OF_CARD[c.id] === name);
    first?.scrollIntoView({ block: "start" });
  }
}

// The card an element sits in, and so the tab to open to show it.
function tabFor(elem: Element): string | null {
  for (let n: Element | null = elem; n && n !== document.body; n = n.parentElement) {
    if (n.classList.contains("card") && TAB_OF_CARD[n.id]) return TAB_OF_CARD[n.id];
  }
  return null;
}

function showHash(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? maybe(id) : null;
  const tab = target ? tabFor(target) : TAB_OF_CARD[id] || null;
  if (!tab) return;
  openTab(tab);
  target?.scrollIntoView({ block: "start" });
}

// The host listener answers a reference with the system's page, whole
// (routes/server.go).
export function openStatBlock(reference: unknown, name?: string): boolean {
  if (!isStatReference(reference)) return false;
  $("statblock-title").textContent = name || reference;
  $<HTMLAnchorElement>("statblock-link").href = reference;
  const frame = $<HTMLIFrameElement>("statblock-frame");
  frame.title = `Stat block of ${name || reference}`;
  frame.src = reference;
  openTab("stat");
  return true;
}

function statButton(reference: string, name: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "stat-open";
  b.dataset.statblock = reference;
  b.textContent = "Stat block";
  b.title = `Open the stat block of ${name}`;
  b.addEventListener("click", () => openStatBlock(reference, name));
  return b;
}

// ---- entity facts: armour class and maximum hit points ---------------------------

interface SystemKinds {
  /** kind -> collection */
  collections: Record<string, string>;
  /** kind -> its health key (its first range), for the kinds that declare one */
  ranges: Record<string, string>;
}
let systemKinds: Promise<SystemKinds> | null = null; // from the system
let knownRanges: Record<string, string> | null = null; // once read
let knownTurns: string | null = null; // the system's turn style, once read
let knownHealthLabel: string | null = null; // the word health shows under ("HP"), once read
const facts = new Map<string, EntityFacts | Promise<void>>(); // "kind/id" -> facts, or their reading

function loadSystemKinds(): Promise<SystemKinds> {
  systemKinds ??= hostAPI<{ kinds?: { kind: string; collection: string; ranges?: string[] }[]; turns?: string; healthLabel?: string }>("GET", "system").then(
    (sys) => {
      const kinds = sys.kinds ?? [];
      knownHealthLabel = sys.healthLabel || "Health";
      knownTurns = sys.turns || "initiative";
      knownRanges = Object.fromEntries(kinds.filter((k) => k.ranges?.length).map((k) => [k.kind, k.ranges![0]]));
      return { collections: Object.fromEntries(kinds.map((k) => [k.kind, k.collection])), ranges: knownRanges };
    },
    () => {
      systemKinds = null; // not answered: ask again next time
      return { collections: {}, ranges: {} };
    },
  );
  return systemKinds;
}

/** The system's health keys by kind, null until read (onReady is called when they arrive). */
export function healthRanges(onReady?: () => void): Record<string, string> | null {
  if (knownRanges) return knownRanges;
  loadSystemKinds().then(() => knownRanges && onReady?.());
  return null;
}

/** Whether the system's combat passes turns rather than roll initiative; null until read (onReady is called when it arrives). */
export function turnsPassed(onReady?: () => void): boolean | null {
  if (knownTurns) return knownTurns === "passed";
  loadSystemKinds().then(() => knownTurns && onReady?.());
  return null;
}

/** The short word the system shows health under ("HP" in D&D 5e); "Health" until read (onReady is called when it arrives). */
export function healthLabel(onReady?: () => void): string {
  if (knownHealthLabel) return knownHealthLabel;
  loadSystemKinds().then(() => knownHealthLabel && onReady?.());
  return "Health";
}

/** The system was reloaded: its kinds and their ranges may have changed. */
export function forgetSystemKinds(): void {
  systemKinds = null;
  knownRanges = null;
  knownTurns = null;
  knownHealthLabel = null;
  facts.clear();
}

/**
 * The facts of an entity once read (read once per entity); null until
 * then, and onReady is called when they arrive.
 */
export function entityFacts(kind: string | null | undefined, id: string | null | undefined, onReady?: () => void): EntityFacts | null {
  if (!kind || !id) return null;
  const key = `${kind}/${id}`;
  const known = facts.get(key);
  if (known && !(known instanceof Promise)) return known;
  if (!known) {
    facts.set(
      key,
      (async () => {
        try {
          const sys = await loadSystemKinds();
          const col = sys.collections[kind];
          if (!col) throw new Error("no collection");
          facts.set(key, factsOf(await hostAPI("GET", `entities/${encodeURIComponent(col)}/${encodeURIComponent(id)}`), sys.ranges[kind] ?? ""));
        } catch {
          facts.set(key, { ac: null, maxHP: null });
        }
        onReady?.();
      })(),
    );
  }
  return null;
}

// ---- the selected token's card ---------------------------------------------------

let combatantsByToken = new Map<string, Combatant>();

function drawTokenFacts(): void {
  const panel = maybe("gm-token-panel");
  const gm = gmHandle();
  if (!panel || !gm) return;
  const old = panel.querySelector(".gm-token-facts");
  const id = gm.selected();
  const t = id ? gm.store.tokens.get(id) : undefined;
  if (!t) {
    old?.remove();
    return;
  }
  const c = combatantsByToken.get(t.id);
  const ref = typeof t.reference === "string" ? t.reference : "";
  const kind = c?.entityType || ref.split("/")[1] || "";
  const entityId = c?.entityId || t.entityId;
  const f = entityFacts(kind, entityId, drawTokenFacts) ?? { ac: null, maxHP: null };
  const label = healthLabel(drawTokenFacts);
  const health = c ? hitPoints(c.data, healthKey(c.entityType, c.data, healthRanges(drawTokenFacts) ?? {})) : null;
  const hp = health ? health.hp : typeof t.hitpoints === "number" ? t.hitpoints : null;
  const max = health?.max ?? f.maxHP;
  const box = document.createElement("div");
  box.className = "gm-token-facts";
  const line = document.createElement("p");
  line.className = "gm-token-stats";
  line.textContent = [
    hp != null ? `${label} ${hp}${max != null ? `/${max}` : ""}` : `${label} —`,
    f.ac != null ? `AC ${f.ac}` : "", // armour class where the entity has one (D&D 5e)
    c ? (c.defeated ? "defeated" : c.bloodied ? "bloodied" : "") : "not in combat",
  ]
    .filter(Boolean)
    .join(" · ");
  box.append(line);
  const effects = c?.effects ?? [];
  const cond = document.createElement("p");
  cond.className = "gm-token-conditions small";
  cond.textContent = effects.length ? `Conditions: ${effects.map((e) => e.name).join(", ")}` : "No condition.";
  box.append(cond);
  const statRef = c?.reference || ref;
  if (statRef) box.append(statButton(statRef, t.name || t.label || "the token"));
  // Above the buttons, under the name; only when it changed, so a redraw
  // does not loop through the observer below.
  if (old && old.textContent === box.textContent) return;
  if (old) old.replaceWith(box);
  else {
    const name = panel.querySelector(".gm-token-name");
    if (name) name.after(box);
    else panel.append(box);
  }
}

function watchTokenPanel(): void {
  const panel = maybe("gm-token-panel");
  if (!panel) {
    window.setTimeout(watchTokenPanel, 200);
    return;
  }
  new MutationObserver(() => {
    if (!panel.querySelector(".gm-token-facts")) drawTokenFacts();
  }).observe(panel, { childList: true });
  drawTokenFacts();
}

// ---- wiring --------------------------------------------------------------------

export function startWorkspace(): void {
  const drawer = $("drawer");
  for (const b of document.querySelectorAll<HTMLElement>("#tabs [data-tab]")) {
    b.addEventListener("click", () => openTab(drawer.dataset.tab === b.dataset.tab ? null : b.dataset.tab ?? null));
  }
  $("drawer-close").addEventListener("click", () => openTab(null));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && drawer.dataset.tab && !document.body.classList.contains("gm-placing")) openTab(null);
  });
  // A link to a card inside the drawer (#import, #seats …) opens its tab.
  document.addEventListener("click", (e) => {
    const a = e.target instanceof Element ? e.target.closest('a[href^="#"]') : null;
    if (!a) return;
    const target = maybe(decodeURIComponent((a.getAttribute("href") ?? "").slice(1)));
    const tab = target && tabFor(target);
    if (target && tab) {
      e.preventDefault();
      openTab(tab);
      target.scrollIntoView({ block: "start" });
    }
  });
  window.addEventListener("hashchange", showHash);
  // The GM map's place-a-token rows ask for a stat block so (gm/entities.ts).
  window.addEventListener("companion:statblock", (e) => {
    const d = (e as CustomEvent<{ reference?: string; name?: string } | null>).detail;
    if (d) openStatBlock(d.reference, d.name);
  });
  showHash();
  onCampaign((view) => {
    const g: Partial<Game> = view.game ?? {};
    combatantsByToken = new Map((g.combatants ?? []).filter((c) => c.tokenId).map((c) => [c.tokenId as string, c]));
    drawTokenFacts();
  });
  watchTokenPanel();
}
