// Plane geometry the vision layer needs: clipping a visibility polygon to
// a radius, point-in-polygon, and a fallback visibility polygon for when
// the server has not sent one (an older server, or a token the player is
// dragging right now, before the server's answer arrives).

/**
 * Clips a polygon that is star-shaped around (cx, cy) — every visibility
 * polygon is, seen from its viewer — to the disc of radius r around the
 * same point. Each edge is walked in small angle steps and every point is
 * pulled in to at most r, which is exact for star-shaped input up to the
 * step size (3 degrees).
 *
 * Points pulled onto the circle are kept no closer than that step along
 * it, and points on a straight run are dropped (appendPoint): a whole-map
 * polygon seen past 2,000 walls has some 11,000 points, most beyond a
 * light's reach or in a row along one wall, and each of them used to
 * stay in every clipped copy (a light's dim and bright areas and its
 * tint): the lights of the benchmark's objects map made a mask bake of
 * hundreds of thousands of vertices, megabytes of upload that held a CPU
 * renderer's page for seconds at each bake of the lights.
 */
export function clipToRadius(poly: number[], cx: number, cy: number, r: number): number[] {
  if (!(r > 0)) return [];
  if (!Number.isFinite(r)) return poly;
  const out: number[] = [];
  const n = poly.length / 2;
  const step = (3 * Math.PI) / 180;
  const chord = Math.cos(step) * r * r; // the dot product of two points on the circle one step apart
  // Of the points kept last: whether the last two lie on the circle.
  let lastOn = false, beforeOn = false;
  const push = (x: number, y: number, on: boolean) => {
    const m = out.length;
    if (on && lastOn && beforeOn) {
      // Three on the circle in a row: the middle one is dropped when the
      // outer two are within one step of each other.
      const px = out[m - 4] - cx, py = out[m - 3] - cy;
      if (px * (x - cx) + py * (y - cy) >= chord) {
        out[m - 2] = x;
        out[m - 1] = y;
        return;
      }
    }
    // Points on the circle are not a straight run (a fine arc would pass
    // for one, a little at a time).
    if (on && lastOn) out.push(x, y);
    else if (!appendPoint(out, x, y)) {
      lastOn = on;
      return;
    }
    beforeOn = lastOn;
    lastOn = on;
  };
  for (let i = 0; i < n; i++) {
    const ax = poly[2 * i] - cx, ay = poly[2 * i + 1] - cy;
    const j = (i + 1) % n;
    const bx = poly[2 * j] - cx, by = poly[2 * j + 1] - cy;
    const a0 = Math.atan2(ay, ax);
    let da = Math.atan2(by, bx) - a0;
    if (da > Math.PI) da -= 2 * Math.PI;
    if (da < -Math.PI) da += 2 * Math.PI;
    const steps = Math.max(1, Math.ceil(Math.abs(da) / step));
    for (let k = 0; k < steps; k++) {
      // The point on edge a-b in direction a0 + da*k/steps.
      const ang = a0 + (da * k) / steps;
      const dx = Math.cos(ang), dy = Math.sin(ang);
      const ex = bx - ax, ey = by - ay;
      const den = dx * ey - dy * ex;
      let t = den !== 0 ? (ax * ey - ay * ex) / den : Math.hypot(ax, ay);
      if (!(t >= 0)) t = Math.hypot(ax, ay);
      push(cx + dx * Math.min(t, r), cy + dy * Math.min(t, r), t >= r);
    }
  }
  return out;
}

/** How far off a straight run a point may lie and still be dropped from it (px; the server rounds to 0.01). */
const straightTolerance = 0.02;

/**
 * Appends (x, y) to polygon out, or, when out's last point lies on the
 * straight line from the point before it to (x, y) (within
 * straightTolerance, and between them), puts (x, y) in its place. Returns
 * whether out grew. A visibility polygon seen past many walls carries a
 * point on the visible wall for each hidden corner behind it: thousands
 * in a row that draw nothing a straight edge does not.
 */
function appendPoint(out: number[], x: number, y: number): boolean {
  const m = out.length;
  if (m >= 4) {
    const ax = out[m - 4], ay = out[m - 3], bx = out[m - 2] - ax, by = out[m - 1] - ay;
    const ux = x - ax, uy = y - ay;
    const cross = bx * uy - by * ux, len2 = ux * ux + uy * uy, along = bx * ux + by * uy;
    if (cross * cross <= straightTolerance * straightTolerance * len2 && along >= 0 && along <= len2) {
      out[m - 2] = x;
      out[m - 1] = y;
      return false;
    }
  }
  out.push(x, y);
  return true;
}

/** poly without the points of its straight runs (appendPoint): the same shape, to within straightTolerance. */
export function withoutStraightRuns(poly: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < poly.length; i += 2) appendPoint(out, poly[i], poly[i + 1]);
  return out;
}

/** A circle as a polygon (for an unlimited view clipped to a radius, or no walls at all). */
export function circle(cx: number, cy: number, r: number, steps = 72): number[] {
  const out: number[] = [];
  for (let i = 0; i < steps; i++) {
    const a = (2 * Math.PI * i) / steps;
    out.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return out;
}

/** Even-odd point in polygon (flat x,y list). */
export function inPolygon(poly: number[], x: number, y: number): boolean {
  let inside = false;
  const n = poly.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = poly[2 * i], yi = poly[2 * i + 1], xj = poly[2 * j], yj = poly[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export type Segment = [number, number, number, number];

/** Segments of the walls that block sight: every type but invisible, window and terrain; doors unless open. */
export function sightSegments(walls: { data: number[]; type?: string; door?: string }[] | undefined): Segment[] {
  const out: Segment[] = [];
  for (const w of walls ?? []) {
    const t = w.type ?? "normal";
    if (t === "invisible" || t === "window" || t === "terrain") continue;
    if ((t === "door" || t === "secretDoor") && w.door === "open") continue;
    const d = w.data;
    if (!Array.isArray(d)) continue;
    for (let i = 0; i + 3 < d.length; i += 2) out.push([d[i], d[i + 1], d[i + 2], d[i + 3]]);
  }
  return out;
}

/**
 * The area visible from (x, y) inside box [minX, minY, maxX, maxY]: rays
 * to every segment end and just past it, nearest hit of each. O(n²), a
 * fallback only: the server computes the polygons players normally get.
 */
export function visibilityPolygon(x: number, y: number, segments: Segment[], box: [number, number, number, number]): number[] {
  const [x0, y0, x1, y1] = box;
  const segs: Segment[] = segments.concat([
    [x0, y0, x1, y0], [x1, y0, x1, y1], [x1, y1, x0, y1], [x0, y1, x0, y0],
  ]);
  const angles: number[] = [];
  for (const s of segs) {
    for (const [px, py] of [[s[0], s[1]], [s[2], s[3]]]) {
      const a = Math.atan2(py - y, px - x);
      angles.push(a - 1e-4, a, a + 1e-4);
    }
  }
  angles.sort((a, b) => a - b);
  const out: number[] = [];
  for (const a of angles) {
    const dx = Math.cos(a), dy = Math.sin(a);
    let best = Infinity;
    for (const s of segs) {
      const ex = s[2] - s[0], ey = s[3] - s[1];
      const den = dx * ey - dy * ex;
      if (Math.abs(den) < 1e-12) continue;
      const t = ((s[0] - x) * ey - (s[1] - y) * ex) / den;
      const u = ((s[0] - x) * dy - (s[1] - y) * dx) / den;
      if (t >= 0 && u >= 0 && u <= 1 && t < best) best = t;
    }
    if (best === Infinity) continue;
    out.push(x + dx * best, y + dy * best);
  }
  return out;
}
