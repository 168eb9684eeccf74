// Shapes the client reads. The wire shapes come from wire.gen.ts, which
// internal/tools/tsgen generates from the server's OpenAPI description
// (GET /api/openapi.json, derived from the Go types the server marshals):
// a field the server renames or drops no longer type-checks here. Every
// field a server may leave out is optional (Loose): the client draws what
// it gets and never trusts a field to be there, since it also talks to
// older servers. Refine narrows a wire field the client reads more
// precisely (a free-form object, a string that is one of a few values);
// it refuses a field the wire does not have.
import type * as Wire from "./wire.gen";

export type GridType = "square" | "hexFlat" | "hexPointy";
export type Interaction = "none" | "token" | "all";
export type DragState = "start" | "control" | "end" | "block" | "cancel";

/** A wire shape with every field optional except those named. */
type Loose<T, Required extends keyof T = never> = Partial<T> & Pick<T, Required>;

/** Loose<T>, with the fields of R read as R says; R may only name fields of T. */
type Refine<T, R, Required extends keyof T = never> = Omit<Loose<T, Required>, keyof R> &
  (Exclude<keyof R, keyof T> extends never ? R : { notOnTheWire: Exclude<keyof R, keyof T> });

/** One visibility polygon computed by the server (flat x,y list, map coordinates). */
export type Sight = Refine<Wire.Sight, { polygon: number[] }, "key" | "x" | "y">;

// Asset, Aura, Tile, Marker, Drawing, AreaEffect and Measurement are free
// objects on the wire (the server stores them as the content gives them:
// core.Object), so their fields are the content format's and are written
// here.
export interface Asset {
  id?: string;
  resource?: string;
  type?: string;
}

export type Vision = Refine<Wire.Vision, { sight?: Sight | null }>;

export interface Aura {
  id: string;
  enabled?: boolean;
  color?: string;
  opacity?: number;
  radius?: number;
}

/** A combatant as the map reads it; dead comes from other servers (this one sends it on tokens). */
export type Combatant = Loose<Wire.Combatant, "id"> & { dead?: boolean };

export type Token = Refine<Wire.Token, {
  asset?: Asset | null;
  vision?: Vision | null;
  auras?: Aura[];
  combatant?: Combatant | null;
  entityId?: string | null;
}, "id" | "x" | "y">;

export type Light = Refine<Wire.Light, { sight?: Sight | null }, "id" | "x" | "y">;

export type Wall = Refine<Wire.Wall, { data: number[] }, "id">;

export interface Tile {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation?: number;
  opacity?: number;
  scale?: number;
  layer?: string;
  zIndex?: number;
  hidden?: boolean;
  asset?: Asset | null;
  light?: Light | null;
}

export interface Marker {
  id: string;
  label?: string;
  color?: string;
  shape?: string;
  size?: string;
  name?: string;
  descr?: string;
  reference?: string;
  hidden?: boolean;
  x: number;
  y: number;
}

export interface Drawing {
  id: string;
  data: number[];
  shape?: "polygon" | "ellipse" | "rectangle";
  layer?: string;
  strokeWidth?: number;
  strokeColor?: string;
  fillColor?: string;
  opacity?: number;
  /** A text drawing: plain text at its first point. */
  text?: string;
  fontSize?: number;
}

export interface AreaEffect {
  id: string;
  shape?: string;
  color?: string;
  x: number;
  y: number;
  zIndex?: number;
  opacity?: number;
  angle?: number;
  radius?: number;
  length?: number;
  width?: number;
  hidden?: boolean;
}

export interface Measurement {
  id: string;
  type?: string;
  color?: string;
  hidden?: boolean;
  data: number[];
  /** While it is stretched live (measurementUpdated): its distance as the system counts it. */
  distance?: string;
}

export type MapData = Refine<Wire.Map, {
  gridType?: GridType | string;
  gridStyle?: "solid" | "corners" | string;
  walls?: Wall[];
  drawings?: Drawing[];
  markers?: Marker[];
  tiles?: Tile[];
  tokens?: Token[];
  areaEffects?: AreaEffect[];
  lights?: Light[];
  measurements?: Measurement[];
}, "id">;

export type Screen = Loose<Wire.Screen>;

export type Snapshot = Refine<Wire.Snapshot, {
  game?: { combatants?: Combatant[] } | null;
  map?: MapData | null;
  screen?: Screen | null;
}>;

/** A drag as it travels over the WebSocket (contract: Movement). */
export type Movement = Refine<Wire.Movement, {
  state: DragState;
  polygon?: number[];
  path?: number[];
  source?: Partial<Wire.EventSource>;
}, "id" | "x" | "y">;
