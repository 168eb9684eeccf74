import { test } from "node:test";
import assert from "node:assert/strict";
import { computeAreas, isPartyViewer, sameDarkness, visibleIn, type VisionInput } from "./vision";
import { starCentre } from "./fan";
import type { MapData, Sight, Token } from "../types";

const room = [0, 0, 1000, 0, 1000, 1000, 0, 1000];

function input(map: MapData, tokens: Token[], sights: Sight[] = []): VisionInput {
  const byKey = new Map(sights.map((s) => [s.key, s]));
  return {
    map, tokens, position: (t) => ({ x: t.x, y: t.y }), sight: (k) => byKey.get(k),
    visionKey: (t) => ("id" in (t.vision ?? {}) ? `vision-${(t.vision as { id: string }).id}` : `token-${t.id}`),
  };
}

const base: MapData = { id: "M", width: 1000, height: 1000, gridSize: 50, gridScale: 5, lineOfSight: true, losDaylight: 1, losVisionLimit: -1 };

test("party vision is the union of every friendly or player token's sight; hostile tokens add nothing", () => {
  const left = [0, 0, 400, 0, 400, 1000, 0, 1000];
  const right = [600, 0, 1000, 0, 1000, 1000, 600, 1000];
  const tokens: Token[] = [
    { id: "A", x: 100, y: 100, player: true, vision: { enabled: true } },
    { id: "F", x: 900, y: 100, role: "friendly", vision: { enabled: true } },
    { id: "H", x: 500, y: 500, role: "hostile", vision: { enabled: true } },
  ];
  const a = computeAreas(input(base, tokens, [
    { key: "token-A", x: 100, y: 100, polygon: left },
    { key: "token-F", x: 900, y: 100, polygon: right },
    { key: "token-H", x: 500, y: 500, polygon: room },
  ]));
  assert.ok(visibleIn(a, 50, 500) && visibleIn(a, 950, 500));
  assert.ok(!visibleIn(a, 500, 500), "the hostile token's view is not the party's");
  assert.equal(isPartyViewer(tokens[2]), false);
});

test("losVisionLimit clips sight (grid units: 10 ft at 5 ft per 50 px cell = 100 px)", () => {
  const a = computeAreas(input({ ...base, losVisionLimit: 10 }, [{ id: "A", x: 500, y: 500, player: true, vision: { enabled: true } }], [{ key: "token-A", x: NaN, y: NaN, polygon: room }]));
  assert.ok(visibleIn(a, 590, 500));
  assert.ok(!visibleIn(a, 620, 500));
});

test("in the dark only light and darkvision show things; daylight shows all in sight", () => {
  const dark = { ...base, losDaylight: 0, lights: [{ id: "L", x: 900, y: 900, radiusMin: 5, radiusMax: 10, sight: { key: "light-L", x: 900, y: 900, polygon: room } }] };
  const tokens: Token[] = [{ id: "A", x: 100, y: 100, player: true, vision: { enabled: true, dark: true, darkRadiusMax: 20 } }];
  const a = computeAreas(input(dark, tokens, [{ key: "token-A", x: 100, y: 100, polygon: room }]));
  assert.ok(visibleIn(a, 250, 100), "darkvision reaches 200 px");
  assert.ok(!visibleIn(a, 500, 500), "unlit and beyond darkvision");
  assert.ok(visibleIn(a, 850, 900), "inside the light");
  const day = computeAreas(input({ ...dark, losDaylight: 0.5 }, tokens, [{ key: "token-A", x: 100, y: 100, polygon: room }]));
  assert.ok(visibleIn(day, 500, 500));
});

test("without line of sight everything is visible; without a server polygon the walls are used", () => {
  assert.ok(visibleIn(computeAreas(input({ ...base, lineOfSight: false }, [])), 1, 1));
  const walled = { ...base, walls: [{ id: "W", data: [300, 0, 300, 1000] }] };
  const a = computeAreas(input(walled, [{ id: "A", x: 100, y: 500, player: true, vision: { enabled: true } }]));
  assert.ok(visibleIn(a, 200, 500) && !visibleIn(a, 400, 500));
});

test("a gliding token uses the server polygon computed where it is going, not a local one", () => {
  const serverPoly = [0, 0, 1000, 0, 1000, 1000, 0, 1000];
  const walled = { ...base, walls: [{ id: "W", data: [300, 0, 300, 1000] }] };
  const t: Token = { id: "A", x: 100, y: 500, player: true, vision: { enabled: true } };
  const inp = input(walled, [t], [{ key: "token-A", x: 200, y: 500, polygon: serverPoly }]);
  inp.position = () => ({ x: 150, y: 500 }); // mid-glide
  assert.ok(!visibleIn(computeAreas(inp), 400, 500), "without a target the walls decide");
  inp.target = () => ({ x: 200, y: 500 });
  assert.ok(visibleIn(computeAreas(inp), 400, 500), "the server's polygon at the glide's end is used");
});

test("a light carried by a tile lights the tile's place", () => {
  const dark: MapData = { ...base, losDaylight: 0, tiles: [{ id: "T", x: 800, y: 800, width: 50, height: 50, light: { id: "TL", x: 0, y: 0, radiusMin: 5, radiusMax: 10 } }] };
  const a = computeAreas(input(dark, [{ id: "A", x: 100, y: 100, player: true, vision: { enabled: true } }], [{ key: "token-A", x: 100, y: 100, polygon: room }]));
  assert.ok(visibleIn(a, 850, 800), "lit by the tile's light");
  assert.ok(!visibleIn(a, 500, 500));
});

test("sameDarkness: equal polygons (new arrays) are the same darkness; a moved point, another polygon or daylight is not", () => {
  const areas = (sight: number[][], daylight = 0) => ({ lineOfSight: true, sight, bright: [], dim: [[0, 0, 10, 0, 10, 10]], tints: [], daylight, followsDrawn: false, lit: { sight: [], dim: [], bright: [], tints: [] } });
  const a = areas([[0, 0, 100, 0, 100, 100]]);
  assert.ok(sameDarkness(a, areas([[0, 0, 100, 0, 100, 100]])));
  assert.ok(!sameDarkness(a, areas([[0, 0, 100, 0, 100, 101]])));
  assert.ok(!sameDarkness(a, areas([[0, 0, 100, 0, 100, 100], [0, 0, 1, 0, 1, 1]])));
  assert.ok(!sameDarkness(a, areas([[0, 0, 100, 0, 100, 100, 0, 100]])));
  assert.ok(!sameDarkness(a, areas([[0, 0, 100, 0, 100, 100]], 0.5)));
});

test("a server polygon is clipped around where the server computed it, and the areas then do not follow the drawn token", () => {
  const t: Token = { id: "A", x: 100, y: 500, player: true, vision: { enabled: true, light: true, lightRadiusMax: 10 } };
  const inp = input(base, [t], [{ key: "token-A", x: 200, y: 500, polygon: room }]);
  inp.position = () => ({ x: 150, y: 500 }); // mid-glide
  inp.target = () => ({ x: 200, y: 500 });
  const a = computeAreas(inp);
  assert.equal(a.followsDrawn, false);
  // The light (10 ft = 100 px) is around the polygon's origin, 200,500.
  assert.ok(a.dim[0].every((v, i) => (i % 2 === 0 ? Math.abs(v - 200) <= 100.001 : true)));
  inp.position = () => ({ x: 180, y: 500 }); // the next frame of the glide
  assert.ok(sameDarkness(a, computeAreas(inp)), "a glide frame changes nothing while no new polygon arrived");
});

test("this page's own drag uses the newest echoed polygon, wherever the pointer is", () => {
  const walled = { ...base, walls: [{ id: "W", data: [300, 0, 300, 1000] }] };
  const t: Token = { id: "A", x: 100, y: 500, player: true, vision: { enabled: true } };
  const inp = input(walled, [t], [{ key: "token-A", x: 120, y: 500, polygon: room }]);
  inp.position = () => ({ x: 160, y: 500 }); // the pointer, ahead of the echo
  assert.ok(!visibleIn(computeAreas(inp), 400, 500), "not dragging here: computed from the walls");
  assert.equal(computeAreas(inp).followsDrawn, true);
  inp.dragging = () => true;
  const a = computeAreas(inp);
  assert.ok(visibleIn(a, 400, 500), "the echo's polygon");
  assert.equal(a.followsDrawn, false);
});

test("the map's lights are a share apart, the same arrays while nothing changes, each marked star-shaped around its light", () => {
  const lights = [
    { id: "L", x: 800, y: 800, radiusMin: 5, radiusMax: 10, alwaysVisible: true, color: "#ff0000", opacity: 0.5 },
    { id: "M", x: 200, y: 800, radiusMin: 0, radiusMax: 10 },
  ];
  const map = { ...base, losDaylight: 0, lights };
  const tokens: Token[] = [{ id: "A", x: 100, y: 100, player: true, vision: { enabled: true, light: true, lightRadiusMax: 20 } }];
  const sights = [
    { key: "token-A", x: 100, y: 100, polygon: room },
    { key: "light-L", x: 800, y: 800, polygon: room },
    { key: "light-M", x: 200, y: 800, polygon: room },
  ];
  const a = computeAreas(input(map, tokens, sights));
  assert.equal(a.lit.dim.length, 2);
  assert.equal(a.lit.bright.length, 1);
  assert.equal(a.lit.sight.length, 1, "the light always visible adds its area to sight");
  assert.equal(a.lit.tints.length, 2);
  assert.deepEqual(a.dim.slice(-2), a.lit.dim, "the lights' share is also in the whole, after the tokens'");
  assert.equal(a.dim.length, 3);
  assert.deepEqual(starCentre(a.lit.dim[0]), { x: 800, y: 800 });
  assert.deepEqual(starCentre(a.lit.dim[1]), { x: 200, y: 800 });
  assert.deepEqual(starCentre(a.dim[0]), { x: 100, y: 100 });
  const b = computeAreas(input(map, [{ ...tokens[0], x: 150 }], [{ key: "token-A", x: 150, y: 100, polygon: room }, ...sights.slice(1)]));
  assert.equal(b.lit.dim[0], a.lit.dim[0], "a light clipped again is the same array");
  assert.equal(b.lit.bright[0], a.lit.bright[0]);
  assert.notEqual(b.dim[0], a.dim[0], "the moved token's light is new");
});

test("a server polygon's straight runs are drawn as one edge: a wall seen past many corners adds no points", () => {
  // The room's walls, each with a point for every 0.5 px (what the
  // server's sweep sends past thousands of wall corners), and a light.
  const dense: number[] = [];
  const corners = [[0, 0], [1000, 0], [1000, 1000], [0, 1000]];
  for (let c = 0; c < 4; c++) {
    const [ax, ay] = corners[c], [bx, by] = corners[(c + 1) % 4];
    for (let k = 0; k < 2000; k++) dense.push(ax + ((bx - ax) * k) / 2000, ay + ((by - ay) * k) / 2000);
  }
  const map: MapData = { ...base, lights: [{ id: "L", x: 500, y: 500, radiusMax: 20, radiusMin: 10, enabled: true }] as MapData["lights"] };
  const tokens: Token[] = [{ id: "A", x: 500, y: 500, player: true, vision: { enabled: true } }];
  const a = computeAreas(input(map, tokens, [
    { key: "token-A", x: 500, y: 500, polygon: dense },
    { key: "light-L", x: 500, y: 500, polygon: dense },
  ]));
  assert.ok(a.sight[0].length / 2 <= 5, `the room's 8,000 points are its 4 corners (and where the list starts), not ${a.sight[0].length / 2}`);
  assert.equal(starCentre(a.sight[0])?.x, 500, "still drawn as a fan from the viewer");
  for (const p of [...a.lit.dim, ...a.lit.bright]) assert.ok(p.length / 2 <= 125, `a light's area has ${p.length / 2} points`);
  assert.ok(visibleIn(a, 5, 5) && visibleIn(a, 995, 995) && !visibleIn(a, 1005, 500));
});
