import { test } from "node:test";
import assert from "node:assert/strict";
import { hitPointPercent, rollRequest, rollSummary, tallyCounts, turnChoices, type SheetAction, type Tally } from "./character";

const sword: SheetAction = { id: "a1", title: "Longsword", type: "attack", roll: "1d20+5", group: "Attacks", options: ["edge", "snag"], follow: "a2" };
const on = (...ids: string[]) => new Set(ids);

test("a tap on an action asks for the chosen options it takes, and its follow-up with it", () => {
  assert.deepEqual(rollRequest(sword, on("edge")), { action: "a1", options: ["edge"], follow: true });
  assert.deepEqual(rollRequest(sword, on()), { action: "a1", follow: true });
  assert.deepEqual(rollRequest(sword, on("pushed")), { action: "a1", follow: true });
  assert.deepEqual(rollRequest({ ...sword, options: [], follow: "" }, on("snag")), { action: "a1" });
  assert.deepEqual(rollRequest({ ...sword, follow: undefined }, on("snag", "edge")), { action: "a1", options: ["edge", "snag"] });
  assert.deepEqual(rollRequest(sword, on(), true), { action: "a1", follow: true, private: true });
});

test("a roll's answer is one line: each message's name and result, and the outcome the system names", () => {
  const answer = { messages: [{ content: { name: "Longsword", result: 21 } }, { content: { name: "Longsword damage", result: 14 } }], outcome: { id: "crit", title: "critical hit!" } };
  assert.equal(rollSummary(answer, "Longsword"), "Longsword: 21 · Longsword damage: 14 — critical hit!");
  assert.equal(rollSummary({ messages: [{ content: { result: 1 } }], outcome: { id: "x", title: "Extreme success" } }, "Dagger"), "Dagger: 1 — Extreme success");
  assert.equal(rollSummary({ messages: [{ content: { result: 1 } }], outcome: null }, "Dagger"), "Dagger: 1");
  assert.equal(rollSummary({ messages: [{}] }, "Dagger"), "Dagger: ?");
});

test("the hit-point bar stays between empty and full", () => {
  assert.equal(hitPointPercent({ current: 14, max: 28 }), 50);
  assert.equal(hitPointPercent({ current: -5, max: 28 }), 0);
  assert.equal(hitPointPercent({ current: 40, max: 28 }), 100);
  assert.equal(hitPointPercent({ current: 5, max: 0 }), 0);
});

test("a tally reads each mark the system declares as a whole count from 0 to its most", () => {
  const tally: Tally = { key: "strain", title: "Strain", marks: [{ id: "body", title: "Body" }, { id: "mind", title: "Mind" }], most: 4, shown: "always" };
  assert.deepEqual(tallyCounts(tally, { strain: { body: 2, mind: 9, luck: 1 } }), { body: 2, mind: 4 });
  assert.deepEqual(tallyCounts(tally, { strain: { body: -1, mind: "x" } }), { body: 0, mind: 0 });
  assert.deepEqual(tallyCounts(tally, {}), { body: 0, mind: 0 });
  assert.deepEqual(tallyCounts(tally, undefined), { body: 0, mind: 0 });
});

test("the turn row draws what the system declares: initiative to roll, or the turn to pass", () => {
  const base = { combatant: { id: "c1" }, initiative: null, myTurn: false };
  assert.deepEqual(turnChoices({ ...base, turns: "initiative" }), { rollInitiative: true, pass: [] });
  assert.deepEqual(turnChoices({ ...base }), { rollInitiative: true, pass: [] }, "no declaration: initiative");
  assert.deepEqual(turnChoices({ ...base, turns: "passed" }), { rollInitiative: false, pass: [] }, "no initiative to roll when turns are passed");
  const mine = { ...base, myTurn: true, turns: "passed" as const, passTo: [{ id: "c2", name: "Maud" }, { id: "c3", name: "Tide Wight" }] };
  assert.deepEqual(turnChoices(mine).pass, [
    { label: "Pass to Maud", data: { to: "c2" } },
    { label: "Pass to Tide Wight", data: { to: "c3" } },
    { label: "End my turn", data: null },
  ]);
  assert.deepEqual(turnChoices({ ...mine, turns: "initiative", initiative: 12 }), { rollInitiative: false, pass: [{ label: "End my turn", data: null }] },
    "initiative: only the end of the turn, whatever passTo says");
});
