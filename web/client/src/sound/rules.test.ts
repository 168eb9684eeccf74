import assert from "node:assert/strict";
import { test } from "node:test";
import type { SoundPlayback } from "../wire.gen";
import { ambientGain, catchUpRate, clockOffset, distanceGain, fadeGain, gainOf, positionAt, readSettings, screenPlays, wallFactor } from "./rules";

function playback(over: Partial<SoundPlayback> = {}): SoundPlayback {
  return {
    playlist: "p", name: "Tavern", channel: "music", volume: 0.5, fade: 0, loop: false, index: 0,
    track: { id: "t", url: "/campaigns/c/audio/t.wav", name: "Lute", duration: 100, tags: [], format: "WAV", size: 1, added: "" },
    startedAt: 1_000_000, paused: false, position: 0, ...over,
  };
}

test("the clock offset comes from the ping with the shortest round trip", () => {
  const off = clockOffset([
    { sent: 0, received: 400, serverTime: 5000 }, // slow: a wrong guess of 4800
    { sent: 1000, received: 1020, serverTime: 6010 }, // fast: 6010 - 1010 = 5000
    { sent: 2000, received: 1990, serverTime: 0 }, // impossible: ignored
  ]);
  assert.equal(off, 5000);
  assert.equal(clockOffset([]), 0);
});

test("a late page starts mid-track; a paused one where it stopped", () => {
  assert.equal(positionAt(playback(), 1_030_000), 30); // joined 30 s in
  assert.equal(positionAt(playback({ paused: true, position: 12.5 }), 9_999_999), 12.5);
  assert.equal(positionAt(playback(), 999_000), 0); // before the start
  assert.equal(positionAt(playback(), 2_000_000), 100); // past the end: the end
});

test("the volume is the listener's channel, the list's level and the fade", () => {
  const s = readSettings(JSON.stringify({ music: 0.5, ambience: 1, effects: 0.2, muted: false }));
  assert.equal(gainOf(playback(), s, 50), 0.25);
  assert.equal(gainOf(playback({ channel: "ambience" }), s, 50), 0.5);
  assert.equal(gainOf(playback(), { ...s, muted: true }, 50), 0);
  assert.equal(fadeGain(1, 100, 4), 0.25);
  assert.equal(fadeGain(98, 100, 4), 0.5);
  assert.equal(fadeGain(50, 100, 0), 1);
});

test("settings from the browser are checked field by field", () => {
  assert.deepEqual(readSettings("{not json"), { music: 0.8, ambience: 0.8, effects: 0.8, muted: false });
  assert.deepEqual(readSettings(JSON.stringify({ music: 7, ambience: "loud", effects: 0.1, muted: true })),
    { music: 1, ambience: 0.8, effects: 0.1, muted: true });
});

test("the game master chooses which screens play", () => {
  assert.equal(screenPlays("all", false), true);
  assert.equal(screenPlays("displays", false), false);
  assert.equal(screenPlays("displays", true), true);
  assert.equal(screenPlays("none", true), false);
});

test("a small drift is caught up by the rate, gently", () => {
  assert.equal(catchUpRate(0.002), 1);
  assert.ok(catchUpRate(0.02) < 1 && catchUpRate(0.02) > 0.92); // ahead: slower
  assert.ok(catchUpRate(-0.04) > 1);
  assert.equal(catchUpRate(0.2), 0.92);
  assert.equal(catchUpRate(-3), 1.08);
});

test("an ambient sound is heard by the distance curve, muffled behind a wall", () => {
  const rain = { x: 0, y: 0, radius: 6, volume: 1 };
  // A token 3 squares away (grid of 50 px): half the radius left, a quarter of the level.
  assert.equal(ambientGain(rain, [{ x: 150, y: 0 }], 50, []), 0.25);
  // Behind a wall between them: wallFactor of that.
  const wall: [number, number, number, number][] = [[75, -100, 75, 100]];
  assert.equal(ambientGain(rain, [{ x: 150, y: 0 }], 50, wall), 0.25 * wallFactor);
  // The loudest listener counts; out of the radius, nothing.
  assert.equal(ambientGain(rain, [{ x: 150, y: 0 }, { x: 0, y: 150 }], 50, wall), 0.25);
  assert.equal(ambientGain(rain, [{ x: 400, y: 0 }], 50, []), 0);
  assert.equal(ambientGain({ ...rain, volume: 0.5 }, [{ x: 0, y: 0 }], 50, []), 0.5);
  assert.equal(distanceGain(0, 6), 1);
  assert.equal(distanceGain(6, 6), 0);
});
