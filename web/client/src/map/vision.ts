// What the party sees, and its drawing. The server computes visibility
// polygons (one computation serves every page); this module clips them by
// each token's vision and light radii and the map's losVisionLimit, and
// draws darkness into a texture, erasing the sight and light polygons:
//   - outside every party token's sight: black (or the dimmed "explored"
//     look when fogExploration remembers it);
//   - in sight but unlit: darkened by 1 - losDaylight;
//   - dim light (radiusMax, darkvision): half as dark; bright light
//     (radiusMin): clear.
// Party vision is shared: the union of the sight of every friendly or
// player token. isVisibleAt() answers from the same areas the masks draw.
import { Container, Graphics, RenderTexture, Sprite, type Renderer } from "pixi.js";
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
}

/** Party tokens share their vision: friendly or player tokens with vision on. */
export function isPartyViewer(t: Token): boolean {
  return (t.player === true || t.role === "friendly") && !!t.vision && t.vision.enabled !== false;
}

export function computeAreas(inp: VisionInput): VisionAreas {
  const map = inp.map;
  const daylight = Math.max(0, Math.min(1, map.losDaylight ?? 1));
  const areas: VisionAreas = { lineOfSight: !!map.lineOfSight, sight: [], bright: [], dim: [], tints: [], daylight };
  if (!map.lineOfSight) return areas;
  const ppu = pixelsPerUnit(map);
  const limit = typeof map.losVisionLimit === "number" && map.losVisionLimit >= 0 ? map.losVisionLimit * ppu : Infinity;
  const w = map.width ?? 0, h = map.height ?? 0;
  let segments: Segment[] | null = null;
  const near = (s: Sight, p: { x: number; y: number } | undefined) => !!p && Math.abs(s.x - p.x) < 1 && Math.abs(s.y - p.y) < 1;
  const polygonAt = (key: string, x: number, y: number, goal?: { x: number; y: number }): number[] => {
    const s = inp.sight(key);
    // A server polygon is used when it was computed from where the viewer
    // is drawn, or where it is gliding to (a glide lasts a few frames; the
    // server's polygon is right at its end). Old-form polygons carry no
    // origin: trusted as they are.
    if (s && (Number.isNaN(s.x) || near(s, { x, y }) || near(s, goal))) return s.polygon;
    segments ??= sightSegments(map.walls);
    if (segments.length === 0 && w > 0) return [0, 0, w, 0, w, h, 0, h];
    return visibilityPolygon(x, y, segments, [0, 0, w || 10000, h || 10000]);
  };
  for (const t of inp.tokens) {
    if (!(inp.isViewer ?? isPartyViewer)(t)) continue;
    const v = t.vision!;
    const { x, y } = inp.position(t);
    const key = inp.sight(inp.visionKey(t)) ? inp.visionKey(t) : "token-" + t.id;
    const poly = polygonAt(key, x, y, inp.target?.(t));
    if (poly.length < 6) continue;
    areas.sight.push(isFinite(limit) ? clipToRadius(poly, x, y, limit) : poly);
    if (v.light) {
      const max = (v.lightRadiusMax ?? 0) * ppu, min = (v.lightRadiusMin ?? 0) * ppu;
      if (max > 0) {
        areas.dim.push(clipToRadius(poly, x, y, max));
        areas.tints.push({ poly: clipToRadius(poly, x, y, max), color: parseColor(v.lightColor, 0xffffff), alpha: v.lightOpacity ?? 0.3 });
      }
      if (min > 0) areas.bright.push(clipToRadius(poly, x, y, min));
    }
    if (v.dark && (v.darkRadiusMax ?? 0) > 0) areas.dim.push(clipToRadius(poly, x, y, (v.darkRadiusMax ?? 0) * ppu));
  }
  // Standalone lights, and lights carried by tiles (they move with the tile).
  const lights = [...(map.lights ?? []), ...(map.tiles ?? []).filter((t) => t.light && !t.hidden).map((t) => ({ ...t.light!, x: t.x, y: t.y }))];
  for (const l of lights) {
    if (l.enabled === false) continue;
    const poly = polygonAt("light-" + l.id, l.x, l.y);
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

/**
 * The darkness overlay, three layers over the map: `unlit` outside dim and
 * bright light, `undim` outside bright light, `blind` outside sight. It is
 * drawn once per vision change into a texture the size of the map (at
 * most maxSide pixels a side), and each frame shows that texture: a CPU
 * renderer (SwiftShader, weak phone GPUs) pays for every full-map pass.
 *
 * The holes are cut with the erase blend mode (destination × (1 − source
 * alpha)), not stencil masks: a stencil mask draws its polygons twice and
 * its layer through a stencil test, three times a bake, and a party token
 * that moves re-bakes every frame. Erasing an opaque polygon is idempotent,
 * so overlapping sight and light polygons need no union. The order makes
 * it exact: bright ⊆ dim ∪ bright, so erasing bright after `undim` only
 * clears `unlit` where it was already cleared. `blind` sits on top of both
 * and has holes of its own, so it is baked into a second texture (erased
 * where the party sees) and drawn over the first as a sprite.
 *
 * Past the map's edges, where no sight reaches, the same three fills are
 * plain rectangles. The layer rectangles are rebuilt only when the map or
 * the daylight changes, and a bake is skipped when no polygon changed.
 * bake() draws the textures; the renderer calls it before a frame (draw()
 * only records what to draw).
 */
export class VisionLayer extends Container {
  private tintLayer = new Graphics();
  private darkness = new Container(); // rendered into the texture, never shown itself
  private unlit = new Graphics(); // outside dim and bright light
  private eraseDim = new Graphics();
  private undim = new Graphics(); // outside bright light
  private eraseBright = new Graphics();
  private blindSprite = new Sprite(); // the blind texture, drawn over unlit and undim
  private blindScene = new Container(); // rendered into the blind texture
  private blind = new Graphics(); // outside sight
  private eraseSight = new Graphics();
  private outside = new Graphics(); // the darkness past the map's edges
  private sprite = new Sprite();
  private texture: RenderTexture | null = null;
  private blindTexture: RenderTexture | null = null;
  private scaleK = 1;
  private due = false;
  private layersKey = ""; // what the rectangles were drawn for
  private polysKey: VisionAreas | null = null; // the polygons the textures hold
  areas: VisionAreas | null = null;
  static maxSide = 1024;

  constructor() {
    super();
    this.tintLayer.blendMode = "add";
    this.addChild(this.tintLayer, this.sprite, this.outside);
    for (const g of [this.eraseDim, this.eraseBright, this.eraseSight]) g.blendMode = "erase";
    this.darkness.addChild(this.unlit, this.eraseDim, this.undim, this.eraseBright, this.blindSprite);
    this.blindScene.addChild(this.blind, this.eraseSight);
  }

  draw(a: VisionAreas, map: MapData, blindAlpha = 1): void {
    this.areas = a;
    this.tintLayer.clear();
    this.visible = a.lineOfSight;
    if (!a.lineOfSight) {
      this.due = false;
      this.layersKey = "";
      this.polysKey = null;
      return;
    }
    const pad = 4000; // darkness reaches past the map edges when panned out
    const mw = map.width ?? 0, mh = map.height ?? 0;
    const dark = (1 - a.daylight) * 0.9;
    for (const t of a.tints) this.tintLayer.poly(t.poly, true).fill({ color: t.color, alpha: Math.min(0.35, t.alpha * 0.35) });
    const key = `${mw}x${mh} ${dark} ${blindAlpha}`;
    if (key !== this.layersKey) {
      this.layersKey = key;
      this.polysKey = null;
      this.drawLayers(mw, mh, pad, dark, blindAlpha);
    }
    if (this.polysKey && sameDarkness(this.polysKey, a)) return;
    this.polysKey = a;
    const fill = (g: Graphics, polys: number[][]) => {
      g.clear();
      for (const p of polys) if (p.length >= 6) g.poly(p, true);
      g.fill({ color: 0xffffff });
    };
    fill(this.eraseDim, a.dim.concat(a.bright));
    fill(this.eraseBright, a.bright);
    fill(this.eraseSight, a.sight); // no sight: nothing erased, all blind
    this.due = true;
  }

  /** The three full-map fills, the frame past the edges, and the textures' size. */
  private drawLayers(mw: number, mh: number, pad: number, dark: number, blindAlpha: number): void {
    for (const g of [this.unlit, this.undim, this.blind, this.outside]) g.clear();
    const w = mw + 2 * pad, h = mh + 2 * pad;
    // unlit + undim stack to `dark`; undim alone (dim light) gives half of it.
    const half = dark / 2;
    const outer = 1 - (1 - dark) / (1 - half);
    if (dark > 0) {
      this.unlit.rect(-pad, -pad, w, h).fill({ color: 0x05060a, alpha: outer });
      this.undim.rect(-pad, -pad, w, h).fill({ color: 0x05060a, alpha: half });
    }
    this.blind.rect(-pad, -pad, w, h).fill({ color: 0x000000, alpha: blindAlpha });
    // Sight and light polygons stay inside the map, so past its edges all
    // three layers apply: the same fills, in the same order.
    const frame = (g: Graphics) => g.rect(-pad, -pad, w, pad).rect(-pad, mh, w, pad).rect(-pad, 0, pad, mh).rect(mw, 0, pad, mh);
    if (dark > 0) {
      frame(this.outside).fill({ color: 0x05060a, alpha: outer });
      frame(this.outside).fill({ color: 0x05060a, alpha: half });
    }
    frame(this.outside).fill({ color: 0x000000, alpha: blindAlpha });
    this.scaleK = Math.min(1, VisionLayer.maxSide / Math.max(1, mw, mh));
    const tw = Math.max(1, Math.ceil(mw * this.scaleK)), th = Math.max(1, Math.ceil(mh * this.scaleK));
    if (!this.texture || this.texture.width !== tw || this.texture.height !== th) {
      this.texture?.destroy(true);
      this.blindTexture?.destroy(true);
      this.texture = RenderTexture.create({ width: tw, height: th, resolution: 1 });
      this.blindTexture = RenderTexture.create({ width: tw, height: th, resolution: 1 });
      this.sprite.texture = this.texture;
      this.blindSprite.texture = this.blindTexture;
    }
    this.sprite.scale.set(1 / this.scaleK);
    // The darkness container is scaled by scaleK when baked: the blind
    // texture, already at texture pixels, is drawn back at scale 1.
    this.blindSprite.scale.set(1 / this.scaleK);
  }

  /** Draws the darkness into its textures when draw() changed it; before a frame. */
  bake(renderer: Renderer): void {
    if (!this.due || !this.texture || !this.blindTexture) return;
    this.due = false;
    this.blindScene.scale.set(this.scaleK);
    renderer.render({ container: this.blindScene, target: this.blindTexture, clear: true, clearColor: [0, 0, 0, 0] });
    this.darkness.scale.set(this.scaleK);
    renderer.render({ container: this.darkness, target: this.texture, clear: true, clearColor: [0, 0, 0, 0] });
  }
}

/** Whether two areas darken the same places (the tints are drawn apart). */
export function sameDarkness(a: VisionAreas, b: VisionAreas): boolean {
  return a.daylight === b.daylight && samePolys(a.sight, b.sight) && samePolys(a.dim, b.dim) && samePolys(a.bright, b.bright);
}

function samePolys(a: number[][], b: number[][]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const p = a[i], q = b[i];
    if (p === q) continue;
    if (p.length !== q.length) return false;
    for (let j = 0; j < p.length; j++) if (p[j] !== q[j]) return false;
  }
  return true;
}
