import { test } from "node:test";
import assert from "node:assert/strict";
import { EditHistory, lightFrom, objectAt, requestFor, snapPoint, soundFrom, splitWall, vertexAt, wallFrom, withVertexMoved } from "./drawing";

const grid = { size: 70, offsetX: 0, offsetY: 0 };

test("a click snaps to a wall's end first, then to a grid corner, within reach", () => {
  const walls = [{ data: [100, 100, 300, 100] }];
  assert.deepEqual(snapPoint({ x: 296, y: 104 }, walls, grid, 15), { x: 300, y: 100 }, "the end of a wall");
  assert.deepEqual(snapPoint({ x: 146, y: 137 }, walls, grid, 15), { x: 140, y: 140 }, "a grid corner");
  assert.deepEqual(snapPoint({ x: 175.4, y: 35.2 }, walls, grid, 15), { x: 175, y: 35 }, "nothing near: where it was");
  assert.deepEqual(snapPoint({ x: 12, y: 9 }, [], { size: 70, offsetX: 10, offsetY: 10 }, 15), { x: 10, y: 10 }, "the grid's offset");
});

test("a wall needs two distinct points; a door starts closed", () => {
  assert.equal(wallFrom([{ x: 0, y: 0 }], "normal"), null);
  assert.equal(wallFrom([{ x: 0, y: 0 }, { x: 0, y: 0 }], "normal"), null, "a double click is one point");
  assert.deepEqual(wallFrom([{ x: 0, y: 0 }, { x: 70, y: 0 }, { x: 70, y: 0 }, { x: 70, y: 70 }], "normal"), { data: [0, 0, 70, 0, 70, 70] });
  assert.deepEqual(wallFrom([{ x: 0, y: 0 }, { x: 70, y: 0 }], "secretDoor"), { data: [0, 0, 70, 0], type: "secretDoor", door: "closed" });
  assert.deepEqual(wallFrom([{ x: 0, y: 0 }, { x: 70, y: 0 }], "window"), { data: [0, 0, 70, 0], type: "window" });
});

test("a light's dim radius is never inside its bright one; intensity is 0 to 1", () => {
  assert.deepEqual(lightFrom({ x: 10.4, y: 20.6 }, 20, 10, "#ff0000", 3), { x: 10, y: 21, radiusMin: 20, radiusMax: 20, color: "#ff0000", opacity: 1, enabled: true });
});

test("the eraser finds the nearest wall or light", () => {
  const walls = [{ id: "w", data: [0, 0, 100, 0] }];
  const lights = [{ id: "l", x: 50, y: 40 }];
  assert.equal(objectAt({ x: 50, y: 5 }, walls, lights, 10)?.object.id, "w");
  assert.equal(objectAt({ x: 50, y: 36 }, walls, lights, 10)?.object.id, "l");
  assert.equal(objectAt({ x: 50, y: 20 }, walls, lights, 10), null);
});

test("undo and redo walk the edits as host API calls", () => {
  const h = new EditHistory();
  const wall = { id: "w1", data: [0, 0, 70, 0] };
  h.push({ mapId: "M", kind: "walls", before: null, after: wall });
  h.push({ mapId: "M", kind: "walls", before: wall, after: { id: "w1", data: [0, 0, 70, 70], type: "door" } });
  const u1 = h.undo()!;
  assert.deepEqual(requestFor(u1), { method: "PATCH", path: "maps/M/walls/w1", body: { id: "w1", data: [0, 0, 70, 0], type: null } });
  const u2 = h.undo()!;
  assert.deepEqual(requestFor(u2), { method: "DELETE", path: "maps/M/walls/w1" });
  assert.equal(h.undo(), null);
  const r1 = h.redo()!;
  assert.deepEqual(requestFor(r1), { method: "POST", path: "maps/M/walls", body: wall });
  h.push({ mapId: "M", kind: "lights", before: null, after: { id: "l" } });
  assert.equal(h.redo(), null, "a new edit forgets what was undone");
  h.undo();
  h.failed("undo");
  assert.equal(h.canRedo, false, "a failed undo is still to undo");
  assert.equal(requestFor(h.undo()!).method, "DELETE");
});

test("a click of the Sound tool makes an ambient sound; the eraser finds it", () => {
  const o = soundFrom({ x: 140.4, y: 70.6 }, "/campaigns/c/audio/rain.ogg", 6, true);
  assert.deepEqual(o, { x: 140, y: 71, radius: 6, url: "/campaigns/c/audio/rain.ogg", hidden: true });
  assert.equal(soundFrom({ x: 0, y: 0 }, "/a", 0, false).radius, 1);
  assert.equal("hidden" in soundFrom({ x: 0, y: 0 }, "/a", 3, false), false);
  const sound = { id: "s1", x: 140, y: 71 };
  const light = { id: "l1", x: 300, y: 300 };
  assert.deepEqual(objectAt({ x: 145, y: 70 }, [], [light], 12, [sound]), { kind: "sounds", object: sound });
  assert.equal(objectAt({ x: 200, y: 200 }, [], [light], 12, [sound]), null);
});

test("the wall tool grabs the nearest wall point and moves it; undo is the patch back", () => {
  const a = { id: "a", data: [0, 0, 100, 0, 100, 100] };
  const b = { id: "b", data: [300, 300, 400, 300] };
  assert.equal(vertexAt({ x: 50, y: 50 }, [a, b], 10), null, "nothing within reach");
  const hit = vertexAt({ x: 97, y: 4 }, [a, b], 10)!;
  assert.deepEqual([hit.wall.id, hit.index], ["a", 2], "the corner, a middle point too");
  assert.deepEqual(vertexAt({ x: 398, y: 301 }, [a, b], 10), { wall: b, index: 2 });
  const moved = withVertexMoved(b, 2, { x: 420, y: 350 });
  assert.deepEqual(moved.data, [300, 300, 420, 350]);
  assert.deepEqual(b.data, [300, 300, 400, 300], "the wall shown is not changed");
  const req = requestFor({ mapId: "m", kind: "walls", before: b, after: moved });
  assert.deepEqual([req.method, req.path, (req.body as { data: number[] }).data], ["PATCH", "maps/m/walls/b", [300, 300, 420, 350]]);
  const back = requestFor({ mapId: "m", kind: "walls", before: moved, after: b });
  assert.deepEqual((back.body as { data: number[] }).data, [300, 300, 400, 300]);
});

test("a wall splits at the point of its nearest segment, not at its own points, never a door", () => {
  const a = { id: "a", data: [0, 0, 100, 0, 100, 100] };
  const door = { id: "d", type: "door", data: [200, 0, 300, 0] };
  assert.deepEqual(splitWall({ x: 40.4, y: 3 }, [a, door], 10)?.data, [0, 0, 40, 0, 100, 0, 100, 100], "the first segment");
  assert.deepEqual(splitWall({ x: 104, y: 60 }, [a, door], 10)?.data, [0, 0, 100, 0, 100, 60, 100, 100], "the second");
  assert.equal(splitWall({ x: 100, y: 0 }, [a], 10), null, "at a point it already has");
  assert.equal(splitWall({ x: 250, y: 2 }, [a, door], 10), null, "a door is not split");
  assert.equal(splitWall({ x: 50, y: 50 }, [a], 10), null, "nothing within reach");
});
