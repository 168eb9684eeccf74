// The map's other objects, each list drawn into its own container so an
// event redraws only what it names: tiles (by layer), drawings, area
// effects, measurements and markers (door icons: doors.ts). Players'
// pages never draw what is hidden or on the dm layer (the server does not
// even send it); the GM map (gm true) draws it too, faded (hiddenAlpha),
// the game master's layer.
import { Assets, Container, Graphics, Sprite, Text, type Texture } from "pixi.js";
import type { AreaEffect, Drawing, Marker, Measurement, Tile, Wall } from "../types";
import { hexCentreOf, hexCorners, parseColor, type GridSpec } from "./grid";
import { capTexture } from "./textures";

function imageURL(path: string | undefined): string | null {
  if (!path) return null;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return path.startsWith("/") ? path : `/${path}`;
}

/** How faded the GM map draws what players do not see. */
export const hiddenAlpha = 0.45;

/**
 * Whether players do not see an object: hidden, or on the dm layer. A
 * marker without a hidden flag is hidden (the Marker schema's default, as
 * the server applies it).
 */
export function hiddenFromPlayers(o: { hidden?: boolean; layer?: string }, hiddenByDefault = false): boolean {
  if (typeof o.layer === "string" && o.layer.toLowerCase() === "dm") return true;
  return typeof o.hidden === "boolean" ? o.hidden : hiddenByDefault;
}

/**
 * The alpha an object is drawn with: 1 when players see it, hiddenAlpha
 * on the GM map when they do not, and null (not drawn) on a player's page.
 */
function drawnAlpha(o: { hidden?: boolean; layer?: string }, gm: boolean, hiddenByDefault = false): number | null {
  const hidden = gm ? hiddenFromPlayers(o, hiddenByDefault) : o.hidden === true || o.layer === "dm";
  if (!hidden) return 1;
  return gm ? hiddenAlpha : null;
}

/** Tiles of the given layers, in zIndex order; the GM map's dm-layer tiles go with the objects. */
export function drawTiles(c: Container, tiles: Tile[], layers: string[], gm = false): void {
  for (const o of c.removeChildren()) o.destroy({ children: true });
  const shown = gm && layers.includes("object") ? [...layers, "dm"] : layers;
  const list = tiles.filter((t) => drawnAlpha(t, gm) !== null && shown.includes(t.layer ?? "object")).sort((a, b) => (a.zIndex ?? 0) - (b.zIndex ?? 0));
  for (const t of list) {
    const url = imageURL(t.asset?.resource);
    const holder = new Container();
    holder.position.set(t.x, t.y);
    holder.rotation = ((t.rotation ?? 0) * Math.PI) / 180;
    holder.alpha = (t.opacity ?? 1) * (drawnAlpha(t, gm) ?? 1);
    if (gm && hiddenFromPlayers(t) && t.width && t.height) {
      // Marked as the game master's: a dashed-looking outline shows where it is even without art.
      holder.addChild(new Graphics().rect(-t.width / 2, -t.height / 2, t.width, t.height).stroke({ width: 3, color: 0xb388ff, alpha: 0.9 }));
    }
    c.addChild(holder);
    if (!url) continue;
    Assets.load<Texture>({ src: url, parser: "texture" } as never).then(
      (tex) => {
        if (holder.destroyed) return;
        const s = new Sprite(capTexture(tex));
        s.anchor.set(0.5);
        s.width = t.width;
        s.height = t.height;
        holder.addChild(s);
      },
      () => {},
    );
  }
}

export function drawDrawings(g: Graphics, drawings: Drawing[], gm = false, texts?: Container): void {
  g.clear();
  if (texts) for (const o of texts.removeChildren()) o.destroy();
  for (const d of drawings) {
    const fade = drawnAlpha(d, gm);
    if (!Array.isArray(d.data) || d.data.length < 4 || fade === null) continue;
    if (typeof d.text === "string" && d.text) {
      if (!texts) continue;
      // Plain text, never markup: Pixi draws the characters as they are.
      const label = new Text({ text: d.text, style: { fontFamily: "system-ui, sans-serif", fontSize: d.fontSize || 24, fill: parseColor(d.strokeColor, 0xffffff), stroke: { color: 0x000000, width: 3 } }, resolution: 2 });
      label.position.set(d.data[0], d.data[1]);
      label.alpha = (d.opacity ?? 1) * fade;
      texts.addChild(label);
      continue;
    }
    const stroke = { width: d.strokeWidth ?? 3, color: parseColor(d.strokeColor, 0xffffff), alpha: (d.opacity ?? 1) * fade };
    const [x0, y0, x1, y1] = d.data;
    if (d.shape === "rectangle") g.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    else if (d.shape === "ellipse") g.ellipse((x0 + x1) / 2, (y0 + y1) / 2, Math.abs(x1 - x0) / 2, Math.abs(y1 - y0) / 2);
    else if (d.fillColor) g.poly(d.data, true);
    else {
      g.moveTo(x0, y0);
      for (let i = 2; i + 1 < d.data.length; i += 2) g.lineTo(d.data[i], d.data[i + 1]);
    }
    if (d.fillColor) g.fill({ color: parseColor(d.fillColor, 0xffffff), alpha: (d.opacity ?? 1) * 0.5 * fade });
    g.stroke(stroke);
  }
}

/** The squares a template covers (measure's answer) and the map's grid, to highlight them. */
export interface TemplateCells {
  squares: Map<string, number[]>;
  /** The map's grid: on a hex grid the cells are hexes (axial q, r). */
  grid: GridSpec;
}

/**
 * Area effects, each over the squares it covers (as the server's measure
 * answered, the game system's rule) and ringing the token centres listed
 * in inside: the tokens in one.
 */
export function drawAreaEffects(g: Graphics, effects: AreaEffect[], gm = false, cells?: TemplateCells, inside: { x: number; y: number; r: number }[] = []): void {
  g.clear();
  for (const e of [...effects].sort((a, b) => (a.zIndex ?? 0) - (b.zIndex ?? 0))) {
    const fade = drawnAlpha(e, gm);
    if (fade === null) continue;
    const color = parseColor(e.color, 0xff6600);
    const alpha = (e.opacity ?? 0.5) * fade;
    const a = e.angle ?? 0;
    const sq = cells?.squares.get(e.id);
    if (cells && sq) {
      const grid = cells.grid;
      for (let i = 0; i + 1 < sq.length; i += 2) {
        if (grid.type === "square") g.rect(grid.offsetX + sq[i] * grid.size, grid.offsetY + sq[i + 1] * grid.size, grid.size, grid.size);
        else {
          const c = hexCentreOf(grid, sq[i], sq[i + 1]);
          g.poly(hexCorners(grid, c.x, c.y), true);
        }
      }
      g.fill({ color, alpha: Math.min(1, alpha * 0.9) });
    }
    switch (e.shape) {
      case "cone": {
        // As wide at any point as it is far from its origin, capped by the arc of its length.
        const len = e.length ?? 0, half = Math.atan(0.5);
        g.moveTo(e.x, e.y).arc(e.x, e.y, len, a - half, a + half).lineTo(e.x, e.y);
        break;
      }
      case "line": {
        const len = e.length ?? 0, w = (e.width ?? 0) / 2;
        const nx = -Math.sin(a) * w, ny = Math.cos(a) * w, ex = e.x + len * Math.cos(a), ey = e.y + len * Math.sin(a);
        g.poly([e.x + nx, e.y + ny, ex + nx, ey + ny, ex - nx, ey - ny, e.x - nx, e.y - ny], true);
        break;
      }
      case "cube": {
        // side length, one face centred on the origin, along the aim
        const len = e.length ?? 0, w = len / 2;
        const nx = -Math.sin(a) * w, ny = Math.cos(a) * w, ex = e.x + len * Math.cos(a), ey = e.y + len * Math.sin(a);
        g.poly([e.x + nx, e.y + ny, ex + nx, ey + ny, ex - nx, ey - ny, e.x - nx, e.y - ny], true);
        break;
      }
      case "square": {
        // centred, half its side is length, turned by the aim
        const h = e.length ?? 0, c = Math.cos(a), s = Math.sin(a);
        const pts: number[] = [];
        for (const [u, v] of [[-h, -h], [h, -h], [h, h], [-h, h]]) pts.push(e.x + u * c - v * s, e.y + u * s + v * c);
        g.poly(pts, true);
        break;
      }
      default:
        g.circle(e.x, e.y, e.radius ?? 0);
    }
    g.fill({ color, alpha: alpha * 0.35 }).stroke({ width: 2, color, alpha: Math.min(1, alpha + 0.3) });
  }
  for (const t of inside) g.circle(t.x, t.y, t.r).stroke({ width: 4, color: 0xffee00, alpha: 0.95 });
}

export function drawMeasurements(c: Container, list: Measurement[], labelFor: (pixels: number) => string, gm = false): void {
  for (const o of c.removeChildren()) o.destroy();
  const g = new Graphics();
  c.addChild(g);
  for (const m of list) {
    const fade = drawnAlpha(m, gm);
    if (fade === null || !Array.isArray(m.data) || m.data.length < 4) continue;
    const color = parseColor(m.color, 0x00aaff);
    let total = 0;
    g.moveTo(m.data[0], m.data[1]);
    for (let i = 2; i + 1 < m.data.length; i += 2) {
      g.lineTo(m.data[i], m.data[i + 1]);
      total += Math.hypot(m.data[i] - m.data[i - 2], m.data[i + 1] - m.data[i - 1]);
    }
    g.stroke({ width: 4, color, alpha: 0.9 * fade, cap: "round", join: "round" });
    // A ruler stretched live carries the system's count; a stored one is measured here.
    const text = typeof m.distance === "string" && m.distance ? m.distance : labelFor(total);
    const t = new Text({ text, style: { fontFamily: "system-ui, sans-serif", fontSize: 18, fill: 0xffffff, stroke: { color: 0x000000, width: 4 } }, resolution: 2 });
    t.anchor.set(0.5, 1.2);
    t.position.set(m.data[m.data.length - 2], m.data[m.data.length - 1]);
    c.addChild(t);
  }
}

const markerSizes: Record<string, number> = { tiny: 16, small: 22, medium: 30, large: 42, huge: 56 };

export function drawMarkers(c: Container, list: Marker[], gm = false): void {
  for (const o of c.removeChildren()) o.destroy();
  for (const m of list) {
    const fade = drawnAlpha(m, gm, true);
    if (fade === null) continue;
    const size = markerSizes[m.size ?? "medium"] ?? 30;
    const color = parseColor(m.color, 0xff3344);
    const g = new Graphics();
    if (m.shape === "circle" || m.shape === "label") g.circle(0, 0, size / 2);
    else g.moveTo(0, 0).lineTo(-size / 2, -size * 0.9).arc(0, -size * 0.9, size / 2, Math.PI, 0).lineTo(0, 0);
    g.fill({ color }).stroke({ width: 2, color: 0x000000, alpha: 0.6 });
    g.position.set(m.x, m.y);
    const t = new Text({ text: m.label ?? "", style: { fontFamily: "system-ui, sans-serif", fontWeight: "700", fontSize: size * 0.45, fill: 0xffffff }, resolution: 2 });
    t.anchor.set(0.5);
    t.position.set(0, m.shape === "circle" || m.shape === "label" ? 0 : -size * 0.9);
    g.addChild(t);
    g.alpha = fade;
    c.addChild(g);
  }
}

/** Door midpoints: where door icons sit and where a click toggles them. */
export function doorMidpoints(walls: Wall[] | undefined): { id: string; state: string; x: number; y: number }[] {
  const out = [];
  for (const w of walls ?? []) {
    if (w.type !== "door" || !Array.isArray(w.data) || w.data.length < 4) continue; // secret doors stay secret
    const n = w.data.length / 2;
    // Midpoint along the polyline's length.
    let len = 0;
    for (let i = 1; i < n; i++) len += Math.hypot(w.data[2 * i] - w.data[2 * i - 2], w.data[2 * i + 1] - w.data[2 * i - 1]);
    let left = len / 2, x = w.data[0], y = w.data[1];
    for (let i = 1; i < n; i++) {
      const ax = w.data[2 * i - 2], ay = w.data[2 * i - 1], bx = w.data[2 * i], by = w.data[2 * i + 1];
      const seg = Math.hypot(bx - ax, by - ay);
      if (seg >= left) {
        x = ax + ((bx - ax) * left) / (seg || 1);
        y = ay + ((by - ay) * left) / (seg || 1);
        break;
      }
      left -= seg;
    }
    out.push({ id: w.id, state: w.door ?? "closed", x, y });
  }
  return out;
}
