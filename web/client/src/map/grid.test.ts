import { test } from "node:test";
import assert from "node:assert/strict";
import { hexAxial, hexCentre, hexCentreOf, hexCorners, parseColor, snap, type GridSpec } from "./grid";

const square: GridSpec = { type: "square", size: 70, offsetX: 0, offsetY: 0 };

test("square snap: odd footprints on cell centres, even ones on corners, offsets respected", () => {
  assert.deepEqual(snap(square, 250, 390), { x: 245, y: 385 });
  assert.deepEqual(snap(square, 300, 300, 2, 2), { x: 280, y: 280 });
  assert.deepEqual(snap(square, 200, 10, 3, 1), { x: 175, y: 35 });
  assert.deepEqual(snap({ ...square, offsetX: 12, offsetY: 8 }, 250, 390), { x: 257, y: 393 });
});

for (const type of ["hexFlat", "hexPointy"] as const) {
  test(`${type} snap lands on a hex centre whose neighbours are one grid size away`, () => {
    const g: GridSpec = { type, size: 60, offsetX: 5, offsetY: 7 };
    for (const [x, y] of [[0, 0], [100, 37], [333, 250], [-40, 90]]) {
      const c = hexCentre(g, x, y);
      assert.deepEqual(hexCentre(g, c.x, c.y), c, "a centre snaps to itself");
      assert.deepEqual(snap(g, x, y, 2, 2), c, "hex grids snap every footprint to a centre");
      // The point lies inside the hex it snapped to: no farther than the circumradius.
      assert.ok(Math.hypot(x - c.x, y - c.y) <= 60 / Math.sqrt(3) + 1e-9);
      // A neighbour: a point one grid size away, along a face normal, snaps to another centre that far away.
      const a = type === "hexFlat" ? Math.PI / 2 : 0;
      const n = hexCentre(g, c.x + 60 * Math.cos(a), c.y + 60 * Math.sin(a));
      assert.ok(Math.abs(Math.hypot(n.x - c.x, n.y - c.y) - 60) < 1e-6);
    }
    assert.equal(hexCorners(g, 0, 0).length, 12);
  });
}

test("colours: #rrggbb, #rgb, #rrggbbaa; anything else falls back", () => {
  assert.equal(parseColor("#ff8800", 0), 0xff8800);
  assert.equal(parseColor("#f80", 0), 0xff8800);
  assert.equal(parseColor("#ff880080", 0), 0xff8800);
  assert.equal(parseColor("red", 7), 7);
  assert.equal(parseColor(undefined, 7), 7);
});

test("a hex's axial name and its centre agree: hex (q, r) is centred where the server says", () => {
  for (const type of ["hexFlat", "hexPointy"] as const) {
    const g: GridSpec = { type, size: 60, offsetX: 10, offsetY: -20 };
    assert.deepEqual(hexCentreOf(g, 0, 0), { x: 10, y: -20 }, "hex (0, 0) sits on the offset");
    for (let q = -3; q <= 3; q++) {
      for (let r = -3; r <= 3; r++) {
        const c = hexCentreOf(g, q, r);
        assert.deepEqual(hexAxial(g, c.x + 5, c.y - 5), [q, r], `${type} (${q}, ${r})`);
      }
    }
    // Neighbours are one cell (gridSize) apart, across the flats.
    const a = hexCentreOf(g, 0, 0), b = hexCentreOf(g, 1, 0), c = hexCentreOf(g, 0, 1);
    assert.ok(Math.abs(Math.hypot(b.x - a.x, b.y - a.y) - 60) < 1e-9 && Math.abs(Math.hypot(c.x - a.x, c.y - a.y) - 60) < 1e-9, type);
  }
});
