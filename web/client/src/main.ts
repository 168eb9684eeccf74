// The player web client: join, connect, draw the live map.
// Order (contract 6.1/6.2): GET /api once, then the WebSocket at the
// server root, clientUpdated first; GET /api again after `reload` or a
// reconnect, so the page always shows the current state.
import { Assets } from "pixi.js";
import { earlySnapshot, fetchSnapshot } from "./net/api";
import { releaseEarly } from "./net/early";
import { EventRouter } from "./net/events";
import { Socket, socketURL } from "./net/socket";
import { Store } from "./state/store";
import { MapRenderer, nextTask, preloadBackground } from "./map/renderer";
import { StatusBadge } from "./ui/status";
import { askProfile, forgetProfile, savedProfile, type Profile } from "./ui/join";
import { installDebug } from "./debug";
import { mountTable, type TableUI } from "./ui/table";
import { SeatUI } from "./ui/seat";
import { QualityNotice } from "./ui/quality";
import { SoundPlayer } from "./sound/player";
import { sightSegments } from "./map/geometry";
import { hearsThrough, mayDrag, mayUseDoors, seesThrough, type Who } from "./permissions";
import type { Snapshot, Token } from "./types";

performance.mark("companion:bundle-ran"); // what index.html's script started came before this

// Images decode on the page, not in Pixi's worker: starting that worker
// (a blob: script, compiled afresh) held the first background and token
// images back by up to seconds on a slow or busy device, while the decode
// itself takes milliseconds.
Assets.setPreferences({ preferWorkers: false });

const params = new URLSearchParams(location.search);
const displayParam = params.get("display");
const store = new Store();
let socket: Socket | null = null;
// Every envelope in and out goes through this one router (net/events.ts).
const events = new EventRouter(() => socket, (name, err) => {
  lastError = `${name}: ${(err as Error).message}`;
});
let renderer: MapRenderer | null = null;
let profile: Profile | null = null;
let joined = false;
let lastError: string | null = null;
let table: TableUI | null = null;
let seats: SeatUI | null = null;
let sound: SoundPlayer | null = null;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const app = document.getElementById("app")!;
const status = new StatusBadge(document.body);
status.show("connecting", false, "");

installDebug({
  store,
  socket: () => socket,
  renderer: () => renderer,
  joined: () => joined,
  runMode: () => (profile?.display ? "display" : "normal"),
  lastError: () => lastError,
  table: () => table,
  sound: () => sound?.debug() ?? null,
});

function deviceKind(): string {
  if (/iPad|Tablet/i.test(navigator.userAgent) || (navigator.maxTouchPoints > 1 && Math.min(screen.width, screen.height) >= 600)) return "tablet";
  if (/Mobi|Android|iPhone/i.test(navigator.userAgent)) return "phone";
  return "desktop";
}

/** Who this page is: the profile, with its seat once the page knows seats. */
function whoAmI(): Who | null {
  return profile && seats ? { ...profile, ...seats.who() } : profile;
}

/**
 * The token whose turn it is, for partial shared vision (seesThrough):
 * null outside combat, "" when the acting combatant has no token.
 */
function actingToken(): string | null {
  const s = table?.state;
  if (!s?.started) return null;
  return s.combatants.find((c) => c.id === s.activeId)?.tokenId ?? "";
}

function canDrag(t: Token): boolean {
  return mayDrag(t, whoAmI(), store.interaction, store.paused, store.tokens.values());
}

function register(): void {
  if (!socket || !profile) return;
  events.send("clientUpdated", {
    name: profile.name,
    color: profile.color,
    runMode: profile.display ? "display" : "normal",
    device: deviceKind(),
    screenWidth: Math.round(window.innerWidth),
    screenHeight: Math.round(window.innerHeight),
  });
}

let resyncing = 0;
async function resync(prefetched?: Promise<Snapshot>): Promise<void> {
  const mine = ++resyncing;
  try {
    const snap = await (prefetched ?? fetchSnapshot());
    if (mine !== resyncing) return; // a newer resync is on its way
    store.load(snap);
    table?.load(snap);
    lastError = null;
  } catch (err) {
    lastError = (err as Error).message;
    showNotice(lastError);
  }
  updateChrome();
}

function showNotice(text: string): void {
  const n = document.getElementById("notice");
  if (!n) return;
  n.textContent = text;
  n.hidden = !text;
}

function updateChrome(): void {
  status.show(socket?.state ?? "connecting", store.paused, "");
  document.body.classList.toggle("paused", store.paused);
  const title = document.getElementById("map-title");
  if (title) title.textContent = store.map?.name ?? "No map on the player screen";
  if (!store.map && joined) showNotice("The game master has not put a map on the player screen yet.");
  else if (!lastError) showNotice("");
}

function buildChrome(display: boolean): HTMLElement {
  document.body.classList.toggle("display", display);
  if (display) {
    // A display fills the screen; browsers allow that only after a tap or click.
    document.addEventListener("pointerup", () => {
      if (!document.fullscreenElement) document.documentElement.requestFullscreen?.().catch(() => {});
    });
  }
  app.innerHTML = `
    <div id="map" class="map"></div>
    <header class="bar" data-covers-map ${display ? "hidden" : ""}>
      <span id="map-title" class="title"></span>
      <button type="button" class="who" title="Change name or colour"><span class="swatch"></span><span class="name"></span></button>
    </header>
    <nav class="zoom" aria-label="Map view" ${display ? "hidden" : ""}>
      <button type="button" data-act="in" aria-label="Zoom in" title="Zoom in">+</button>
      <button type="button" data-act="out" aria-label="Zoom out" title="Zoom out">−</button>
      <button type="button" data-act="fit" aria-label="Fit map to screen" title="Fit map to screen">⤢</button>
    </nav>
    <p id="notice" class="notice" role="alert" hidden></p>`;
  const who = app.querySelector(".who") as HTMLElement;
  (who.querySelector(".swatch") as HTMLElement).style.background = profile!.color;
  (who.querySelector(".name") as HTMLElement).textContent = profile!.name;
  who.addEventListener("click", () => {
    forgetProfile();
    location.reload();
  });
  app.querySelector(".zoom")!.addEventListener("click", (e) => {
    const act = (e.target as HTMLElement).closest("button")?.dataset.act;
    if (act === "in") renderer?.zoomBy(1.25);
    else if (act === "out") renderer?.zoomBy(0.8);
    else if (act === "fit") renderer?.fit();
  });
  window.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "+" || e.key === "=") renderer?.zoomBy(1.25);
    else if (e.key === "-") renderer?.zoomBy(0.8);
    else if (e.key === "0") renderer?.fit();
  });
  return app.querySelector("#map") as HTMLElement;
}

async function start(): Promise<void> {
  const fromURL = displayParam === "1" || displayParam === "true";
  const saved = savedProfile();
  // A returning player (or a display) joins at once: the snapshot, then
  // the map's image, start downloading before anything is built, while the
  // page builds its table and WebGL starts up (a first visit fetches them
  // once the join form is answered).
  const early = fromURL || saved ? earlySnapshot() : null;
  early?.then((snap) => preloadBackground(snap.map), () => {}); // an error is reported by resync below
  if (fromURL) profile = { name: saved?.name ?? "Display", color: saved?.color ?? "#888888", display: true };
  else profile = saved ?? (await askProfile(app, false));
  if (displayParam === "0") profile = { ...profile, display: false }; // leave a remembered display mode
  joined = true;
  const first = early ?? fetchSnapshot();
  if (!early) first.then((snap) => preloadBackground(snap.map), () => {});
  const mapEl = buildChrome(profile.display);
  await nextTask(); // the snapshot's answer, if here, starts the image's download first
  let notice: QualityNotice | null = null;
  const creating = MapRenderer.create(mapEl, store, {
    mode: "player",
    canDrag,
    canUseDoors: () => mayUseDoors(whoAmI(), store.interaction, store.paused),
    isViewer: (t) => seesThrough(t, whoAmI(), store.screen.sharedVision, store.tokens.values(), actingToken()),
    sendMove: (m) => events.send("tokenMoved", m),
    sendDoor: (mapId, id, state) => events.send("updateDoor", { mapId, id, state }),
    sendViewport: (f) => events.send("mapViewportUpdated", f),
    reducedMotion: () => reducedMotion.matches,
    userViewport: !profile.display,
    adaptQuality: true,
    onQuality: (q) => {
      notice?.update(q);
      document.body.classList.toggle("quality-lowered", q.lowered);
    },
  });
  await nextTask();
  table = mountTable({
    app, mapEl, store, display: profile.display, name: profile.name,
    renderer: () => renderer,
    events,
  });
  seats = new SeatUI({
    app, table, display: profile.display,
    name: () => profile?.name ?? "",
    events,
    stopSocket: () => socket?.stop(),
    sheetChanged: () => renderer?.refreshVision(), // the seat's tokens: its own sight (sharedVision never)
  });
  // After the table's and the seats' handlers (added as they were built):
  // a reload reads everything again; the rest is the map's.
  events.on("reload", () => resync());
  events.onTable(store.events);
  store.subscribe((c) => {
    if (c.kind === "map" || c.kind === "screen") updateChrome();
  });
  performance.mark("companion:joined");
  try {
    renderer = await creating;
    const r = renderer;
    r.fitToElement(); // the table may have changed the map's box while WebGL started
    // A display has no one at hand to read it: it lowers quality silently.
    if (!profile.display) notice = new QualityNotice(app, () => r.restoreQuality());
    notice?.update(r.quality);
    document.body.classList.toggle("quality-lowered", r.quality.lowered);
  } catch (err) {
    lastError = `cannot draw the map (WebGL unavailable?): ${(err as Error).message}`;
    showNotice(lastError);
  }
  if (renderer) table.attachRenderer(renderer);
  // Partial shared vision follows the turn: each turn changes whose sight
  // the page shows.
  let lastActing: string | null = null;
  table.state.subscribe((c) => {
    if (c !== "game" || store.screen.sharedVision !== "partial") return;
    const acting = actingToken();
    if (acting !== lastActing) renderer?.refreshVision();
    lastActing = acting;
  });
  performance.mark("companion:renderer-ready");
  await resync(first);
  releaseEarly(); // the map's picture is taken by now: one of a map no longer shown is let go
  performance.mark("companion:snapshot-applied");
  sound = new SoundPlayer({
    app: document.body, events, display: profile.display,
    // Ambient sounds are heard from this listener's tokens: those whose
    // seat plays, else the party's (hearsThrough).
    ambient: () => {
      const map = store.map;
      if (!map) return null;
      const who = whoAmI();
      const all = [...store.tokens.values()];
      return {
        sounds: (map.sounds ?? []) as Record<string, unknown>[],
        listeners: all.filter((t) => hearsThrough(t, who, all)).map((t) => ({ x: t.x, y: t.y })),
        gridSize: map.gridSize ?? 0,
        segments: map.lineOfSight ? sightSegments(map.walls as never) : [],
      };
    },
  });
  socket = new Socket(socketURL(), {
    onOpen(reconnected) {
      register();
      seats?.connected();
      renderer?.reportViewport(); // where this page looks, before anyone pans
      void sound?.connected(); // the server's clock, then what plays
      if (reconnected) resync();
    },
    onClose(code) {
      return seats?.closed(code) ?? false;
    },
    onMessage: (env) => events.dispatch(env),
    onState(state, detail) {
      table?.connection(state);
      status.show(state, store.paused, detail);
    },
  });
  socket.start();
  let resizeTimer: number | undefined;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(register, 500);
  });
}

start();
