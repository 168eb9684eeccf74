// Line of sight's polygons as triangle fans. A visibility polygon is
// star-shaped around the point it was seen from, and so is any polygon
// clipped to a radius around its centre (clipToRadius walks the angles
// around it): every triangle from that centre to one of its edges lies
// inside it and none overlaps another. So such a polygon needs no general
// triangulation: PixiJS's (earcut) took about a second and a half for the
// 80 light polygons of a map with 40 lights and 2,000 walls, on every bake
// of the darkness mask (tests/perf, the floor benchmark's objects map).
// A polygon whose centre is not known is drawn by a Graphics, as before.
import { Container, Graphics, Mesh, MeshGeometry, Texture } from "pixi.js";

/** Where each polygon made by vision.ts is star-shaped around, when known. */
const centres = new WeakMap<number[], { x: number; y: number }>();

/** Notes that poly is star-shaped around (x, y) (it was seen or clipped from there); returns poly. */
export function markStar(poly: number[], x: number, y: number): number[] {
  if (Number.isFinite(x) && Number.isFinite(y)) centres.set(poly, { x, y });
  return poly;
}

/** The point poly is star-shaped around, or undefined when vision.ts did not note one. */
export function starCentre(poly: number[]): { x: number; y: number } | undefined {
  return centres.get(poly);
}

/**
 * The fans of polys (each with its centre) as one triangle list: the
 * centre then the polygon's points, each triangle centre, point i, point
 * i + 1 (the last closing on the first).
 */
export function fanTriangles(polys: { poly: number[]; x: number; y: number }[]): { positions: Float32Array; indices: Uint32Array } {
  let points = 0, triangles = 0;
  for (const { poly } of polys) {
    const n = poly.length >> 1;
    if (n < 3) continue;
    points += n + 1;
    triangles += n;
  }
  const positions = new Float32Array(points * 2);
  const indices = new Uint32Array(triangles * 3);
  let p = 0, t = 0;
  for (const { poly, x, y } of polys) {
    const n = poly.length >> 1;
    if (n < 3) continue;
    const base = p;
    positions[2 * p] = x;
    positions[2 * p + 1] = y;
    p++;
    for (let i = 0; i < 2 * n; i++) positions[2 * p + i] = poly[i];
    p += n;
    for (let i = 0; i < n; i++) {
      indices[t++] = base;
      indices[t++] = base + 1 + i;
      indices[t++] = base + 1 + ((i + 1) % n);
    }
  }
  return { positions, indices };
}

/**
 * A set of polygons filled in one colour, added (blend "add"): the fans of
 * those with a known centre as one mesh drawn by PixiJS's batcher (no
 * program of its own to compile), the others by a Graphics.
 */
export class FanFill extends Container {
  private mesh: Mesh | null = null;
  private rest = new Graphics();

  constructor() {
    super();
    this.rest.context.batchMode = "batch";
    this.addChild(this.rest);
  }

  /** Fills polys with colour (0xRRGGBB) at alpha, in place of what it held. */
  set(polys: number[][], color: number, alpha = 1): void {
    const fans: { poly: number[]; x: number; y: number }[] = [];
    this.rest.clear();
    let others = false;
    for (const poly of polys) {
      if (poly.length < 6) continue;
      const c = starCentre(poly);
      if (c) fans.push({ poly, x: c.x, y: c.y });
      else {
        this.rest.poly(poly, true);
        others = true;
      }
    }
    if (others) this.rest.fill({ color, alpha });
    const old = this.mesh;
    const oldGeometry = old?.geometry;
    this.mesh = null;
    if (fans.length > 0) {
      const { positions, indices } = fanTriangles(fans);
      const geometry = new MeshGeometry({ positions, uvs: new Float32Array(positions.length), indices });
      geometry.batchMode = "batch";
      this.mesh = new Mesh({ geometry, texture: Texture.WHITE });
      this.mesh.tint = color;
      this.mesh.alpha = alpha;
      this.mesh.blendMode = "add";
      this.addChild(this.mesh);
    }
    old?.destroy();
    oldGeometry?.destroy();
  }
}

/**
 * Polygons each filled in its own colour and alpha, added: one FanFill
 * for each colour and alpha (the lights' tints).
 */
export class TintFill extends Container {
  private fills = new Map<string, FanFill>();

  set(tints: { poly: number[]; color: number; alpha: number }[]): void {
    const groups = new Map<string, { color: number; alpha: number; polys: number[][] }>();
    for (const t of tints) {
      const key = `${t.color} ${t.alpha}`;
      let g = groups.get(key);
      if (!g) {
        g = { color: t.color, alpha: t.alpha, polys: [] };
        groups.set(key, g);
      }
      g.polys.push(t.poly);
    }
    for (const [key, f] of this.fills) {
      if (groups.has(key)) continue;
      f.destroy({ children: true });
      this.fills.delete(key);
    }
    for (const [key, g] of groups) {
      let f = this.fills.get(key);
      if (!f) {
        f = new FanFill();
        this.fills.set(key, f);
        this.addChild(f);
      }
      f.set(g.polys, g.color, g.alpha);
    }
  }
}
