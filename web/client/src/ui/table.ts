// The table around the map: mounts the initiative and chat panels, the
// screen overlays, the pointer and ruler layers, and the theme, and feeds
// them from GET /api and the WebSocket. main.ts calls mountTable once the
// map's chrome exists, then passes on every snapshot and envelope.
//
// Layout (app.css): desktop, the map fills the window and the two panels
// are collapsible side panels over it; phone (≤ 600 px), a tab bar at the
// bottom opens each panel as a sheet over the map; a display shows only
// the map and, during combat, an initiative strip.
import { t } from "../i18n";
import type { MapRenderer } from "../map/renderer";
import { PointerLayer } from "../map/pointer";
import { Ruler } from "../map/ruler";
import { MarkTools } from "./marks";
import { diagonalRule, type Diagonal } from "../table/measure";
import { setEntityKinds } from "../table/markdown";
import { TableState, type CombatantRow } from "../table/state";
import type { Store } from "../state/store";
import type { EventRouter } from "../net/events";
import type { Token } from "../types";
import { ChatPanel } from "./chat";
import { InitiativePanel } from "./initiative";
import { ScreenOverlays } from "./screen";
import { icons } from "./icons";

export interface TableDeps {
  app: HTMLElement;
  mapEl: HTMLElement;
  store: Store;
  display: boolean;
  name: string;
  renderer(): MapRenderer | null;
  /** The page's one event router: the table reads its events and sends through it. */
  events: EventRouter;
}

type Theme = "light" | "dark";
const themeKey = "companion.theme";

/** Whether a token is the player's own: a player or friendly token carrying the join name. */
export function isOwnToken(tk: Token | undefined, name: string): boolean {
  if (!tk) return false;
  const n = name.trim().toLowerCase();
  return !!n && (tk.player === true || tk.role === "friendly") && (tk.name ?? "").trim().toLowerCase() === n;
}

/** Whether a combatant is the player's own: it carries the join name, or its token is the player's. */
export function isOwnCombatant(r: CombatantRow, name: string, tokens: Map<string, Token>): boolean {
  const n = name.trim().toLowerCase();
  if (n && r.name.trim().toLowerCase() === n) return true;
  return isOwnToken(r.tokenId ? tokens.get(r.tokenId) : undefined, name);
}

export class TableUI {
  readonly state = new TableState();
  readonly initiative: InitiativePanel;
  readonly chat: ChatPanel;
  readonly screen: ScreenOverlays;
  readonly pointers: PointerLayer;
  readonly ruler: Ruler;
  readonly marks: MarkTools;
  private diagonal: Diagonal = "equal";
  private systemFetches = 0;
  /** The map the ruler measures on: a resync of the same map keeps the measurement. */
  private rulerMap: string | null = null;
  private offline = document.createElement("p");
  private phoneTab = "map";
  private phone = window.matchMedia("(max-width: 600px)");

  constructor(private deps: TableDeps) {
    const s = this.state;
    this.initiative = new InitiativePanel(s, (r) => isOwnCombatant(r, deps.name, deps.store.tokens));
    this.chat = new ChatPanel({
      state: s,
      send: (text) => deps.events.request("createMessage", { text, type: text.startsWith("/") ? "command" : "chat" }),
      onEntity: (path, title) => this.screen.openEntity(path, title),
    });
    this.initiative.onReference = (ref, title) => this.screen.openEntity(ref, title);
    this.screen = new ScreenOverlays(deps.app);
    this.pointers = new PointerLayer(deps.mapEl, {
      renderer: deps.renderer,
      state: s,
      send: (p) => deps.events.send("pointerUpdated", p),
      mayPoint: () => !deps.display && deps.store.interaction !== "none",
    });
    this.ruler = new Ruler(deps.mapEl, deps.renderer, () => this.diagonal, deps.display ? undefined : deps.events);
    this.marks = new MarkTools({
      mapEl: deps.mapEl, store: deps.store, events: deps.events, renderer: deps.renderer,
      // The interaction mode: all, any mark; token, templates (the server
      // checks the seat); none, nothing.
      mayMark: (kind) => deps.store.interaction === "all" || (deps.store.interaction === "token" && kind === "areaEffects"),
      openLink: (ref, title) => this.screen.openEntity(ref, title),
    });
    this.buildLayout();
    s.subscribe((c, id) => {
      if (c === "game") this.initiative.update();
      else if (c === "message" && id) this.chat.added(id);
      else if (c === "messages") this.chat.rebuild();
      else if (c === "paused") this.screen.setPaused(s.paused);
      else if (c === "screen") this.screen.setScreen(s.screen);
      if (c === "game") document.body.classList.toggle("in-combat", s.combatants.length > 0);
    });
    deps.store.subscribe((c) => {
      // Own marks follow token names; pointers and the ruler follow the map.
      if (c.kind === "tokens" || c.kind === "token" || c.kind === "map") this.initiative.update();
      if (c.kind === "map") {
        // Another map wipes the measurement; the same map read again (a
        // resync after a reconnect or a system's hot reload) keeps it, so
        // a player measuring at that moment does not lose their clicks.
        const id = deps.store.map?.id ?? null;
        if (id !== this.rulerMap) this.ruler.clear();
        this.rulerMap = id;
      }
    });
    // What the table reads of the socket; the chat's replies are settled
    // by the router before any of these run.
    deps.events.on("reload", () => this.fetchSystem());
    deps.events.onTable(s.events);
    this.fetchSystem();
  }

  /** Called once the renderer exists: pointers and the ruler follow pans and zooms. */
  attachRenderer(r: MapRenderer): void {
    const follow = () => {
      this.pointers.redraw();
      this.ruler.draw();
    };
    r.viewport.on("moved", follow);
    r.viewport.on("zoomed", follow);
    r.app.renderer.on("resize", follow);
  }

  /**
   * Reads the system's ruler rule and entity kinds: at start, and again after
   * every reload (a hot reload of the system may change both). Only the
   * newest answer applies when two overlap.
   */
  private async fetchSystem(): Promise<void> {
    const seq = ++this.systemFetches;
    try {
      const res = await fetch("/api/system", { headers: { Accept: "application/json" } });
      if (!res.ok || seq !== this.systemFetches) return;
      const sys = await res.json();
      if (seq !== this.systemFetches) return;
      this.diagonal = diagonalRule(sys?.config?.measurement?.diagonal);
      const kinds = sys?.definitions?.entities;
      if (kinds && typeof kinds === "object") setEntityKinds(Object.keys(kinds));
      this.nameTurnPanel(sys?.config?.combat?.turns === "passed");
      const label = healthBarLabel(sys?.config);
      if (label !== this.initiative.healthLabel) {
        this.initiative.healthLabel = label;
        this.initiative.update();
      }
    } catch {
      /* defaults: one square per diagonal, any /kind/slug is a link */
    }
  }

  load(snap: unknown): void {
    this.state.load(snap);
  }

  /** The turn panel is "Turns" where the system passes turns, "Initiative" where it rolls it. */
  private nameTurnPanel(passed: boolean): void {
    const name = passed ? t.turns : t.initiative;
    const p = document.getElementById("panel-initiative");
    const toggle = p?.querySelector<HTMLButtonElement>(".panel-toggle");
    if (!p || !toggle || p.dataset.name === name) return;
    p.dataset.name = name;
    toggle.textContent = name;
    this.initiative.el.setAttribute("aria-label", name);
  }

  /** The socket's state: show "reconnecting", send what waited once open. */
  connection(state: string): void {
    const down = state === "reconnecting" || state === "closed";
    this.offline.hidden = !down;
    document.body.classList.toggle("offline", down);
    // After the page has registered (clientUpdated is sent right after the
    // state turns open), so the waiting lines go out under the player's name.
    if (state === "open") setTimeout(() => this.chat.flush(), 0);
  }

  private buildLayout(): void {
    const { app, display } = this.deps;
    this.applyTheme(this.savedTheme());
    this.offline.className = "offline-banner";
    this.offline.setAttribute("role", "status");
    this.offline.textContent = t.reconnecting;
    this.offline.hidden = true;
    const left = panel("panel-initiative", t.initiative, this.initiative.el);
    const right = panel("panel-chat", t.chat, this.chat.el);
    app.append(left, right, this.offline);
    if (display) {
      document.body.classList.add("layout-display");
      right.hidden = true;
      return;
    }
    for (const [p, key] of [[left, "initiative"], [right, "chat"]] as const) {
      const toggle = p.querySelector(".panel-toggle") as HTMLButtonElement;
      const stored = localStorage.getItem(`companion.panel.${key}`);
      this.setOpen(p, stored === null ? true : stored === "1");
      toggle.addEventListener("click", () => {
        if (this.phone.matches) return this.setPhoneTab(this.phoneTab === key ? "map" : key);
        const open = !p.classList.contains("open");
        this.setOpen(p, open);
        try {
          localStorage.setItem(`companion.panel.${key}`, open ? "1" : "0");
        } catch {
          /* not remembered */
        }
      });
    }
    // Phone: a tab bar.
    const tabs = document.createElement("nav");
    tabs.className = "tabs";
    tabs.dataset.coversMap = "";
    tabs.setAttribute("aria-label", `${t.map} / ${t.initiative} / ${t.chat}`);
    for (const [key, label] of [["map", t.map], ["initiative", t.initiative], ["chat", t.chat]] as const) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.tab = key;
      b.textContent = label;
      b.addEventListener("click", () => this.setPhoneTab(key));
      tabs.append(b);
    }
    app.append(tabs);
    this.setPhoneTab("map");
    // Tools: theme, ruler.
    const tools = document.createElement("div");
    tools.className = "tools";
    const theme = document.createElement("button");
    theme.type = "button";
    theme.className = "theme";
    theme.title = t.theme;
    theme.setAttribute("aria-label", t.theme);
    theme.innerHTML = icons.theme;
    theme.addEventListener("click", () => {
      const next: Theme = document.documentElement.dataset.theme === "light" ? "dark" : "light";
      this.applyTheme(next);
      try {
        localStorage.setItem(themeKey, next);
      } catch {
        /* not remembered */
      }
    });
    const ruler = document.createElement("button");
    ruler.type = "button";
    ruler.className = "ruler-toggle";
    ruler.title = t.rulerHelp;
    ruler.setAttribute("aria-label", t.ruler);
    ruler.setAttribute("aria-pressed", "false");
    ruler.innerHTML = icons.ruler;
    ruler.addEventListener("click", () => this.ruler.toggle());
    this.ruler.onToggle = (on) => {
      ruler.setAttribute("aria-pressed", String(on));
      if (on) this.marks.choose(""); // one tool catches the pointer at a time
    };
    this.marks.onChoose = (tool) => {
      if (tool !== "" && this.ruler.active) this.ruler.toggle(false);
    };
    tools.append(ruler, theme);
    app.append(tools);
    if (!this.deps.display) {
      // The marks bar opens from its button beside the ruler's.
      const marks = document.createElement("button");
      marks.type = "button";
      marks.className = "marks-toggle";
      marks.title = "Templates, drawings and pins";
      marks.setAttribute("aria-label", marks.title);
      marks.setAttribute("aria-pressed", "false");
      marks.textContent = "✎";
      tools.prepend(marks);
      this.marks.bar.hidden = true;
      marks.addEventListener("click", () => {
        const open = this.marks.bar.hidden;
        this.marks.bar.hidden = !open;
        marks.setAttribute("aria-pressed", String(open));
        if (!open) this.marks.choose("");
      });
      app.append(this.marks.bar);
      const modeShown = () => {
        const mode = this.deps.store.interaction;
        marks.hidden = mode === "none";
        if (mode === "none") this.marks.bar.hidden = true;
        for (const b of this.marks.bar.querySelectorAll<HTMLButtonElement>("button[data-mark]")) {
          b.disabled = mode === "token" && !["move", "sphere", "cone", "line", "square", "erase"].includes(b.dataset.mark ?? "");
        }
        if (mode === "none") this.marks.choose("");
      };
      this.deps.store.subscribe((c) => {
        if (c.kind === "screen") modeShown();
      });
      modeShown();
    }
  }

  /**
   * Adds a panel of another module (the character panel, ui/character.ts):
   * a side panel on desktops, opened by default (or closed: openByDefault),
   * and a tab on phones. Not on
   * a display. Returns the panel.
   */
  addPanel(key: string, label: string, body: HTMLElement, openByDefault = true): HTMLElement {
    const p = panel(`panel-${key}`, label, body);
    this.deps.app.append(p);
    if (this.deps.display) {
      p.hidden = true;
      return p;
    }
    const remembered = localStorage.getItem(`companion.panel.${key}`);
    this.setOpen(p, remembered === null ? openByDefault : remembered !== "0");
    (p.querySelector(".panel-toggle") as HTMLButtonElement).addEventListener("click", () => {
      if (this.phone.matches) return this.setPhoneTab(this.phoneTab === key ? "map" : key);
      const open = !p.classList.contains("open");
      this.setOpen(p, open);
      try {
        localStorage.setItem(`companion.panel.${key}`, open ? "1" : "0");
      } catch {
        /* not remembered */
      }
    });
    const tabs = this.deps.app.querySelector(".tabs");
    if (tabs) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.tab = key;
      b.textContent = label;
      b.addEventListener("click", () => this.setPhoneTab(key));
      tabs.append(b);
      this.setPhoneTab(this.phoneTab);
    }
    return p;
  }

  /** Opens a panel added with addPanel (a phone switches to its tab). */
  showPanel(key: string): void {
    if (this.phone.matches) {
      this.setPhoneTab(key);
      return;
    }
    const p = document.getElementById(`panel-${key}`);
    if (p) this.setOpen(p, true);
  }

  private setOpen(p: HTMLElement, open: boolean): void {
    p.classList.toggle("open", open);
    const toggle = p.querySelector(".panel-toggle") as HTMLButtonElement;
    const name = p.dataset.name ?? "";
    toggle.setAttribute("aria-expanded", String(open));
    toggle.title = open ? t.hidePanel(name) : t.showPanel(name);
    document.body.classList.toggle(`${p.id}-open`, open);
  }

  private setPhoneTab(tab: string): void {
    this.phoneTab = tab;
    document.body.dataset.tab = tab;
    for (const b of this.deps.app.querySelectorAll<HTMLButtonElement>(".tabs button")) b.setAttribute("aria-pressed", String(b.dataset.tab === tab));
    if (tab === "chat") this.chat.scrollToEnd();
  }

  private savedTheme(): Theme {
    let v: string | null = null;
    try {
      v = localStorage.getItem(themeKey);
    } catch {
      /* default below */
    }
    if (v === "light" || v === "dark") return v;
    return window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
  }

  private applyTheme(theme: Theme): void {
    document.documentElement.dataset.theme = theme;
  }

  layout(): "desktop" | "phone" | "display" {
    if (this.deps.display) return "display";
    return this.phone.matches ? "phone" : "desktop";
  }

  /** The test hook's table() (web/client/README.md). */
  debug() {
    const s = this.state;
    return {
      round: s.round,
      turn: s.turn,
      activeId: s.activeId,
      initiative: s.combatants.map((r) => ({
        id: r.id, name: r.name, label: r.label, role: r.role, initials: r.initials, bloodied: r.bloodied, defeated: r.defeated,
        conditions: r.conditions.map((c) => c.name), own: isOwnCombatant(r, this.deps.name, this.deps.store.tokens), active: r.id === s.activeId,
        hp: r.hp,
      })),
      messages: s.messageList().map((m) => {
        const ok = m.rolls.find((r) => !r.error);
        const err = m.rolls.find((r) => r.error);
        const out: { id: string; source: string; text: string; total?: number; dice: object[]; error?: string } = {
          id: m.id, source: m.source, text: m.text, dice: m.rolls.flatMap((r) => r.dice.map((d) => ({ ...d }))),
        };
        if (ok && ok.total != null) out.total = ok.total;
        if (err) out.error = err.error;
        return out;
      }),
      inputError: this.chat.inputError,
      queued: this.chat.queue.length,
      pointers: this.pointers.list(),
      ruler: this.ruler.view(),
      diagonal: this.diagonal,
      panel: this.screen.panelInfo,
      pausedCover: !this.screen.pausedCover.hidden,
      lightbox: !this.screen.lightbox.hidden,
      layout: this.layout(),
      theme: (document.documentElement.dataset.theme === "light" ? "light" : "dark") as Theme,
    };
  }
}

function panel(id: string, name: string, body: HTMLElement): HTMLElement {
  const p = document.createElement("div");
  p.id = id;
  p.className = "panel";
  p.dataset.name = name;
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "panel-toggle";
  toggle.textContent = name;
  toggle.setAttribute("aria-controls", `${id}-body`);
  const inner = document.createElement("div");
  inner.className = "panel-body";
  inner.id = `${id}-body`;
  inner.dataset.coversMap = ""; // the map's fit keeps the party out from under it (map/view-fit.ts)
  inner.append(body);
  p.append(toggle, inner);
  return p;
}

export function mountTable(deps: TableDeps): TableUI {
  return new TableUI(deps);
}

/** The label of the system's first combatant bar (its health: D&D 5e's "HP"), "" when it declares none. */
export function healthBarLabel(config: unknown): string {
  const bars = (config as { entities?: { Default?: { combatant?: { bars?: unknown } } } } | null)?.entities?.Default?.combatant?.bars;
  const first = Array.isArray(bars) ? (bars[0] as { label?: unknown } | undefined) : undefined;
  return typeof first?.label === "string" ? first.label.slice(0, 12) : "";
}
