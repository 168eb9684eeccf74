import { test } from "node:test";
import assert from "node:assert/strict";
import { isIndex, levelFor, tilesInView } from "./tile-plan";

// A 12,000-pixel square: 12000, 6000, 3000, 1500, 750, 375 (one tile): six levels.
const idx = { width: 12000, height: 12000, tile: 512, levels: 6, format: "png", version: "v1" };

test("the level is the finest one not finer than the screen", () => {
  assert.equal(levelFor(idx, 1, 1), 0); // zoom 1: every pixel
  assert.equal(levelFor(idx, 2, 1), 0); // zoomed in: still the picture itself
  assert.equal(levelFor(idx, 0.5, 1), 1);
  assert.equal(levelFor(idx, 0.3, 1), 1); // 0.3 screen pixels a picture pixel: half is still finer than the screen
  assert.equal(levelFor(idx, 0.25, 1), 2);
  assert.equal(levelFor(idx, 0.001, 1), 5); // never past the top level
  // A picture drawn at half size on the map (scale 0.5) at zoom 2 is at 1:1.
  assert.equal(levelFor(idx, 2, 0.5), 0);
  assert.equal(levelFor(idx, 0, 1), 5);
});

test("the tiles in view, a tile's margin round them, none past the edges", () => {
  // A 1000 x 600 view at 1:1 from 5000,5000: tiles 9..11 across, 9..10 down, and one more each side.
  const t = tilesInView(idx, 0, { left: 5000, top: 5000, right: 6000, bottom: 5600, pixelsPerUnit: 1 }, 1);
  const xs = new Set(t.map((v) => v[1])), ys = new Set(t.map((v) => v[2]));
  assert.deepEqual([...xs].sort((a, b) => a - b), [8, 9, 10, 11, 12]);
  assert.deepEqual([...ys].sort((a, b) => a - b), [8, 9, 10, 11]);
  assert.ok(t.every((v) => v[0] === 0));
  // At the far corner: the last tile is 23 (12000 / 512 = 23.4), nothing past it.
  const corner = tilesInView(idx, 0, { left: 11500, top: 11500, right: 13000, bottom: 13000, pixelsPerUnit: 1 }, 1);
  assert.equal(Math.max(...corner.map((v) => v[1])), 23);
  // Level 2 (3000 pixels, 6 tiles a side), whole picture in view.
  assert.equal(tilesInView(idx, 2, { left: -100, top: -100, right: 13000, bottom: 13000, pixelsPerUnit: 0.25 }, 1).length, 36);
});

test("an index the server did not send is not one", () => {
  assert.ok(isIndex(idx));
  assert.ok(!isIndex({ ...idx, levels: 0 }));
  assert.ok(!isIndex({ ...idx, width: "12000" }));
  assert.ok(!isIndex(null));
  assert.ok(!isIndex({ ...idx, version: 3 }));
});
