import { test } from "node:test";
import assert from "node:assert/strict";
import { controlsSummary, givable, otherRole, otherTokens, roleOf, seatHolder, withControl } from "./seat-rules";

const alice = { channel: 1, name: "Alice" };
const tv = { channel: 2, name: "TV", runMode: "tv" };
const watcher = { channel: 3, name: "Watcher", role: "spectator" };
const bo = { channel: 4, name: "Bo", runMode: "normal", role: "player", seat: "c1" };

test("a seat goes to player browsers only: not to a display nor a spectator", () => {
  assert.deepEqual(givable([alice, tv, watcher, bo]).map((c) => c.channel), [1, 4]);
});

test("a client's role: a display by its run mode, else its role, a player by default", () => {
  assert.equal(roleOf(alice), "player");
  assert.equal(roleOf(tv), "display");
  assert.equal(roleOf({ ...tv, role: "spectator" }), "display");
  assert.equal(roleOf(watcher), "spectator");
  assert.equal(otherRole("spectator"), "player");
  assert.equal(otherRole("player"), "spectator");
});

test("a seat's row says free, its player, or that the player is away", () => {
  assert.equal(seatHolder({ id: "c1", name: "Kira", taken: false }), "free");
  assert.equal(seatHolder({ id: "c1", name: "Kira", taken: true, player: "Bo", clients: [4] }), "Bo");
  assert.equal(seatHolder({ id: "c1", name: "Kira", taken: true, player: "Bo", clients: [] }), "Bo (not connected)");
  assert.equal(seatHolder({ id: "c1", name: "Kira", taken: true }), "taken (not connected)");
});

test("a seat's other tokens leave out its own character's, and ticking adds or removes one", () => {
  const seat = { id: "c1", name: "Kira", taken: true, controls: ["t2"] };
  const toks = [{ id: "t1", entityId: "c1" }, { id: "t2", entityId: "m1" }, { id: "t3", entityId: "" }];
  assert.deepEqual(otherTokens(toks, seat).map((t) => t.id), ["t2", "t3"]);
  assert.deepEqual(withControl(seat.controls, "t3", true), ["t2", "t3"]);
  assert.deepEqual(withControl(seat.controls, "t2", false), []);
  assert.deepEqual(withControl(seat.controls, "t2", true), ["t2"]);
  assert.deepEqual(withControl(undefined, "t3", true), ["t3"]);
  assert.equal(controlsSummary(seat), "1 other token");
  assert.equal(controlsSummary({ ...seat, controls: ["a", "b"] }), "2 other tokens");
  assert.equal(controlsSummary({ ...seat, controls: [] }), "Other tokens…");
});
