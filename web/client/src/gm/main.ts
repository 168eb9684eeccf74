// The host console's GM map: the player client's MapRenderer in "gm" mode,
// fed by the game master's live socket (GET /host/ws, nothing filtered).
// It mounts into #gm-root of the console page (src/host/index.html) and
// re-broadcasts every socket event to the page as a "companion:host-event"
// DOM event, so the rest of the console (src/host, its own bundle) redraws
// what changed instead of polling; window.companionGM (handle.ts) is how
// the console reaches the map.
// The console's Content-Security-Policy forbids eval (script-src 'self'):
// PixiJS then needs its eval-free shader and uniform code paths.
import "pixi.js/unsafe-eval";
import { Assets } from "pixi.js";
import { EventRouter } from "../net/events";
import { Socket } from "../net/socket";
import { Store } from "../state/store";
import { MapRenderer } from "../map/renderer";
import { installDebug } from "../debug";
import type { MapData, Token } from "../types";
import { hostAPI } from "../net/host-api";
import { GMOverlay, type ClientFrame } from "./overlay";
import { EntityPicker } from "./entities";
import { MapTools } from "./tools";
import { nextDoorState } from "./edits";
import { TokenPanel } from "./token-panel";
import { setGMHandle } from "./handle";
import { MarkTools } from "../ui/marks";
import { Ruler } from "../map/ruler";
import { diagonalRule, type Diagonal } from "../table/measure";

const root = document.getElementById("gm-root");
if (root) start(root);

async function start(root: HTMLElement): Promise<void> {
  // Nor may it start workers from blob: URLs: images decode on the page.
  Assets.setPreferences({ preferWorkers: false });
  const store = new Store({ keepHidden: true });
  let renderer: MapRenderer | null = null;
  let socket: Socket | null = null;
  let lastError: string | null = null;
  let screenMapId = "";
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  // Every envelope in and out goes through this one router (net/events.ts).
  const events = new EventRouter(() => socket, (name, err) => {
    lastError = `${name}: ${(err as Error).message}`;
  });

  root.innerHTML = `
    <div class="gm-toolbar" role="toolbar" aria-label="Map tools">
      <span class="gm-title" id="gm-map-title">No map on the player screen</span>
      <span class="gm-group gm-stage">
        <label>GM map <select id="gm-view-map" aria-label="The map the GM map shows">
          <option value="">The player screen's map</option></select></label>
        <button type="button" id="gm-show" hidden title="Put this map on the player screen">Show to players</button>
        <span id="gm-players-see" class="gm-players-see" role="status"></span>
      </span>
      <span class="gm-group" id="gm-tools"></span>
      <span class="gm-group gm-draw" id="gm-draw"></span>
      <span class="gm-group gm-marks" id="gm-marks" hidden></span>
      <span class="gm-group">
        <label><input type="checkbox" id="gm-walls" checked> Walls</label>
        <label><input type="checkbox" id="gm-lights" checked> Light radii</label>
        <label><input type="checkbox" id="gm-frames" checked> Player views</label>
        <label><input type="checkbox" id="gm-preview"> Players' vision</label>
      </span>
      <span class="gm-group">
        <button type="button" id="gm-fit" title="Fit the map in this view">Fit</button>
        <button type="button" id="gm-marks-toggle" aria-pressed="false" title="Templates, drawings and pins">Marks ✎</button>
        <button type="button" id="gm-ruler-toggle" aria-pressed="false" title="Ruler: click to add points, Enter or double-click to finish, P to pin it for everyone, Escape to put it away">Ruler</button>
      </span>
    </div>
    <div class="gm-body">
      <div class="gm-map" id="gm-map" tabindex="-1"></div>
      <aside class="gm-side">
        <div id="gm-token-panel"></div>
        <div id="gm-picker"></div>
      </aside>
    </div>
    <p class="msg" id="gm-msg" role="status"></p>`;
  const say = (text: string, bad = false) => {
    const p = document.getElementById("gm-msg")!;
    p.textContent = text;
    p.className = `msg${text ? (bad ? " bad" : " good") : ""}`;
  };

  installDebug({
    store,
    socket: () => socket,
    renderer: () => renderer,
    joined: () => true,
    runMode: () => "normal",
    lastError: () => lastError,
  });

  const overlay = new GMOverlay(store);
  const tools = new MapTools(store, () => renderer, say);
  const panel = new TokenPanel(document.getElementById("gm-token-panel")!, store, say);

  try {
    renderer = await MapRenderer.create(document.getElementById("gm-map")!, store, {
      mode: "gm",
      canDrag: () => tools.tool === "move",
      canUseDoors: () => true,
      previewVision: () => (document.getElementById("gm-preview") as HTMLInputElement).checked,
      onTokenTap: (t: Token) => panel.select(t.id),
      onDoorTap: (mapId, door, shift) => {
        // A tap opens or closes; shift+tap locks (and unlocks to closed).
        const state = nextDoorState(door.state, shift);
        if (!state) {
          say("The door is locked: shift+click unlocks it.");
          return;
        }
        hostAPI("POST", `maps/${encodeURIComponent(mapId)}/doors/${encodeURIComponent(door.id)}`, { state })
          .then(() => say(`Door ${state}.`), (e: Error) => say(e.message, true));
      },
      // The host socket's tokenMoved moves any token, hidden or locked.
      sendMove: (m) => events.send("tokenMoved", m),
      sendDoor: (mapId, id, state) => events.send("updateDoor", { mapId, id, state }),
      sendViewport: () => {}, // the GM's own view is nobody's business
      reducedMotion: () => reducedMotion.matches,
      userViewport: true,
    });
  } catch (err) {
    lastError = `cannot draw the map (WebGL unavailable?): ${(err as Error).message}`;
    say(lastError, true);
    return;
  }
  overlay.attach(renderer);
  // Templates, drawings (on the GM layer too) and pins, as players make
  // them, but on any map and with the game master's rights (the host socket).
  const marks = new MarkTools({ mapEl: document.getElementById("gm-map")!, store, events, renderer: () => renderer, gm: true, say: (t) => say(t) });
  marks.bar.classList.add("in-toolbar");
  const marksGroup = document.getElementById("gm-marks")!;
  marksGroup.append(marks.bar);
  // The bar opens on demand: the toolbar keeps its rows, and the map its place on one screen.
  document.getElementById("gm-marks-toggle")!.addEventListener("click", (e) => {
    marksGroup.hidden = !marksGroup.hidden;
    (e.currentTarget as HTMLElement).setAttribute("aria-pressed", String(!marksGroup.hidden));
    if (marksGroup.hidden) marks.choose("");
  });
  (window as unknown as { companionMarks?: MarkTools }).companionMarks = marks;
  // The shared ruler, as players have it: everyone on the map sees it while
  // it is stretched, and a pinned one stays (counted by the system's rule).
  let diagonal: Diagonal = "equal";
  const loadDiagonal = () =>
    hostAPI<{ diagonal?: string }>("GET", "system").then((sys) => (diagonal = diagonalRule(sys.diagonal)), () => {});
  loadDiagonal();
  events.on("reload", loadDiagonal);
  const ruler = new Ruler(document.getElementById("gm-map")!, () => renderer, () => diagonal, events);
  const rulerToggle = document.getElementById("gm-ruler-toggle")!;
  rulerToggle.addEventListener("click", () => ruler.toggle());
  ruler.onToggle = (on) => {
    rulerToggle.setAttribute("aria-pressed", String(on));
    if (on) marks.choose(""); // one tool catches the pointer at a time
  };
  marks.onChoose = (tool) => {
    if (tool !== "" && ruler.active) ruler.toggle(false);
  };
  const followView = () => ruler.draw();
  renderer.viewport.on("moved", followView);
  renderer.viewport.on("zoomed", followView);
  renderer.app.renderer.on("resize", followView);
  tools.attach(renderer, document.getElementById("gm-tools")!);
  tools.attachOptions(document.getElementById("gm-draw")!);
  const picker = new EntityPicker(document.getElementById("gm-picker")!, store, () => renderer, say);

  for (const id of ["gm-walls", "gm-lights", "gm-frames"]) {
    document.getElementById(id)!.addEventListener("change", () => {
      overlay.show.walls = (document.getElementById("gm-walls") as HTMLInputElement).checked;
      overlay.show.lights = (document.getElementById("gm-lights") as HTMLInputElement).checked;
      overlay.show.frames = (document.getElementById("gm-frames") as HTMLInputElement).checked;
      overlay.redraw();
    });
  }
  document.getElementById("gm-preview")!.addEventListener("change", () => renderer?.refreshVision());
  document.getElementById("gm-fit")!.addEventListener("click", () => renderer?.fit());

  // Staging: the GM map shows viewMapId, any map of the campaign or of a
  // module, while players keep the map on the player screen (screenMapId);
  // "" follows the player screen. The server sends a staged map's changes
  // to this socket alone, so nothing done here reaches players until
  // "Show to players" puts the map on their screen.
  let viewMapId = "";
  let mapNames = new Map<string, string>();
  const shownId = () => viewMapId || screenMapId;
  const title = () => {
    const staged = !!viewMapId && viewMapId !== screenMapId;
    const name = store.map?.name || "Map";
    document.getElementById("gm-map-title")!.textContent = !store.map
      ? "No map on the player screen: choose one here or under Campaign"
      : staged ? `Preparing ${name} — players do not see it` : `${name} — on the player screen`;
    const screenName = screenMapId ? mapNames.get(screenMapId) ?? (screenMapId === store.map?.id ? name : "a map") : "";
    document.getElementById("gm-players-see")!.textContent = screenName ? `Players see: ${screenName}` : "Players see: no map";
    (document.getElementById("gm-show") as HTMLButtonElement).hidden = !staged;
    document.body.dataset.gmStaged = String(staged);
  };
  const viewSelect = document.getElementById("gm-view-map") as HTMLSelectElement;
  const fillMaps = (list: { id: string; name: string }[]) => {
    mapNames = new Map(list.map((m) => [m.id, m.name]));
    const keep = viewMapId;
    viewSelect.replaceChildren(new Option("The player screen's map", ""), ...list.map((m) => new Option(m.name, m.id)));
    viewSelect.value = mapNames.has(keep) ? keep : "";
  };
  viewSelect.addEventListener("change", () => {
    viewMapId = viewSelect.value;
    resync();
  });
  document.getElementById("gm-show")!.addEventListener("click", () => {
    const id = viewMapId;
    hostAPI("POST", "screen", { mapId: id }).then(() => {
      viewMapId = "";
      viewSelect.value = "";
      title();
      say(`${mapNames.get(id) ?? "The map"} is on the player screen.`);
    }, (e: Error) => say(e.message, true));
  });
  store.subscribe((c) => {
    if (c.kind === "map") title();
    if (c.kind === "map" || c.kind === "token" || c.kind === "tokenRemoved" || c.kind === "tokens") panel.redraw();
  });

  // What the GM map shows: the map chosen, else the one on the player
  // screen, read whole from the host API (hidden tokens and the dm layer
  // included).
  async function resync(): Promise<void> {
    try {
      const [camp, maps] = await Promise.all([
        hostAPI<{ screen?: { mapId?: string }; game?: { combatants?: unknown[] } }>("GET", "campaign"),
        hostAPI<{ id: string; name: string }[]>("GET", "maps"),
      ]);
      screenMapId = camp.screen?.mapId ?? "";
      fillMaps(Array.isArray(maps) ? maps : []);
      if (viewMapId && !mapNames.has(viewMapId)) viewMapId = ""; // deleted meanwhile
      const id = shownId();
      const map = id ? await hostAPI<MapData>("GET", `maps/${encodeURIComponent(id)}`) : null;
      store.load({ map, screen: camp.screen ?? {}, game: camp.game as never });
      title();
      lastError = null;
    } catch (err) {
      lastError = (err as Error).message;
      say(lastError, true);
    }
    refreshFrames();
  }

  let framesTimer: number | undefined;
  function refreshFrames(): void {
    clearTimeout(framesTimer);
    framesTimer = window.setTimeout(async () => {
      try {
        overlay.setClients(await hostAPI<ClientFrame[]>("GET", "clients"));
      } catch {
        /* shown by the console's offline badge */
      }
    }, 150);
  }

  // What the GM map reads of the socket. The map on the player screen is
  // read whole from the host API, so a map put on it, or a screen that
  // names another, is a resync; everything else is the store's.
  // lineOfSightUpdated names no map, and this socket hears of staged maps
  // too: the GM map takes its sights from the mapUpdated that the server
  // sends before every lineOfSightUpdated (the host's map carries them).
  const { mapLoaded: _loadedByResync, lineOfSightUpdated: _sightsFromTheMap, ...storeEvents } = store.events;
  events.on("reload", () => {
    resync();
    picker.reloadKinds(); // the system's collections may have changed
  });
  events.onTable(storeEvents);
  events.on("screenUpdated", (screen) => {
    if ((screen?.mapId ?? "") !== screenMapId) resync();
  });
  events.on("mapLoaded", () => resync());
  events.on("gameUpdated", (game) => {
    if (game && "combatants" in game && Array.isArray(game.combatants)) store.setCombatantList(game.combatants);
  });
  for (const name of ["clientUpdated", "clientConnected", "clientDisconnected"] as const) events.on(name, refreshFrames);
  // The rest of the console (plain JavaScript) redraws from these.
  events.onAny((env) => window.dispatchEvent(new CustomEvent("companion:host-event", { detail: env })));

  await resync();
  // Players' viewports are recorded by the server, never broadcast: polled.
  window.setInterval(refreshFrames, 1000);
  const url = `${location.protocol === "https:" ? "wss://" : "ws://"}${location.host}/host/ws`;
  socket = new Socket(url, {
    onOpen(reconnected) {
      if (reconnected) resync();
    },
    onMessage: (env) => events.dispatch(env),
    onState(state) {
      document.body.dataset.hostSocket = state;
      window.dispatchEvent(new CustomEvent("companion:host-socket", { detail: state }));
    },
  });
  socket.start();
  setGMHandle({
    store,
    renderer,
    overlay,
    tools,
    panel,
    selected: () => panel.selectedId,
    socketState: () => socket?.state,
  });
}
