import { test } from "node:test";
import assert from "node:assert/strict";
import { dragState, interactionFrom, lineOfSightFrom, pausedFrom, screenInteraction, sightFrom } from "./compat";

test("drag states: names and the integers 0-4 in start|control|end|block|cancel order", () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(dragState), ["start", "control", "end", "block", "cancel"]);
  assert.equal(dragState("block"), "block");
  assert.equal(dragState(5), null);
  assert.equal(dragState(1.5), null);
  assert.equal(dragState("drop"), null);
});

test("systemPaused: bare boolean (new) or {paused} (old)", () => {
  assert.equal(pausedFrom(true), true);
  assert.equal(pausedFrom(false), false);
  assert.equal(pausedFrom({ paused: true }), true);
  assert.equal(pausedFrom({ paused: false }), false);
  assert.equal(pausedFrom(null), false);
});

test("interactionUpdated: bare string (new) or the old boolean forms", () => {
  assert.equal(interactionFrom("token", "all"), "token");
  assert.equal(interactionFrom("none", "all"), "none");
  assert.equal(interactionFrom({ remoteInteraction: false }, "all"), "none");
  assert.equal(interactionFrom({ remoteInteraction: true }, "none"), "all");
  assert.equal(interactionFrom({ interaction: "token" }, "all"), "token");
  assert.equal(interactionFrom("bogus", "token"), "token", "unknown input keeps the mode");
  assert.equal(screenInteraction({ interaction: "none", remoteInteraction: true }, "all"), "none", "the new field wins");
  assert.equal(screenInteraction({ remoteInteraction: false }, "all"), "none");
  assert.equal(screenInteraction(null, "token"), "token");
});

test("lineOfSightUpdated: array of sights (new) or the old object keyed by token", () => {
  const poly = [0, 0, 10, 0, 10, 10];
  const fresh = lineOfSightFrom([{ key: "vision-V1", x: 1, y: 2, polygon: poly }, { key: "light-L1", x: 3, y: 4, polygon: poly }, { key: "bad", polygon: [1, 2] }]);
  assert.equal(fresh.mapId, null);
  assert.deepEqual(fresh.sights.map((s) => s.key), ["vision-V1", "light-L1"]);
  const old = lineOfSightFrom({ mapId: "M", segments: [], walls: [], vision: { T1: poly, T2: "nope" } });
  assert.equal(old.mapId, "M");
  assert.equal(old.sights.length, 1);
  assert.equal(old.sights[0].key, "token-T1");
  assert.ok(Number.isNaN(old.sights[0].x), "old polygons carry no origin");
  assert.deepEqual(lineOfSightFrom({ mapId: "M", segments: [] }).sights, []);
  assert.equal(sightFrom({ key: "vision-x", polygon: [0, 0, 1, 1, NaN, 2] }), null);
});
