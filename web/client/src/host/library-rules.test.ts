import { test } from "node:test";
import assert from "node:assert/strict";
import { alreadyRun, creatureLine, kindLabel, libraryLabel, nameFrom, playersSeeNothing, shownText, sortLibraries } from "./library-rules";

const lib = (id: string, name: string, pages = 0, maps = 0, encounters = 0, kind = "module") => ({ id, name, kind, pages, maps, encounters });

test("libraries with pages, maps or encounters come first, then by name", () => {
  const sorted = sortLibraries([lib("srd", "SRD"), lib("b", "Bog", 1), lib("a", "Abbey", 0, 2), lib("c", "Crypt", 0, 0, 1), lib("x", "Aardvark bestiary")]);
  assert.deepEqual(sorted.map((l) => l.id), ["a", "b", "c", "x", "srd"]);
});

test("a library's label names its kind and counts, singular and plural", () => {
  assert.equal(libraryLabel(lib("c", "The Keep", 1, 2, 0, "campaign")), "The Keep (campaign) — 1 page, 2 maps, 0 encounters");
  assert.equal(libraryLabel(lib("m", "Bog", 3, 1, 1)), "Bog — 3 pages, 1 map, 1 encounter");
});

test("tree rows say what they are; groups say nothing", () => {
  assert.deepEqual(["page", "map", "encounter", "asset", "table", "group", "x"].map(kindLabel), ["page", "map", "encounter", "asset", "table", "", ""]);
});

test("a creature is named by itself, its reference's slug or its label", () => {
  assert.equal(nameFrom("/monster/ford-toad"), "Ford Toad");
  assert.equal(nameFrom("/monster/giant_rat"), "Giant Rat");
  assert.equal(nameFrom(undefined), "");
  assert.equal(creatureLine({ reference: "/monster/ford-toad", count: 3 }), "Ford Toad ×3");
  assert.equal(creatureLine({ name: "Bandit", count: 1, label: "B" }), "Bandit (B)");
  assert.equal(creatureLine({ label: "Boss" }), "Boss (Boss)");
  assert.equal(creatureLine({}), "Creature");
});

test("a page says what players may read of it", () => {
  const v = { page: { id: "p", name: "P" }, html: "", url: "", sections: [{ id: "s1", title: "Hall", level: 1 }, { id: "s2", title: "Crypt", level: 2 }] };
  assert.equal(shownText(v), "Players cannot read this page.");
  assert.equal(shownText({ ...v, shown: "page" }), "Players may read this page.");
  assert.equal(shownText({ ...v, shown: "sections", shownSections: ["s2"] }), "Players may read: Crypt.");
});

test("a map is dark for players with line of sight on and no party token with vision", () => {
  const seer = { id: "t", role: "friendly", vision: { enabled: true } };
  assert.equal(playersSeeNothing({ lineOfSight: false, tokens: [] }), false);
  assert.equal(playersSeeNothing({ lineOfSight: true, tokens: [] }), true);
  assert.equal(playersSeeNothing({ lineOfSight: true, tokens: [seer] }), false);
  assert.equal(playersSeeNothing({ lineOfSight: true, tokens: [{ ...seer, hidden: true }] }), true);
  assert.equal(playersSeeNothing({ lineOfSight: true, tokens: [{ ...seer, vision: { enabled: false } }] }), true);
  assert.equal(playersSeeNothing({ lineOfSight: true, tokens: [{ ...seer, role: "hostile" }] }), true);
  assert.equal(playersSeeNothing({ lineOfSight: true, tokens: [{ ...seer, role: "hostile", player: true }] }), false);
  assert.equal(playersSeeNothing(null), false);
});

test("only the refusal of an encounter already on its map asks to run it once more", () => {
  assert.equal(alreadyRun(409, "encounter 'Ambush' is already on map 'Cave': its 4 creatures stand there"), true);
  assert.equal(alreadyRun(409, "the encounter names no map and none is on the player screen: give 'mapId'"), false);
  assert.equal(alreadyRun(404, "already on map"), false);
});
