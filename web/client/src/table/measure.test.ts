import { test } from "node:test";
import assert from "node:assert/strict";
import { diagonalRule, pathCells, pathDistance, type MeasureGrid } from "./measure";

const sq: MeasureGrid = { type: "square", size: 70, offsetX: 0, offsetY: 0 };
const c = (col: number, row: number) => [col * 70 + 35, row * 70 + 35];

test("square grid: 5e counts a diagonal as one square", () => {
  assert.equal(pathCells([...c(0, 0), ...c(3, 3)], sq, "equal"), 3);
  assert.equal(pathCells([...c(0, 0), ...c(4, 1)], sq, "equal"), 4);
  assert.equal(pathDistance([...c(0, 0), ...c(4, 1)], sq, "equal", 5), 20);
  assert.equal(pathDistance([...c(0, 0), ...c(2, 0)], sq, "equal", undefined), 10, "gridScale defaults to 5");
});

test("alternate (5-10-5) counts every second diagonal double, across waypoints", () => {
  assert.equal(pathCells([...c(0, 0), ...c(3, 3)], sq, "alternate"), 4);
  assert.equal(pathCells([...c(0, 0), ...c(1, 1), ...c(2, 2)], sq, "alternate"), 3);
  assert.equal(pathCells([...c(0, 0), ...c(1, 1), ...c(2, 2), ...c(3, 3), ...c(4, 4)], sq, "alternate"), 6);
});

test("euclidean measures the straight length; waypoints add up", () => {
  assert.equal(pathDistance([...c(0, 0), ...c(3, 4)], sq, "euclidean", 5), 25);
  assert.equal(pathCells([...c(0, 0), ...c(2, 0), ...c(2, 3)], sq, "equal"), 5);
});

for (const type of ["hexFlat", "hexPointy"] as const) {
  test(`${type}: a path counts hexes`, () => {
    const g: MeasureGrid = { type, size: 60, offsetX: 0, offsetY: 0 };
    // Walk three neighbour steps in one direction: each is one grid size away.
    const dir = type === "hexFlat" ? [60 * Math.cos(Math.PI / 6), 30] : [60, 0];
    const path = [0, 0, dir[0] * 3, dir[1] * 3];
    assert.equal(pathCells(path, g, "equal"), 3);
    assert.equal(pathCells([0, 0, dir[0], dir[1], 0, 0], g, "equal"), 2);
  });
}

test("an unknown rule is the 5e default", () => {
  assert.equal(diagonalRule("alternate"), "alternate");
  assert.equal(diagonalRule(undefined), "equal");
  assert.equal(diagonalRule("weird"), "equal");
});
