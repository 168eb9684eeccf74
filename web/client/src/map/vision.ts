// What the party sees, and its drawing. The server computes visibility
// polygons (one computation serves every page); this module clips them by
// each token's vision and light radii and the map's losVisionLimit; the
// darkness (darkness.ts) follows from them:
//   - outside every party token's sight: black (or the dimmed "explored"
//     look when fogExploration remembers it);
//   - in sight but unlit: darkened by 1 - losDaylight;
//   - dim light (radiusMax, darkvision): half as dark; bright light
//     (radiusMin): clear.
// Party vision is shared: the union of the sight of every friendly or
// player token. isVisibleAt() answers from the same areas the masks draw.
// darkness.ts draws them.
import type { MapData, Sight, Token } from "../types";
import { clipToRadius, inPolygon, sightSegments, visibilityPolygon, withoutStraightRuns, type Segment } from "./geometry";
import { parseColor, pixelsPerUnit } from "./grid";
import { markStar } from "./fan";

/**
 * clipToRadius, remembered for each polygon (by identity: the store keeps
 * a sight's polygon until a new one comes): the 40 lights of a map clipped
 * anew on every step of a drag cost more than the drag's own work. The
 * result is the same array each time, so that comparing areas
 * (samePolys) finds it unchanged at once, and it is marked star-shaped
 * around the centre (fan.ts draws it so).
 */
const clipped = new WeakMap<number[], { x: number; y: number; r: number; out: number[] }[]>();

/**
 * A server polygon without its straight runs (withoutStraightRuns),
 * remembered by identity like clipAround's: past 2,000 walls a polygon
 * has some 11,000 points, most in rows along the walls it sees, and each
 * point is a triangle of every bake of the darkness.
 */
const simplified = new WeakMap<number[], number[]>();

export function serverPolygon(poly: number[]): number[] {
  let out = simplified.get(poly);
  if (!out) {
    out = withoutStraightRuns(poly);
    simplified.set(poly, out);
  }
  return out;
}

export function clipAround(poly: number[], x: number, y: number, r: number): number[] {
  const list = clipped.get(poly) ?? [];
  const hit = list.find((c) => c.x === x && c.y === y && c.r === r);
  if (hit) return hit.out;
  const out = markStar(clipToRadius(poly, x, y, r), x, y);
  clipped.set(poly, list);
  if (list.length >= 4) list.shift(); // a polygon is clipped at its few radii
  list.push({ x, y, r, out });
  return out;
}

export interface VisionInput {
  map: MapData;
  tokens: Iterable<Token>;
  /** Where each token is drawn now (a drag moves its viewpoint). */
  position(t: Token): { x: number; y: number };
  /** Where a gliding token is going (its server polygon is computed there). */
  target?(t: Token): { x: number; y: number };
  sight(key: string): Sight | undefined;
  visionKey(t: Token): string;
  /** Whose eyes the page shows; the whole party's when absent. */
  isViewer?(t: Token): boolean;
  /** Whether this page is dragging the token now (its polygons come from the server's echoes). */
  dragging?(t: Token): boolean;
}

interface Lit {
  poly: number[];
  color: number;
  alpha: number;
}

export interface VisionAreas {
  lineOfSight: boolean;
  sight: number[][];
  bright: number[][];
  dim: number[][];
  tints: Lit[];
  daylight: number;
  /**
   * The standalone lights' (and lit tiles') share of sight, dim, bright and
   * tints, which are also in the lists above: it changes only when the
   * lights or their polygons do, and darkness.ts bakes it apart from the
   * tokens' share, which a drag changes at every step.
   */
  lit: { sight: number[][]; dim: number[][]; bright: number[][]; tints: Lit[] };
  /**
   * Whether the areas depend on where tokens are drawn (a polygon computed
   * here from the walls, or an old-form one without its origin): then they
   * must be computed again when a token moves on screen. Otherwise they
   * change only when the server's polygons, the tokens or the map do.
   */
  followsDrawn: boolean;
}

/** Party tokens share their vision: friendly or player tokens with vision on. */
export function isPartyViewer(t: Token): boolean {
  return (t.player === true || t.role === "friendly") && !!t.vision && t.vision.enabled !== false;
}

export function computeAreas(inp: VisionInput): VisionAreas {
  const map = inp.map;
  const daylight = Math.max(0, Math.min(1, map.losDaylight ?? 1));
  const lit: VisionAreas["lit"] = { sight: [], dim: [], bright: [], tints: [] };
  const areas: VisionAreas = { lineOfSight: !!map.lineOfSight, sight: [], bright: [], dim: [], tints: [], daylight, followsDrawn: false, lit };
  if (!map.lineOfSight) return areas;
  const ppu = pixelsPerUnit(map);
  const limit = typeof map.losVisionLimit === "number" && map.losVisionLimit >= 0 ? map.losVisionLimit * ppu : Infinity;
  const w = map.width ?? 0, h = map.height ?? 0;
  let segments: Segment[] | null = null;
  const near = (s: Sight, p: { x: number; y: number } | undefined) => !!p && Math.abs(s.x - p.x) < 1 && Math.abs(s.y - p.y) < 1;
  // A viewer's polygon and the point its radii are measured from. The
  // server's polygon is used, around the point it was computed from, when
  // that is where the viewer is drawn, where it glides to, or while this
  // page drags it (the server answers every step with the polygon there:
  // the sight follows the echoes, not every frame). So a glide or a drag
  // changes the areas only when a new polygon arrives. Otherwise (no
  // polygon, an old one, or an old-form one without its origin) it is
  // computed here from the walls, where the viewer is drawn.
  const polygonAt = (key: string, x: number, y: number, goal?: { x: number; y: number }, dragged = false): { poly: number[]; cx: number; cy: number; here: boolean } => {
    const s = inp.sight(key);
    // The server's polygon was seen from (s.x, s.y): star-shaped around it.
    if (s && !Number.isNaN(s.x) && (near(s, { x, y }) || near(s, goal) || dragged)) return { poly: markStar(serverPolygon(s.polygon), s.x, s.y), cx: s.x, cy: s.y, here: false };
    if (s && Number.isNaN(s.x)) return { poly: s.polygon, cx: x, cy: y, here: true };
    segments ??= sightSegments(map.walls);
    if (segments.length === 0 && w > 0) return { poly: [0, 0, w, 0, w, h, 0, h], cx: x, cy: y, here: true };
    return { poly: markStar(visibilityPolygon(x, y, segments, [0, 0, w || 10000, h || 10000]), x, y), cx: x, cy: y, here: true };
  };
  for (const t of inp.tokens) {
    if (!(inp.isViewer ?? isPartyViewer)(t)) continue;
    const v = t.vision!;
    const at = inp.position(t);
    const key = inp.sight(inp.visionKey(t)) ? inp.visionKey(t) : `token-${t.id}`;
    const { poly, cx: x, cy: y, here } = polygonAt(key, at.x, at.y, inp.target?.(t), inp.dragging?.(t) ?? false);
    if (here) areas.followsDrawn = true;
    if (poly.length < 6) continue;
    areas.sight.push(Number.isFinite(limit) ? clipAround(poly, x, y, limit) : poly);
    if (v.light) {
      const max = (v.lightRadiusMax ?? 0) * ppu, min = (v.lightRadiusMin ?? 0) * ppu;
      if (max > 0) {
        const p = clipAround(poly, x, y, max);
        areas.dim.push(p);
        areas.tints.push({ poly: p, color: parseColor(v.lightColor, 0xffffff), alpha: v.lightOpacity ?? 0.3 });
      }
      if (min > 0) areas.bright.push(clipAround(poly, x, y, min));
    }
    if (v.dark && (v.darkRadiusMax ?? 0) > 0) areas.dim.push(clipAround(poly, x, y, (v.darkRadiusMax ?? 0) * ppu));
  }
  // Standalone lights, and lights carried by tiles (they move with the tile).
  const lights = [...(map.lights ?? []), ...(map.tiles ?? []).filter((t) => t.light && !t.hidden).map((t) => ({ ...t.light!, x: t.x, y: t.y }))];
  for (const l of lights) {
    if (l.enabled === false) continue;
    const { poly } = polygonAt(`light-${l.id}`, l.x, l.y);
    if (poly.length < 6) continue;
    const max = (l.radiusMax ?? 0) * ppu, min = (l.radiusMin ?? 0) * ppu;
    if (max > 0) {
      const p = clipAround(poly, l.x, l.y, max);
      lit.dim.push(p);
      lit.tints.push({ poly: p, color: parseColor(l.color, 0xffffff), alpha: l.opacity ?? 0.3 });
      // A light marked always visible shows its own area even outside the party's sight.
      if (l.alwaysVisible) lit.sight.push(p);
    }
    if (min > 0) lit.bright.push(clipAround(poly, l.x, l.y, min));
  }
  areas.sight.push(...lit.sight);
  areas.dim.push(...lit.dim);
  areas.bright.push(...lit.bright);
  areas.tints.push(...lit.tints);
  return areas;
}

/** Whether the party sees (x, y): inside someone's sight, and lit enough (daylight, light, darkvision). */
export function visibleIn(a: VisionAreas, x: number, y: number): boolean {
  if (!a.lineOfSight) return true;
  if (!a.sight.some((p) => inPolygon(p, x, y))) return false;
  if (a.daylight > 0) return true;
  return a.dim.some((p) => inPolygon(p, x, y)) || a.bright.some((p) => inPolygon(p, x, y));
}

/** Whether two areas darken the same places (the tints are drawn apart). */
export function sameDarkness(a: VisionAreas, b: VisionAreas): boolean {
  return a.daylight === b.daylight && samePolys(a.sight, b.sight) && samePolys(a.dim, b.dim) && samePolys(a.bright, b.bright);
}

export function samePolys(a: number[][], b: number[][]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const p = a[i], q = b[i];
    if (p === q) continue;
    if (p.length !== q.length) return false;
    for (let j = 0; j < p.length; j++) if (p[j] !== q[j]) return false;
  }
  return true;
}
