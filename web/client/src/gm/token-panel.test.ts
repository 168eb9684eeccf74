import { test } from "node:test";
import assert from "node:assert/strict";
import { tokenSummary } from "./token-panel";

test("the panel names the token and says what players see, and offers the opposite of its state", () => {
  const shown = tokenSummary({ id: "T", name: "Goblin" });
  assert.equal(shown.name, "Goblin");
  assert.match(shown.seen, /^Players see this token/);
  assert.equal(shown.visibility, "hide");
  const hidden = tokenSummary({ id: "T", label: "G2", hidden: true });
  assert.equal(hidden.name, "G2");
  assert.match(hidden.seen, /^Hidden: players see neither the token nor its place in the turn order/);
  assert.equal(hidden.visibility, "reveal");
  assert.equal(tokenSummary({ id: "T" }).name, "Token");
});

test("a token in combat already offers no second Add to combat", () => {
  assert.deepEqual(tokenSummary({ id: "T", name: "Goblin" }).combat, { label: "Add to combat", enabled: true });
  assert.deepEqual(tokenSummary({ id: "T", name: "Goblin" }, true).combat, { label: "In combat", enabled: false });
});
