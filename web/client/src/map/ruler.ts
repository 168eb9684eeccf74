// The ruler: measure from a point or a token along a path. With the ruler
// on (its button or the R key), a click starts at that cell (or at the
// token under it), each further click adds a waypoint, the path follows
// the pointer, and Escape or a double-click ends it. Distances are counted
// by the system's diagonal rule in the map's units (table/measure.ts).
// Given the page's socket, the ruler is shared: its first point places a
// measurement on the map (addMapObject), each change of its path stretches
// it (moveMapObject, which everyone sees as measurementUpdated with the
// distance the server counts by the system's rule), and clearing it
// removes it. Pinning it (its pin button or the P key) ends its move
// instead: the server stores it where it is, every page keeps drawing it
// from the map, and this page's ruler starts afresh; a pinned ruler goes
// with the marks bar's eraser. Where the interaction mode refuses, it
// stays this page's.
import { gridOf, snap } from "./grid";
import type { EventRouter } from "../net/events";
import type { MapRenderer } from "./renderer";
import { pathDistance, type Diagonal } from "../table/measure";
import { t } from "../i18n";

const svgNS = "http://www.w3.org/2000/svg";

export interface RulerView {
  path: number[];
  distance: number;
  units: string;
  text: string;
}

export class Ruler {
  readonly svg = document.createElementNS(svgNS, "svg");
  private line = document.createElementNS(svgNS, "polyline");
  private label = document.createElementNS(svgNS, "text");
  private catcher = document.createElement("div");
  /** Pins the shared ruler; shown while the ruler is on and shared. */
  readonly pinButton = document.createElement("button");
  active = false;
  private points: number[] = [];
  private hover: { x: number; y: number } | null = null;
  private finished = false;
  onToggle: (on: boolean) => void = () => {};
  /** The shared measurement's id once the server stored it; sent: the path it was last given. */
  private shared: { id: string | null; mapId: string; sent: string; dropped: boolean } | null = null;

  constructor(private mapEl: HTMLElement, private renderer: () => MapRenderer | null, private diagonal: () => Diagonal, private events?: EventRouter) {
    this.svg.classList.add("ruler");
    this.svg.setAttribute("aria-hidden", "true");
    this.svg.append(this.line, this.label);
    this.catcher.className = "ruler-catcher";
    this.catcher.hidden = true;
    this.catcher.title = t.rulerHelp;
    this.pinButton.type = "button";
    this.pinButton.className = "ruler-pin";
    this.pinButton.textContent = t.rulerPin;
    this.pinButton.title = t.rulerPinHelp;
    this.pinButton.hidden = true;
    this.pinButton.addEventListener("click", () => this.pin());
    mapEl.append(this.svg, this.catcher, this.pinButton);
    this.catcher.addEventListener("pointerdown", (e) => this.onDown(e));
    this.catcher.addEventListener("pointermove", (e) => this.onMove(e));
    this.catcher.addEventListener("dblclick", () => this.finish());
    this.catcher.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.renderer()?.zoomBy(e.deltaY < 0 ? 1.1 : 0.9);
    }, { passive: false });
    window.addEventListener("keydown", (e) => {
      // Not while the map is out of sight (another tab of the console or the phone's layout).
      if (mapEl.getClientRects().length === 0) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
      if ((e.key === "r" || e.key === "R") && !e.ctrlKey && !e.metaKey && !e.altKey) this.toggle();
      else if (e.key === "Escape" && this.active) this.toggle(false);
      else if (e.key === "Enter" && this.active) this.finish();
      else if ((e.key === "p" || e.key === "P") && this.active && !e.ctrlKey && !e.metaKey && !e.altKey) this.pin();
    });
  }

  /** The shared measurement's id, null when there is none. */
  get sharedId(): string | null {
    return this.shared?.id ?? null;
  }

  toggle(on = !this.active): void {
    this.active = on;
    this.catcher.hidden = !on;
    this.pinButton.hidden = !on || !this.events;
    this.mapEl.classList.toggle("measuring", on);
    if (!on) this.clear();
    this.onToggle(on);
  }

  clear(): void {
    this.points = [];
    this.hover = null;
    this.finished = false;
    this.unshare();
    this.draw();
  }

  /** Shares the path: places the measurement at the first point, then stretches it. */
  private share(path: number[]): void {
    const map = this.renderer()?.store.map;
    if (!this.events || !map || path.length < 2) return;
    if (!this.shared) {
      const shared = { id: null as string | null, mapId: map.id, sent: "", dropped: false };
      this.shared = shared;
      const data = path.length >= 4 ? path : [path[0], path[1], path[0], path[1]];
      this.events.request("addMapObject", { mapId: map.id, kind: "measurements", object: { data, type: "grid", color: "#ffd34d", hidden: false } })?.then((m) => {
        shared.id = (m as { id?: string }).id ?? null;
        const r = this.renderer();
        if (r && shared.id) r.localRuler = shared.id;
        if (shared.dropped) this.remove(shared);
        else this.share(this.fullPath());
      }, () => {});
      return;
    }
    const key = path.join(",");
    if (!this.shared.id || key === this.shared.sent || path.length < 4) return;
    this.shared.sent = key;
    this.events.send("moveMapObject", { mapId: this.shared.mapId, kind: "measurements", id: this.shared.id, data: path.map((n) => Math.round(n)), state: "control" });
  }

  /**
   * Pins the shared ruler where it is: its move ends (the server stores
   * the path and every page draws it from the map) and this page forgets
   * it without removing it. False when there is nothing shared to pin.
   */
  pin(): boolean {
    const shared = this.shared;
    const path = this.fullPath();
    if (!this.events || !shared?.id || path.length < 4) return false;
    this.events.send("moveMapObject", { mapId: shared.mapId, kind: "measurements", id: shared.id, data: path.map((n) => Math.round(n)), state: "end" });
    this.shared = null;
    const r = this.renderer();
    if (r && r.localRuler === shared.id) {
      r.localRuler = null;
      r.redrawObjects("measurements");
    }
    this.points = [];
    this.hover = null;
    this.finished = false;
    this.draw();
    return true;
  }

  private unshare(): void {
    if (!this.shared) return;
    this.shared.dropped = true;
    if (this.shared.id) this.remove(this.shared);
    this.shared = null;
  }

  private remove(shared: { id: string | null; mapId: string }): void {
    if (shared.id) this.events?.request("deleteMapObject", { mapId: shared.mapId, kind: "measurements", id: shared.id })?.catch(() => {});
  }

  /** Measures along map points (the test hook's rulerFromTo), as clicks would. */
  measure(mapPoints: number[]): RulerView | null {
    this.points = [];
    for (let i = 0; i + 1 < mapPoints.length; i += 2) this.points.push(...this.snapPoint(mapPoints[i], mapPoints[i + 1], i === 0));
    this.hover = null;
    this.finished = true;
    this.draw();
    return this.view();
  }

  private snapPoint(x: number, y: number, first: boolean): [number, number] {
    const r = this.renderer();
    const map = r?.store.map;
    if (!r || !map) return [x, y];
    if (first) {
      // Start at a token's centre when the click is on one.
      for (const tk of r.store.tokens.values()) {
        const v = r.views.get(tk.id);
        if (!v?.visible) continue;
        const g = gridOf(map);
        const hw = ((tk.width ?? 1) * g.size) / 2, hh = ((tk.height ?? 1) * g.size) / 2;
        if (Math.abs(x - tk.x) <= hw && Math.abs(y - tk.y) <= hh) return [tk.x, tk.y];
      }
    }
    const s = snap(gridOf(map), x, y, 1, 1);
    return [s.x, s.y];
  }

  private onDown(e: PointerEvent): void {
    const r = this.renderer();
    if (!r || e.button !== 0) return;
    e.preventDefault();
    if (this.finished) this.clear();
    const p = r.screenToMap(e.clientX, e.clientY);
    this.points.push(...this.snapPoint(p.x, p.y, this.points.length === 0));
    this.draw();
  }

  private onMove(e: PointerEvent): void {
    const r = this.renderer();
    if (!r || this.points.length === 0 || this.finished) return;
    const p = r.screenToMap(e.clientX, e.clientY);
    const [x, y] = this.snapPoint(p.x, p.y, false);
    this.hover = { x, y };
    this.draw();
  }

  private finish(): void {
    this.finished = true;
    this.hover = null;
    this.draw();
  }

  private fullPath(): number[] {
    return this.hover ? [...this.points, this.hover.x, this.hover.y] : this.points;
  }

  view(): RulerView | null {
    const r = this.renderer();
    const map = r?.store.map;
    const path = this.fullPath();
    if (!map || path.length < 2) return null;
    const distance = pathDistance(path, gridOf(map), this.diagonal(), map.gridScale);
    const units = map.gridUnits || "ft";
    return { path: [...path], distance, units, text: t.rulerText(distance, units) };
  }

  /** Redraws in screen space (after a pan or zoom too). */
  draw(): void {
    const r = this.renderer();
    const path = this.fullPath();
    const pinnable = path.length >= 4 && !!this.shared?.id;
    if (this.pinButton.disabled === pinnable) this.pinButton.disabled = !pinnable;
    if (!r || path.length < 2) {
      // Cleared once: this runs on every frame of a pan, and a write, even
      // of the same value, has the browser paint the layer again (on a CPU
      // renderer a pan frame's cost rose by half).
      if (this.line.getAttribute("points") !== "") this.line.setAttribute("points", "");
      if (this.label.textContent !== "") this.label.textContent = "";
      return;
    }
    const box = this.mapEl.getBoundingClientRect();
    const pts: string[] = [];
    let last = { x: 0, y: 0 };
    for (let i = 0; i + 1 < path.length; i += 2) {
      last = r.mapToScreen(path[i], path[i + 1]);
      pts.push(`${(last.x - box.left).toFixed(1)},${(last.y - box.top).toFixed(1)}`);
    }
    this.line.setAttribute("points", pts.join(" "));
    this.share(path);
    const v = this.view();
    this.label.textContent = v ? v.text : "";
    this.label.setAttribute("x", String(last.x - box.left + 14));
    this.label.setAttribute("y", String(last.y - box.top - 14));
  }
}
