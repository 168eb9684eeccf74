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
