import { test } from "node:test";
import assert from "node:assert/strict";
import {
  combatButtons, combatStateText, conditionNames, effectBody, effectLabel, hitPointAmount, hitPointText, initiativeValue, isActing, passState, roundsLeft,
} from "./combat-rules";

const running = { started: true, round: 3, turn: 2 };

test("an effect's rounds left count down by the server's rule", () => {
  // Applied at round 2, turn 2 for 2 rounds: ends when turn 2 comes in round 4.
  const e = { id: "e", name: "Poisoned", duration: 2, roundStart: 2, turnStart: 2 };
  assert.equal(roundsLeft(e, { ...running, round: 2, turn: 2 }), 2);
  assert.equal(roundsLeft(e, { ...running, round: 3, turn: 2 }), 1);
  assert.equal(roundsLeft(e, { ...running, round: 3, turn: 1 }), 2); // before its turn: the round begun counts whole
  assert.equal(roundsLeft(e, { ...running, round: 4, turn: 2 }), 0);
  assert.equal(roundsLeft(e, { started: false }), 2); // not running: the whole duration
  assert.equal(roundsLeft({ ...e, durationUnit: "minute" }, { started: false }), 20);
  assert.equal(roundsLeft({ ...e, durationUnit: "hours" }, { started: false }), 1200);
  assert.equal(roundsLeft({ ...e, durationUnit: "day" }, running), null);
  assert.equal(roundsLeft({ id: "x", name: "Blessed" }, running), null);
  // Counted in turns of the target: those behind it are spent.
  assert.equal(roundsLeft({ ...e, durationType: "targetStartNextTurn", data: { turnsElapsed: 1 } }, running), 1);
  assert.equal(roundsLeft({ ...e, durationType: "sourceEndNextTurn", data: { turnsElapsed: 5 } }, running), 0);
});

test("an effect's chip names it with its rounds, singular and plural", () => {
  const e = { id: "e", name: "Poisoned", duration: 2, roundStart: 2, turnStart: 2 };
  assert.equal(effectLabel(e, { ...running, round: 2, turn: 2 }), "Poisoned (2 rounds)");
  assert.equal(effectLabel(e, { ...running, round: 3, turn: 2 }), "Poisoned (1 round)");
  assert.equal(effectLabel({ id: "x" }, running), "effect");
});

const slot = (id: string, init = `i${id}`) => ({ combatantId: id, initiativeId: init, name: id, value: 10 });

test("the combat state line and the buttons it allows", () => {
  const combatants = [{ id: "a", name: "Goblin" }, { id: "b", name: "Kira" }];
  assert.equal(combatStateText({ combatants }, [slot("a")]), "No combat running. 1 of 2 combatants have rolled initiative.");
  assert.equal(combatStateText({ ...running, combatants, combatantId: "b" }, [slot("a"), slot("b")]), "Round 3 · turn 2 · Kira acts");
  assert.equal(combatStateText({ ...running, combatants, combatantId: "gone" }, []), "Round 3 · turn 2");
  assert.deepEqual(combatButtons({}, []), { start: false, previous: false, next: false, end: false });
  assert.deepEqual(combatButtons({}, [slot("a")]), { start: true, previous: false, next: false, end: false });
  assert.deepEqual(combatButtons(running, [slot("a")]), { start: false, previous: true, next: true, end: true });
});

test("the acting slot is the game's combatant and initiative, while combat runs", () => {
  const g = { ...running, combatantId: "a", initiativeId: "ia2" };
  assert.equal(isActing(slot("a", "ia2"), g), true);
  assert.equal(isActing(slot("a", "ia1"), g), false); // the same combatant's other slot
  assert.equal(isActing(slot("b", "ia2"), g), false);
  assert.equal(isActing(slot("a", "ia2"), { ...g, started: false }), false);
});

test("the row's small forms: initiative, hit points, effects", () => {
  assert.equal(initiativeValue(" "), null);
  assert.equal(initiativeValue("14"), 14);
  assert.equal(initiativeValue("-1.5"), -1.5);
  assert.equal(hitPointAmount("7"), 7);
  assert.equal(hitPointAmount("0"), null);
  assert.equal(hitPointAmount("-3"), null);
  assert.equal(hitPointAmount(""), null);
  assert.deepEqual(effectBody(" Poisoned ", "2"), { name: "Poisoned", duration: 2, durationUnit: "round" });
  assert.deepEqual(effectBody("Prone", ""), { name: "Prone" });
  assert.deepEqual(effectBody("Prone", "0"), { name: "Prone" });
  assert.equal(effectBody("  ", "3"), null);
  assert.equal(hitPointText({ hp: 5, max: 7, temp: 2 }), "HP 5/7 +2");
  assert.equal(hitPointText({ hp: 5, max: null, temp: 0 }), "HP 5");
});

test("the conditions list takes names from strings or rows", () => {
  assert.deepEqual(conditionNames(["Blinded", { name: "Charmed" }, { label: "Deafened" }, { id: "exhaustion" }, {}, 3]), ["Blinded", "Charmed", "Deafened", "exhaustion"]);
  assert.deepEqual(conditionNames(undefined), []);
});

test("where the system passes turns: no going back, who acted this round, and whom the turn may go to", () => {
  const combatants = [{ id: "a", name: "Edwin" }, { id: "b", name: "Maud" }, { id: "c", name: "Wight" }];
  const order = [slot("a"), slot("b"), slot("c")];
  const g = { ...running, combatants, combatantId: "b", acted: ["a"] };
  assert.equal(combatStateText({ combatants }, order, true), "No combat running. 3 combatants take turns, passed from one to the next.");
  assert.equal(combatStateText(g, order, true), "Round 3 · Maud acts · 1 of 3 have acted");
  assert.deepEqual(combatButtons(g, order, true), { start: false, previous: false, next: true, end: true });
  assert.deepEqual(combatButtons({}, order, true), { start: true, previous: false, next: false, end: false });
  assert.deepEqual(passState(slot("a"), g), { mark: "acted", canPass: false });
  assert.deepEqual(passState(slot("b"), g), { mark: "acting", canPass: false });
  assert.deepEqual(passState(slot("c"), g), { mark: "waiting", canPass: true });
  assert.deepEqual(passState(slot("c"), {}), { mark: "waiting", canPass: false }, "no passing before combat starts");
});

test("health shows under the system's label", () => {
  assert.equal(hitPointText({ hp: 8, max: 11, temp: null }, "VIG"), "VIG 8/11");
  assert.equal(hitPointText({ hp: 8, max: null, temp: 2 }), "HP 8 +2");
});
