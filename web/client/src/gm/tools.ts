// The GM map's tools: Move (drag tokens, pan), fog reveal or cover with a
// rectangle or a brush, and Focus (the players' displays look at a point).
// While a tool other than Move is chosen, a press on the map draws with it
// instead of panning, and tokens stay put.
import { Graphics } from "pixi.js";
import type { MapRenderer } from "../map/renderer";
import type { Store } from "../state/store";
import { gridOf } from "../map/grid";
import { hostAPI } from "../net/host-api";
import { extendBrush, fogEdit } from "./edits";

export type Tool = "move" | "reveal-rect" | "cover-rect" | "reveal-brush" | "cover-brush" | "focus";

const toolNames: [Tool, string, string][] = [
  ["move", "Move", "Drag tokens and pan the map"],
  ["reveal-rect", "Reveal ▭", "Drag a rectangle to reveal fog"],
  ["cover-rect", "Cover ▭", "Drag a rectangle to cover with fog"],
  ["reveal-brush", "Reveal ✎", "Paint to reveal fog"],
  ["cover-brush", "Cover ✎", "Paint to cover with fog"],
  ["focus", "Focus ◎", "Click a point: the players' displays look there"],
];

export class MapTools {
  tool: Tool = "move";
  private r: MapRenderer | null = null;
  private preview = new Graphics();
  private stroke: { x0: number; y0: number; x: number; y: number; path: number[]; pointer: number } | null = null;

  constructor(private store: Store, private renderer: () => MapRenderer | null, private say: (t: string, bad?: boolean) => void) {}

  attach(r: MapRenderer, bar: HTMLElement): void {
    this.r = r;
    r.gmLayer.addChild(this.preview);
    for (const [tool, label, title] of toolNames) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.tool = tool;
      b.textContent = label;
      b.title = title;
      b.setAttribute("aria-pressed", String(tool === this.tool));
      b.addEventListener("click", () => this.choose(tool));
      bar.appendChild(b);
    }
    const canvas = r.app.canvas;
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", () => this.abort());
  }

  choose(tool: Tool): void {
    this.tool = tool;
    this.abort();
    for (const b of document.querySelectorAll<HTMLButtonElement>("[data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
    const vp = this.r?.viewport;
    if (vp) {
      if (tool === "move") vp.plugins.resume("drag");
      else vp.plugins.pause("drag");
    }
  }

  private brushRadius(): number {
    const map = this.store.map;
    return map ? gridOf(map).size : 50;
  }

  private down(e: PointerEvent): void {
    if (this.tool === "move" || !this.r || !this.store.map || e.button !== 0) return;
    const p = this.r.screenToMap(e.clientX, e.clientY);
    if (this.tool === "focus") {
      hostAPI("POST", "screen/focus", { x: Math.round(p.x), y: Math.round(p.y) }).then(
        () => this.say(`The players' displays look at ${Math.round(p.x)}, ${Math.round(p.y)}.`),
        (err: Error) => this.say(err.message, true));
      return;
    }
    this.stroke = { x0: p.x, y0: p.y, x: p.x, y: p.y, path: [Math.round(p.x), Math.round(p.y)], pointer: e.pointerId };
    this.draw();
  }

  private move(e: PointerEvent): void {
    const s = this.stroke;
    if (!s || !this.r || e.pointerId !== s.pointer) return;
    const p = this.r.screenToMap(e.clientX, e.clientY);
    s.x = p.x;
    s.y = p.y;
    extendBrush(s.path, p.x, p.y, this.brushRadius());
    this.draw();
  }

  private up(e: PointerEvent): void {
    const s = this.stroke;
    const map = this.store.map;
    if (!s || !map || e.pointerId !== s.pointer) return;
    this.stroke = null;
    this.draw();
    const body = fogEdit(this.tool, s, this.brushRadius(), !!map.fogOfWar);
    if (!body) return;
    const mode = body.mode;
    hostAPI("POST", `maps/${encodeURIComponent(map.id)}/fog`, body).then(
      () => this.say(mode === "reveal" ? "Fog revealed." : "Fog covered."),
      (err: Error) => this.say(err.message, true));
  }

  private abort(): void {
    this.stroke = null;
    this.draw();
  }

  private draw(): void {
    const s = this.stroke;
    this.preview.clear();
    if (s) {
      const color = this.tool.startsWith("reveal") ? 0xffffff : 0x000000;
      if (this.tool.endsWith("rect")) {
        this.preview.rect(Math.min(s.x0, s.x), Math.min(s.y0, s.y), Math.abs(s.x - s.x0), Math.abs(s.y - s.y0))
          .fill({ color, alpha: 0.3 }).stroke({ width: 3, color: 0xffcc00 });
      } else {
        for (let i = 0; i + 1 < s.path.length; i += 2) this.preview.circle(s.path[i], s.path[i + 1], this.brushRadius()).fill({ color, alpha: 0.3 });
      }
    }
    this.renderer()?.requestRender();
  }
}
