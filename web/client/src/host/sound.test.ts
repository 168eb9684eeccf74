import assert from "node:assert/strict";
import { test } from "node:test";
import { clock } from "./sound";

test("a track's time reads as minutes and seconds", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(61.9), "1:01");
  assert.equal(clock(3600), "60:00");
  assert.equal(clock(-5), "0:00");
});
