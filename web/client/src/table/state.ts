// The table around the map: initiative, the message log, pointers and the
// host's screen overlays, kept from GET /api and the WebSocket's events.
// Pure data (no DOM), so it is unit-tested in Node; the panels in src/ui
// draw it and learn what changed from the listeners.
import { tableRollText } from "./tableroll";
import { applyTo, type HandlerTable } from "../net/events";
import { readRoll, type RollView } from "./dice";

export interface Condition {
  name: string;
  icon: string;
  color: string;
}

export interface CombatantRow {
  id: string;
  name: string;
  label: string;
  role: string;
  image: string;
  initials: string;
  bloodied: boolean;
  defeated: boolean;
  conditions: Condition[];
  /** Exact hit points, only when the payload carries them (friendly creatures). */
  hp: { current: number; max: number | null } | null;
  tokenId: string;
  reference: string;
  player: boolean;
  order: number;
}

export interface MessageView {
  id: string;
  type: string;
  source: string;
  color: string;
  creature: string;
  created: string;
  text: string;
  /** A roll message's title (content.name), else "". */
  title: string;
  rolls: RollView[];
  /** A private roll or whisper: only its sender, its recipients and the game master read it. */
  private: boolean;
  /** A private message's recipients as readers see them ("GM", players' names). */
  to: string[];
  /** What the game system named a sheet roll ("Hard success"), else "". */
  outcome: string;
  /** Sent by the game master (the server signs it: a player naming themselves "Game master" is not). */
  gm: boolean;
}

export interface PointerView {
  id: string;
  source: string;
  name: string;
  color: string;
  x: number;
  y: number;
  /** performance.now() of the last move; pointers fade when it gets old. */
  at: number;
  ended: boolean;
}

export type TableChange = "game" | "messages" | "message" | "pointers" | "screen" | "paused";

/** The most messages kept; older ones fall off (the server keeps the log). */
export const maxMessages = 1000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  if (words.length === 1) return [...words[0]].slice(0, 2).join("").toUpperCase();
  const last = words[words.length - 1];
  if (/^\d{1,3}$/.test(last)) return ([...words[0]][0] + last).toUpperCase(); // "Goblin 12" → G12
  return ([...words[0]][0] + [...words[words.length - 1]][0]).toUpperCase();
}

function firstOrder(c: Obj): number {
  const ini = Array.isArray(c.initiative) ? c.initiative : [];
  let best = Infinity;
  for (const i of ini) {
    const o = isObj(i) ? num(i.order) : null;
    if (o != null && o > 0 && o < best) best = o;
  }
  return best;
}

/** A combatant (with its `creatures` row, when the server sends one) as a row. */
export function combatantRow(c: Obj, creature?: Obj): CombatantRow | null {
  const id = str(c.id);
  if (!id || c.hidden === true) return null;
  const name = str(c.name) || str(creature?.name) || "?";
  const conditions: Condition[] = [];
  if (Array.isArray(c.effects)) {
    for (const e of c.effects) {
      if (!isObj(e) || e.enabled === false) continue;
      const n = str(e.name);
      if (n) conditions.push({ name: n, icon: str(e.icon), color: str(e.color) });
    }
  }
  let hp: CombatantRow["hp"] = null;
  const cur = num(creature?.health);
  if (cur != null) hp = { current: cur, max: num(creature?.hitpoints) };
  let order = firstOrder(c);
  const rank = num(creature?.rank);
  if (order === Infinity && rank != null && rank > 0) order = rank;
  return {
    id,
    name,
    label: str(c.label) || (str(creature?.uid) !== name ? str(creature?.uid) : ""),
    role: str(c.role) || str(creature?.role) || "hostile",
    image: str(c.image) || str(creature?.image),
    initials: initialsOf(name),
    bloodied: c.bloodied === true || creature?.bloodied === true,
    defeated: c.defeated === true || c.dead === true || creature?.dead === true,
    conditions,
    hp,
    tokenId: str(c.tokenId) || str(creature?.tokenId),
    reference: str(c.reference),
    player: c.player === true || creature?.player === true,
    order,
  };
}

/** A message from the server (either wire form: text+rolls, or content) as drawn. */
export function messageView(m: unknown): MessageView | null {
  if (!isObj(m) || !str(m.id)) return null;
  const content = m.content;
  let text = str(m.text);
  if (!text && typeof content === "string") text = content;
  if (m.type === "tableRoll") text = tableRollText(text) ?? text;
  const rolls: RollView[] = [];
  if (Array.isArray(m.rolls)) {
    for (const r of m.rolls) {
      const v = readRoll(r);
      if (v) rolls.push(v);
    }
  }
  let title = "";
  if (isObj(content)) {
    title = str(content.name);
    // An old-style roll without `rolls`: keep its total and formula.
    if (rolls.length === 0 && num(content.result) != null) {
      rolls.push({ formula: str(content.formula), total: num(content.result), comment: "", label: "", dice: [], expression: str(content.formula) });
    }
  }
  return {
    id: str(m.id),
    type: str(m.type) || "chat",
    source: str(m.source),
    color: str(m.color),
    creature: str(m.creature),
    created: str(m.created),
    text,
    title,
    rolls,
    private: m.private === true,
    to: Array.isArray(m.to) ? m.to.filter((x): x is string => typeof x === "string") : [],
    outcome: str(m.outcome),
    gm: m.gm === true,
  };
}

export class TableState {
  round = 0;
  turn = 0;
  started = false;
  activeId = "";
  /** The combatants that have acted this round, where the system passes turns. */
  acted: string[] = [];
  combatants: CombatantRow[] = [];
  /** Messages by id, and their order (by created, then arrival). */
  readonly messages = new Map<string, MessageView>();
  order: string[] = [];
  /** Messages that fell off the front of the log (cap). */
  dropped = 0;
  readonly pointers = new Map<string, PointerView>();
  /** Client id → name, from clientConnected/clientUpdated (pointers carry ids). */
  readonly clientNames = new Map<string, string>();
  screen: Obj = {};
  paused = false;
  private listeners: ((c: TableChange, id?: string) => void)[] = [];
  private rawCombatants: Obj[] = [];
  private creatures = new Map<string, Obj>();

  subscribe(fn: (c: TableChange, id?: string) => void): void {
    this.listeners.push(fn);
  }

  private emit(c: TableChange, id?: string): void {
    for (const fn of this.listeners) fn(c, id);
  }

  /** Everything from a GET /api snapshot. Messages are merged by id, never doubled. */
  load(snap: unknown): void {
    if (!isObj(snap)) return;
    this.setGame(snap.game);
    this.screen = isObj(snap.screen) ? snap.screen : {};
    this.paused = snap.paused === true;
    if (Array.isArray(snap.messages)) this.mergeMessages(snap.messages);
    this.emit("game");
    this.emit("messages");
    this.emit("screen");
    this.emit("paused");
  }

  /**
   * The events the table reads, by name (net/events.ts): a page adds them to
   * its EventRouter (router.onTable(state.events)).
   */
  readonly events: HandlerTable = {
    gameUpdated: (data) => {
      this.setGame(data);
      this.emit("game");
    },
    combatantsUpdated: (data) => {
      if (Array.isArray(data)) {
        this.rawCombatants = data.filter(isObj);
        this.rebuildRows();
        this.emit("game");
      }
    },
    combatantCreated: (data) => this.putCombatant(data),
    combatantUpdated: (data) => this.putCombatant(data),
    combatantDeleted: (data) => {
      const id = isObj(data) ? str(data.id) : str(data);
      this.rawCombatants = this.rawCombatants.filter((c) => c.id !== id);
      this.rebuildRows();
      this.emit("game");
    },
    messageCreated: (data) => {
      const v = messageView(data);
      if (v) {
        const fresh = !this.messages.has(v.id);
        this.putMessage(v);
        this.trim();
        this.emit(fresh ? "message" : "messages", v.id);
      }
    },
    messagesUpdated: (data) => {
      const list = Array.isArray(data) ? data : isObj(data) && Array.isArray(data.messages) ? data.messages : null;
      if (list) {
        // The whole log as the server has it now.
        this.messages.clear();
        this.order = [];
        this.dropped = 0;
        this.mergeMessages(list);
        this.emit("messages");
      }
    },
    messageDeleted: (data) => {
      const id = isObj(data) ? str(data.id) : str(data);
      if (this.messages.delete(id)) {
        this.order = this.order.filter((o) => o !== id);
        this.emit("messages");
      }
    },
    systemPaused: (data) => {
      this.paused = data === true || (isObj(data) && data.paused === true);
      this.emit("paused");
    },
    screenUpdated: (data) => {
      if (isObj(data)) {
        this.screen = data;
        this.emit("screen");
      }
    },
    pointerUpdated: (data) => this.movePointer(data),
    pointerMoved: (data) => this.movePointer(data),
    clientConnected: (data) => this.nameClient(data),
    clientUpdated: (data) => this.nameClient(data),
    clientDisconnected: (data) => {
      const id = isObj(data) ? str(data.id) : str(data);
      if (this.pointers.delete(id)) this.emit("pointers");
    },
  };

  /** Applies one envelope not checked yet (tests); false for a name the table does not read. */
  apply(name: string, data: unknown): boolean {
    return applyTo(this.events, name, data);
  }

  private putCombatant(data: unknown): void {
    if (isObj(data) && str(data.id)) {
      const i = this.rawCombatants.findIndex((c) => c.id === data.id);
      if (i >= 0) this.rawCombatants[i] = data;
      else this.rawCombatants.push(data);
      this.rebuildRows();
      this.emit("game");
    }
  }

  /** Pointers carry client ids; their names come from clientConnected and clientUpdated. */
  private nameClient(data: unknown): void {
    if (isObj(data) && str(data.id)) this.clientNames.set(str(data.id), str(data.name));
  }

  /** Messages in log order, oldest first. */
  messageList(): MessageView[] {
    return this.order.map((id) => this.messages.get(id)!);
  }

  private setGame(g: unknown): void {
    if (!isObj(g)) {
      this.round = this.turn = 0;
      this.started = false;
      this.activeId = "";
      this.acted = [];
      this.rawCombatants = [];
      this.creatures.clear();
      this.rebuildRows();
      return;
    }
    this.round = num(g.round) ?? 0;
    this.turn = num(g.turn) ?? 0;
    this.started = g.started === true;
    this.activeId = str(g.combatantId);
    this.acted = Array.isArray(g.acted) ? g.acted.filter((id): id is string => typeof id === "string") : [];
    if (Array.isArray(g.combatants)) this.rawCombatants = g.combatants.filter(isObj);
    if (Array.isArray(g.creatures)) {
      this.creatures.clear();
      for (const c of g.creatures) if (isObj(c) && str(c.id)) this.creatures.set(str(c.id), c);
    }
    this.rebuildRows();
  }

  private rebuildRows(): void {
    const rows: CombatantRow[] = [];
    for (const c of this.rawCombatants) {
      const r = combatantRow(c, this.creatures.get(str(c.id)));
      if (r) rows.push(r);
    }
    // Turn order first (1, 2, …), then the unrolled in their stored order.
    // (Array.prototype.sort is stable: rows with the same order keep theirs.)
    rows.sort((a, b) => (a.order === b.order ? 0 : a.order - b.order));
    this.combatants = rows;
  }

  private mergeMessages(list: unknown[]): void {
    for (const m of list) {
      const v = messageView(m);
      if (v) this.putMessage(v);
    }
    this.order.sort((a, b) => {
      const ca = this.messages.get(a)!.created, cb = this.messages.get(b)!.created;
      return ca < cb ? -1 : ca > cb ? 1 : 0;
    });
    this.trim();
  }

  private putMessage(v: MessageView): void {
    if (!this.messages.has(v.id)) {
      // Usually the newest; a late one goes where its time puts it.
      let i = this.order.length;
      while (i > 0 && this.messages.get(this.order[i - 1])!.created > v.created && v.created) i--;
      this.order.splice(i, 0, v.id);
    }
    this.messages.set(v.id, v);
  }

  private trim(): void {
    while (this.order.length > maxMessages) {
      this.messages.delete(this.order.shift()!);
      this.dropped++;
    }
  }

  private movePointer(data: unknown): void {
    if (!isObj(data)) return;
    const x = num(data.x), y = num(data.y);
    const id = str(data.source) || str(data.id);
    if (!id || x == null || y == null) return;
    const state = data.state;
    const ended = state === "end" || state === "cancel" || state === 2 || state === 4;
    this.pointers.set(id, {
      id,
      source: id,
      name: str(data.name) || this.clientNames.get(id) || "",
      color: /^#[0-9a-f]{6}$/i.test(str(data.color)) ? str(data.color) : "#ffcc00",
      x,
      y,
      at: typeof performance !== "undefined" ? performance.now() : Date.now(),
      ended,
    });
    this.emit("pointers", id);
  }
}
