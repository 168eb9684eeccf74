import { test } from "node:test";
import assert from "node:assert/strict";
import { fanTriangles, markStar, starCentre } from "./fan";
import { inPolygon } from "./geometry";

// A star-shaped polygon around (0, 0) that is not convex (a notch in each side).
const star = [-100, -100, 0, -40, 100, -100, 40, 0, 100, 100, 0, 40, -100, 100, -40, 0];

function area(p: number[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a / 2;
}

function trianglesOf(f: { positions: Float32Array; indices: Uint32Array }): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < f.indices.length; i += 3) {
    const t: number[] = [];
    for (let k = 0; k < 3; k++) t.push(f.positions[2 * f.indices[i + k]], f.positions[2 * f.indices[i + k] + 1]);
    out.push(t);
  }
  return out;
}

test("a star-shaped polygon's fan covers it exactly once: every point inside in one triangle, none outside in any", () => {
  const f = fanTriangles([{ poly: star, x: 0, y: 0 }]);
  const tris = trianglesOf(f);
  assert.equal(tris.length, star.length / 2);
  const sum = tris.reduce((s, t) => s + Math.abs(area(t)), 0);
  assert.ok(Math.abs(sum - Math.abs(area(star))) < 1e-6, `the triangles' area ${sum} is the polygon's ${Math.abs(area(star))}`);
  for (let y = -95; y <= 95; y += 10) {
    for (let x = -95; x <= 95; x += 10) {
      const covering = tris.filter((t) => inPolygon(t, x, y)).length;
      assert.equal(covering, inPolygon(star, x, y) ? 1 : 0, `point ${x},${y}`);
    }
  }
});

test("several polygons go into one list, each fan from its own centre; polygons of fewer than three points are left out", () => {
  const square = [200, 200, 300, 200, 300, 300, 200, 300];
  const f = fanTriangles([{ poly: star, x: 0, y: 0 }, { poly: [1, 1, 2, 2], x: 0, y: 0 }, { poly: square, x: 250, y: 250 }]);
  assert.equal(f.positions.length / 2, 9 + 5);
  assert.equal(f.indices.length / 3, 8 + 4);
  const tris = trianglesOf(f);
  assert.ok(tris.slice(8).every((t) => t[0] === 250 && t[1] === 250), "the square's fan starts at its centre");
  assert.equal(tris.filter((t) => inPolygon(t, 260, 270)).length, 1);
});

test("a polygon's star centre is known only once noted", () => {
  const p = [0, 0, 10, 0, 10, 10];
  assert.equal(starCentre(p), undefined);
  assert.equal(markStar(p, 5, 3), p);
  assert.deepEqual(starCentre(p), { x: 5, y: 3 });
  assert.equal(starCentre(markStar([0, 0, 1, 0, 1, 1], Number.NaN, 0)), undefined, "no centre from an unknown origin");
});
