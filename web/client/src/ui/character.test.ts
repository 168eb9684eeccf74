import { test } from "node:test";
import assert from "node:assert/strict";
import { hitPointPercent, rollRequest, rollSummary, type SheetAction } from "./character";

const sword: SheetAction = { id: "a1", title: "Longsword", type: "attack", roll: "1d20+5", group: "Attacks", advantage: true, damage: "1d8+3" };

test("a tap on an action asks for advantage only where the action allows it, and an attack's damage with it", () => {
  assert.deepEqual(rollRequest(sword, "advantage"), { action: "a1", advantage: "advantage", damage: true });
  assert.deepEqual(rollRequest(sword, "normal"), { action: "a1", damage: true });
  assert.deepEqual(rollRequest({ ...sword, advantage: false }, "disadvantage"), { action: "a1", damage: true });
  assert.deepEqual(rollRequest({ ...sword, type: "save", damage: "" }, "disadvantage"), { action: "a1", advantage: "disadvantage" });
  assert.deepEqual(rollRequest(sword, "normal", true), { action: "a1", damage: true, private: true });
});

test("a roll's answer is one line: each message's name and result, and a critical or a natural 1", () => {
  const answer = { messages: [{ content: { name: "Longsword", result: 21 } }, { content: { name: "Longsword damage", result: 14 } }], critical: true };
  assert.equal(rollSummary(answer, "Longsword"), "Longsword: 21 · Longsword damage: 14 — critical hit!");
  assert.equal(rollSummary({ messages: [{ content: { result: 1 } }], fumble: true }, "Dagger"), "Dagger: 1 — a natural 1");
  assert.equal(rollSummary({ messages: [{}] }, "Dagger"), "Dagger: ?");
});

test("the hit-point bar stays between empty and full", () => {
  assert.equal(hitPointPercent({ current: 14, max: 28 }), 50);
  assert.equal(hitPointPercent({ current: -5, max: 28 }), 0);
  assert.equal(hitPointPercent({ current: 40, max: 28 }), 100);
  assert.equal(hitPointPercent({ current: 5, max: 0 }), 0);
});
