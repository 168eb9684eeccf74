import { test } from "node:test";
import assert from "node:assert/strict";
import { FrameLoop, idlePollMs, idleTicks } from "./frameloop";

/** A fake clock: animation frames every 16 ms, timers in time order. */
function fakeClock() {
  let now = 0;
  let frames: ((t: number) => void)[] = [];
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const g = globalThis as unknown as Record<string, unknown>;
  g.requestAnimationFrame = (cb: (t: number) => void) => frames.push(cb);
  g.setTimeout = (fn: () => void, ms: number) => {
    timers.push({ at: now + ms, fn, id: nextId });
    return nextId++;
  };
  g.clearTimeout = (id: number) => (timers = timers.filter((t) => t.id !== id));
  return {
    /** Runs time forward by ms: animation frames on 16 ms ticks, timers when due. */
    advance(ms: number): { rafs: number } {
      let rafs = 0;
      const end = now + ms;
      while (now < end) {
        now += 16;
        const due = timers.filter((t) => t.at <= now);
        timers = timers.filter((t) => t.at > now);
        for (const t of due) t.fn();
        const run = frames;
        frames = [];
        for (const f of run) {
          rafs++;
          f(now);
        }
      }
      return { rafs };
    },
  };
}

test("a busy map runs every animation frame and reports back-to-back intervals; an idle one polls", () => {
  const clock = fakeClock();
  let dirty = 10; // frames to draw
  const intervals: number[] = [];
  const loop = new FrameLoop({
    frame: () => {
      if (dirty <= 0) return false;
      dirty--;
      return true;
    },
    pending: () => dirty > 0,
    interval: (ms) => intervals.push(ms),
  });
  loop.start();
  clock.advance(16 * 12);
  assert.deepEqual(intervals, Array(9).fill(16), "ten frames drawn in a row: nine intervals");
  assert.equal(loop.running, true);
  clock.advance(16 * (idleTicks + 2));
  assert.equal(loop.running, false, "idle after idleTicks frames without drawing");
  const { rafs } = clock.advance(1000);
  assert.equal(rafs, 0, "no animation frame asked for while idle");
  dirty = 1;
  clock.advance(idlePollMs + 32);
  assert.equal(loop.running, true, "the poll found a frame due and woke the loop");
  assert.equal(dirty, 0);
  assert.equal(intervals.length, 9, "a frame after idling is not back to back");
});

test("wake() asks for frames at once", () => {
  const clock = fakeClock();
  let drawn = 0;
  let want = false;
  const frame = () => {
    if (!want) return false;
    want = false;
    drawn++;
    return true;
  };
  const loop = new FrameLoop({ frame, pending: () => false, interval: () => {} });
  loop.start();
  clock.advance(16 * (idleTicks + 2));
  assert.equal(loop.running, false);
  want = true;
  loop.wake();
  clock.advance(16);
  assert.equal(drawn, 1);
  loop.stop();
  want = true;
  loop.wake();
  clock.advance(100);
  assert.equal(drawn, 1, "a stopped loop draws nothing");
});
