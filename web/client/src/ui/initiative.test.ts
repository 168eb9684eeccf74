import { test } from "node:test";
import assert from "node:assert/strict";
import { offersReference, roundHeading, rowLabel } from "./initiative";
import { TableState, type CombatantRow } from "../table/state";

function row(over: Partial<CombatantRow>): CombatantRow {
  return {
    id: "c", name: "Goblin", label: "", role: "hostile", image: "", initials: "GO", bloodied: false, defeated: false,
    conditions: [], hp: null, tokenId: "", reference: "", player: false, order: 1, ...over,
  };
}

test("the heading says the round once combat started, else that there is none", () => {
  assert.equal(roundHeading(false, 0), "No combat");
  assert.equal(roundHeading(true, 0), "Round 1", "started before the first round is counted");
  assert.equal(roundHeading(false, 3), "Round 3");
});

test("a row tells a screen reader who it is, whose, whether acting, and how it fares", () => {
  assert.equal(rowLabel(row({ label: "G1", bloodied: true, conditions: [{ name: "Poisoned", icon: "", color: "" }] }), false, true),
    "Goblin, G1, Hostile, Acting now, Bloodied, Poisoned");
  assert.equal(rowLabel(row({ name: "Ilsa", role: "friendly", defeated: true, bloodied: true }), true, false), "Ilsa, Friendly, You, Defeated");
  assert.equal(rowLabel(row({ role: "ally" }), false, false), "Goblin, ally", "a role without a name of its own is said as sent");
});

test("a foe's reference page is never offered; a friend's is", () => {
  assert.equal(offersReference(row({ reference: "/monsters/goblin" })), false);
  assert.equal(offersReference(row({ role: "friendly", reference: "/characters/ilsa" })), true);
  assert.equal(offersReference(row({ role: "friendly" })), false);
});

test("turn order: rolled by order, ties and the unrolled in their stored order; hidden ones never", () => {
  const s = new TableState();
  s.load({ game: { started: true, combatants: [
    { id: "u1", name: "Unrolled one" },
    { id: "b", name: "B", initiative: [{ order: 2 }] },
    { id: "x", name: "Hidden", hidden: true, initiative: [{ order: 1 }] },
    { id: "u2", name: "Unrolled two", initiative: [{ order: 0 }] },
    { id: "a", name: "A", initiative: [{ order: 1 }] },
    { id: "c", name: "C", initiative: [{ order: 2 }] },
  ] } });
  assert.deepEqual(s.combatants.map((r) => r.id), ["a", "b", "c", "u1", "u2"]);
});
