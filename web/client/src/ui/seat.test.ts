import { test } from "node:test";
import assert from "node:assert/strict";
import { asksForInitiative, closeReason, seatChoice } from "./seat";

const seat = { id: "S1", name: "Ilsa", kind: "character", taken: false };

test("a close by the server: kicked, a changed join key, or a drop to reconnect after", () => {
  assert.equal(closeReason(4403), "kicked");
  assert.equal(closeReason(4401), "key");
  assert.equal(closeReason(1006), "drop");
  assert.equal(closeReason(1000), "drop");
});

test("the picker names a free seat, a taken one with its player, and this page's own", () => {
  assert.deepEqual(seatChoice(seat, undefined), { label: "Ilsa", mine: false });
  assert.deepEqual(seatChoice({ ...seat, taken: true, player: "Bo" }, "S2"), { label: "Ilsa — Bo", mine: false });
  assert.deepEqual(seatChoice({ ...seat, taken: true }, undefined), { label: "Ilsa — taken", mine: false });
  assert.deepEqual(seatChoice({ ...seat, taken: true, player: "Ann" }, "S1"), { label: "Ilsa (yours)", mine: true });
});

test("initiativeRequested asks only the seats it names", () => {
  assert.equal(asksForInitiative(["S1", "S2"], "S1"), true);
  assert.equal(asksForInitiative(["S2"], "S1"), false);
  assert.equal(asksForInitiative(["S1"], undefined), false, "a page without a seat rolls nothing");
  assert.equal(asksForInitiative(undefined, "S1"), false);
});
