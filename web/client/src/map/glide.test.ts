import { test } from "node:test";
import assert from "node:assert/strict";
import { Glide } from "./glide";

test("a glide is at its target on the first step once its time is up, however slow the frames", () => {
  const g = new Glide(0, 0);
  g.moveTo(100, 50, 16, 1000);
  // One slow frame (300 ms later): there, not 100 ms of the way (Pixi's capped delta).
  assert.equal(g.step(1300), true);
  assert.deepEqual([g.x, g.y], [100, 50]);
  assert.equal(g.step(1316), false);
});

test("a glide passes through the line between where it was drawn and its target", () => {
  const g = new Glide(0, 0);
  g.moveTo(100, 0, 20, 0);
  g.step(5);
  assert.deepEqual([g.x, g.y], [25, 0]);
  // A new target mid-glide starts from where the token is drawn.
  g.moveTo(25, 100, 10, 5);
  g.step(10);
  assert.deepEqual([g.x, g.y], [25, 50]);
  g.step(15);
  assert.deepEqual([g.x, g.y], [25, 100]);
});

test("no time (reduced motion) jumps at once", () => {
  const g = new Glide(0, 0);
  g.moveTo(40, 30, 0, 0);
  assert.deepEqual([g.x, g.y, g.targetX, g.targetY], [40, 30, 40, 30]);
  assert.equal(g.step(1), false);
});
