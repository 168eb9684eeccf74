import { test } from "node:test";
import assert from "node:assert/strict";
import { humanRollError, privateTrayText, readRoll, trayExpression, trayText } from "./dice";

// The engine's JSON for `companion roll 2d20kh1+5 --json --seed 3`.
const advantage = {
  expression: "2d20kh1+5", formula: "2d20kh1+5", total: 23, text: "2d20kh1+5: [3d, 18]+5 = 23", start: 0, end: 9,
  tree: { type: "op", value: 23, op: "+", args: [
    { type: "dice", value: 18, notation: "2d20kh1", count: 2, sides: 20, dice: [{ value: 3, sides: 20, dropped: true }, { value: 18, sides: 20 }] },
    { type: "number", value: 5 },
  ] },
};

test("a roll result reads die by die: kept and dropped, total and formula", () => {
  const r = readRoll(advantage)!;
  assert.equal(r.total, 23);
  assert.equal(r.formula, "2d20kh1+5");
  assert.deepEqual(r.dice, [{ sides: 20, value: 3, kept: false, dropped: true }, { sides: 20, value: 18, kept: true }]);
  // The same result as JSON text (how a stored message may carry it).
  assert.deepEqual(readRoll(JSON.stringify(advantage)), r);
});

test("explosions, rerolls and marked criticals are told apart; a natural 20 or 1 counts when nothing is marked", () => {
  const r = readRoll({ formula: "x", total: 1, tree: { type: "group", args: [
    { type: "dice", dice: [{ value: 6, sides: 6, exploded: true }, { value: 2, sides: 6, explosion: true }, { value: 1, sides: 6, rerolled: true }] },
    { type: "dice", sidesFrom: { type: "dice", dice: [{ value: 4, sides: 4 }] }, dice: [{ value: 3, sides: 4, critical: "success" }, { value: 1, sides: 4, critical: "failure" }] },
  ] } })!;
  assert.deepEqual(r.dice.map((d) => [d.value, d.kept, !!d.exploded, !!d.rerolled, !!d.crit, !!d.fumble]), [
    [6, true, true, false, false, false],
    [2, true, true, false, false, false],
    [1, false, false, true, false, false],
    [4, true, false, false, false, false],
    [3, true, false, false, true, false],
    [1, true, false, false, false, true],
  ]);
  const nat = readRoll({ total: 21, tree: { type: "dice", dice: [{ value: 20, sides: 20 }, { value: 1, sides: 20 }, { value: 20, sides: 100 }] } })!;
  assert.deepEqual(nat.dice.map((d) => [!!d.crit, !!d.fumble]), [[true, false], [false, true], [false, false]]);
});

test("a failed roll keeps its error; garbage is no roll", () => {
  assert.deepEqual(readRoll({ expression: "2d", error: "unexpected end at 3" }), { formula: "2d", total: null, comment: "", label: "", dice: [], error: "unexpected end at 3", expression: "2d" });
  assert.equal(readRoll("not json"), null);
  assert.equal(readRoll(42), null);
  // A hostile tree (too deep) does not blow the stack.
  let deep: Record<string, unknown> = { type: "dice", dice: [{ value: 1, sides: 6 }] };
  for (let i = 0; i < 10000; i++) deep = { type: "paren", args: [deep] };
  assert.equal(readRoll({ total: 1, tree: deep })!.dice.length, 0);
});

test("the dice tray builds the expression", () => {
  assert.equal(trayExpression({ sides: 20, count: 1, modifier: 5, mode: "advantage" }), "2d20kh1+5");
  assert.equal(trayExpression({ sides: 20, count: 1, modifier: -1, mode: "disadvantage" }), "2d20kl1-1");
  assert.equal(trayExpression({ sides: 6, count: 3, modifier: 0, mode: "normal" }), "3d6");
  assert.equal(trayExpression({ sides: 100, count: 0, modifier: 2.7, mode: "normal" }), "1d100+2");
  assert.equal(trayExpression({ sides: 8, count: 5000, modifier: 0, mode: "normal" }), "100d8");
});

test("advantage with a count rolls each die with advantage, separately", () => {
  assert.equal(trayText({ sides: 20, count: 2, modifier: 0, mode: "advantage" }), "[[2d20kh1]] [[2d20kh1]]");
  assert.equal(trayText({ sides: 20, count: 2, modifier: 3, mode: "disadvantage" }), "[[2d20kl1+3]] [[2d20kl1+3]]");
  assert.equal(trayText({ sides: 20, count: 1, modifier: 5, mode: "advantage" }), "/r 2d20kh1+5");
  assert.equal(trayText({ sides: 6, count: 3, modifier: 0, mode: "normal" }), "/r 3d6");
});

test("dice errors read as a person would say them", () => {
  assert.equal(humanRollError(`unexpected end at 6 in "1d20+": expected a number, dice or '('`),
    "Couldn't read '1d20+' — expected a number, dice or '(' after '+'");
  assert.equal(humanRollError(`unexpected 'x' at 3 in "1dx": expected the number of sides after 'd' (a number, %, F or parentheses)`),
    "Couldn't read '1dx' — 'x' is out of place (character 3): expected the number of sides after 'd' (a number, %, F or parentheses)");
  assert.equal(humanRollError(`0 sides at 1 in "1d0": a die needs at least one side`), "Couldn't read '1d0' — 0 sides: a die needs at least one side");
  assert.equal(humanRollError(`cannot roll '1d20+': unexpected end at 6 in "1d20+": expected a number, dice or '('`),
    "Couldn't read '1d20+' — expected a number, dice or '(' after '+'");
  assert.equal(humanRollError("empty expression: write dice such as 1d20+5"), "empty expression: write dice such as 1d20+5");
});

test("the tray's private switch rolls to the game master only: /gmroll, or inline rolls whispered to the GM", () => {
  assert.equal(privateTrayText(trayText({ sides: 20, count: 1, modifier: 3, mode: "normal" })), "/gmroll 1d20+3");
  assert.equal(privateTrayText("[[2d20kh1]] [[2d20kh1]]"), "/w GM [[2d20kh1]] [[2d20kh1]]");
});
