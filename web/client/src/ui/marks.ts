// Marks the player (or the game master, on the GM map) makes on the map:
// area templates dragged from their origin with their size shown, drawings
// (freehand, line, rectangle, ellipse, text) in a colour and width, pins,
// and the eraser of one's own. Each goes to the server as a map object
// (addMapObject, deleteMapObject over the page's socket); the server's
// broadcast draws it on every page. The squares a template covers are the
// server's answer to measure (the game system's rule), kept here for the
// renderer, which highlights them and rings the tokens inside.
import type { MapRenderer } from "../map/renderer";
import type { Store } from "../state/store";
import type { EventRouter } from "../net/events";
import type { AreaEffect, Drawing, Marker } from "../types";
import { gridOf, pixelsPerUnit } from "../map/grid";
import { templateGeometry, templateKey, templateSize, tokensInside } from "../map/marks";

const svgNS = "http://www.w3.org/2000/svg";

export type MarkTool = "" | "move" | "sphere" | "cone" | "line" | "square" | "free" | "segment" | "rectangle" | "ellipse" | "text" | "pin" | "erase";

const tools: [MarkTool, string, string][] = [
  ["move", "✥", "Move one of your templates or pins (drag its middle), or turn a template (drag its edge)"],
  ["sphere", "◯", "Circle template: drag from its centre"],
  ["cone", "◺", "Cone template: drag from its origin"],
  ["line", "━", "Line template: drag from its origin"],
  ["square", "□", "Square template: drag from its centre"],
  ["free", "✎", "Draw freehand"],
  ["segment", "╱", "Draw a line"],
  ["rectangle", "▭", "Draw a rectangle"],
  ["ellipse", "◌", "Draw an ellipse"],
  ["text", "T", "Write the text below where you click"],
  ["pin", "✦", "Place a pin with the text below"],
  ["erase", "⌫", "Click one of your marks to remove it"],
];

const templateShapes = new Set<MarkTool>(["sphere", "cone", "line", "square"]);

export interface MarkDeps {
  mapEl: HTMLElement;
  store: Store;
  events: EventRouter;
  renderer(): MapRenderer | null;
  /** The game master's map: every mark is theirs, and a drawing may go on the GM layer. */
  gm?: boolean;
  /** Whether the interaction mode lets this page place marks of a kind now. */
  mayMark?(kind: "areaEffects" | "drawings" | "markers"): boolean;
  /** Opens what a pin links (a page, an entity, a table). */
  openLink?(reference: string, title: string): void;
  /** Says a refusal or what a template covers; by default in the bar's status line. */
  say?(text: string): void;
}

export class MarkTools {
  readonly bar = document.createElement("div");
  private catcher = document.createElement("div");
  private svg = document.createElementNS(svgNS, "svg");
  private shape = document.createElementNS(svgNS, "path");
  private label = document.createElementNS(svgNS, "text");
  tool: MarkTool = "";
  private start: { x: number; y: number } | null = null;
  private points: number[] = [];
  private measured = new Map<string, string>();
  /** The template or pin the move tool holds: moved by its middle, or turned by its edge. */
  private grab: { kind: "areaEffects" | "markers"; id: string; turn: boolean; dx: number; dy: number } | null = null;
  /** The owner part of the ids the server gave this page's marks (core/marks.go). */
  private owner = "";
  /** The names of the tokens inside a template, for tests and the status line. */
  inside: string[] = [];

  constructor(private deps: MarkDeps) {
    if (!deps.say) deps.say = (text) => {
      const out = this.bar.querySelector(".mark-say");
      if (out) out.textContent = text;
    };
    this.bar.className = "marks-bar";
    this.bar.setAttribute("role", "toolbar");
    this.bar.setAttribute("aria-label", "Marks");
    for (const [tool, icon, title] of tools) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.mark = tool;
      b.textContent = icon;
      b.title = title;
      b.setAttribute("aria-label", title);
      b.addEventListener("click", () => this.choose(this.tool === tool ? "" : tool));
      this.bar.append(b);
    }
    this.bar.insertAdjacentHTML("beforeend", `
      <input type="color" class="mark-color" value="#ff6600" title="Colour" aria-label="Colour">
      <select class="mark-width" title="Line width" aria-label="Line width"><option value="3">thin</option><option value="6" selected>medium</option><option value="12">thick</option></select>
      <input type="text" class="mark-text" maxlength="200" placeholder="text or pin label" aria-label="Text or pin label">
      ${deps.gm ? `<label class="mark-gm" title="Draw on the GM layer: players never see it"><input type="checkbox" class="mark-hidden"> GM layer</label>` : `<button type="button" class="mark-clear" title="Remove all your drawings on this map">Clear mine</button>`}`);
    this.bar.insertAdjacentHTML("beforeend", `<span class="mark-say" role="status"></span>`);
    this.bar.querySelector(".mark-clear")?.addEventListener("click", () => this.clearMine());
    this.catcher.className = "marks-catcher";
    this.catcher.hidden = true;
    this.svg.classList.add("marks-preview");
    this.svg.setAttribute("aria-hidden", "true");
    this.svg.append(this.shape, this.label);
    deps.mapEl.append(this.svg, this.catcher);
    this.catcher.addEventListener("pointerdown", (e) => this.onDown(e));
    this.catcher.addEventListener("pointermove", (e) => this.onMove(e));
    this.catcher.addEventListener("pointerup", (e) => this.onUp(e));
    deps.mapEl.addEventListener("click", (e) => this.onMapClick(e));
    deps.store.subscribe((c) => {
      if (c.kind === "map" || (c.kind === "objects" && c.layer === "areaEffects")) this.measureTemplates();
    });
  }

  private value(sel: string): string {
    return (this.bar.querySelector(sel) as HTMLInputElement | null)?.value ?? "";
  }

  /** Told of every choice: a page puts its ruler away when a tool is chosen (both catch the pointer). */
  onChoose: (tool: MarkTool) => void = () => {};

  choose(tool: MarkTool): void {
    this.tool = tool;
    this.onChoose(tool);
    this.catcher.hidden = tool === "";
    for (const b of this.bar.querySelectorAll<HTMLButtonElement>("button[data-mark]")) b.setAttribute("aria-pressed", String(b.dataset.mark === tool));
    this.reset();
  }

  private reset(): void {
    this.start = null;
    this.points = [];
    this.shape.setAttribute("d", "");
    this.label.textContent = "";
  }

  private mapPoint(e: PointerEvent | MouseEvent): { x: number; y: number } | null {
    const r = this.deps.renderer();
    return r ? r.screenToMap(e.clientX, e.clientY) : null;
  }

  /** A template's origin: the nearest grid intersection, edge middle or cell centre. */
  private halfCell(p: { x: number; y: number }): { x: number; y: number } {
    const map = this.deps.store.map;
    if (!map) return p;
    const g = gridOf(map), h = g.size / 2;
    return { x: g.offsetX + Math.round((p.x - g.offsetX) / h) * h, y: g.offsetY + Math.round((p.y - g.offsetY) / h) * h };
  }

  /** The template a drag from start to p makes: sizes in whole cells, aim towards p. */
  template(start: { x: number; y: number }, p: { x: number; y: number }): Partial<AreaEffect> | null {
    const map = this.deps.store.map;
    if (!map) return null;
    const size = gridOf(map).size;
    const reach = Math.max(1, Math.round(Math.hypot(p.x - start.x, p.y - start.y) / size)) * size;
    const angle = Math.atan2(p.y - start.y, p.x - start.x);
    const color = this.value(".mark-color") || "#ff6600";
    const base = { x: start.x, y: start.y, color, opacity: 0.5, angle };
    switch (this.tool) {
      case "sphere":
        return { ...base, shape: "sphere", radius: reach, angle: 0 };
      case "cone":
        return { ...base, shape: "cone", length: reach };
      case "line":
        return { ...base, shape: "line", length: reach, width: size };
      case "square":
        return { ...base, shape: "square", length: reach / 2, angle: 0 };
    }
    return null;
  }

  private onDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    e.preventDefault();
    this.catcher.setPointerCapture?.(e.pointerId);
    const p = this.mapPoint(e);
    if (!p) return;
    if (this.tool === "text" || this.tool === "pin" || this.tool === "erase") {
      this.click(p);
      return;
    }
    if (this.tool === "move") {
      this.startMove(p);
      return;
    }
    this.start = templateShapes.has(this.tool) ? this.halfCell(p) : p;
    this.points = [this.start.x, this.start.y];
  }

  private onMove(e: PointerEvent): void {
    const p = this.mapPoint(e);
    if (!p) return;
    if (this.grab) {
      this.moveGrabbed(p, "control");
      return;
    }
    if (!this.start) return;
    if (this.tool === "free") {
      const n = this.points.length;
      if (Math.hypot(p.x - this.points[n - 2], p.y - this.points[n - 1]) >= 3) this.points.push(p.x, p.y);
    } else this.points = [this.start.x, this.start.y, p.x, p.y];
    this.preview(p);
  }

  private onUp(e: PointerEvent): void {
    if (this.grab) {
      const p = this.mapPoint(e);
      if (p) this.moveGrabbed(p, "end");
      this.grab = null;
      return;
    }
    if (!this.start) return;
    const p = this.mapPoint(e) ?? { x: this.points[this.points.length - 2], y: this.points[this.points.length - 1] };
    if (templateShapes.has(this.tool)) {
      const t = this.template(this.start, p);
      if (t) this.add("areaEffects", t);
    } else if (this.points.length >= 4) {
      const d: Partial<Drawing> = { data: this.points.map((n) => Math.round(n * 10) / 10), strokeColor: this.value(".mark-color"), strokeWidth: Number(this.value(".mark-width")) || 6 };
      if (this.tool === "rectangle" || this.tool === "ellipse") d.shape = this.tool;
      this.add("drawings", d);
    }
    this.reset();
  }

  /** The move tool takes one's own template or pin under p: by its middle to move, by its edge to turn. */
  private startMove(p: { x: number; y: number }): void {
    const map = this.deps.store.map;
    if (!map) return;
    const cell = gridOf(map).size;
    const pin = [...(map.markers ?? [])].reverse().find((m) => this.mine(m.id) && Math.hypot(m.x - p.x, m.y - 15 - p.y) < 25);
    if (pin) {
      this.grab = { kind: "markers", id: pin.id, turn: false, dx: p.x - pin.x, dy: p.y - pin.y };
    } else {
      const hit = this.markAt(p);
      const e = hit?.kind === "areaEffects" ? (map.areaEffects ?? []).find((x) => x.id === hit.id) : undefined;
      if (!e) return;
      const turn = e.shape !== "sphere" && e.shape !== "cylinder" && Math.hypot(p.x - e.x, p.y - e.y) > 0.75 * cell;
      this.grab = { kind: "areaEffects", id: e.id, turn, dx: p.x - e.x, dy: p.y - e.y };
    }
    if (!this.grab.turn) this.send(this.grab, p, "start");
  }

  /** Moves or turns what the move tool holds, here and (a move, live) for everyone. */
  private moveGrabbed(p: { x: number; y: number }, state: "control" | "end"): void {
    const g = this.grab, map = this.deps.store.map, r = this.deps.renderer();
    if (!g || !map || !r) return;
    const list = (g.kind === "markers" ? map.markers : map.areaEffects) as { id: string; x: number; y: number; angle?: number }[] | undefined;
    const o = list?.find((x) => x.id === g.id);
    if (!o) return;
    if (g.turn) {
      o.angle = Math.atan2(p.y - o.y, p.x - o.x);
      r.redrawObjects("areaEffects");
      if (state === "end") this.deps.events.request("updateMapObject", { mapId: map.id, kind: "areaEffects", id: g.id, patch: { angle: o.angle } })?.catch((err: Error) => this.deps.say?.(err.message));
      return;
    }
    const at = this.send(g, p, state);
    o.x = at.x;
    o.y = at.y;
    r.redrawObjects(g.kind);
  }

  /** Sends a live move of what the move tool holds; returns where it is now. */
  private send(g: { kind: "areaEffects" | "markers"; id: string; dx: number; dy: number }, p: { x: number; y: number }, state: "start" | "control" | "end"): { x: number; y: number } {
    const map = this.deps.store.map!;
    const raw = { x: p.x - g.dx, y: p.y - g.dy };
    const at = g.kind === "areaEffects" ? this.halfCell(raw) : { x: Math.round(raw.x), y: Math.round(raw.y) };
    this.deps.events.send("moveMapObject", { mapId: map.id, kind: g.kind, id: g.id, x: at.x, y: at.y, state });
    return at;
  }

  /** Draws what a drag makes, in screen space, with a template's size. */
  private preview(p: { x: number; y: number }): void {
    const r = this.deps.renderer(), map = this.deps.store.map;
    if (!r || !map || !this.start) return;
    const box = this.deps.mapEl.getBoundingClientRect();
    const at = (x: number, y: number) => {
      const s = r.mapToScreen(x, y);
      return `${(s.x - box.left).toFixed(1)} ${(s.y - box.top).toFixed(1)}`;
    };
    let pts: number[] = this.points;
    const t = templateShapes.has(this.tool) ? this.template(this.start, p) : null;
    if (t) pts = outline(t);
    this.shape.setAttribute("d", pts.length >= 4 ? `M ${pts.map((n, i) => (i % 2 === 0 ? at(n, pts[i + 1]) : "")).filter(Boolean).join(" L ")}${t ? " Z" : ""}` : "");
    this.shape.setAttribute("stroke", this.value(".mark-color") || "#ff6600");
    this.label.textContent = t ? templateSize(t, pixelsPerUnit(map), map.gridUnits || "ft") : "";
    const s = r.mapToScreen(p.x, p.y);
    this.label.setAttribute("x", String(s.x - box.left + 14));
    this.label.setAttribute("y", String(s.y - box.top - 14));
  }

  private click(p: { x: number; y: number }): void {
    const text = this.value(".mark-text").trim();
    if (this.tool === "text") {
      if (!text) {
        this.deps.say?.("Type the text first.");
        return;
      }
      this.add("drawings", { data: [p.x, p.y, p.x + 1, p.y], text, fontSize: 24, strokeColor: this.value(".mark-color") });
    } else if (this.tool === "pin") {
      this.add("markers", { x: Math.round(p.x), y: Math.round(p.y), label: text.slice(0, 3) || "•", name: text, color: this.value(".mark-color"), shape: "pin", size: "medium" });
    } else if (this.tool === "erase") {
      const hit = this.markAt(p);
      if (hit) this.remove(hit.kind, hit.id);
    }
  }

  private gmHidden(): boolean {
    return !!this.deps.gm && !!(this.bar.querySelector(".mark-hidden") as HTMLInputElement | null)?.checked;
  }

  /** Sends a new mark; a refusal is said. */
  add(kind: "areaEffects" | "drawings" | "markers", object: Record<string, unknown>): void {
    const map = this.deps.store.map;
    if (!map) return;
    if (this.deps.mayMark && !this.deps.mayMark(kind)) {
      this.deps.say?.("The game master does not let players place that now.");
      return;
    }
    if (this.gmHidden()) {
      if (kind === "drawings") object.layer = "dm";
      else object.hidden = true;
    } else if (this.deps.gm && kind === "markers") object.hidden = false;
    const p = this.deps.events.request("addMapObject", { mapId: map.id, kind, object });
    p?.then((stored) => {
      const id = (stored as { id?: string }).id ?? "";
      if (id.includes("~")) this.owner = id.split("~")[0];
    }, (err: Error) => this.deps.say?.(err.message));
  }

  remove(kind: string, id: string): void {
    const map = this.deps.store.map;
    if (!map) return;
    this.deps.events.request("deleteMapObject", { mapId: map.id, kind: kind as "drawings", id })?.catch((err: Error) => this.deps.say?.(err.message));
  }

  private clearMine(): void {
    const map = this.deps.store.map;
    if (!map) return;
    this.deps.events.request("deleteMapObject", { mapId: map.id, kind: "drawings" })?.catch((err: Error) => this.deps.say?.(err.message));
  }

  /** Whether a mark is this page's to remove: the GM's are all. */
  mine(id: string): boolean {
    return !!this.deps.gm || (!!this.owner && id.startsWith(`${this.owner}~`));
  }

  /** The topmost mark under a map point that this page may remove. */
  markAt(p: { x: number; y: number }): { kind: string; id: string } | null {
    const map = this.deps.store.map;
    if (!map) return null;
    const near = 14;
    for (const m of [...(map.markers ?? [])].reverse()) if (this.mine(m.id) && Math.hypot(m.x - p.x, m.y - p.y + 15) < 25) return { kind: "markers", id: m.id };
    for (const d of [...(map.drawings ?? [])].reverse()) {
      if (!this.mine(d.id)) continue;
      for (let i = 0; i + 1 < d.data.length; i += 2) if (Math.hypot(d.data[i] - p.x, d.data[i + 1] - p.y) < near + (d.strokeWidth ?? 3)) return { kind: "drawings", id: d.id };
    }
    for (const e of [...(map.areaEffects ?? [])].reverse()) {
      if (this.mine(e.id) && Math.hypot(e.x - p.x, e.y - p.y) <= Math.max(e.radius ?? 0, e.length ?? 0)) return { kind: "areaEffects", id: e.id };
    }
    // A pinned ruler: near one of its legs.
    for (const m of [...(map.measurements ?? [])].reverse()) {
      if (this.mine(m.id) && pathNear(m.data ?? [], p, near)) return { kind: "measurements", id: m.id };
    }
    return null;
  }

  /** A tap on a visible pin with a link opens it (no tool chosen). */
  private onMapClick(e: MouseEvent): void {
    if (this.tool !== "" || !this.deps.openLink) return;
    const p = this.mapPoint(e), map = this.deps.store.map;
    if (!p || !map) return;
    const pin = (map.markers ?? []).find((m: Marker) => !m.hidden && m.reference && Math.hypot(m.x - p.x, m.y - 15 - p.y) < 22);
    if (pin?.reference) this.deps.openLink(pin.reference, pin.name || pin.label || "");
  }

  /** Asks the server for the squares of each template it has not measured as it is now. */
  measureTemplates(): void {
    const r = this.deps.renderer(), map = this.deps.store.map;
    if (!r || !map) return;
    const effects = map.areaEffects ?? [];
    const ids = new Set(effects.map((e) => e.id));
    let dropped = false;
    for (const id of [...r.templateSquares.keys()]) {
      if (!ids.has(id)) {
        r.templateSquares.delete(id);
        this.measured.delete(id);
        dropped = true;
      }
    }
    if (dropped) {
      r.redrawObjects("areaEffects");
      this.noteInside();
    }
    const mapKey = `${map.id}/${map.gridSize}/${map.gridOffsetX}/${map.gridOffsetY}`;
    for (const e of effects) {
      const key = templateKey(mapKey, e);
      if (this.measured.get(e.id) === key) continue;
      this.measured.set(e.id, key);
      this.deps.events.request("measure", { mapId: map.id, areaEffect: templateGeometry(e) })?.then((m) => {
        if (this.measured.get(e.id) !== key || this.deps.renderer() !== r) return;
        r.templateSquares.set(e.id, (m as { squares?: number[] }).squares ?? []);
        r.redrawObjects("areaEffects");
        this.noteInside();
      }, () => this.measured.delete(e.id));
    }
  }

  /** The names of the tokens in a template, as the renderer rings them. */
  private noteInside(): void {
    const r = this.deps.renderer(), map = this.deps.store.map;
    if (!r || !map) return;
    const shown = [...this.deps.store.tokens.values()].filter((t) => r.views.get(t.id)?.visible);
    const before = this.inside.join(", ");
    this.inside = tokensInside(shown, map.areaEffects ?? [], r.templateSquares, gridOf(map)).map((t) => t.name ?? "").sort();
    const now = this.inside.join(", ");
    if (now !== before) this.deps.say?.(now ? `In the templates: ${now}` : "");
  }
}

/** A template's outline in map points (flat), for its preview. */
export function outline(t: Partial<AreaEffect>): number[] {
  const x = t.x ?? 0, y = t.y ?? 0, a = t.angle ?? 0;
  const pts: number[] = [];
  const at = (u: number, v: number) => pts.push(x + u * Math.cos(a) - v * Math.sin(a), y + u * Math.sin(a) + v * Math.cos(a));
  switch (t.shape) {
    case "sphere":
      for (let i = 0; i < 48; i++) at((t.radius ?? 0) * Math.cos((i / 48) * 2 * Math.PI), (t.radius ?? 0) * Math.sin((i / 48) * 2 * Math.PI));
      break;
    case "cone": {
      const half = Math.atan(0.5), len = t.length ?? 0;
      at(0, 0);
      for (let i = 0; i <= 12; i++) {
        const b = -half + (2 * half * i) / 12;
        at(len * Math.cos(b), len * Math.sin(b));
      }
      break;
    }
    case "line":
      for (const [u, v] of [[0, -1], [1, -1], [1, 1], [0, 1]]) at(u * (t.length ?? 0), (v * (t.width ?? 0)) / 2);
      break;
    default:
      for (const [u, v] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) at(u * (t.length ?? 0), v * (t.length ?? 0));
  }
  return pts;
}

/** Whether a point is within reach of a path's legs (flat x1, y1, x2, y2, …). */
export function pathNear(path: number[], p: { x: number; y: number }, reach: number): boolean {
  for (let i = 0; i + 3 < path.length; i += 2) {
    const ax = path[i], ay = path[i + 1], bx = path[i + 2], by = path[i + 3];
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const f = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len2));
    if (Math.hypot(ax + f * dx - p.x, ay + f * dy - p.y) <= reach) return true;
  }
  return false;
}
