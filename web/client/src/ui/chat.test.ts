import { test } from "node:test";
import assert from "node:assert/strict";
import { dieFace, formulaText, readableFormula, refusalText, rollTitle, senderOf, totalText } from "./chat";
import type { MessageView } from "../table/state";

const roll = { formula: "1d20+5", total: 20, comment: "", label: "", dice: [], expression: "1d20+5" };

function message(over: Partial<MessageView>): MessageView {
  return { id: "m", type: "roll", source: "Ann", color: "", creature: "", created: "", text: "", title: "", rolls: [roll], private: false, to: [], outcome: "", gm: false, ...over };
}

test("a roll's title is printed unless it repeats a formula or the expression", () => {
  assert.equal(rollTitle(message({ title: "Longsword" })), "Longsword");
  assert.equal(rollTitle(message({ title: "1d20+5" })), "", "a /r command's name is its formula again");
  assert.equal(rollTitle(message({ title: "1d20+5", rolls: [{ ...roll, formula: "1d20 + 5" }] })), "", "the expression as typed counts too");
  assert.equal(rollTitle(message({ title: "" })), "");
});

test("a die shows its value with its mark, and says why it did not count", () => {
  assert.deepEqual(dieFace({ sides: 20, value: 20, kept: true, crit: true }), { text: "20★", label: "d20: 20 (critical)" });
  assert.deepEqual(dieFace({ sides: 20, value: 1, kept: true, fumble: true }), { text: "1✗", label: "d20: 1 (fumble)" });
  assert.deepEqual(dieFace({ sides: 6, value: 6, kept: true, exploded: true }), { text: "6✸", label: "d6: 6 (exploded)" });
  assert.deepEqual(dieFace({ sides: 20, value: 3, kept: false, dropped: true }), { text: "3", label: "d20: 3 (dropped)" });
  assert.deepEqual(dieFace({ sides: 20, value: 2, kept: false, rerolled: true }), { text: "2", label: "d20: 2 (rerolled)" });
  assert.deepEqual(dieFace({ sides: 8, value: 5, kept: true }), { text: "5", label: "d8: 5" });
});

test("totals are rounded to two decimals; a missing total is a question mark", () => {
  assert.equal(totalText(17), "17");
  assert.equal(totalText(2 / 3), "0.67");
  assert.equal(totalText(null), "?");
  assert.equal(formulaText({ ...roll, comment: "sneak attack" }), "1d20+5 # sneak attack");
  assert.equal(formulaText(roll), "1d20+5");
});

test("a refused line says what was typed and why; a dice error in plain words", () => {
  assert.equal(refusalText("hello", "rate limited"), "“hello”: rate limited");
  const human = refusalText("/r 1d20+", 'expected a number at 5 in "1d20+"');
  assert.notEqual(human, "“/r 1d20+”: expected a number at 5 in \"1d20+\"");
  assert.match(human, /1d20\+/);
});

test("a sheet's roll reads as a player writes it: no critical marks, no comment repeating its title", () => {
  assert.equal(readableFormula("1d20cs>=20cf+7"), "1d20+7");
  assert.equal(readableFormula("2d20kh1cs>=19cf+5"), "2d20kh1+5");
  assert.equal(readableFormula("5d20cs=20cf<=1"), "5d20");
  assert.equal(readableFormula("2d6[fire cs]+1d6"), "2d6[fire cs]+1d6", "labels are left as written");
  const attack = { ...roll, formula: "1d20cs>=20cf+7", comment: "Longbow attack:attack" };
  assert.equal(formulaText(attack, "Longbow attack"), "1d20+7");
  assert.equal(formulaText({ ...roll, formula: "1d8+3", comment: "Longbow damage (piercing):damage" }, "Longbow damage (piercing)"), "1d8+3");
  assert.equal(formulaText(attack, ""), "1d20+7 # Longbow attack:attack", "a comment that is not the title is kept");
});

test("only a message the server signed as the game master's reads as theirs", () => {
  assert.deepEqual(senderOf({ source: "", gm: true }), { name: "Game master", gm: true });
  assert.deepEqual(senderOf({ source: "Narrator", gm: true }), { name: "Narrator", gm: true });
  assert.deepEqual(senderOf({ source: "", gm: false }), { name: "A player", gm: false }, "a nameless player is not the game master");
  assert.deepEqual(senderOf({ source: "Game master", gm: false }), { name: "Game master", gm: false }, "a typed name gets no mark");
});
