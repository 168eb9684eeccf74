// Shared pointers over the map. Holding a finger or the mouse still on the
// map for a moment (or Shift + press) shows the player's pointer to
// everyone: pointerUpdated start, control while it moves (at most 30 a
// second), end on release. Others' pointers (pointerUpdated, pointerMoved)
// are drawn in their colour with their name and fade out once they stop.
// Drawn as SVG over the canvas, placed with the renderer's mapToScreen,
// so the renderer needs no change.
import type { MapRenderer } from "./renderer";
import type { PointerView, TableState } from "../table/state";

const svgNS = "http://www.w3.org/2000/svg";
const holdMs = 450;
const slop = 8;
const fadeAfter = 1500;
const fadeFor = 1000;

export interface PointerDeps {
  renderer(): MapRenderer | null;
  state: TableState;
  /** Sends pointerUpdated; the server echoes it to everyone, this page included. */
  send(p: { x: number; y: number; state: "start" | "control" | "end" }): void;
  /** Whether this page may point now (not a display, not while interaction is none). */
  mayPoint(): boolean;
}

export class PointerLayer {
  readonly svg = document.createElementNS(svgNS, "svg");
  private marks = new Map<string, SVGGElement>();
  private raf = 0;
  private holding: { id: number; x: number; y: number; timer: number } | null = null;
  private pointing: number | null = null;
  private lastSent = 0;
  private pendingMove: { x: number; y: number } | null = null;
  private moveTimer: number | undefined;

  constructor(private mapEl: HTMLElement, private deps: PointerDeps) {
    this.svg.classList.add("pointers");
    this.svg.setAttribute("aria-hidden", "true");
    mapEl.append(this.svg);
    deps.state.subscribe((c) => c === "pointers" && this.schedule());
    // Capture phase: decide before the map starts a pan.
    mapEl.addEventListener("pointerdown", (e) => this.onDown(e), true);
    window.addEventListener("pointermove", (e) => this.onMove(e), true);
    window.addEventListener("pointerup", (e) => this.onUp(e), true);
    window.addEventListener("pointercancel", (e) => this.onUp(e), true);
  }

  /** Pointers as the test hook reports them. */
  list(): { source: string; x: number; y: number; color: string; visible: boolean }[] {
    const now = performance.now();
    return [...this.deps.state.pointers.values()].map((p) => ({ source: p.name || p.source, x: p.x, y: p.y, color: p.color, visible: this.opacity(p, now) > 0 }));
  }

  private opacity(p: PointerView, now: number): number {
    const age = now - p.at - (p.ended ? 0 : fadeAfter);
    if (age <= 0) return 1;
    return Math.max(0, 1 - age / fadeFor);
  }

  schedule(): void {
    if (!this.raf) this.raf = requestAnimationFrame(() => this.draw());
  }

  private draw(): void {
    this.raf = 0;
    const r = this.deps.renderer();
    const now = performance.now();
    const box = this.mapEl.getBoundingClientRect();
    let alive = false;
    for (const p of this.deps.state.pointers.values()) {
      const o = this.opacity(p, now);
      let g = this.marks.get(p.id);
      if (o <= 0 || !r) {
        g?.remove();
        this.marks.delete(p.id);
        if (o <= 0) this.deps.state.pointers.delete(p.id);
        continue;
      }
      alive = true;
      if (!g) {
        g = document.createElementNS(svgNS, "g");
        g.classList.add("pointer");
        const ring = document.createElementNS(svgNS, "circle");
        ring.setAttribute("r", "14");
        const dot = document.createElementNS(svgNS, "circle");
        dot.setAttribute("r", "4");
        const label = document.createElementNS(svgNS, "text");
        label.setAttribute("x", "18");
        label.setAttribute("y", "-12");
        g.append(ring, dot, label);
        this.svg.append(g);
        this.marks.set(p.id, g);
      }
      const s = r.mapToScreen(p.x, p.y);
      g.setAttribute("transform", `translate(${(s.x - box.left).toFixed(1)} ${(s.y - box.top).toFixed(1)})`);
      g.style.opacity = o.toFixed(2);
      g.style.setProperty("--pc", p.color);
      (g.lastChild as SVGTextElement).textContent = p.name;
    }
    for (const [id, g] of this.marks) {
      if (!this.deps.state.pointers.has(id)) {
        g.remove();
        this.marks.delete(id);
      }
    }
    if (alive) this.schedule(); // keep fading
  }

  /** The viewport moved: pointers stay on their map spot. */
  redraw(): void {
    this.schedule();
  }

  private onDown(e: PointerEvent): void {
    if (!this.deps.mayPoint() || e.button !== 0 || this.holding || this.pointing !== null) return;
    if (!(e.target instanceof HTMLCanvasElement)) return;
    if (e.shiftKey) {
      this.begin(e.pointerId, e.clientX, e.clientY);
      e.stopPropagation();
      return;
    }
    const timer = window.setTimeout(() => {
      const h = this.holding;
      this.holding = null;
      if (h) this.begin(h.id, h.x, h.y);
    }, holdMs);
    this.holding = { id: e.pointerId, x: e.clientX, y: e.clientY, timer };
  }

  private begin(id: number, x: number, y: number): void {
    const r = this.deps.renderer();
    if (!r) return;
    for (const v of r.views.keys()) if (r.drag.isDragging(v)) return; // a token drag is under way
    this.pointing = id;
    r.viewport.plugins.pause("drag");
    r.viewport.plugins.pause("decelerate");
    const p = r.screenToMap(x, y);
    this.deps.send({ x: p.x, y: p.y, state: "start" });
    this.lastSent = performance.now();
    this.mapEl.classList.add("pointing");
  }

  private onMove(e: PointerEvent): void {
    if (this.holding && e.pointerId === this.holding.id && Math.hypot(e.clientX - this.holding.x, e.clientY - this.holding.y) > slop) {
      clearTimeout(this.holding.timer);
      this.holding = null;
    }
    if (this.pointing !== e.pointerId) return;
    const r = this.deps.renderer();
    if (!r) return;
    e.stopPropagation();
    this.pendingMove = r.screenToMap(e.clientX, e.clientY);
    const wait = 1000 / 30 - (performance.now() - this.lastSent);
    if (wait <= 0) this.sendMove();
    else if (this.moveTimer === undefined) this.moveTimer = window.setTimeout(() => this.sendMove(), wait);
  }

  private sendMove(): void {
    clearTimeout(this.moveTimer);
    this.moveTimer = undefined;
    if (!this.pendingMove || this.pointing === null) return;
    this.deps.send({ ...this.pendingMove, state: "control" });
    this.pendingMove = null;
    this.lastSent = performance.now();
  }

  private onUp(e: PointerEvent): void {
    if (this.holding && e.pointerId === this.holding.id) {
      clearTimeout(this.holding.timer);
      this.holding = null;
    }
    if (this.pointing !== e.pointerId) return;
    this.sendMove();
    const r = this.deps.renderer();
    this.pointing = null;
    this.mapEl.classList.remove("pointing");
    if (r) {
      const p = r.screenToMap(e.clientX, e.clientY);
      this.deps.send({ x: p.x, y: p.y, state: "end" });
      r.viewport.plugins.resume("drag");
      r.viewport.plugins.resume("decelerate");
    }
  }
}
