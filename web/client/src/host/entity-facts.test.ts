import { test } from "node:test";
import assert from "node:assert/strict";
import { armorClass, factsOf, healthKey, hitPoints, isStatReference } from "./entity-facts";

test("armour class reads a number, {value} or a list of them", () => {
  assert.equal(armorClass(15), 15);
  assert.equal(armorClass({ value: 13, type: "natural armor" }), 13);
  assert.equal(armorClass([{ value: 17 }, { value: 19 }]), 17);
  assert.equal(armorClass([]), null);
  assert.equal(armorClass("15"), null);
  assert.equal(armorClass(null), null);
});

test("an entity's facts: armor_class (or ac), the maximum of the system's health key before its value", () => {
  assert.deepEqual(factsOf({ data: { armor_class: [{ value: 15 }], hit_points: 7 } }, "hit_points"), { ac: 15, maxHP: 7 });
  assert.deepEqual(factsOf({ data: { ac: 12, max_hit_points: 30, hit_points: 21 } }, "hit_points"), { ac: 12, maxHP: 30 });
  assert.deepEqual(factsOf({ data: { max_grit: 9, hit_points: 21 } }, "grit"), { ac: null, maxHP: 9 });
  assert.deepEqual(factsOf({ data: { hit_points: 21 } }, ""), { ac: null, maxHP: null });
  assert.deepEqual(factsOf({}, "hit_points"), { ac: null, maxHP: null });
  assert.deepEqual(factsOf(null, "hit_points"), { ac: null, maxHP: null });
});

test("a combatant's health key is its kind's first range, else one of the system's its data carries", () => {
  const ranges = { investigator: "grit", beast: "wounds" };
  assert.equal(healthKey("investigator", { wounds: 3 }, ranges), "grit");
  assert.equal(healthKey("", { wounds: 3 }, ranges), "wounds");
  assert.equal(healthKey(undefined, { hit_points: 3 }, ranges), "");
  assert.equal(healthKey("ghost", {}, ranges), "");
});

test("only a /kind/slug reference opens as a stat block", () => {
  assert.ok(isStatReference("/monster/goblin"));
  assert.ok(isStatReference("/character/a1B2-c_3"));
  assert.ok(!isStatReference("https://evil.example/monster/goblin"));
  assert.ok(!isStatReference("//evil.example/x"));
  assert.ok(!isStatReference("/monster/goblin?x=1"));
  assert.ok(!isStatReference("/Monster/goblin"));
  assert.ok(!isStatReference("/monster/../x"));
  assert.ok(!isStatReference(undefined));
});

test("a combatant's hit points only when kept as a number", () => {
  assert.deepEqual(hitPoints({ hit_points: 5, max_hit_points: 7, temp_hit_points: 2 }, "hit_points"), { hp: 5, max: 7, temp: 2 });
  assert.deepEqual(hitPoints({ grit: 5, max_grit: 8 }, "grit"), { hp: 5, max: 8, temp: null });
  assert.deepEqual(hitPoints({ hit_points: 5 }, "hit_points"), { hp: 5, max: null, temp: null });
  assert.equal(hitPoints({ hit_points: 5 }, ""), null);
  assert.equal(hitPoints({ hit_points: "5" }, "hit_points"), null);
  assert.equal(hitPoints(undefined, "hit_points"), null);
});
