// The floor: a bare PixiJS 8 page that draws what the player client draws
// at its simplest, for the floor benchmark (tests/perf/browser_perf_floor_test.go)
// and nothing else. It is built beside the client (build.mjs) into
// tests/testdata/floor/, which only the tests serve: no server listener
// ever has it.
//
// Same as the player client: the canvas fills the window, GET /api once,
// the map's background image, its square grid, one sprite per token,
// the WebSocket at the server root with clientUpdated first, remote drags
// drawn where they are sent, drags of its own sent as tokenMoved start,
// control (at most 30 a second, from pointerrawupdate where there is one)
// and end, a middle-button pan, frames drawn only when something changed.
// The map's marks and lights as a bare page draws them, once, from the
// snapshot: each area template as its filled shape, each drawing as its
// stroke, each light as a tinted disc of its dim radius (added, as the
// client adds a light's tint), so that a map carrying them is the same
// picture on both pages. They never change here, so they are drawn once
// into a texture (PixiJS's cacheAsTexture), as a bare page would: drawn
// live, 40 lights' discs and 50 templates made each frame of a pan take
// 1-2 s on a CPU renderer.
// Left out, on purpose: vision and darkness (the walls that shape the
// lights), fog, doors, labels, panels, glides, every other event. What
// the client costs above this page is what it adds.
// Like the client, it asks for an animation frame only when it has
// something to draw (PixiJS's own system ticker included): a page that
// asks for every frame would spin with --disable-frame-rate-limit.
//
// It answers the subset of window.companionDebug the benchmark reads
// (state, mapFrame, mapToScreen, screenToMap, isVisibleAt, idle), so one
// Go helper drives both pages.
import { Application, Assets, CanvasSource, Container, Graphics, Sprite, Texture, Ticker, type FederatedPointerEvent } from "pixi.js";

interface FloorToken {
  id: string;
  x: number; // committed
  y: number;
  width: number;
  height: number;
  sprite: Sprite;
}

interface MapInfo {
  id: string;
  image?: string;
  width?: number;
  height?: number;
  scale?: number;
  gridSize?: number;
  gridOffsetX?: number;
  gridOffsetY?: number;
  gridColor?: string;
  gridOpacity?: number;
  gridVisible?: boolean;
  gridScale?: number;
  tokens?: { id: string; x: number; y: number; width?: number; height?: number; hidden?: boolean }[];
  areaEffects?: { shape?: string; x: number; y: number; radius?: number; length?: number; width?: number; angle?: number; color?: string; opacity?: number }[];
  drawings?: { data?: number[]; strokeColor?: string; strokeWidth?: number; opacity?: number }[];
  lights?: { x: number; y: number; radiusMax?: number; color?: string; opacity?: number; enabled?: boolean }[];
}

// The same image decoding as the player client (on the page, no worker),
// so that start-up compares pages, not decoders.
Assets.setPreferences({ preferWorkers: false });

const app = new Application();
const world = new Container();
const tokens = new Map<string, FloorToken>();
let map: MapInfo | null = null;
let backgroundLoaded = false;
/** Bytes of the background's texture (4 a pixel), for the big map's memory figure. */
let backgroundBytes = 0;
let frames = 0;
/** When the first frame with the map's background ended (performance.now()), the tokens it drew, and the frames before it with the map but not its background. */
let mapFrame: { at: number; tokens: number; bare: number; bareSince: number | null } | null = null;
let bareFrames = 0; // frames with the map before its background
let bareSince: number | null = null;
let dirty = true;
let scheduled = false;

/** Asks for a frame: one animation frame draws it (none is asked for while nothing changes). */
function requestRender(): void {
  dirty = true;
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(loop);
}

function loop(now: number): void {
  scheduled = false;
  if (!dirty) return;
  dirty = false;
  Ticker.system.update(); // PixiJS's pointer-over checks, in our frames only
  app.render();
  frames++;
  if (!mapFrame && map) {
    if (backgroundLoaded) mapFrame = { at: performance.now(), tokens: tokens.size, bare: bareFrames, bareSince };
    else if (bareFrames++ === 0) bareSince = now;
  }
  const done = idlers;
  idlers = [];
  for (const f of done) f();
}
let idlers: (() => void)[] = [];
let socketState = "connecting";
let ws: WebSocket | null = null;

function send(name: string, data: unknown): void {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ name, data }));
}

function hexColor(c: string | undefined, fallback: number): number {
  const m = typeof c === "string" ? c.match(/^#?([0-9a-f]{6})$/i) : null;
  return m ? parseInt(m[1], 16) : fallback;
}

function discTexture(): Texture {
  const c = document.createElement("canvas");
  c.width = c.height = 128;
  const ctx = c.getContext("2d")!;
  ctx.fillStyle = "#2f7de1";
  ctx.beginPath();
  ctx.arc(64, 64, 60, 0, 2 * Math.PI);
  ctx.fill();
  ctx.lineWidth = 6;
  ctx.strokeStyle = "#ffffff";
  ctx.stroke();
  return Texture.from(c);
}

function drawGrid(m: MapInfo): Graphics {
  const g = new Graphics();
  const w = m.width ?? 0, h = m.height ?? 0, s = m.gridSize ?? 70;
  if (m.gridVisible === false || w <= 0 || h <= 0) return g;
  const x0 = (((m.gridOffsetX ?? 0) % s) + s) % s, y0 = (((m.gridOffsetY ?? 0) % s) + s) % s;
  for (let x = x0; x < w; x += s) g.moveTo(x, 0).lineTo(x, h);
  for (let y = y0; y < h; y += s) g.moveTo(0, y).lineTo(w, y);
  g.stroke({ width: 1, color: hexColor(m.gridColor, 0x444444), alpha: m.gridOpacity ?? 0.5, pixelLine: true });
  return g;
}

/** The map's templates, strokes and light tints (see the top of this file), drawn once into a texture. */
function drawMarks(m: MapInfo): Container {
  const marks = new Graphics();
  for (const a of m.areaEffects ?? []) {
    const style = { color: hexColor(a.color, 0xff6600), alpha: a.opacity ?? 0.4 };
    const r = a.radius ?? 0, len = a.length ?? 0, wid = a.width ?? 0, ang = a.angle ?? 0;
    const c = Math.cos(ang), s = Math.sin(ang);
    if (a.shape === "cone") {
      const h = len / 2; // as wide at any point as it is far from the origin
      marks.poly([a.x, a.y, a.x + c * len - s * h, a.y + s * len + c * h, a.x + c * len + s * h, a.y + s * len - c * h]).fill(style);
    } else if (a.shape === "line") {
      const h = wid / 2;
      marks.poly([a.x - s * h, a.y + c * h, a.x + c * len - s * h, a.y + s * len + c * h, a.x + c * len + s * h, a.y + s * len - c * h, a.x + s * h, a.y - c * h]).fill(style);
    } else if (a.shape === "square" || a.shape === "cube") {
      marks.rect(a.x - len, a.y - len, 2 * len, 2 * len).fill(style);
    } else marks.circle(a.x, a.y, r).fill(style);
  }
  for (const d of m.drawings ?? []) {
    const p = d.data ?? [];
    if (p.length < 4) continue;
    marks.moveTo(p[0], p[1]);
    for (let i = 2; i + 1 < p.length; i += 2) marks.lineTo(p[i], p[i + 1]);
    marks.stroke({ width: d.strokeWidth ?? 4, color: hexColor(d.strokeColor, 0x3366ff), alpha: d.opacity ?? 1 });
  }
  const tints = new Graphics();
  tints.blendMode = "add";
  const ppu = (m.gridSize ?? 70) / (m.gridScale && m.gridScale > 0 ? m.gridScale : 5);
  for (const l of m.lights ?? []) {
    if (l.enabled === false || !(l.radiusMax && l.radiusMax > 0)) continue;
    tints.circle(l.x, l.y, l.radiusMax * ppu).fill({ color: hexColor(l.color, 0xffffff), alpha: Math.min(0.35, (l.opacity ?? 0.3) * 0.35) });
  }
  const all = new Container();
  if (tints.context.instructions.length + marks.context.instructions.length === 0) return all;
  all.addChild(tints, marks);
  all.cacheAsTexture(true);
  return all;
}

/** Where a token of w x h cells dropped at (x, y) comes to rest on a square grid. */
function snap(x: number, y: number, w: number, h: number): { x: number; y: number } {
  const s = map?.gridSize ?? 70, ox = map?.gridOffsetX ?? 0, oy = map?.gridOffsetY ?? 0;
  const fw = Math.max(1, w) * s, fh = Math.max(1, h) * s;
  return { x: ox + Math.round((x - fw / 2 - ox) / s) * s + fw / 2, y: oy + Math.round((y - fh / 2 - oy) / s) * s + fh / 2 };
}

// ---- a drag of this page's own ------------------------------------------

let drag: { tok: FloorToken; pointerId: number; dx: number; dy: number; started: boolean; sx: number; sy: number; lastSent: number; timer?: number; x: number; y: number } | null = null;

function sendControl(): void {
  if (!drag) return;
  clearTimeout(drag.timer);
  drag.timer = undefined;
  drag.lastSent = performance.now();
  send("tokenMoved", { id: drag.tok.id, x: Math.round(drag.x), y: Math.round(drag.y), state: "control" });
}

function scheduleControl(): void {
  if (!drag) return;
  const wait = 1000 / 30 - (performance.now() - drag.lastSent);
  if (wait <= 0) sendControl();
  else if (drag.timer === undefined) drag.timer = window.setTimeout(sendControl, wait);
}

function pointerToMap(clientX: number, clientY: number): { x: number; y: number } {
  const r = app.canvas.getBoundingClientRect();
  return { x: (clientX - r.left - world.x) / world.scale.x, y: (clientY - r.top - world.y) / world.scale.y };
}

function onTokenDown(tok: FloorToken, e: FederatedPointerEvent): void {
  if (drag || e.button !== 0) return;
  const p = pointerToMap(e.clientX, e.clientY);
  drag = { tok, pointerId: e.pointerId, dx: tok.sprite.x - p.x, dy: tok.sprite.y - p.y, started: false, sx: e.clientX, sy: e.clientY, lastSent: 0, x: tok.x, y: tok.y };
}

function dragTo(clientX: number, clientY: number, draw: boolean): void {
  if (!drag) return;
  if (!drag.started) {
    if (Math.hypot(clientX - drag.sx, clientY - drag.sy) < 4) return;
    drag.started = true;
    send("tokenMoved", { id: drag.tok.id, x: drag.tok.x, y: drag.tok.y, state: "start" });
  }
  const p = pointerToMap(clientX, clientY);
  drag.x = p.x + drag.dx;
  drag.y = p.y + drag.dy;
  if (draw) {
    drag.tok.sprite.position.set(drag.x, drag.y);
    requestRender();
  }
  scheduleControl();
}

function endDrag(): void {
  const d = drag;
  drag = null;
  if (!d) return;
  clearTimeout(d.timer);
  if (!d.started) return;
  const at = snap(d.tok.sprite.x, d.tok.sprite.y, d.tok.width, d.tok.height);
  const x = Math.round(at.x), y = Math.round(at.y);
  send("tokenMoved", { id: d.tok.id, x, y, state: "end", path: [d.tok.x, d.tok.y, x, y] });
  d.tok.x = x;
  d.tok.y = y;
  d.tok.sprite.position.set(x, y);
  requestRender();
}

// ---- the middle-button pan ------------------------------------------------

let pan: { pointerId: number; x: number; y: number } | null = null;

function installInput(): void {
  const canvas = app.canvas;
  canvas.addEventListener("pointerdown", (e) => {
    if (e.button !== 1) return;
    pan = { pointerId: e.pointerId, x: e.clientX, y: e.clientY };
    canvas.setPointerCapture(e.pointerId);
  });
  window.addEventListener("pointermove", (e) => {
    if (pan && e.pointerId === pan.pointerId) {
      world.x += e.clientX - pan.x;
      world.y += e.clientY - pan.y;
      pan.x = e.clientX;
      pan.y = e.clientY;
      requestRender();
    }
    if (drag && e.pointerId === drag.pointerId) dragTo(e.clientX, e.clientY, true);
  });
  window.addEventListener("pointerrawupdate", (e) => {
    const pe = e as PointerEvent;
    if (drag && drag.started && pe.pointerId === drag.pointerId) dragTo(pe.clientX, pe.clientY, false);
  });
  window.addEventListener("pointerup", (e) => {
    if (pan && e.pointerId === pan.pointerId) pan = null;
    if (drag && e.pointerId === drag.pointerId) endDrag();
  });
}

// ---- the stream ---------------------------------------------------------------

function onMessage(ev: MessageEvent): void {
  if (typeof ev.data !== "string") return;
  let env: { name?: string; data?: Record<string, unknown> };
  try {
    env = JSON.parse(ev.data);
  } catch {
    return;
  }
  const d = env.data ?? {};
  const tok = typeof d.id === "string" ? tokens.get(d.id) : undefined;
  if (!tok || typeof d.x !== "number" || typeof d.y !== "number") return;
  if (env.name === "tokenUpdated") {
    tok.x = d.x;
    tok.y = d.y;
    if (drag?.tok !== tok) tok.sprite.position.set(d.x, d.y);
  } else if (env.name === "tokenMoved") {
    if (drag?.tok === tok) return; // our own drag's echo
    const state = String(d.state);
    if (state === "end" || state === "block") {
      tok.x = d.x;
      tok.y = d.y;
    }
    if (state === "cancel") tok.sprite.position.set(tok.x, tok.y);
    else tok.sprite.position.set(d.x, d.y);
  } else return;
  requestRender();
}

function connect(): void {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/");
  ws.onopen = () => {
    socketState = "open";
    send("clientUpdated", { name: "Floor", color: "#4363d8", runMode: "normal", device: "desktop", screenWidth: innerWidth, screenHeight: innerHeight });
  };
  ws.onmessage = onMessage;
  ws.onclose = (e) => {
    socketState = "closed";
    console.warn("floor: the socket closed", e.code, e.reason);
  };
}

// ---- start ------------------------------------------------------------------

async function start(): Promise<void> {
  // The snapshot and the background image load while WebGL starts up.
  const snapshot = fetch("/api", { headers: { Accept: "application/json" }, cache: "no-store" }).then((r) => r.json());
  const image = snapshot.then((s) => (s.map?.image ? Assets.load<Texture>({ src: "/" + String(s.map.image).replace(/^\//, ""), parser: "texture" } as never) : null));
  await app.init({ resizeTo: window, autoStart: false, sharedTicker: false, backgroundColor: 0x111318, resolution: window.devicePixelRatio || 1, autoDensity: true, preference: "webgl" });
  document.body.appendChild(app.canvas);
  app.stage.addChild(world);
  app.stage.eventMode = "static";
  installInput();
  Ticker.system.autoStart = false;
  Ticker.system.stop();
  requestRender();

  map = (await snapshot).map as MapInfo;
  connect();
  if (!map) return;
  const w = map.width || 1000, h = map.height || 1000;
  const k = Math.min(app.screen.width / (w * 1.04), app.screen.height / (h * 1.04));
  world.scale.set(k);
  world.position.set(app.screen.width / 2 - (w / 2) * k, app.screen.height / 2 - (h / 2) * k);
  const background = new Container();
  world.addChild(background, drawGrid(map), drawMarks(map));
  const disc = discTexture();
  const cell = map.gridSize ?? 70;
  for (const t of map.tokens ?? []) {
    if (t.hidden) continue;
    const s = new Sprite(disc);
    s.anchor.set(0.5);
    s.width = Math.max(1, t.width ?? 1) * cell;
    s.height = Math.max(1, t.height ?? 1) * cell;
    s.position.set(t.x, t.y);
    s.eventMode = "static";
    s.cursor = "grab";
    const tok: FloorToken = { id: t.id, x: t.x, y: t.y, width: t.width ?? 1, height: t.height ?? 1, sprite: s };
    s.on("pointerdown", (e) => onTokenDown(tok, e));
    tokens.set(t.id, tok);
    world.addChild(s);
  }
  let tex = await image;
  if (tex) {
    tex = capped(tex);
    backgroundBytes = tex.source.pixelWidth * tex.source.pixelHeight * 4;
    const bg = new Sprite(tex);
    bg.scale.set(map.scale && map.scale > 0 ? map.scale : 1);
    background.addChild(bg);
  }
  backgroundLoaded = true;
  requestRender();
}

/**
 * The picture as one texture the device holds: one past WebGL's largest
 * side is drawn once onto a canvas that fits (as the player client does
 * for a picture the server has no tiles for), with a texture resolution
 * that keeps its size on the map.
 */
function capped(tex: Texture): Texture {
  const gl = (app.renderer as unknown as { gl?: WebGLRenderingContext }).gl;
  const limit = gl ? Number(gl.getParameter(gl.MAX_TEXTURE_SIZE)) || 4096 : 4096;
  const w = tex.source.pixelWidth, h = tex.source.pixelHeight;
  if (w <= limit && h <= limit) return tex;
  const k = limit / Math.max(w, h);
  const c = document.createElement("canvas");
  c.width = Math.max(1, Math.min(limit, Math.round(w * k)));
  c.height = Math.max(1, Math.min(limit, Math.round(h * k)));
  const ctx = c.getContext("2d")!;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(tex.source.resource as CanvasImageSource, 0, 0, c.width, c.height);
  return new Texture({ source: new CanvasSource({ resource: c, resolution: c.width / w }) });
}

// ---- the test hook ----------------------------------------------------------

(window as unknown as { companionDebug: unknown }).companionDebug = {
  state() {
    return {
      connection: socketState,
      joined: true,
      map: map ? { id: map.id, width: map.width ?? 0, height: map.height ?? 0, backgroundLoaded, backgroundBytes } : null,
      tokens: [...tokens.values()].map((t) => ({ id: t.id, x: t.x, y: t.y, drawnX: t.sprite.x, drawnY: t.sprite.y, width: t.width, height: t.height, visible: true })),
      viewport: { centerX: (app.screen.width / 2 - world.x) / world.scale.x, centerY: (app.screen.height / 2 - world.y) / world.scale.y, zoom: world.scale.x },
      frames,
    };
  },
  mapFrame() {
    return mapFrame;
  },
  mapToScreen(x: number, y: number) {
    const r = app.canvas.getBoundingClientRect();
    return { x: r.left + world.x + x * world.scale.x, y: r.top + world.y + y * world.scale.y };
  },
  screenToMap(x: number, y: number) {
    return pointerToMap(x, y);
  },
  isVisibleAt() {
    return true;
  },
  idle(): Promise<void> {
    const done = new Promise<void>((resolve) => idlers.push(resolve));
    requestRender();
    return done;
  },
};

start().catch((err) => console.error("floor:", err));
