// What only the GM map draws over the renderer's layers: walls (doors
// included), light radii, and each connected player's viewport as a
// labelled frame (from GET /host/api/clients, refreshed on the socket's
// clientUpdated and mapViewportUpdated).
import { Container, Graphics, Text } from "pixi.js";
import type { MapRenderer } from "../map/renderer";
import type { Store } from "../state/store";
import { parseColor, pixelsPerUnit } from "../map/grid";

export interface ClientFrame {
  name?: string;
  color?: string;
  runMode?: string;
  mapId?: string;
  mapCenterX?: number;
  mapCenterY?: number;
  mapZoom?: number;
  screenWidth?: number;
  screenHeight?: number;
}

export class GMOverlay {
  show = { walls: true, lights: true, frames: true };
  private r: MapRenderer | null = null;
  private walls = new Graphics();
  private lights = new Graphics();
  private frames = new Container();
  private clients: ClientFrame[] = [];

  constructor(private store: Store) {
    store.subscribe((c) => {
      if (c.kind === "map" || c.kind === "walls" || c.kind === "vision" || (c.kind === "objects" && c.layer === "lights")) this.redraw();
    });
  }

  attach(r: MapRenderer): void {
    this.r = r;
    r.gmLayer.addChild(this.lights, this.walls, this.frames);
    this.redraw();
  }

  setClients(list: ClientFrame[]): void {
    this.clients = Array.isArray(list) ? list : [];
    this.redraw();
  }

  /** The frames drawn now (test hook and the panel's list). */
  drawnFrames(): { name: string; x: number; y: number; width: number; height: number }[] {
    return this.frameRects();
  }

  private frameRects() {
    const map = this.store.map;
    if (!map) return [];
    const out: { name: string; color: string; x: number; y: number; width: number; height: number }[] = [];
    for (const c of this.clients) {
      if (c.mapId && c.mapId !== map.id) continue;
      const zoom = Number(c.mapZoom);
      const cx = Number(c.mapCenterX), cy = Number(c.mapCenterY);
      if (!(zoom > 0) || !Number.isFinite(cx) || !Number.isFinite(cy)) continue;
      const w = (Number(c.screenWidth) || 1024) / zoom, h = (Number(c.screenHeight) || 768) / zoom;
      out.push({ name: c.name || "player", color: c.color || "#ffffff", x: cx - w / 2, y: cy - h / 2, width: w, height: h });
    }
    return out;
  }

  redraw(): void {
    const map = this.store.map;
    this.walls.clear();
    this.lights.clear();
    for (const c of this.frames.removeChildren()) c.destroy();
    if (!map || !this.r) return;
    if (this.show.walls) {
      for (const w of map.walls ?? []) {
        const d = w.data ?? [];
        if (d.length < 4) continue;
        this.walls.moveTo(d[0], d[1]);
        for (let i = 2; i + 1 < d.length; i += 2) this.walls.lineTo(d[i], d[i + 1]);
        const color = w.door ? (w.door === "open" ? 0x4cd964 : w.door === "locked" ? 0xff3b30 : 0xffcc00) : 0x4fc3ff;
        this.walls.stroke({ width: 3, color, alpha: 0.85 });
      }
    }
    if (this.show.lights) {
      const ppu = pixelsPerUnit(map); // radii are in grid units, as the renderer's vision reads them
      for (const l of map.lights ?? []) {
        if (l.enabled === false) continue;
        const c = parseColor(l.color, 0xffe08a);
        if (l.radiusMax) this.lights.circle(l.x, l.y, l.radiusMax * ppu).stroke({ width: 2, color: c, alpha: 0.6 });
        if (l.radiusMin) this.lights.circle(l.x, l.y, l.radiusMin * ppu).stroke({ width: 2, color: c, alpha: 0.9 });
        this.lights.circle(l.x, l.y, 6).fill({ color: c, alpha: 0.9 });
      }
    }
    if (this.show.frames) {
      for (const f of this.frameRects()) {
        const g = new Graphics().rect(f.x, f.y, f.width, f.height).stroke({ width: 4, color: parseColor(f.color, 0xffffff), alpha: 0.9 });
        const label = new Text({ text: f.name, style: { fontFamily: "system-ui, sans-serif", fontSize: 22, fontWeight: "700", fill: 0xffffff, stroke: { color: 0x000000, width: 4 } }, resolution: 2 });
        label.position.set(f.x + 6, f.y + 4);
        this.frames.addChild(g, label);
      }
    }
    this.r.requestRender();
  }
}
