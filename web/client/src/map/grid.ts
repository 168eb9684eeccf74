// Grid geometry and drawing: square, hexFlat and hexPointy grids, with
// gridSize the distance between the centres of neighbouring cells (for a
// hex, across its flats), shifted by gridOffsetX/Y. Snapping puts a token
// of w x h cells where the grid wants it: an odd footprint on a cell
// centre, an even one on a grid corner; on a hex grid, on a hex centre.
import type { Graphics } from "pixi.js";
import type { MapData } from "../types";

export interface GridSpec {
  type: "square" | "hexFlat" | "hexPointy";
  size: number;
  offsetX: number;
  offsetY: number;
}

export function gridOf(map: MapData): GridSpec {
  const t = map.gridType === "hexFlat" || map.gridType === "hexPointy" ? map.gridType : "square";
  const size = typeof map.gridSize === "number" && map.gridSize >= 4 ? map.gridSize : 70;
  return { type: t, size, offsetX: map.gridOffsetX ?? 0, offsetY: map.gridOffsetY ?? 0 };
}

/** Pixels per grid unit of distance (e.g. per foot): radii in the shapes are in grid units. */
export function pixelsPerUnit(map: MapData): number {
  const scale = typeof map.gridScale === "number" && map.gridScale > 0 ? map.gridScale : 5;
  return gridOf(map).size / scale;
}

const sqrt3 = Math.sqrt(3);

function cubeRound(q: number, r: number): [number, number] {
  const s = -q - r;
  let rq = Math.round(q), rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq + 0, rr + 0]; // + 0: no -0 in a hex's name
}

/**
 * The axial coordinates (q, r) of the hex that holds (x, y): hex (0, 0) is
 * centred on the grid's offset (the server names template hexes so too).
 */
export function hexAxial(g: GridSpec, x: number, y: number): [number, number] {
  const r = g.size / sqrt3; // centre to corner
  const px = x - g.offsetX, py = y - g.offsetY;
  if (g.type === "hexFlat") return cubeRound(((2 / 3) * px) / r, ((-1 / 3) * px + (sqrt3 / 3) * py) / r);
  return cubeRound(((sqrt3 / 3) * px - (1 / 3) * py) / r, ((2 / 3) * py) / r);
}

/** The centre of hex (q, r) in map pixels. */
export function hexCentreOf(g: GridSpec, q: number, rr: number): { x: number; y: number } {
  const r = g.size / sqrt3;
  if (g.type === "hexFlat") return { x: g.offsetX + r * 1.5 * q, y: g.offsetY + r * sqrt3 * (rr + q / 2) };
  return { x: g.offsetX + r * sqrt3 * (q + rr / 2), y: g.offsetY + r * 1.5 * rr };
}

/** The centre of the hex that holds (x, y). */
export function hexCentre(g: GridSpec, x: number, y: number): { x: number; y: number } {
  const [q, rr] = hexAxial(g, x, y);
  return hexCentreOf(g, q, rr);
}

/** Where a token of w x h cells whose centre is dropped at (x, y) comes to rest. */
export function snap(g: GridSpec, x: number, y: number, w = 1, h = 1): { x: number; y: number } {
  if (g.type !== "square") return hexCentre(g, x, y);
  const s = g.size;
  const fw = Math.max(1, w) * s, fh = Math.max(1, h) * s;
  return {
    x: g.offsetX + Math.round((x - fw / 2 - g.offsetX) / s) * s + fw / 2,
    y: g.offsetY + Math.round((y - fh / 2 - g.offsetY) / s) * s + fh / 2,
  };
}

/** The six corners of the hex centred at (cx, cy), flat x,y list. */
export function hexCorners(g: GridSpec, cx: number, cy: number): number[] {
  const r = g.size / sqrt3;
  const start = g.type === "hexFlat" ? 0 : 30;
  const out: number[] = [];
  for (let i = 0; i < 6; i++) {
    const a = ((start + 60 * i) * Math.PI) / 180;
    out.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return out;
}

export function parseColor(c: string | undefined, fallback: number): number {
  if (typeof c !== "string") return fallback;
  const m = c.trim().match(/^#?([0-9a-f]{6})([0-9a-f]{2})?$/i) ?? c.trim().match(/^#?([0-9a-f]{3})$/i);
  if (!m) return fallback;
  let hex = m[1];
  if (hex.length === 3) hex = hex.split("").map((ch) => ch + ch).join("");
  return parseInt(hex, 16);
}

/** Draws the map's grid into g (cleared first); nothing when gridVisible is false. */
export function drawGrid(g: Graphics, map: MapData): void {
  g.clear();
  if (map.gridVisible === false) return;
  const spec = gridOf(map);
  const w = map.width ?? 0, h = map.height ?? 0;
  const color = parseColor(map.gridColor, 0x444444);
  const alpha = Math.max(0, Math.min(1, map.gridOpacity ?? 0.5));
  if (alpha === 0 || w <= 0 || h <= 0) return;
  const s = spec.size;
  if (spec.type === "square") {
    const x0 = ((spec.offsetX % s) + s) % s, y0 = ((spec.offsetY % s) + s) % s;
    if (map.gridStyle === "corners") {
      const arm = s * 0.15;
      for (let x = x0; x <= w; x += s) {
        for (let y = y0; y <= h; y += s) {
          g.moveTo(x - arm, y).lineTo(x + arm, y).moveTo(x, y - arm).lineTo(x, y + arm);
        }
      }
    } else {
      // A line on the far edge would fall outside the map: not drawn (the
      // renderer no longer masks square grids).
      for (let x = x0; x < w; x += s) g.moveTo(x, 0).lineTo(x, h);
      for (let y = y0; y < h; y += s) g.moveTo(0, y).lineTo(w, y);
    }
    g.stroke({ width: map.gridStyle === "corners" ? 2 : 1, color, alpha, pixelLine: map.gridStyle !== "corners" });
    return;
  }
  // Hexes: walk the centres row by row over the map and draw each hex's
  // outline (a shared edge is drawn twice; at a few thousand hexes that is cheap).
  const r = s / sqrt3;
  const stepX = spec.type === "hexFlat" ? r * 1.5 : s;
  const stepY = spec.type === "hexFlat" ? s : r * 1.5;
  const cols = Math.ceil(w / stepX) + 2, rows = Math.ceil(h / stepY) + 2;
  const ox = spec.offsetX % stepX, oy = spec.offsetY % (spec.type === "hexFlat" ? s : r * 3);
  for (let i = -1; i < cols; i++) {
    for (let j = -1; j < rows; j++) {
      let cx: number, cy: number;
      if (spec.type === "hexFlat") {
        cx = ox + i * stepX;
        cy = oy + j * s + (i & 1 ? s / 2 : 0);
      } else {
        cx = ox + i * s + (j & 1 ? s / 2 : 0);
        cy = oy + j * stepY;
      }
      const c = hexCentre(spec, cx, cy); // lands on the true lattice whatever the offset
      const p = hexCorners(spec, c.x, c.y);
      if (map.gridStyle === "corners") {
        for (let k = 0; k < 12; k += 2) g.circle(p[k], p[k + 1], 1.2);
      } else {
        g.poly(p, true);
      }
    }
  }
  if (map.gridStyle === "corners") g.fill({ color, alpha });
  else g.stroke({ width: 1, color, alpha });
}
