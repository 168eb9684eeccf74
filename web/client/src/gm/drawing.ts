// What the GM map's drawing tools (walls, doors, lights, erase) decide,
// without the DOM or Pixi so it is unit-tested in Node (drawing.test.ts):
// where a click snaps, which object it makes, and the history of edits
// that undo and redo walk. Every edit is one call of the host API's map
// objects (/host/api/maps/{mapId}/{kind}, one path for every kind).

export interface Point {
  x: number;
  y: number;
}

/** A map object as the host API keeps it: a JSON object with an id. */
export type MapObject = Record<string, unknown> & { id: string };

export interface GridLike {
  size: number;
  offsetX: number;
  offsetY: number;
}

/**
 * Where a click at p lands: on the end of an existing wall within reach
 * (so rooms close), else on the nearest corner of a square grid cell within
 * reach, else where it was. Coordinates are whole map pixels.
 */
export function snapPoint(p: Point, walls: { data?: number[] }[], grid: GridLike | null, reach: number): Point {
  let best: Point | null = null;
  let bestDist = reach;
  for (const w of walls) {
    const d = w.data ?? [];
    for (const i of [0, d.length - 2]) {
      if (i < 0 || i + 1 >= d.length) continue;
      const dist = Math.hypot(d[i] - p.x, d[i + 1] - p.y);
      if (dist <= bestDist) {
        best = { x: d[i], y: d[i + 1] };
        bestDist = dist;
      }
    }
  }
  if (best) return best;
  if (grid && grid.size > 0) {
    const gx = Math.round((p.x - grid.offsetX) / grid.size) * grid.size + grid.offsetX;
    const gy = Math.round((p.y - grid.offsetY) / grid.size) * grid.size + grid.offsetY;
    if (Math.hypot(gx - p.x, gy - p.y) <= reach) return { x: gx, y: gy };
  }
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

/** The wall a finished polyline makes, or null with fewer than two distinct points. */
export function wallFrom(points: Point[], type: string): Record<string, unknown> | null {
  const data: number[] = [];
  for (const p of points) {
    const n = data.length;
    if (n >= 2 && data[n - 2] === p.x && data[n - 1] === p.y) continue; // a double click's repeat
    data.push(p.x, p.y);
  }
  if (data.length < 4) return null;
  const wall: Record<string, unknown> = { data };
  if (type && type !== "normal") wall.type = type;
  if (type === "door" || type === "secretDoor") wall.door = "closed";
  return wall;
}

/** The light a click makes: radii in grid units, opacity its intensity. */
export function lightFrom(p: Point, bright: number, dim: number, color: string, intensity: number): Record<string, unknown> {
  const b = Math.max(0, bright), d = Math.max(b, dim);
  return { x: Math.round(p.x), y: Math.round(p.y), radiusMin: b, radiusMax: d, color, opacity: Math.min(1, Math.max(0, intensity)), enabled: true };
}

/** The ambient sound a click makes: a library file heard within radius grid units. */
export function soundFrom(p: Point, url: string, radius: number, hidden: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = { x: Math.round(p.x), y: Math.round(p.y), radius: Math.max(1, radius), url };
  if (hidden) o.hidden = true;
  return o;
}

/** The distance from p to the segment a–b. */
function segmentDistance(p: Point, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len2));
  return Math.hypot(p.x - (ax + t * dx), p.y - (ay + t * dy));
}

/** A wall's points as numbers (none when it has no data). */
function wallPoints(w: MapObject): number[] {
  return Array.isArray(w.data) ? (w.data as number[]) : [];
}

/**
 * The wall point nearest p within reach, for the wall tool's move: the
 * wall and the index of the point's x in its data; null when none.
 */
export function vertexAt(p: Point, walls: MapObject[], reach: number): { wall: MapObject; index: number } | null {
  let best: { wall: MapObject; index: number } | null = null;
  let bestDist = reach;
  for (const w of walls) {
    const d = wallPoints(w);
    for (let i = 0; i + 1 < d.length; i += 2) {
      const dist = Math.hypot(d[i] - p.x, d[i + 1] - p.y);
      if (dist <= bestDist) {
        best = { wall: w, index: i };
        bestDist = dist;
      }
    }
  }
  return best;
}

/** The wall with its point at index (of its data) moved to p. */
export function withVertexMoved(w: MapObject, index: number, p: Point): MapObject {
  const data = [...wallPoints(w)];
  data[index] = p.x;
  data[index + 1] = p.y;
  return { ...w, data };
}

/**
 * Splits the wall segment nearest p within reach at the point of it nearest
 * p (whole pixels): the wall with that point inserted, so each half can be
 * moved on its own. null when no segment is within reach, or the point is
 * one of the wall's own (nothing to split there). A door has no middle to
 * split: null.
 */
export function splitWall(p: Point, walls: MapObject[], reach: number): MapObject | null {
  let best: { wall: MapObject; at: number; x: number; y: number } | null = null;
  let bestDist = reach;
  for (const w of walls) {
    if (w.type === "door" || w.type === "secretDoor") continue;
    const d = wallPoints(w);
    for (let i = 0; i + 3 < d.length; i += 2) {
      const dx = d[i + 2] - d[i], dy = d[i + 3] - d[i + 1];
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - d[i]) * dx + (p.y - d[i + 1]) * dy) / len2));
      const x = d[i] + t * dx, y = d[i + 1] + t * dy;
      const dist = Math.hypot(p.x - x, p.y - y);
      if (dist <= bestDist) {
        best = { wall: w, at: i + 2, x: Math.round(x), y: Math.round(y) };
        bestDist = dist;
      }
    }
  }
  if (!best) return null;
  const d = wallPoints(best.wall);
  const same = (i: number) => d[i] === best.x && d[i + 1] === best.y;
  if (same(best.at - 2) || same(best.at)) return null;
  return { ...best.wall, data: [...d.slice(0, best.at), best.x, best.y, ...d.slice(best.at)] };
}

/** The wall, light or sound nearest p within reach (for the eraser), or null. */
export function objectAt(p: Point, walls: MapObject[], lights: MapObject[], reach: number, sounds: MapObject[] = []): { kind: "walls" | "lights" | "sounds"; object: MapObject } | null {
  let best: { kind: "walls" | "lights" | "sounds"; object: MapObject } | null = null;
  let bestDist = reach;
  for (const [kind, list] of [["lights", lights], ["sounds", sounds]] as const) {
    for (const l of list) {
      const dist = Math.hypot(Number(l.x) - p.x, Number(l.y) - p.y);
      if (dist <= bestDist) {
        best = { kind, object: l };
        bestDist = dist;
      }
    }
  }
  for (const w of walls) {
    const d = Array.isArray(w.data) ? (w.data as number[]) : [];
    for (let i = 0; i + 3 < d.length; i += 2) {
      const dist = segmentDistance(p, d[i], d[i + 1], d[i + 2], d[i + 3]);
      if (dist <= bestDist) {
        best = { kind: "walls", object: w };
        bestDist = dist;
      }
    }
  }
  return best;
}

/**
 * One edit of a map object: added (before null), deleted (after null) or
 * changed. Undo applies its inverse.
 */
export interface Edit {
  mapId: string;
  kind: string;
  before: MapObject | null;
  after: MapObject | null;
}

export function inverse(e: Edit): Edit {
  return { mapId: e.mapId, kind: e.kind, before: e.after, after: e.before };
}

/** The host API call that applies an edit (paths under /host/api/). */
export function requestFor(e: Edit): { method: "POST" | "PATCH" | "DELETE"; path: string; body?: unknown } {
  const base = `maps/${encodeURIComponent(e.mapId)}/${encodeURIComponent(e.kind)}`;
  if (!e.before && e.after) return { method: "POST", path: base, body: e.after };
  if (e.before && !e.after) return { method: "DELETE", path: `${base}/${encodeURIComponent(e.before.id)}` };
  const before = e.before ?? ({} as MapObject), after = e.after ?? ({} as MapObject);
  // A merge patch: what after has, and null for what it dropped.
  const patch: Record<string, unknown> = { ...after };
  for (const k of Object.keys(before)) if (!(k in after)) patch[k] = null;
  delete patch.sight; // derived by the server
  return { method: "PATCH", path: `${base}/${encodeURIComponent(before.id)}`, body: patch };
}

/** The last edits, for undo and redo: a new edit forgets what was undone. */
export class EditHistory {
  private done: Edit[] = [];
  private undone: Edit[] = [];

  constructor(private limit = 100) {}

  push(e: Edit): void {
    this.done.push(e);
    if (this.done.length > this.limit) this.done.shift();
    this.undone = [];
  }

  /** The edit that undoes the last one (its inverse), or null. */
  undo(): Edit | null {
    const e = this.done.pop();
    if (!e) return null;
    this.undone.push(e);
    return inverse(e);
  }

  /** The last undone edit again, or null. */
  redo(): Edit | null {
    const e = this.undone.pop();
    if (!e) return null;
    this.done.push(e);
    return e;
  }

  /** Puts back an undo or redo whose call failed. */
  failed(kind: "undo" | "redo"): void {
    if (kind === "undo") {
      const e = this.undone.pop();
      if (e) this.done.push(e);
    } else {
      const e = this.done.pop();
      if (e) this.undone.push(e);
    }
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }
}
