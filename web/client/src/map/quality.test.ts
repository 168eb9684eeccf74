import { test } from "node:test";
import assert from "node:assert/strict";
import { QualityGovernor, readStoredQuality, qualityKey, slowFrameMs, windowSize, cooldownMs } from "./quality";

/** Feeds n frames of interval ms, one after another from time t; returns how many changed the level. */
function feed(g: QualityGovernor, n: number, ms: number, t = 0): { changes: number; t: number } {
  let changes = 0;
  for (let i = 0; i < n; i++) {
    t += ms;
    if (g.recordFrame(ms, t)) changes++;
  }
  return { changes, t };
}

test("fast frames keep full quality and mark the device fast: multisampling next time", () => {
  const g = new QualityGovernor(1, {});
  assert.equal(g.antialias, false, "a first visit draws without multisampling");
  assert.equal(feed(g, windowSize * 3, 16).changes, 0);
  assert.equal(g.level, 0);
  assert.deepEqual(g.stored(), { level: 0, pinned: undefined, fast: true });
  assert.equal(new QualityGovernor(1, g.stored()).antialias, true);
});

test("long frames lower the darkness first, then the canvas of a high-DPI screen, one step per window and cooldown", () => {
  const g = new QualityGovernor(2, {});
  assert.equal(g.darknessSide, 1024);
  assert.equal(g.resolution, 2);
  const ms = slowFrameMs + 10;
  let r = feed(g, windowSize, ms);
  assert.equal(r.changes, 1);
  assert.equal(g.level, 1);
  assert.equal(g.darknessSide, 512);
  assert.equal(g.resolution, 2);
  // Inside the cooldown, slow frames change nothing (the new level has not shown yet).
  const quietEnd = r.t + cooldownMs;
  r = feed(g, Math.floor(cooldownMs / ms) - 1, ms, r.t);
  assert.ok(r.t < quietEnd);
  assert.equal(g.level, 1);
  r = feed(g, windowSize, ms, quietEnd);
  assert.equal(g.level, 2);
  assert.equal(g.resolution, 1.5);
  r = feed(g, windowSize, ms, r.t + cooldownMs);
  assert.equal(g.level, 3);
  assert.equal(g.resolution, 1);
  assert.equal(g.darknessSide, 256);
  assert.equal(feed(g, windowSize, 500, r.t + cooldownMs).changes, 0, "the lowest level stays");
});

test("at one device pixel per CSS pixel the canvas is never lowered: the steps that would only do that are skipped", () => {
  const g = new QualityGovernor(1, {});
  const r = feed(g, windowSize, 200);
  assert.equal(g.level, 1);
  feed(g, windowSize, 200, r.t + cooldownMs);
  assert.equal(g.level, 3, "level 2 only lowers the canvas, which stays at 1 here");
  assert.equal(g.resolution, 1);
  assert.equal(g.darknessSide, 256);
});

test("a window decides on its median: a few long frames among fast ones lower nothing", () => {
  const g = new QualityGovernor(1, {});
  let t = 0;
  for (let i = 0; i < windowSize; i++) {
    const ms = i % 4 === 0 ? 300 : 16;
    t += ms;
    g.recordFrame(ms, t);
  }
  assert.equal(g.level, 0);
  assert.equal(g.recordFrame(5000, t + 5000), false, "a gap of seconds is not a frame");
});

test("restore brings full quality back and pins it; a pinned device is never lowered, and the GM's map never adapts", () => {
  const g = new QualityGovernor(1, { level: 3 });
  assert.equal(g.level, 3, "a visit starts where the last one ended");
  assert.equal(g.lowered, true);
  g.restore();
  assert.equal(g.level, 0);
  assert.equal(feed(g, windowSize * 4, 400).changes, 0);
  assert.equal(g.stored().pinned, true);
  assert.equal(new QualityGovernor(1, { level: 2, pinned: true }).level, 0);
  const gm = new QualityGovernor(1, {}, false);
  assert.equal(feed(gm, windowSize * 4, 400).changes, 0);
  assert.equal(gm.antialias, true);
});

test("what a device remembers is read leniently", () => {
  const store = (v: string | null) => ({ getItem: (k: string) => (k === qualityKey ? v : null) });
  assert.deepEqual(readStoredQuality(store(null)), {});
  assert.deepEqual(readStoredQuality(store("not json")), {});
  assert.deepEqual(readStoredQuality(store('{"level":2}')), { level: 2 });
  assert.equal(new QualityGovernor(1, { level: 99 }).level, 3);
  assert.equal(new QualityGovernor(1, { level: -1 }).level, 0);
});
