import { test } from "node:test";
import assert from "node:assert/strict";
import { templateSize, tokenCells, tokensInside } from "./marks";
import { hexCentreOf } from "./grid";

const g = { size: 70, offsetX: 0, offsetY: 0 };

test("a token's cells: one cell, and a large token's four", () => {
  assert.deepEqual(tokenCells({ x: 35, y: 35, width: 1, height: 1 }, g), [[0, 0]]);
  assert.deepEqual(tokenCells({ x: 140, y: 140, width: 2, height: 2 }, g), [[1, 1], [2, 1], [1, 2], [2, 2]]);
});

test("tokens inside a template are those on one of its squares", () => {
  const squares = new Map([["t", [3, 3, 4, 3]]]);
  const a = { id: "a", x: 3.5 * 70, y: 3.5 * 70 }, b = { id: "b", x: 7.5 * 70, y: 3.5 * 70 };
  const big = { id: "big", x: 6 * 70, y: 4 * 70, width: 2, height: 2 }; // cells 5-6 x 3-4
  assert.deepEqual(tokensInside([a, b, big], [{ id: "t", x: 0, y: 0 }], squares, g).map((t) => t.id), ["a"]);
  squares.set("t", [5, 4]);
  assert.deepEqual(tokensInside([a, b, big], [{ id: "t", x: 0, y: 0 }], squares, g).map((t) => t.id), ["big"]);
  assert.deepEqual(tokensInside([a], [{ id: "other", x: 0, y: 0 }], squares, g), []);
});

test("a template's size in the map's units", () => {
  assert.equal(templateSize({ shape: "sphere", radius: 280 }, 14, "ft"), "20 ft");
  assert.equal(templateSize({ shape: "cone", length: 210 }, 14, "ft"), "15 ft");
  assert.equal(templateSize({ shape: "line", length: 420, width: 70 }, 14, "ft"), "30 ft × 5 ft");
});

test("on a hex grid a token stands in the hex that holds its centre, named as the server names hexes", () => {
  for (const type of ["hexFlat", "hexPointy"] as const) {
    const hex = { type, size: 70, offsetX: 35, offsetY: 35 };
    const at = hexCentreOf(hex, 2, -1);
    assert.deepEqual(tokenCells({ x: at.x + 10, y: at.y - 8 }, hex), [[2, -1]], type);
    const squares = new Map([["t", [0, 0, 2, -1]]]);
    const inside = { id: "in", x: at.x, y: at.y }, out = { id: "out", ...hexCentreOf(hex, 3, -1) };
    assert.deepEqual(tokensInside([inside, out], [{ id: "t", x: 0, y: 0 }], squares, hex).map((t) => t.id), ["in"], type);
  }
});
