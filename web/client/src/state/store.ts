// The client's copy of what the server shows players: the map and its
// objects, the screen settings and the live drags of others. Events from
// the WebSocket and snapshots from GET /api go in through apply() and
// load(); listeners learn what changed so they redraw only that.
import { dragState, interactionFrom, lineOfSightFrom, pausedFrom, screenInteraction, sightFrom } from "../net/compat";
import { applyTo, type HandlerTable } from "../net/events";
import type { Interaction, MapData, Movement, Screen, Sight, Snapshot, Token } from "../types";

/** What changed; a renderer redraws what a change names and nothing else. */
export type Change =
  | { kind: "map" } // another map, or the map's own settings (grid, background, vision settings)
  | { kind: "token"; id: string }
  | { kind: "tokenRemoved"; id: string }
  | { kind: "tokens" }
  | { kind: "objects"; layer: ObjectList }
  | { kind: "walls" }
  | { kind: "vision" }
  | { kind: "fog" }
  | { kind: "screen" }
  | { kind: "moved"; movement: Movement }
  | { kind: "command"; name: "mapFrameUpdated" | "mapFitScreen" | "mapFocus" | "mapVideoControlUpdated"; data: unknown };

/**
 * The kinds of map object the page keeps beside its tokens, one row each,
 * as the server's table of kinds (core/mapkinds.go): the map field, and
 * the events that carry one object, the whole list ({mapId, <field>}) and
 * a move. The store's handlers for all of them come from these rows; a
 * new kind is one row here (walls have no events of their own: mapUpdated
 * carries them).
 */
export const mapObjectKinds = [
  { field: "tiles", one: "tileUpdated", many: "tilesUpdated", moved: "tileMoved" },
  { field: "markers", one: "markerUpdated", many: "markersUpdated", moved: "markerMoved" },
  { field: "lights", one: "lightUpdated", many: "lightsUpdated", moved: null },
  { field: "areaEffects", one: "areaEffectUpdated", many: "areaEffectsUpdated", moved: "areaEffectMoved" },
  // measurementUpdated: a ruler stretched live (the measurement itself, with its distance)
  { field: "measurements", one: "measurementUpdated", many: "measurementsUpdated", moved: null },
  { field: "drawings", one: null, many: "drawingsUpdated", moved: null },
  { field: "sounds", one: null, many: "soundsUpdated", moved: null },
] as const;

export type ObjectList = (typeof mapObjectKinds)[number]["field"];

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** A player never keeps what is hidden: a hidden object (or {id, hidden:true}) means "remove it". */
function shown<T extends { hidden?: boolean; layer?: string }>(list: unknown, keepHidden = false): T[] {
  if (!Array.isArray(list)) return [];
  return list.filter((o) => isObject(o) && typeof o.id === "string" && (keepHidden || (!o.hidden && o.layer !== "dm"))) as T[];
}

export interface StoreOptions {
  /**
   * The game master's copy (host console): hidden tokens and objects and the
   * dm layer are kept (the GM map draws them), and a {id, hidden: true}
   * update marks a token hidden instead of removing it.
   */
  keepHidden?: boolean;
}

export class Store {
  map: MapData | null = null;
  /** The map shown is not the screen's: the seat's own (a split party). */
  private ownMap = false;
  tokens = new Map<string, Token>();
  screen: Screen = {};
  paused = false;
  /** How many snapshots (GET /api) were loaded: the first, then each resync. */
  loads = 0;
  interaction: Interaction = "all";
  /** Vision polygons from the server by key (vision-<id>, light-<id>, token-<tokenId>). */
  sights = new Map<string, Sight>();
  /** Base64 or URL of the fog mask from fogUpdated, when newer than map.fog. */
  fogImage: string | null = null;
  /** Links combatants to tokens for bloodied/defeated looks. */
  combatantsByToken = new Map<string, { bloodied?: boolean; defeated?: boolean; dead?: boolean }>();
  private listeners: ((c: Change) => void)[] = [];
  private readonly keepHidden: boolean;

  constructor(options: StoreOptions = {}) {
    this.keepHidden = Boolean(options.keepHidden);
  }

  private shown<T extends { hidden?: boolean; layer?: string }>(list: unknown): T[] {
    return shown<T>(list, this.keepHidden);
  }

  subscribe(fn: (c: Change) => void): void {
    this.listeners.push(fn);
  }

  private emit(c: Change): void {
    for (const fn of this.listeners) fn(c);
  }

  /** Replaces everything with a snapshot from GET /api. */
  load(snap: Snapshot): void {
    this.loads++;
    this.screen = snap.screen ?? {};
    this.paused = Boolean(snap.paused);
    this.interaction = screenInteraction(snap.screen, "all");
    this.fogImage = null;
    this.setCombatants(snap.game?.combatants);
    this.setMap(snap.map ?? null);
    this.emit({ kind: "screen" });
  }

  private setCombatants(list: unknown): void {
    this.combatantsByToken.clear();
    if (!Array.isArray(list)) return;
    for (const c of list) {
      if (isObject(c) && typeof c.tokenId === "string" && (this.keepHidden || !c.hidden)) this.combatantsByToken.set(c.tokenId, c);
    }
  }

  private setMap(map: MapData | null): void {
    // A map that is not the screen's (one named) is the seat's own (a
    // split party): the screen's changes do not take it away.
    const screenMap = typeof this.screen.mapId === "string" ? this.screen.mapId : "";
    this.ownMap = !!map && !!screenMap && map.id !== screenMap;
    const same = this.map && map && this.map.id === map.id;
    if (!same) this.fogImage = null;
    this.map = map;
    this.tokens.clear();
    this.sights.clear();
    if (map) {
      map.tiles = this.shown(map.tiles);
      map.markers = this.shown(map.markers);
      map.areaEffects = this.shown(map.areaEffects);
      map.measurements = this.shown(map.measurements);
      map.drawings = this.shown(map.drawings);
      map.lights = Array.isArray(map.lights) ? map.lights : [];
      for (const t of this.shown<Token>(map.tokens)) this.tokens.set(t.id, t);
      this.collectSights();
    }
    this.emit({ kind: "map" });
  }

  /** Sights carried by the objects themselves (new form): token vision and lights. */
  private collectSights(): void {
    for (const [key, s] of this.sights) if (s.key.startsWith("vision-") || s.key.startsWith("light-")) this.sights.delete(key);
    for (const t of this.tokens.values()) {
      const s = sightFrom(t.vision?.sight);
      if (s) this.sights.set(s.key, s);
    }
    for (const l of this.map?.lights ?? []) {
      const s = sightFrom(l.sight);
      if (s) this.sights.set(s.key, s);
    }
  }

  /**
   * Whether a broadcast names a map other than the one shown: the server
   * says which map a token event belongs to (mapId on tokenUpdated,
   * tokensUpdated and tokenMoved), and a page ignores the others (the
   * host console's socket receives the maps the game master prepares off
   * screen). An event that names none is taken for the shown map.
   */
  private otherMap(data: unknown, key = "mapId"): boolean {
    if (!isObject(data) || typeof data[key] !== "string" || data[key] === "") return false;
    return !this.map || data[key] !== this.map.id;
  }

  /**
   * The events the map reads, by name (net/events.ts): a page adds them to
   * its EventRouter (router.onTable(store.events)).
   */
  readonly events: HandlerTable = {
    mapLoaded: (data) => this.loadMap(data),
    // "The map on the player screen changes": one shown since is not it.
    mapUpdated: (data) => {
      if (!this.map || !this.otherMap(data, "id")) this.loadMap(data);
    },
    tokenUpdated: (data) => {
      if (!this.otherMap(data)) this.updateToken(data);
    },
    tokensUpdated: (data) => this.replaceTokens(data),
    tokenMoved: (data) => {
      if (!this.otherMap(data)) this.moved(data);
    },
    lineOfSightUpdated: (data) => this.replaceSights(data),
    fogUpdated: (data) => {
      if (isObject(data) && typeof data.image === "string" && (!this.map || !data.id || data.id === this.map.id)) {
        this.fogImage = data.image;
        this.emit({ kind: "fog" });
      }
    },
    systemPaused: (data) => {
      this.paused = pausedFrom(data);
      this.emit({ kind: "screen" });
    },
    interactionUpdated: (data) => {
      this.interaction = interactionFrom(data, this.interaction);
      this.emit({ kind: "screen" });
    },
    screenUpdated: (data) => {
      if (isObject(data)) {
        this.screen = data as Screen;
        this.interaction = screenInteraction(this.screen, this.interaction);
        // A screen that names no map was cleared (or its map deleted): no
        // mapLoaded follows, so the map goes now, unless it is the seat's
        // own map (ownMap). One that names another map waits for that
        // map's mapLoaded, which a seat on its own map never gets.
        if (this.map && !this.ownMap && !(typeof data.mapId === "string" && data.mapId)) this.setMap(null);
        this.emit({ kind: "screen" });
      }
    },
    combatantsUpdated: (data) => this.setCombatantList(Array.isArray(data) ? data : isObject(data) ? data.combatants : null),
    // Commands to the view (follow the host's frame, fit, focus, a video's
    // state): the renderer acts on them.
    mapFrameUpdated: (data) => this.emit({ kind: "command", name: "mapFrameUpdated", data }),
    mapFitScreen: (data) => this.emit({ kind: "command", name: "mapFitScreen", data }),
    mapFocus: (data) => this.emit({ kind: "command", name: "mapFocus", data }),
    mapVideoControlUpdated: (data) => this.emit({ kind: "command", name: "mapVideoControlUpdated", data }),
    // The map's other objects, one at a time, whole lists, and moves:
    // by the table of kinds (mapObjectKinds).
    ...this.objectHandlers(),
  };

  /** The handlers of every kind's events, from mapObjectKinds. */
  private objectHandlers(): HandlerTable {
    const out: Record<string, (data: unknown) => void> = {};
    for (const k of mapObjectKinds) {
      if (k.one) out[k.one] = (data) => this.updateObject(k.field, data);
      out[k.many] = (data) => this.replaceObjects(k.field, data);
      if (k.moved) out[k.moved] = (data) => this.moveObject(k.field, data);
    }
    return out as HandlerTable;
  }

  /** Applies one envelope not checked yet (tests); false for a name the map does not read. */
  apply(name: string, data: unknown): boolean {
    return applyTo(this.events, name, data);
  }

  /** The combatants' looks on their tokens (bloodied, defeated), from a whole list. */
  setCombatantList(list: unknown): void {
    this.setCombatants(list);
    this.emit({ kind: "tokens" });
  }

  private loadMap(data: unknown): void {
    if (isObject(data) && typeof data.id === "string") this.setMap(data as unknown as MapData);
    else if (data === null) this.setMap(null);
  }

  private replaceTokens(data: unknown): void {
    if (this.otherMap(data)) return;
    const list = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.tokens) ? data.tokens : null;
    if (!list) return;
    this.tokens.clear();
    for (const t of this.shown<Token>(list)) this.tokens.set(t.id, t);
    this.collectSights();
    this.emit({ kind: "tokens" });
  }

  private replaceSights(data: unknown): void {
    const { mapId, sights } = lineOfSightFrom(data);
    if (mapId && this.map && mapId !== this.map.id) return;
    this.sights.clear();
    for (const s of sights) this.sights.set(s.key, s);
    this.emit({ kind: "vision" });
  }

  private updateToken(data: unknown): void {
    if (!isObject(data) || typeof data.id !== "string") return;
    const id = data.id;
    if (data.hidden && !this.keepHidden) {
      if (this.tokens.delete(id)) {
        this.sights.delete(`token-${id}`);
        this.emit({ kind: "tokenRemoved", id });
      }
      return;
    }
    if (typeof data.x !== "number" || typeof data.y !== "number") {
      // A partial update: merge it into the token we hold, if any.
      const old = this.tokens.get(id);
      if (!old) return;
      this.tokens.set(id, { ...old, ...(data as Partial<Token>) });
    } else {
      this.tokens.set(id, data as unknown as Token);
    }
    const s = sightFrom(this.tokens.get(id)!.vision?.sight);
    if (s) this.sights.set(s.key, s);
    this.emit({ kind: "token", id });
  }

  private moved(data: unknown): void {
    if (!isObject(data) || typeof data.id !== "string") return;
    const state = dragState(data.state) ?? "control";
    const x = Number(data.x), y = Number(data.y);
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const token = this.tokens.get(data.id);
    if (!token) return; // unknown or hidden: never drawn
    const movement: Movement = { ...(data as unknown as Movement), x, y, state };
    if (state === "end") {
      token.x = x;
      token.y = y;
    }
    if (Array.isArray(data.polygon) && data.polygon.length >= 6) {
      const key = this.visionKey(token);
      this.sights.set(key, { key, x, y, polygon: data.polygon as number[] });
      this.emit({ kind: "vision" });
    }
    this.emit({ kind: "moved", movement });
  }

  /** The key a token's vision polygon is stored under. */
  visionKey(t: Token): string {
    const own = t.vision?.sight?.key;
    if (typeof own === "string" && own) return own;
    const id = (t.vision as { id?: string } | null | undefined)?.id;
    return id ? `vision-${id}` : `token-${t.id}`;
  }

  private list(layer: ObjectList): { id: string }[] {
    if (!this.map) return [];
    const m = this.map as unknown as Record<string, { id: string }[]>;
    if (!Array.isArray(m[layer])) m[layer] = [];
    return m[layer];
  }

  private updateObject(layer: ObjectList, data: unknown): void {
    if (!this.map || !isObject(data) || typeof data.id !== "string" || this.otherMap(data)) return;
    const list = this.list(layer);
    const i = list.findIndex((o) => o.id === data.id);
    const gone = !this.keepHidden && (data.hidden === true || data.layer === "dm");
    if (gone) {
      if (i >= 0) list.splice(i, 1);
    } else if (i >= 0) list[i] = { ...list[i], ...(data as { id: string }) };
    else list.push(data as { id: string });
    if (layer === "lights") this.collectSights();
    this.emit({ kind: "objects", layer });
  }

  private replaceObjects(layer: ObjectList, data: unknown): void {
    // {mapId, <layer>: [...]} names its map: the host console's socket
    // also hears of the maps the game master prepares off screen.
    if (!this.map || this.otherMap(data)) return;
    const raw = Array.isArray(data) ? data : isObject(data) && Array.isArray(data[layer]) ? data[layer] : null;
    if (!raw) return;
    (this.map as unknown as Record<string, unknown>)[layer] = layer === "lights" ? raw : this.shown(raw);
    if (layer === "lights") this.collectSights();
    this.emit({ kind: "objects", layer });
  }

  private moveObject(layer: ObjectList, data: unknown): void {
    if (!isObject(data) || typeof data.id !== "string") return;
    const state = dragState(data.state) ?? "end";
    if (state === "block" || state === "cancel" || state === "start") return;
    const o = this.list(layer).find((x) => x.id === data.id) as { x?: number; y?: number } | undefined;
    if (!o || typeof data.x !== "number" || typeof data.y !== "number") return;
    o.x = data.x;
    o.y = data.y;
    this.emit({ kind: "objects", layer });
  }
}
