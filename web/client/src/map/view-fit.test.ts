import { test } from "node:test";
import assert from "node:assert/strict";
import { fitView, freeArea } from "./view-fit";

test("side panels and bars narrow the free area; a full sheet does not", () => {
  // 1280x800: a bar on top, the initiative on the left, the chat on the right.
  const free = freeArea(1280, 800, [
    { left: 0, top: 0, right: 1280, bottom: 40 },
    { left: 12, top: 78, right: 284, bottom: 380 },
    { left: 900, top: 78, right: 1268, bottom: 788 },
    { left: 844, top: 640, right: 888, bottom: 690 }, // a small button: ignored
  ]);
  assert.deepEqual(free, { left: 284, top: 40, right: 900, bottom: 800 });
  assert.deepEqual(freeArea(390, 844, [{ left: 0, top: 200, right: 390, bottom: 800 }]), { left: 0, top: 0, right: 390, bottom: 844 });
  assert.deepEqual(freeArea(390, 844, [{ left: 0, top: 796, right: 390, bottom: 844 }]), { left: 0, top: 0, right: 390, bottom: 796 });
});

test("the fit puts the map, or the party, in the free area", () => {
  const free = { left: 284, top: 40, right: 900, bottom: 800 };
  const party = { left: 175, top: 385, right: 315, bottom: 455 };
  const v = fitView(1400, 980, 1280, 800, free, party);
  // Each party corner lands inside the free area.
  for (const [x, y] of [[party.left, party.top], [party.right, party.bottom]]) {
    const sx = (x - v.centerX) * v.zoom + 640, sy = (y - v.centerY) * v.zoom + 400;
    assert.ok(sx > free.left && sx < free.right && sy > free.top && sy < free.bottom, `${x},${y} at ${sx},${sy}`);
  }
  // Without panels the whole map fits the screen, centred.
  const whole = fitView(1400, 980, 1280, 800, { left: 0, top: 0, right: 1280, bottom: 800 }, party);
  assert.equal(whole.centerX, 700);
  assert.equal(whole.centerY, 490);
  assert.ok(Math.abs(whole.zoom - 800 / (980 * 1.04)) < 1e-9);
});

test("on a phone the map fills the screen, readable, with the party in view", () => {
  const free = { left: 0, top: 40, right: 390, bottom: 796 };
  const party = { left: 175, top: 385, right: 315, bottom: 455 };
  const v = fitView(1400, 980, 390, 844, free, party, 70);
  assert.ok(v.zoom * 70 >= 24, `cell ${v.zoom * 70} px`);
  const sx = (party.left - v.centerX) * v.zoom + 195, ex = (party.right - v.centerX) * v.zoom + 195;
  assert.ok(sx > 0 && ex < 390, `party from ${sx} to ${ex}`);
  // No band of nothing beside the map: its edges lie outside the free part.
  const toScreen = (x: number, y: number) => [(x - v.centerX) * v.zoom + 195, (y - v.centerY) * v.zoom + 422];
  const [left, top] = toScreen(0, 0), [right, bottom] = toScreen(1400, 980);
  assert.ok(left <= free.left + 0.5 && right >= free.right - 0.5, `map from x ${left} to ${right}`);
  assert.ok(top <= free.top + 0.5 && bottom >= free.bottom - 0.5, `map from y ${top} to ${bottom}`);
  // A party spread wider than the filled view zooms out to fit it, not under readable cells.
  const spread = fitView(1400, 980, 390, 844, free, { left: 100, top: 100, right: 1300, bottom: 200 }, 70);
  assert.ok(spread.zoom < v.zoom && spread.zoom * 70 >= 24 - 1e-9, `spread zoom ${spread.zoom}`);
  // Without a party the map fills the screen about its middle.
  const none = fitView(1400, 980, 390, 844, free, null, 70);
  assert.equal(none.centerX, 700);
});
