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
import { clipToRadius, inPolygon, sightSegments, visibilityPolygon, type Segment } from "./geometry";
import { parseColor, pixelsPerUnit } from "./grid";

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
  const areas: VisionAreas = { lineOfSight: !!map.lineOfSight, sight: [], bright: [], dim: [], tints: [], daylight, followsDrawn: false };
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
    if (s && !Number.isNaN(s.x) && (near(s, { x, y }) || near(s, goal) || dragged)) return { poly: s.polygon, cx: s.x, cy: s.y, here: false };
    if (s && Number.isNaN(s.x)) return { poly: s.polygon, cx: x, cy: y, here: true };
    segments ??= sightSegments(map.walls);
    if (segments.length === 0 && w > 0) return { poly: [0, 0, w, 0, w, h, 0, h], cx: x, cy: y, here: true };
    return { poly: visibilityPolygon(x, y, segments, [0, 0, w || 10000, h || 10000]), cx: x, cy: y, here: true };
  };
  for (const t of inp.tokens) {
    if (!(inp.isViewer ?? isPartyViewer)(t)) continue;
    const v = t.vision!;
    const at = inp.position(t);
    const key = inp.sight(inp.visionKey(t)) ? inp.visionKey(t) : `token-${t.id}`;
    const { poly, cx: x, cy: y, here } = polygonAt(key, at.x, at.y, inp.target?.(t), inp.dragging?.(t) ?? false);
    if (here) areas.followsDrawn = true;
    if (poly.length < 6) continue;
    areas.sight.push(Number.isFinite(limit) ? clipToRadius(poly, x, y, limit) : poly);
    if (v.light) {
      const max = (v.lightRadiusMax ?? 0) * ppu, min = (v.lightRadiusMin ?? 0) * ppu;
      if (max > 0) {
        const p = clipToRadius(poly, x, y, max);
        areas.dim.push(p);
        areas.tints.push({ poly: p, color: parseColor(v.lightColor, 0xffffff), alpha: v.lightOpacity ?? 0.3 });
      }
      if (min > 0) areas.bright.push(clipToRadius(poly, x, y, min));
    }
    if (v.dark && (v.darkRadiusMax ?? 0) > 0) areas.dim.push(clipToRadius(poly, x, y, (v.darkRadiusMax ?? 0) * ppu));
  }
  // Standalone lights, and lights carried by tiles (they move with the tile).
  const lights = [...(map.lights ?? []), ...(map.tiles ?? []).filter((t) => t.light && !t.hidden).map((t) => ({ ...t.light!, x: t.x, y: t.y }))];
  for (const l of lights) {
    if (l.enabled === false) continue;
    const { poly } = polygonAt(`light-${l.id}`, l.x, l.y);
    if (poly.length < 6) continue;
    const max = (l.radiusMax ?? 0) * ppu, min = (l.radiusMin ?? 0) * ppu;
    if (max > 0) {
      const p = clipToRadius(poly, l.x, l.y, max);
      areas.dim.push(p);
      areas.tints.push({ poly: p, color: parseColor(l.color, 0xffffff), alpha: l.opacity ?? 0.3 });
      // A light marked always visible shows its own area even outside the party's sight.
      if (l.alwaysVisible) areas.sight.push(p);
    }
    if (min > 0) areas.bright.push(clipToRadius(poly, l.x, l.y, min));
  }
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
