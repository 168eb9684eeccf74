import { test } from "node:test";
import assert from "node:assert/strict";
import { carriedLight, tokenSummary } from "./token-panel";

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

test("a token carries a light: its vision's light with the tool's radii; a token without vision gets it on", () => {
  const seeing = { vision: { id: "v", enabled: true, dark: false, darkRadiusMax: 0, darkRadiusMin: 0, light: false, lightColor: "", lightOpacity: 1, lightRadiusMax: 0, lightRadiusMin: 0, sight: null } };
  assert.deepEqual(carriedLight(seeing, true, 20, 40, "#ffe08a"), { vision: { light: true, lightRadiusMin: 20, lightRadiusMax: 40, lightColor: "#ffe08a" } });
  assert.deepEqual(carriedLight({}, true, 30, 10, "#fff"), { vision: { light: true, lightRadiusMin: 30, lightRadiusMax: 30, lightColor: "#fff", enabled: true } }, "dim is never inside bright");
  assert.deepEqual(carriedLight(seeing, false, 20, 40, "#fff"), { vision: { light: false } });
});
