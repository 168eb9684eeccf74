import { test } from "node:test";
import assert from "node:assert/strict";
import { hearsThrough, mayDrag, mayUseDoors, seesThrough } from "./permissions";
import type { Token } from "./types";

const ann: Token = { id: "A", name: "Ann", x: 0, y: 0, player: true };
const bob: Token = { id: "B", name: "Bob", x: 0, y: 0, player: true };
const orc: Token = { id: "O", name: "Orc", x: 0, y: 0, role: "hostile" };
const all = [ann, bob, orc];
const player = { name: "ann", display: false };

test("interaction none, all, token", () => {
  assert.equal(mayDrag(orc, player, "none", false, all), false);
  assert.equal(mayDrag(orc, player, "all", false, all), true);
  assert.equal(mayDrag(orc, player, "token", false, all), false, "token mode: never a monster");
  assert.equal(mayDrag(ann, player, "token", false, all), true, "the token with the player's name");
  assert.equal(mayDrag(bob, player, "token", false, all), false, "not another player's token");
  assert.equal(mayDrag(bob, { name: "Cy", display: false }, "token", false, all), true, "no token named after the player: any player token");
});

test("token mode with seats: the seat's character and the tokens it controls, nothing without a seat", () => {
  const brannoc: Token = { id: "T1", name: "Brannoc", x: 0, y: 0, player: true, entityId: "C1" };
  const wolf: Token = { id: "T2", name: "Wolf", x: 0, y: 0, role: "friendly" };
  const ilsa: Token = { id: "T3", name: "Ilsa", x: 0, y: 0, player: true, entityId: "C2" };
  const toks = [brannoc, wolf, ilsa];
  const seated = { name: "ann", display: false, seat: { id: "C1", tokens: ["T2"] } };
  assert.equal(mayDrag(brannoc, seated, "token", false, toks), true, "the seat's character's token");
  assert.equal(mayDrag(wolf, seated, "token", false, toks), true, "a token the game master gave the seat");
  assert.equal(mayDrag(ilsa, seated, "token", false, toks), false, "another seat's character");
  assert.equal(mayDrag(brannoc, { name: "Brannoc", display: false, seat: null }, "token", false, toks), false, "no seat: nothing, whatever the name");
  assert.equal(mayDrag(ilsa, seated, "all", false, toks), true, "mode all is not limited by seats");
  const spectator = { name: "tv", display: false, spectator: true, seat: null };
  assert.equal(mayDrag(orc, spectator, "all", false, all), false, "a spectator drags nothing");
  assert.equal(mayUseDoors(spectator, "all", false), false, "nor opens doors");
});

test("nothing moves on a display or while paused; doors follow the same gate", () => {
  assert.equal(mayDrag(ann, { name: "Ann", display: true }, "all", false, all), false);
  assert.equal(mayDrag(ann, player, "all", true, all), false);
  assert.equal(mayDrag(ann, null, "all", false, all), false);
  assert.equal(mayUseDoors(player, "token", false), true);
  assert.equal(mayUseDoors(player, "none", false), false);
  assert.equal(mayUseDoors(player, "all", true), false);
  assert.equal(mayUseDoors({ name: "x", display: true }, "all", false), false);
});

test("shared vision: the party's, unless the host says never; then the player's own token", () => {
  const eyes = { vision: { enabled: true } };
  const a = { ...ann, ...eyes }, b = { ...bob, ...eyes }, o = { ...orc, ...eyes };
  const toks = [a, b, o];
  assert.deepEqual(toks.map((t) => seesThrough(t, player, "always", toks)), [true, true, false]);
  assert.deepEqual(toks.map((t) => seesThrough(t, player, undefined, toks)), [true, true, false]);
  assert.deepEqual(toks.map((t) => seesThrough(t, player, "never", toks)), [true, false, false]);
  assert.deepEqual(toks.map((t) => seesThrough(t, { name: "Cy", display: false }, "never", toks)), [true, true, false], "no token of theirs: the party's");
  assert.deepEqual(toks.map((t) => seesThrough(t, { name: "Ann", display: true }, "never", toks)), [true, true, false], "displays show the party's");
  const seated = { name: "Ann", display: false, seat: { id: "char-bob", tokens: [b.id as string] } };
  assert.deepEqual(toks.map((t) => seesThrough(t, seated, "never", toks)), [false, true, false], "a seat's own tokens, not the name's");
  assert.deepEqual(toks.map((t) => seesThrough(t, seated, "always", toks)), [true, true, false], "shared: the party's, seat or not");
});

test("partial vision: the party's outside combat; in combat the acting party token's and the player's own", () => {
  const eyes = { vision: { enabled: true } };
  const a = { ...ann, ...eyes }, b = { ...bob, ...eyes }, c = { ...ann, id: "C", name: "Cy", ...eyes }, o = { ...orc, ...eyes };
  const toks = [a, b, c, o];
  const sees = (who: Parameters<typeof seesThrough>[1], acting: string | null) => toks.filter((t) => seesThrough(t, who, "partial", toks, acting)).map((t) => t.id);
  assert.deepEqual(sees(player, null), ["A", "B", "C"], "outside combat: the whole party");
  assert.deepEqual(sees(player, "B"), ["A", "B"], "Bob's turn: Bob's sight and Ann's own");
  assert.deepEqual(sees(player, "A"), ["A"], "her own turn: her own sight alone");
  assert.deepEqual(sees(player, "O"), ["A"], "a monster's turn: her own sight alone");
  assert.deepEqual(sees(player, ""), ["A"], "an acting combatant without a token: her own");
  assert.deepEqual(sees({ name: "Dee", display: false }, "C"), ["C"], "a player with no token of theirs follows the acting one");
  const seated = { name: "Ann", display: false, seat: { id: "char-bob", tokens: ["B"] } };
  assert.deepEqual(sees(seated, "C"), ["B", "C"], "a seat's own tokens, not the name's");
  assert.deepEqual(sees({ name: "Ann", display: true }, "B"), ["A", "B", "C"], "displays show the party's");
  assert.deepEqual(toks.filter((t) => seesThrough(t, player, "always", toks, "B")).map((t) => t.id), ["A", "B", "C"], "always ignores the turn");
});

test("ambient sounds are heard through the seat's tokens, the named one, else the party's, vision or not", () => {
  const hero = { id: "h", name: "Ada", player: true } as Token;
  const friend = { id: "f", name: "Guide", role: "friendly" } as Token;
  const foe = { id: "o", name: "Orc" } as Token;
  const all = [hero, friend, foe];
  assert.deepEqual(all.filter((t) => hearsThrough(t, { name: "Ada", display: false }, all)).map((t) => t.id), ["h"]);
  assert.deepEqual(all.filter((t) => hearsThrough(t, { name: "Bea", display: false }, all)).map((t) => t.id), ["h", "f"]);
  assert.deepEqual(all.filter((t) => hearsThrough(t, { name: "Ada", display: true }, all)).map((t) => t.id), ["h", "f"]);
  assert.deepEqual(all.filter((t) => hearsThrough(t, { name: "Bea", display: false, seat: { id: "x", tokens: ["f"] } }, all)).map((t) => t.id), ["f"]);
});
