// The host API's answers as the console reads them: only the fields it
// uses (docs/host-console.md describes them whole).

export interface ClientRow {
  channel: number;
  name?: string;
  color?: string;
  role?: string;
  seat?: string;
  runMode?: string;
  device?: string;
  address?: string;
  mapCenterX?: number;
  mapCenterY?: number;
  mapZoom?: number;
  screenWidth?: number;
  screenHeight?: number;
}

export interface Seat {
  id: string;
  name: string;
  taken: boolean;
  player?: string;
  clients?: number[];
  controls?: string[];
}

export interface JoinInfo {
  enabled: boolean;
  clientLink?: string;
  clientLinkQR?: string;
  playerLink?: string;
  playerLinkQR?: string;
  spectatorLink?: string;
  spectatorLinkQR?: string;
}

export interface Effect {
  id: string;
  name?: string;
  duration?: number;
  durationUnit?: string;
  durationType?: string;
  roundStart?: number;
  turnStart?: number;
  data?: { turnsElapsed?: number };
}

export interface InitiativeSlot {
  id?: string;
  value?: number | string | null;
}

export interface Combatant {
  id: string;
  name?: string;
  tokenId?: string;
  entityId?: string;
  entityType?: string;
  reference?: string;
  hidden?: boolean;
  bloodied?: boolean;
  defeated?: boolean;
  initiative?: InitiativeSlot[];
  effects?: Effect[];
  data?: Record<string, unknown>;
}

export interface Game {
  started?: boolean;
  round?: number;
  turn?: number;
  combatantId?: string;
  initiativeId?: string;
  combatants?: Combatant[];
}

export interface TurnSlot {
  combatantId: string;
  initiativeId: string;
  name: string;
  value: number | string;
  role?: string;
  hidden?: boolean;
}

export interface CampaignMap {
  id: string;
  name: string;
  width?: number;
  height?: number;
  tokens?: number;
  onScreen?: boolean;
  /** The module a map on the screen comes from (screenMap only). */
  library?: string;
}

export interface Screen {
  mapId?: string;
  overlayType?: string;
}

/** GET /host/api/campaign, or {missing} when there is no campaign (404). */
export interface CampaignView {
  missing?: string;
  campaign?: { id: string; name: string };
  maps?: CampaignMap[];
  screen?: Screen;
  /** The map on the player screen, the campaign's or a module's. */
  screenMap?: CampaignMap;
  game?: Game;
  turnOrder?: TurnSlot[];
}

export interface ModuleRow {
  id: string;
  name: string;
  version?: string;
  author?: string;
  category?: string;
  package?: unknown;
}

export interface UpdateCheck {
  module: string;
  update?: boolean;
  available?: string;
  compatible?: boolean;
  changelog?: string;
  error?: string;
}

export interface InstallProgress {
  stage?: string;
  done?: number;
  total?: number;
  entries?: number;
}

export interface ImportResult {
  kind: string;
  id: string;
  name: string;
  compendium?: { entities: number; skipped?: unknown; notes?: string[] };
}

export interface Offer {
  id: string;
  type?: string;
  url?: string;
  manifest?: string;
  file?: string;
  from?: string;
  host?: string;
  status: string;
  checking?: boolean;
  progress?: { done?: number; total?: number };
  install?: InstallProgress;
  error?: string;
  package?: {
    name: string;
    version: string;
    type?: string;
    description?: string;
    installed?: string;
    installedVersion?: string;
    compatible?: boolean;
  };
  result?: ImportResult;
}

export interface Message {
  type?: string;
  text?: string;
  message?: string;
  source?: unknown;
  creature?: string;
  private?: boolean;
  to?: string[];
  roll?: unknown;
  rolls?: unknown[];
}

export interface MapToken {
  id: string;
  name?: string;
  entityId?: string;
  hidden?: boolean;
  role?: string;
  player?: unknown;
  vision?: { enabled?: boolean };
}
