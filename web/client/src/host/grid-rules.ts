// The Grids card's rules, apart from drawing (so Node tests them): the
// grid change its fields describe, and the shapes of a preview's grid in
// map pixels (docs/host-console.md, "Grid preview").

export interface GridSettings {
  gridSize: number;
  gridOffsetX: number;
  gridOffsetY: number;
  gridType: string;
  gridScale?: number;
  gridUnits?: string;
}

export interface HexLattice {
  orientation?: string;
  radius?: number;
  corners: number[];
  origin: { x: number; y: number };
  step: { x: number; y: number };
  shift: { x: number; y: number };
  shiftOdd: string;
  columns: number;
  rows: number;
}

export interface GridPreview {
  mapId?: string;
  name: string;
  gridPending?: boolean;
  media: { kind: string; url?: string; width: number; height: number };
  grid: GridSettings & { gridScale: number; gridUnits: string };
  cells: { across: number; down: number };
  lines?: { x: number[]; y: number[] };
  hex?: HexLattice;
}

/** The most hex cells the card draws; finer cells say they are too small. */
export const maxHexCells = 60000;

/** The fields as they are typed (input values). */
export interface GridFields {
  size: string;
  offsetX: string;
  offsetY: string;
  type: string;
  scale: string;
  units: string;
}

/** The grid change the fields describe: whole pixels; scale and units only when given. */
export function gridChange(f: GridFields): GridSettings {
  const n = (v: string) => Math.round(Number(v));
  const out: GridSettings = { gridSize: n(f.size), gridOffsetX: n(f.offsetX) || 0, gridOffsetY: n(f.offsetY) || 0, gridType: f.type };
  const scale = Number(f.scale);
  if (scale > 0) out.gridScale = scale;
  const units = f.units.trim();
  if (units) out.gridUnits = units;
  return out;
}

/** A grid type the card's select offers: hexes as they are, anything else square. */
export const gridTypeChoice = (t: string): string => (t === "hexFlat" || t === "hexPointy" ? t : "square");

/** The line under the picture: its size and how many cells it spans. */
export function cellsText(p: GridPreview): string {
  const g = p.grid;
  if (!(p.media.width && p.media.height)) return "This map has no size.";
  return (
    p.media.width + "×" + p.media.height + " px: " + p.cells.across + " × " + p.cells.down + " cells of " + g.gridSize + " px" +
    (g.gridScale ? ` (${g.gridScale} ${g.gridUnits} each)` : "")
  );
}

/** The state line: how many maps wait, or where the open one stands. */
export function gridStateText(waiting: number, p: GridPreview | null): { text: string; tone: string } {
  if (!p) return { text: waiting ? `${mapsWaiting(waiting)} for a grid.` : "No map waits for its grid.", tone: "" };
  if (p.gridPending) return { text: `“${p.name}” waits for its grid: players cannot see it until you set it.`, tone: "warn" };
  return { text: `“${p.name}” is ready for the player screen.`, tone: "good" };
}
const mapsWaiting = (n: number) => `${n} map${n === 1 ? " waits" : "s wait"}`;

/** The centres of a hex lattice's cells (column i, row j), in map pixels. */
export function hexCentres(hx: HexLattice): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < hx.columns; i++) {
    for (let j = 0; j < hx.rows; j++) {
      let x = hx.origin.x + i * hx.step.x,
        y = hx.origin.y + j * hx.step.y;
      if ((hx.shiftOdd === "columns" && i % 2) || (hx.shiftOdd === "rows" && j % 2)) {
        x += hx.shift.x;
        y += hx.shift.y;
      }
      out.push({ x, y });
    }
  }
  return out;
}

/** The grid offset after a drag of (dx, dy) screen pixels at a scale. */
export function draggedOffset(start: { ox: number; oy: number }, dx: number, dy: number, scale: number): { x: number; y: number } {
  return { x: Math.round(start.ox + dx / scale), y: Math.round(start.oy + dy / scale) };
}

/** A file the card imports as a map: a picture or a video. */
export const isMapPicture = (name: string): boolean => /\.(png|jpe?g|webp|gif|mp4|webm)$/i.test(name);
