import { test } from "node:test";
import assert from "node:assert/strict";
import { pathNear } from "./marks";

test("a point is near a pinned ruler on any of its legs, not past its ends", () => {
  const path = [0, 0, 100, 0, 100, 100];
  assert.equal(pathNear(path, { x: 50, y: 10 }, 14), true, "beside the first leg");
  assert.equal(pathNear(path, { x: 110, y: 60 }, 14), true, "beside the second leg");
  assert.equal(pathNear(path, { x: 50, y: 40 }, 14), false, "inside the corner, away from both legs");
  assert.equal(pathNear(path, { x: -30, y: 0 }, 14), false, "past the start along the first leg");
  assert.equal(pathNear([5, 5, 5, 5], { x: 10, y: 10 }, 14), true, "a ruler of no length, at its point");
  assert.equal(pathNear([5, 5], { x: 5, y: 5 }, 14), false, "a single point is no leg");
});
