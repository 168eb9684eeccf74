import { test } from "node:test";
import assert from "node:assert/strict";
import { healthBarLabel, isOwnCombatant, isOwnToken } from "./table";
import type { CombatantRow } from "../table/state";
import type { Token } from "../types";

const ilsa: Token = { id: "T1", x: 0, y: 0, name: "Ilsa", player: true };

test("a token is the player's own when it is a player's or a friend's and carries the join name (any case, spaces)", () => {
  assert.equal(isOwnToken(ilsa, " ilsa "), true);
  assert.equal(isOwnToken({ ...ilsa, player: false, role: "friendly" }, "Ilsa"), true);
  assert.equal(isOwnToken({ ...ilsa, player: false, role: "hostile" }, "Ilsa"), false, "a foe named like the player is not theirs");
  assert.equal(isOwnToken(ilsa, "Bo"), false);
  assert.equal(isOwnToken(ilsa, "  "), false, "no name, no own token");
  assert.equal(isOwnToken(undefined, "Ilsa"), false);
});

test("a combatant is the player's own by its name, or by its token", () => {
  const row = { id: "c", name: "Ilsa Reedwhisper", tokenId: "" } as CombatantRow;
  const tokens = new Map([["T1", ilsa]]);
  assert.equal(isOwnCombatant(row, "ilsa reedwhisper", tokens), true);
  assert.equal(isOwnCombatant({ ...row, name: "Hero", tokenId: "T1" }, "Ilsa", tokens), true);
  assert.equal(isOwnCombatant({ ...row, name: "Hero", tokenId: "T2" }, "Ilsa", tokens), false);
});

test("the health label is the system's first combatant bar's", () => {
  assert.equal(healthBarLabel({ entities: { Default: { combatant: { bars: [{ attribute: "data.vigour", label: "VIG" }] } } } }), "VIG");
  assert.equal(healthBarLabel({ entities: { Default: { combatant: { bars: [] } } } }), "");
  assert.equal(healthBarLabel(null), "");
  assert.equal(healthBarLabel({ entities: { Default: { combatant: { bars: [{ label: 7 }] } } } }), "");
});
