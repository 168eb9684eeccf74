// Marks on the map: which squares each area template covers and which
// tokens stand in them. The squares are the game system's rule, so the
// page asks the server (the measure request) for each template it draws,
// again whenever the template changes, and every page highlights the same
// squares. The renderer draws them (objects.ts drawAreaEffects).
import type { AreaEffect, Token } from "../types";
import { hexAxial, type GridSpec } from "./grid";

/** A grid's cells: square unless its type says hexes. */
type CellGrid = Pick<GridSpec, "size" | "offsetX" | "offsetY"> & { type?: GridSpec["type"] };

/**
 * The cells a token covers: its footprint of width x height cells around
 * its centre; on a hex grid, the hex its centre stands in.
 */
export function tokenCells(t: Pick<Token, "x" | "y" | "width" | "height">, g: CellGrid): [number, number][] {
  if (g.type === "hexFlat" || g.type === "hexPointy") return [hexAxial({ ...g, type: g.type }, t.x, t.y)];
  const w = Math.max(1, Math.round(t.width ?? 1)), h = Math.max(1, Math.round(t.height ?? 1));
  const c0 = Math.round((t.x - (w * g.size) / 2 - g.offsetX) / g.size);
  const r0 = Math.round((t.y - (h * g.size) / 2 - g.offsetY) / g.size);
  const out: [number, number][] = [];
  for (let r = r0; r < r0 + h; r++) for (let c = c0; c < c0 + w; c++) out.push([c, r]);
  return out;
}

/** The tokens standing in at least one square of a template. */
export function tokensInside<T extends Pick<Token, "x" | "y" | "width" | "height">>(tokens: T[], effects: AreaEffect[], squares: Map<string, number[]>, g: CellGrid): T[] {
  const covered = new Set<string>();
  for (const e of effects) {
    const sq = squares.get(e.id);
    if (!sq) continue;
    for (let i = 0; i + 1 < sq.length; i += 2) covered.add(`${sq[i]},${sq[i + 1]}`);
  }
  if (covered.size === 0) return [];
  return tokens.filter((t) => tokenCells(t, g).some(([c, r]) => covered.has(`${c},${r}`)));
}

/** What a template is measured by: when this changes, its squares are asked again. */
export function templateKey(mapKey: string, e: AreaEffect): string {
  return JSON.stringify([mapKey, e.shape, e.x, e.y, e.radius ?? 0, e.length ?? 0, e.width ?? 0, e.angle ?? 0]);
}

/** The template as the measure request sends it. */
export function templateGeometry(e: Partial<AreaEffect>): Record<string, unknown> {
  return { shape: e.shape, x: e.x, y: e.y, radius: e.radius ?? 0, length: e.length ?? 0, width: e.width ?? 0, angle: e.angle ?? 0 };
}

/** The size a template is shown with while it is dragged: its radius or length in the map's units. */
export function templateSize(e: Partial<AreaEffect>, pixelsPerUnit: number, units: string): string {
  const px = e.shape === "sphere" || e.shape === "cylinder" ? e.radius ?? 0 : e.length ?? 0;
  const n = Math.round((px / pixelsPerUnit) * 10) / 10;
  if (e.shape === "line") return `${n} ${units} × ${Math.round(((e.width ?? 0) / pixelsPerUnit) * 10) / 10} ${units}`;
  return `${n} ${units}`;
}
