import { test } from "node:test";
import assert from "node:assert/strict";
import { Store, mapObjectKinds, type Change } from "./store";
import type { MapData } from "../types";

function demoMap(): MapData {
  return {
    id: "M1", name: "Chapel", width: 700, height: 700, gridSize: 70, lineOfSight: true,
    tokens: [
      { id: "A", name: "Ann", x: 35, y: 35, player: true, vision: { enabled: true, sight: { key: "vision-VA", x: 35, y: 35, polygon: [0, 0, 70, 0, 70, 70] } } },
      { id: "H", name: "Hidden", x: 105, y: 35, hidden: true },
    ],
    markers: [{ id: "K1", x: 1, y: 1 }, { id: "K2", x: 1, y: 1, hidden: true }],
    tiles: [{ id: "T1", x: 0, y: 0, width: 10, height: 10, layer: "object" }, { id: "T2", x: 0, y: 0, width: 10, height: 10, layer: "dm" }],
    lights: [{ id: "L1", x: 5, y: 5, sight: { key: "light-L1", x: 5, y: 5, polygon: [0, 0, 9, 0, 9, 9] } }],
  };
}

function loaded(): { s: Store; changes: Change[] } {
  const s = new Store();
  const changes: Change[] = [];
  s.subscribe((c) => changes.push(c));
  s.load({ map: demoMap(), screen: { remoteInteraction: true }, paused: false });
  changes.length = 0;
  return { s, changes };
}

test("a snapshot keeps nothing hidden and nothing on the dm layer", () => {
  const { s } = loaded();
  assert.deepEqual([...s.tokens.keys()], ["A"]);
  assert.deepEqual(s.map!.markers!.map((m) => m.id), ["K1"]);
  assert.deepEqual(s.map!.tiles!.map((m) => m.id), ["T1"]);
  assert.deepEqual([...s.sights.keys()].sort(), ["light-L1", "vision-VA"]);
  assert.equal(s.interaction, "all");
});

test("tokenUpdated {id, hidden} removes the token; a full token adds or replaces it", () => {
  const { s, changes } = loaded();
  s.apply("tokenUpdated", { id: "A", hidden: true });
  assert.equal(s.tokens.has("A"), false);
  assert.deepEqual(changes.at(-1), { kind: "tokenRemoved", id: "A" });
  s.apply("tokenUpdated", { id: "B", x: 10, y: 20, name: "Bo" });
  assert.equal(s.tokens.get("B")!.x, 10);
  s.apply("tokenUpdated", { id: "B", label: "B1" }); // partial: merged
  assert.equal(s.tokens.get("B")!.label, "B1");
  assert.equal(s.tokens.get("B")!.x, 10);
  s.apply("tokenUpdated", { id: "ghost", label: "x" }); // partial of an unknown token: ignored
  assert.equal(s.tokens.has("ghost"), false);
});

test("token events that name another map are ignored; those naming the shown map or none apply", () => {
  const { s, changes } = loaded();
  s.apply("tokenUpdated", { id: "Z", mapId: "M2", x: 10, y: 20, name: "Next encounter's lich" });
  assert.equal(s.tokens.has("Z"), false, "a token of another map is not drawn on this one");
  s.apply("tokenMoved", { id: "A", mapId: "M2", x: 300, y: 300, state: "end" });
  assert.equal(s.tokens.get("A")!.x, 35, "a drag on another map does not move this map's token");
  s.apply("tokensUpdated", { mapId: "M2", tokens: [] });
  assert.deepEqual([...s.tokens.keys()], ["A"], "another map's tokens do not replace this map's");
  s.apply("mapUpdated", { id: "M2", name: "Lair", tokens: [] });
  assert.equal(s.map!.id, "M1", "mapUpdated of another map does not replace the shown one");
  s.apply("markersUpdated", { mapId: "M2", markers: [{ id: "K9", x: 1, y: 1, hidden: false }] });
  assert.deepEqual(s.map!.markers!.map((m) => m.id), ["K1"], "another map's markers do not replace this map's");
  assert.equal(changes.length, 0);
  s.apply("tokenUpdated", { id: "Z", mapId: "M1", x: 10, y: 20, name: "Zed" });
  assert.equal(s.tokens.get("Z")!.name, "Zed");
  s.apply("tokenMoved", { id: "A", mapId: "M1", x: 70, y: 70, state: "end" });
  assert.equal(s.tokens.get("A")!.x, 70);
  s.apply("mapLoaded", { id: "M2", name: "Lair", tokens: [] });
  assert.equal(s.map!.id, "M2", "mapLoaded shows another map");
});

test("tokenMoved commits only on end; integer states are understood; its polygon replaces the vision", () => {
  const { s, changes } = loaded();
  s.apply("tokenMoved", { id: "A", x: 100, y: 100, state: 1 });
  assert.equal(s.tokens.get("A")!.x, 35, "control does not commit");
  const moved = changes.find((c) => c.kind === "moved");
  assert.ok(moved && moved.kind === "moved" && moved.movement.state === "control");
  s.apply("tokenMoved", { id: "A", x: 105, y: 105, state: "end", polygon: [1, 1, 2, 2, 3, 1] });
  assert.equal(s.tokens.get("A")!.x, 105);
  assert.deepEqual(s.sights.get("vision-VA")!.polygon, [1, 1, 2, 2, 3, 1]);
  s.apply("tokenMoved", { id: "H", x: 1, y: 1, state: "end" });
  assert.equal(s.tokens.has("H"), false, "a move of a token the player never got does not create it");
});

test("lineOfSightUpdated replaces the polygons, in either form; another map's is ignored", () => {
  const { s } = loaded();
  s.apply("lineOfSightUpdated", { mapId: "OTHER", vision: { A: [0, 0, 1, 0, 1, 1] } });
  assert.ok(s.sights.has("vision-VA"));
  s.apply("lineOfSightUpdated", { mapId: "M1", segments: [], vision: { A: [0, 0, 1, 0, 1, 1] } });
  assert.deepEqual([...s.sights.keys()], ["token-A"]);
  s.apply("lineOfSightUpdated", [{ key: "vision-VA", x: 35, y: 35, polygon: [0, 0, 5, 0, 5, 5] }]);
  assert.deepEqual([...s.sights.keys()], ["vision-VA"]);
});

test("object events: hidden or dm-layer updates remove; plural events replace the list", () => {
  const { s, changes } = loaded();
  s.apply("markerUpdated", { id: "K1", hidden: true });
  assert.equal(s.map!.markers!.length, 0);
  s.apply("markerUpdated", { id: "K3", x: 2, y: 2, label: "3" });
  assert.deepEqual(s.map!.markers!.map((m) => m.id), ["K3"]);
  s.apply("tileUpdated", { id: "T1", layer: "dm" });
  assert.equal(s.map!.tiles!.length, 0);
  s.apply("areaEffectsUpdated", [{ id: "E1", x: 0, y: 0 }, { id: "E2", x: 0, y: 0, hidden: true }]);
  assert.deepEqual(s.map!.areaEffects!.map((e) => e.id), ["E1"]);
  s.apply("markerMoved", { id: "K3", x: 50, y: 60, state: "end" });
  assert.equal(s.map!.markers![0].x, 50);
  assert.ok(changes.every((c) => c.kind === "objects"));
});

test("systemPaused, interactionUpdated and screenUpdated in both forms", () => {
  const { s } = loaded();
  s.apply("systemPaused", { paused: true });
  assert.equal(s.paused, true);
  s.apply("systemPaused", false);
  assert.equal(s.paused, false);
  s.apply("interactionUpdated", { remoteInteraction: false });
  assert.equal(s.interaction, "none");
  s.apply("interactionUpdated", "token");
  assert.equal(s.interaction, "token");
  s.apply("screenUpdated", { interaction: "all" });
  assert.equal(s.interaction, "all");
});

test("mapLoaded switches maps; unknown names are left alone", () => {
  const { s, changes } = loaded();
  s.apply("mapLoaded", { id: "M2", name: "Other", tokens: [{ id: "Z", x: 1, y: 1 }] });
  assert.equal(s.map!.id, "M2");
  assert.deepEqual([...s.tokens.keys()], ["Z"]);
  assert.deepEqual(changes.at(-1), { kind: "map" });
  assert.equal(s.apply("somethingNew", {}), false);
});

test("host viewport commands reach the renderer as commands", () => {
  const { s, changes } = loaded();
  for (const name of ["mapFrameUpdated", "mapFitScreen", "mapFocus", "mapVideoControlUpdated"]) s.apply(name, { id: "M1", x: 1, y: 2 });
  assert.deepEqual(changes.map((c) => (c.kind === "command" ? c.name : c.kind)), ["mapFrameUpdated", "mapFitScreen", "mapFocus", "mapVideoControlUpdated"]);
});

test("the game master's store keeps hidden tokens, hidden objects and the dm layer", () => {
  const s = new Store({ keepHidden: true });
  const changes: Change[] = [];
  s.subscribe((c) => changes.push(c));
  s.load({ map: demoMap(), screen: {}, paused: false });
  assert.deepEqual([...s.tokens.keys()].sort(), ["A", "H"]);
  assert.deepEqual(s.map!.markers!.map((m) => m.id), ["K1", "K2"]);
  assert.deepEqual(s.map!.tiles!.map((m) => m.id), ["T1", "T2"]);
  // Hiding a token marks it hidden instead of removing it.
  changes.length = 0;
  s.apply("tokenUpdated", { id: "A", hidden: true });
  assert.equal(s.tokens.get("A")?.hidden, true);
  assert.equal(s.tokens.get("A")?.name, "Ann");
  assert.deepEqual(changes, [{ kind: "token", id: "A" }]);
  // A player's store still drops it.
  const { s: player } = loaded();
  player.apply("tokenUpdated", { id: "A", hidden: true });
  assert.equal(player.tokens.has("A"), false);
});

test("a screen that names no map clears the map; one naming another map waits for its mapLoaded", () => {
  const { s, changes } = loaded();
  s.apply("screenUpdated", { mapId: "M2", interaction: "all" });
  assert.equal(s.map?.id, "M1", "another map comes with its mapLoaded");
  s.apply("screenUpdated", { interaction: "all" }); // cleared: mapId left out
  assert.equal(s.map, null);
  assert.equal(s.tokens.size, 0);
  assert.ok(changes.some((c) => c.kind === "map"), "the renderer is told the map went");
  s.load({ map: demoMap(), screen: { mapId: "M1" }, paused: false });
  s.apply("screenUpdated", { mapId: "", interaction: "all" });
  assert.equal(s.map, null);
});

test("a seat's own map (a split party) stays when the screen changes or is cleared", () => {
  const { s } = loaded();
  s.load({ map: demoMap(), screen: { mapId: "SCREEN" }, paused: false }); // GET /api of a seat on M1
  s.apply("screenUpdated", { mapId: "OTHER", interaction: "all" });
  s.apply("screenUpdated", { interaction: "all" });
  assert.equal(s.map?.id, "M1", "the seat's map is not the screen's to take away");
  s.apply("mapLoaded", { id: "OTHER", name: "Back on the screen's", tokens: [] });
  s.apply("screenUpdated", { mapId: "OTHER", interaction: "all" });
  s.apply("mapLoaded", { id: "OTHER", name: "Back on the screen's", tokens: [] });
  s.apply("screenUpdated", { interaction: "all" });
  assert.equal(s.map, null, "back on the screen's map, the page follows the screen again");
});

test("every kind of map object is kept by its row: its whole list, one object, a move", () => {
  const { s } = loaded();
  for (const k of mapObjectKinds) {
    const list = () => (s.map as unknown as Record<string, { id: string; x?: number }[]>)[k.field].map((o) => `${o.id}@${o.x}`);
    assert.ok(s.apply(k.many, { mapId: "M1", [k.field]: [{ id: "N", x: 1, y: 1, data: [0, 0, 1, 1] }] }), k.many);
    assert.deepEqual(list(), ["N@1"], k.many);
    if (k.one) {
      s.apply(k.one, { id: "N", x: 2 });
      assert.deepEqual(list(), ["N@2"], k.one);
    }
    if (k.moved) {
      s.apply(k.moved, { id: "N", x: 3, y: 3, state: "end" });
      assert.deepEqual(list(), ["N@3"], k.moved);
    }
  }
});
