import { test } from "node:test";
import assert from "node:assert/strict";
import { initialsOf, maxMessages, messageView, TableState } from "./state";

const msg = (id: string, created: string, text = id) => ({ id, type: "chat", source: "Ellie", text, created });

test("messages are kept once by id: a resync after a reconnect doubles nothing", () => {
  const s = new TableState();
  s.load({ messages: [msg("a", "2026-01-01T00:00:01Z"), msg("b", "2026-01-01T00:00:02Z")] });
  s.apply("messageCreated", msg("c", "2026-01-01T00:00:03Z"));
  s.apply("messageCreated", msg("c", "2026-01-01T00:00:03Z"));
  s.load({ messages: [msg("b", "2026-01-01T00:00:02Z"), msg("c", "2026-01-01T00:00:03Z"), msg("d", "2026-01-01T00:00:04Z")] });
  assert.deepEqual(s.order, ["a", "b", "c", "d"]);
  s.apply("messageDeleted", { id: "b" });
  assert.deepEqual(s.order, ["a", "c", "d"]);
  s.apply("messagesUpdated", [msg("x", "2026-01-01T00:00:09Z")]);
  assert.deepEqual(s.order, ["x"]);
});

test("a late message goes where its time puts it; the log is capped", () => {
  const s = new TableState();
  s.apply("messageCreated", msg("b", "2026-01-01T00:00:02Z"));
  s.apply("messageCreated", msg("a", "2026-01-01T00:00:01Z"));
  assert.deepEqual(s.order, ["a", "b"]);
  for (let i = 0; i < maxMessages + 5; i++) s.apply("messageCreated", msg(`m${i}`, "2026-01-02T00:00:00Z"));
  assert.equal(s.order.length, maxMessages);
  assert.equal(s.messages.size, maxMessages);
  assert.equal(s.dropped, 7);
});

test("a roll message reads its rolls and its title; an old-style content keeps its total", () => {
  const v = messageView({ id: "r", type: "roll", text: "1d20+5: [15]+5 = 20", content: { name: "dagger", type: "attack", formula: "1d20+5", result: 20 },
    rolls: [{ formula: "1d20+5", total: 20, tree: { type: "dice", dice: [{ value: 15, sides: 20 }] } }] })!;
  assert.equal(v.title, "dagger");
  assert.equal(v.rolls[0].total, 20);
  const old = messageView({ id: "o", type: "roll", content: { name: "x", formula: "1d6", result: 4 } })!;
  assert.equal(old.rolls[0].total, 4);
  assert.equal(messageView({ text: "no id" }), null);
});

test("initiative: turn order, hidden combatants never shown, live updates by id", () => {
  const s = new TableState();
  s.load({ game: { round: 2, turn: 1, started: true, combatantId: "g", combatants: [
    { id: "u", name: "Unrolled", initiative: [] },
    { id: "g", name: "Goblin", label: "G1", role: "hostile", initiative: [{ id: "i1", value: 12, order: 2 }], bloodied: true,
      effects: [{ id: "e", name: "Poisoned" }, { id: "f", name: "Off", enabled: false }] },
    { id: "h", name: "Secret", hidden: true, initiative: [{ id: "i3", value: 20, order: 1 }] },
    { id: "p", name: "Ilsa Reedwhisper", role: "friendly", initiative: [{ id: "i2", value: 19, order: 1 }] },
  ], creatures: [{ id: "p", health: 21, hitpoints: 28 }] } });
  assert.deepEqual(s.combatants.map((r) => r.id), ["p", "g", "u"]);
  assert.equal(s.activeId, "g");
  assert.deepEqual(s.combatants[1].conditions.map((c) => c.name), ["Poisoned"]);
  assert.equal(s.combatants[1].bloodied, true);
  assert.deepEqual(s.combatants[0].hp, { current: 21, max: 28 });
  assert.equal(s.combatants[1].hp, null, "no numbers unless the payload carries them");
  assert.equal(s.combatants[0].initials, "IR");
  s.apply("combatantUpdated", { id: "g", name: "Goblin", hidden: true });
  assert.deepEqual(s.combatants.map((r) => r.id), ["p", "u"]);
  s.apply("combatantDeleted", { id: "u" });
  s.apply("gameUpdated", { round: 3, turn: 1, combatantId: "p" });
  assert.deepEqual(s.combatants.map((r) => r.id), ["p"], "a gameUpdated without combatants keeps them");
  assert.equal(s.round, 3);
});

test("pause, screen and pointers", () => {
  const s = new TableState();
  s.apply("systemPaused", true);
  assert.equal(s.paused, true);
  s.apply("systemPaused", { paused: false });
  assert.equal(s.paused, false);
  s.apply("clientUpdated", { id: "client-1", name: "Ellie" });
  s.apply("pointerUpdated", { id: "client-1", source: "client-1", x: 10, y: 20, color: "#4caf50", state: "control" });
  assert.equal(s.pointers.get("client-1")!.name, "Ellie");
  s.apply("pointerUpdated", { source: "client-1", x: 10, y: 20, color: "javascript:x", state: "end" });
  assert.equal(s.pointers.get("client-1")!.color, "#ffcc00");
  assert.equal(s.pointers.get("client-1")!.ended, true);
  s.apply("pointerUpdated", { source: "client-2", x: "bad", y: 1 });
  assert.equal(s.pointers.size, 1);
});

test("initials", () => {
  assert.equal(initialsOf("goblin"), "GO");
  assert.equal(initialsOf("  "), "?");
  assert.equal(initialsOf("Ilsa of the Reeds"), "IR");
  assert.equal(initialsOf("goblin 12"), "G12");
});

test("a private message is read as private, with its recipients; any other is not", () => {
  const w = messageView({ id: "w", type: "chat", text: "psst", private: true, to: ["GM", "Bo", 3] })!;
  assert.equal(w.private, true);
  assert.deepEqual(w.to, ["GM", "Bo"]);
  const p = messageView({ id: "p", type: "chat", text: "hi" })!;
  assert.equal(p.private, false);
  assert.deepEqual(p.to, []);
});

test("passed turns: who acted this round follows each gameUpdated, the turn alone included", () => {
  const s = new TableState();
  s.load({ game: { round: 1, turn: 1, started: true, combatantId: "b", acted: ["a"], combatants: [{ id: "a", name: "Ada" }, { id: "b", name: "Bo" }] } });
  assert.deepEqual(s.acted, ["a"]);
  s.apply("gameUpdated", { round: 1, turn: 1, started: true, combatantId: "a", acted: ["a", "b", 7] });
  assert.deepEqual(s.acted, ["a", "b"], "ids only");
  s.apply("gameUpdated", { round: 2, turn: 1, started: true, combatantId: "a" });
  assert.deepEqual(s.acted, [], "a new round: no one has acted (an empty list is left out)");
});
