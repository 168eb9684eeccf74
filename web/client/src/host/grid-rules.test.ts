import { test } from "node:test";
import assert from "node:assert/strict";
import { cellsText, draggedOffset, gridChange, gridStateText, gridTypeChoice, hexCentres, isMapPicture, type GridPreview } from "./grid-rules";

const fields = { size: "70", offsetX: "", offsetY: "12.6", type: "square", scale: "", units: " " };

test("the grid fields parse to whole pixels; scale and units only when given", () => {
  assert.deepEqual(gridChange(fields), { gridSize: 70, gridOffsetX: 0, gridOffsetY: 13, gridType: "square" });
  assert.deepEqual(gridChange({ ...fields, scale: "1.5", units: " m " }), { gridSize: 70, gridOffsetX: 0, gridOffsetY: 13, gridType: "square", gridScale: 1.5, gridUnits: "m" });
  assert.deepEqual(gridChange({ ...fields, scale: "-2", offsetX: "x" }), { gridSize: 70, gridOffsetX: 0, gridOffsetY: 13, gridType: "square" });
  assert.equal(gridTypeChoice("hexPointy"), "hexPointy");
  assert.equal(gridTypeChoice("hexRow"), "square");
});

const preview: GridPreview = {
  name: "Swamp", gridPending: true,
  media: { kind: "image", url: "/x.jpg", width: 1400, height: 980 },
  grid: { gridSize: 70, gridOffsetX: 0, gridOffsetY: 0, gridType: "square", gridScale: 5, gridUnits: "ft" },
  cells: { across: 20, down: 14 },
};

test("the card says how many cells the picture spans and where the map stands", () => {
  assert.equal(cellsText(preview), "1400×980 px: 20 × 14 cells of 70 px (5 ft each)");
  assert.equal(cellsText({ ...preview, media: { kind: "none", width: 0, height: 0 } }), "This map has no size.");
  assert.deepEqual(gridStateText(0, null), { text: "No map waits for its grid.", tone: "" });
  assert.deepEqual(gridStateText(1, null), { text: "1 map waits for a grid.", tone: "" });
  assert.deepEqual(gridStateText(3, null), { text: "3 maps wait for a grid.", tone: "" });
  assert.equal(gridStateText(1, preview).tone, "warn");
  assert.deepEqual(gridStateText(1, { ...preview, gridPending: false }), { text: "“Swamp” is ready for the player screen.", tone: "good" });
});

test("hex centres follow the lattice, shifted on odd columns or rows", () => {
  const hx = { corners: [], origin: { x: 10, y: 20 }, step: { x: 30, y: 40 }, shift: { x: 0, y: 20 }, shiftOdd: "columns", columns: 2, rows: 2 };
  assert.deepEqual(hexCentres(hx), [{ x: 10, y: 20 }, { x: 10, y: 60 }, { x: 40, y: 40 }, { x: 40, y: 80 }]);
  assert.deepEqual(hexCentres({ ...hx, shiftOdd: "rows", shift: { x: 15, y: 0 } }), [{ x: 10, y: 20 }, { x: 25, y: 60 }, { x: 40, y: 20 }, { x: 55, y: 60 }]);
});

test("a drag moves the offset by screen pixels over the scale", () => {
  assert.deepEqual(draggedOffset({ ox: 5, oy: -3 }, 20, 10, 0.5), { x: 45, y: 17 });
  assert.deepEqual(draggedOffset({ ox: 0, oy: 0 }, 1, 1, 3), { x: 0, y: 0 });
});

test("only pictures and videos import as maps", () => {
  for (const n of ["a.png", "b.JPG", "c.jpeg", "d.webp", "e.gif", "f.mp4", "g.webm"]) assert.ok(isMapPicture(n), n);
  for (const n of ["a.zip", "b.png.exe", "c", "d.svg"]) assert.ok(!isMapPicture(n), n);
});
