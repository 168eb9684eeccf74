import { test } from "node:test";
import assert from "node:assert/strict";
import { messageBody, messageText, privateTag, speaker, speakerNames } from "./message-rules";
import { newMapFields, mapLine, screenState } from "./campaign-rules";
import { reloadLine, viewText } from "./system";

test("a message's speaker: the creature with its player, the player, or the game master", () => {
  assert.equal(speaker({ creature: "Goblin", source: "Ann" }), "Goblin (Ann)");
  assert.equal(speaker({ creature: "Kira", source: "Kira" }), "Kira");
  assert.equal(speaker({ source: "Ann" }), "Ann");
  assert.equal(speaker({}), "Game master");
});

test("a message's line adds its roll's total, read as the player client reads rolls", () => {
  assert.equal(messageText({ text: "/r 1d20+5", rolls: [{ expression: "1d20+5", total: 17 }] }), "/r 1d20+5 → 17");
  assert.equal(messageText({ text: "x", rolls: [{ expression: "1d", error: "bad dice" }] }), "x");
  assert.equal(messageText({}), "");
});

test("the game master speaks as the combatants, each name once, sorted", () => {
  assert.deepEqual(speakerNames({ game: { combatants: [{ id: "1", name: "Zed" }, { id: "2", name: "Ann" }, { id: "3", name: "Zed" }, { id: "4" }] } }), ["Ann", "Zed"]);
  assert.deepEqual(messageBody("  hi ", "", false), { text: "hi" });
  assert.deepEqual(messageBody("/r 1d20", "Goblin", true), { text: "/r 1d20", creature: "Goblin", private: true });
  assert.equal(messageBody("   ", "Goblin", true), null);
});

test("the new map form sends the sizes given, as numbers", () => {
  assert.deepEqual(newMapFields({ name: " Cave ", gridType: "square", width: "1400", height: "", gridSize: " 70 " }), { name: "Cave", gridType: "square", width: 1400, gridSize: 70 });
  assert.deepEqual(newMapFields({ name: "Cave", gridType: "none", width: "", height: "", gridSize: "" }), { name: "Cave", gridType: "none" });
  assert.equal(mapLine({ id: "m", name: "Cave", width: 1400, height: 980, tokens: 1 }), "1400×980 px · 1 token");
  assert.equal(mapLine({ id: "m", name: "Cave", tokens: 0 }), "0 tokens");
});

test("the player screen says what is on it and under which handout", () => {
  assert.equal(screenState({ maps: [{ id: "m", name: "Cave", onScreen: true }], screen: { overlayType: "image" } }).text, "“Cave” is on the player screen, under an image handout.");
  assert.equal(screenState({ maps: [{ id: "m", name: "Cave" }], screen: { overlayType: "handout" } }).text, "Nothing is on the player screen, under a text handout.");
  // A module's map, which the campaign's list does not hold.
  assert.equal(
    screenState({ maps: [{ id: "m", name: "Cave" }], screen: { mapId: "x" }, screenMap: { id: "x", name: "Bog Ford", onScreen: true, library: "Marsh Bats" } }).text,
    "“Bog Ford” (from Marsh Bats) is on the player screen.",
  );
  assert.equal(screenState({}).text, "Nothing is on the player screen.");
});

test("the system's last reload and a client's view, as the cards say them", () => {
  const sys = { id: "dnd5e", name: "D&D", version: "1" };
  assert.deepEqual(reloadLine(sys), { text: "—", tone: "" });
  assert.deepEqual(reloadLine({ ...sys, watching: "/x" }), { text: "No edit since the server started.", tone: "" });
  assert.equal(reloadLine({ ...sys, lastReload: { ok: false, error: "init.lua:3: boom", time: "t" } }).text, "Failed at t: init.lua:3: boom");
  assert.equal(reloadLine({ ...sys, lastReload: { ok: true, version: "2", time: "t", latencyMs: 12.4 } }).text, "Reloaded version 2 at t (12 ms)");
  assert.equal(viewText({ channel: 1, mapZoom: 1.5, mapCenterX: 10.4, mapCenterY: 20.6 }), "centre 10, 21 · zoom 1.50");
  assert.equal(viewText({ channel: 1, mapZoom: 0 }), null);
  assert.equal(viewText({ channel: 1 }), null);
});

test("a player's text shows as typed: the server's &lt; for a tag opener is a <", () => {
  assert.equal(messageText({ text: "look &lt;img src=x> and a &lt; b" }), "look <img src=x> and a &lt; b");
});

test("a private message is marked by who reads it", () => {
  assert.equal(privateTag({ text: "x" }), "");
  assert.equal(privateTag({ text: "x", private: true }), "private GM roll");
  assert.equal(privateTag({ text: "x", private: true, to: ["GM"], source: "Ann" }), "private to GM");
  assert.equal(privateTag({ text: "x", private: true, to: ["Bo", "Cy"] }), "whisper to Bo, Cy");
});

test("a table roll reads as lines in the log, not as JSON", () => {
  const text = JSON.stringify({ id: "r", name: "Loot", formula: "1d6", result: 4, details: [{ name: "Find", value: "a gem" }] });
  assert.equal(messageText({ type: "tableRoll", text }), "Loot (1d6: 4)\n- Find: a gem");
});
