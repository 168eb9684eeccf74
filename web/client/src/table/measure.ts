// Distances along a ruler's path, counted the way the game system counts
// them. On a square grid the system's diagonal rule decides
// (config.measurement.diagonal in GET /api/system): "equal" (a diagonal
// step is one square, D&D 5e's default), "alternate" (5-10-5: every second
// diagonal counts two) or "euclidean" (straight-line length). On a hex
// grid a path counts hexes. Points are cell centres, in map pixels.

import { hexAxial } from "../map/grid";

export type Diagonal = "equal" | "alternate" | "euclidean";

export interface MeasureGrid {
  type: "square" | "hexFlat" | "hexPointy";
  size: number;
  offsetX: number;
  offsetY: number;
}

export function diagonalRule(v: unknown): Diagonal {
  return v === "alternate" || v === "euclidean" ? v : "equal";
}

/** Cells (squares or hexes) along the path's points, flat [x, y, x, y, …]. */
export function pathCells(path: number[], g: MeasureGrid, diagonal: Diagonal): number {
  let cells = 0;
  let diagonals = 0; // "alternate" carries its count across waypoints
  for (let i = 2; i + 1 < path.length; i += 2) {
    const x0 = path[i - 2], y0 = path[i - 1], x1 = path[i], y1 = path[i + 1];
    if (g.type !== "square") {
      const [q0, r0] = hexAxial(g, x0, y0), [q1, r1] = hexAxial(g, x1, y1);
      const dq = q1 - q0, dr = r1 - r0;
      cells += (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
      continue;
    }
    const dx = Math.abs(x1 - x0) / g.size, dy = Math.abs(y1 - y0) / g.size;
    if (diagonal === "euclidean") {
      cells += Math.hypot(dx, dy);
      continue;
    }
    const sx = Math.round(dx), sy = Math.round(dy);
    const diag = Math.min(sx, sy), straight = Math.max(sx, sy) - diag;
    if (diagonal === "equal") {
      cells += diag + straight;
    } else {
      // 5-10-5: the 2nd, 4th, … diagonal of the whole path costs two.
      const extra = Math.floor((diagonals + diag) / 2) - Math.floor(diagonals / 2);
      diagonals += diag;
      cells += diag + straight + extra;
    }
  }
  return cells;
}

/** The path's length in the map's units (gridScale per cell, e.g. 5 ft). */
export function pathDistance(path: number[], g: MeasureGrid, diagonal: Diagonal, gridScale: number | undefined): number {
  const scale = typeof gridScale === "number" && gridScale > 0 ? gridScale : 5;
  const d = pathCells(path, g, diagonal) * scale;
  return Math.round(d * 10) / 10;
}
