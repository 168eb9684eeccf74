// Shapes the client reads, from the public contract (companion-interface.md)
// and the resource shapes. Every field a server may leave out is optional:
// the client draws what it gets and never trusts a field to be there.

export type GridType = "square" | "hexFlat" | "hexPointy";
export type Interaction = "none" | "token" | "all";
export type DragState = "start" | "control" | "end" | "block" | "cancel";

/** One visibility polygon computed by the server (flat x,y list, map coordinates). */
export interface Sight {
  key: string;
  x: number;
  y: number;
  polygon: number[];
}

export interface Asset {
  id?: string;
  resource?: string;
  type?: string;
}

export interface Vision {
  enabled?: boolean;
  light?: boolean;
  lightRadiusMin?: number;
  lightRadiusMax?: number;
  lightColor?: string;
  lightOpacity?: number;
  dark?: boolean;
  darkRadiusMin?: number;
  darkRadiusMax?: number;
  sight?: Sight | null;
}

export interface Aura {
  id: string;
  enabled?: boolean;
  color?: string;
  opacity?: number;
  radius?: number;
}

export interface Combatant {
  id: string;
  tokenId?: string;
  bloodied?: boolean;
  defeated?: boolean;
  dead?: boolean;
  hidden?: boolean;
}

export interface Token {
  id: string;
  name?: string;
  label?: string;
  role?: string;
  x: number;
  y: number;
  scale?: number;
  width?: number;
  height?: number;
  style?: string;
  rotation?: number;
  elevation?: number;
  hidden?: boolean;
  asset?: Asset | null;
  image?: string | null;
  vision?: Vision | null;
  auras?: Aura[];
  player?: boolean;
  bloodied?: boolean;
  dead?: boolean;
  combatant?: Combatant | null;
  entityId?: string | null;
}

export interface Light {
  id: string;
  enabled?: boolean;
  radiusMin?: number;
  radiusMax?: number;
  color?: string;
  opacity?: number;
  alwaysVisible?: boolean;
  x: number;
  y: number;
  sight?: Sight | null;
}

export interface Wall {
  id: string;
  data: number[];
  type?: string;
  side?: string;
  door?: "closed" | "open" | "locked";
}

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
}

export interface MapData {
  id: string;
  name?: string;
  gridSize?: number;
  gridOffsetX?: number;
  gridOffsetY?: number;
  gridColor?: string;
  gridVisible?: boolean;
  gridScale?: number;
  gridUnits?: string;
  gridType?: GridType | string;
  gridStyle?: "solid" | "corners" | string;
  gridOpacity?: number;
  image?: string;
  video?: string;
  scale?: number;
  x?: number;
  y?: number;
  zoom?: number;
  width?: number;
  height?: number;
  fogOfWar?: boolean;
  fogExploration?: boolean;
  fog?: string;
  lineOfSight?: boolean;
  losDaylight?: number;
  losVisionLimit?: number;
  walls?: Wall[];
  drawings?: Drawing[];
  markers?: Marker[];
  tiles?: Tile[];
  tokens?: Token[];
  areaEffects?: AreaEffect[];
  lights?: Light[];
  measurements?: Measurement[];
}

export interface Screen {
  mapId?: string;
  interaction?: string;
  remoteInteraction?: boolean;
  sharedVision?: string;
  fog?: boolean;
}

export interface Snapshot {
  version?: string;
  build?: number;
  game?: { combatants?: Combatant[] } | null;
  map?: MapData | null;
  screen?: Screen | null;
  paused?: boolean;
}

/** A drag as it travels over the WebSocket (contract: Movement). */
export interface Movement {
  id: string;
  x: number;
  y: number;
  state: DragState;
  polygon?: number[];
  path?: number[];
  source?: { id?: string; name?: string; color?: string };
}

export interface Envelope {
  name: string;
  data?: unknown;
  requestId?: string;
  responseId?: string;
}
