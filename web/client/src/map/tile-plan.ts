// Which tiles of a big map picture a view needs (tiled.ts draws them):
// the level the zoom calls for and the tiles in view at that level.

/** The server's index of a picture's tiles. */
export interface TileIndex {
  width: number;
  height: number;
  tile: number;
  levels: number;
  format: string;
  version: string;
}

/** The part of the map in view, in map units, and map units per screen pixel's inverse. */
export interface MapView {
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** Screen pixels per map unit (the viewport's scale times the device's pixel ratio). */
  pixelsPerUnit: number;
}

export function isIndex(v: unknown): v is TileIndex {
  const o = v as Record<string, unknown>;
  return !!o && typeof o === "object" && [o.width, o.height, o.tile, o.levels].every((n) => typeof n === "number" && n > 0 && Number.isFinite(n)) && typeof o.version === "string";
}

/** The level to draw at pixelsPerUnit, for a picture drawn at `scale` map units a pixel. */
export function levelFor(idx: TileIndex, pixelsPerUnit: number, scale: number): number {
  const screenPerPicture = pixelsPerUnit * scale; // screen pixels per picture pixel
  if (!(screenPerPicture > 0)) return idx.levels - 1;
  // Level L halves the picture L times: the finest level not finer than the screen.
  const level = Math.floor(Math.log2(1 / screenPerPicture));
  return Math.max(0, Math.min(idx.levels - 1, level));
}

/** The tiles (level, x, y) of a level that the view needs, with a tile's margin round it. */
export function tilesInView(idx: TileIndex, level: number, view: MapView, scale: number): [number, number, number][] {
  const span = idx.tile * 2 ** level; // picture pixels a tile covers
  const cols = Math.ceil(Math.ceil(idx.width / 2 ** level) / idx.tile);
  const rows = Math.ceil(Math.ceil(idx.height / 2 ** level) / idx.tile);
  const x0 = Math.max(0, Math.floor(view.left / scale / span) - 1), x1 = Math.min(cols - 1, Math.floor(view.right / scale / span) + 1);
  const y0 = Math.max(0, Math.floor(view.top / scale / span) - 1), y1 = Math.min(rows - 1, Math.floor(view.bottom / scale / span) + 1);
  const out: [number, number, number][] = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) out.push([level, x, y]);
  return out;
}
