import { test } from "node:test";
import assert from "node:assert/strict";
import { chooseCollection, listRows, matchingRows, nameOf, statBlockRef } from "./entities";

test("a row is listed by its name, its data's name, or its id", () => {
  assert.equal(nameOf({ id: "g1", name: "Goblin", data: { name: "x" } }), "Goblin");
  assert.equal(nameOf({ id: "g1", data: { name: "Goblin boss" } }), "Goblin boss");
  assert.equal(nameOf({ id: "g1" }), "g1");
});

test("a stat block's page is /kind/slug, and none for a kind a page cannot have", () => {
  assert.equal(statBlockRef({ id: "g1", kind: "monster", slug: "goblin" }), "/monster/goblin");
  assert.equal(statBlockRef({ id: "g1", kind: "monster" }), "/monster/g1");
  assert.equal(statBlockRef({ id: "g1", kind: "../admin" }), "");
  assert.equal(statBlockRef({ id: "g1" }), "");
});

test("after a reload the collection shown stays, else the monsters come first", () => {
  const kinds = [{ kind: "item", collection: "items" }, { kind: "monster", collection: "monsters" }];
  assert.equal(chooseCollection(kinds, "items"), "items");
  assert.equal(chooseCollection(kinds, "spells"), "monsters");
  assert.equal(chooseCollection([{ kind: "item", collection: "items" }], ""), "");
});

test("rows are sorted by name, searched in any case, and capped", () => {
  const rows = listRows([{ id: "b", name: "Bugbear" }, null, { name: "no id" }, { id: "g", name: "Goblin" }, { id: "a", name: "Aboleth" }]);
  assert.deepEqual(rows.map((r) => r.id), ["a", "b", "g"]);
  assert.deepEqual(matchingRows(rows, " GOB ").map((r) => r.id), ["g"]);
  assert.equal(matchingRows(rows, "").length, 3);
  assert.equal(matchingRows(rows, "", 2).length, 2);
  assert.deepEqual(listRows({ not: "a list" }), []);
});
