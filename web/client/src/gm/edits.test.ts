import { test } from "node:test";
import assert from "node:assert/strict";
import { extendBrush, fogEdit, nextDoorState } from "./edits";

test("a tap opens or closes a door; shift+tap locks and unlocks; a plain tap on a locked door does nothing", () => {
  assert.equal(nextDoorState("closed", false), "open");
  assert.equal(nextDoorState("open", false), "closed");
  assert.equal(nextDoorState(undefined, false), "open");
  assert.equal(nextDoorState("locked", false), null);
  assert.equal(nextDoorState("open", true), "locked");
  assert.equal(nextDoorState("closed", true), "locked");
  assert.equal(nextDoorState("locked", true), "closed");
});

test("a rectangle reveals or covers the box the drag spanned, whichever way it went", () => {
  const s = { x0: 300.4, y0: 200, x: 100, y: 50.6, path: [] };
  assert.deepEqual(fogEdit("reveal-rect", s, 70, true), { mode: "reveal", shape: "rect", x: 100, y: 51, width: 200, height: 149 });
  assert.deepEqual(fogEdit("cover-rect", s, 70, false), { mode: "cover", shape: "rect", x: 100, y: 51, width: 200, height: 149, fogOfWar: true },
    "the first edit of a map without fog turns it on");
  assert.equal(fogEdit("reveal-rect", { ...s, x: 299 }, 70, true), null, "under 2 px wide is a slip, not a rectangle");
});

test("a brush sends its path and radius; a click paints one circle", () => {
  assert.deepEqual(fogEdit("cover-brush", { x0: 0, y0: 0, x: 0, y: 0, path: [10, 20, 40, 20] }, 69.6, true),
    { mode: "cover", shape: "brush", path: [10, 20, 40, 20], radius: 70 });
  const click = { x0: 5, y0: 6, x: 5, y: 6, path: [5, 6] };
  assert.deepEqual(fogEdit("reveal-brush", click, 50, true)?.path, [5, 6, 5, 6]);
  assert.deepEqual(click.path, [5, 6], "the stroke itself is left as it was");
  assert.equal(fogEdit("move", click, 50, true), null);
  assert.equal(fogEdit("focus", click, 50, true), null);
});

test("the brush's path grows by a point once the pointer moved a third of the radius", () => {
  const path = [0, 0];
  assert.equal(extendBrush(path, 15, 0, 60), false);
  assert.equal(extendBrush(path, 20.4, 0, 60), true);
  assert.deepEqual(path, [0, 0, 20, 0]);
  assert.equal(extendBrush(path, 30, 0, 60), false, "measured from the last point kept");
});
