import { test } from "node:test";
import assert from "node:assert/strict";
import { clipToRadius, inPolygon, sightSegments, visibilityPolygon } from "./geometry";

test("clipToRadius keeps a star-shaped polygon inside the disc and near its edge where it reached past", () => {
  const square = [-100, -100, 100, -100, 100, 100, -100, 100];
  const c = clipToRadius(square, 0, 0, 50);
  for (let i = 0; i < c.length; i += 2) assert.ok(Math.hypot(c[i], c[i + 1]) <= 50 + 1e-9);
  assert.ok(inPolygon(c, 45, 0) && !inPolygon(c, 55, 0));
  const small = clipToRadius(square, 0, 0, 500);
  assert.ok(inPolygon(small, 99, 99) && !inPolygon(small, 101, 0), "a radius past the polygon changes nothing");
  assert.deepEqual(clipToRadius(square, 0, 0, 0), []);
});

test("clipToRadius keeps no pile of points on the circle from a polygon that reaches far past it", () => {
  // A whole-map visibility polygon past many walls: 12,000 points, all far
  // beyond a light's reach but for a wall 40 px east of the light.
  const far: number[] = [];
  let near = 0;
  for (let i = 0; i < 12000; i++) {
    const a = (2 * Math.PI * i) / 12000 - Math.PI;
    const d = Math.abs(a) < 0.2 ? 40 / Math.cos(a) : 900 + 300 * Math.sin(i * 7.3);
    if (d < 100) near++;
    far.push(d * Math.cos(a), d * Math.sin(a));
  }
  const c = clipToRadius(far, 0, 0, 100);
  // The points within reach, and on the circle about one each 3 degrees.
  assert.ok(c.length / 2 <= near + 125, `${c.length / 2} points for ${near} within reach`);
  for (let i = 0; i < c.length; i += 2) assert.ok(Math.hypot(c[i], c[i + 1]) <= 100 + 1e-9);
  // Still the whole disc but behind the wall, to within the 3-degree steps.
  for (let k = 0; k < 360; k++) {
    const a = (k * Math.PI) / 180;
    const inside = inPolygon(c, 98 * Math.cos(a), 98 * Math.sin(a));
    const off = Math.abs(Math.atan2(Math.sin(a), Math.cos(a))); // from due east
    if (off > 0.25) assert.ok(inside, `the disc's edge at ${k} degrees is lost`);
    else if (off < 0.18) assert.ok(!inside, `the wall at ${k} degrees lets light through`);
  }
  assert.ok(inPolygon(c, 35, 0) && !inPolygon(c, 45, 0), "the wall 40 px east stops it");
});

test("sight segments: open doors, invisible, window and terrain walls do not block", () => {
  const segs = sightSegments([
    { data: [0, 0, 10, 0, 10, 10] },
    { data: [0, 0, 1, 1], type: "door", door: "open" },
    { data: [0, 0, 1, 1], type: "door", door: "closed" },
    { data: [0, 0, 1, 1], type: "invisible" },
    { data: [0, 0, 1, 1], type: "terrain" },
  ]);
  assert.equal(segs.length, 3);
});

test("the fallback visibility polygon stops at a wall", () => {
  const wall: [number, number, number, number] = [50, -1000, 50, 1000];
  const p = visibilityPolygon(0, 0, [wall], [-200, -200, 200, 200]);
  assert.ok(inPolygon(p, 40, 0) && inPolygon(p, -150, 150));
  assert.ok(!inPolygon(p, 60, 0) && !inPolygon(p, 150, -150));
});
