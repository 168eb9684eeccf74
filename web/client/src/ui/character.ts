// The character panel: the sheet of the character whose seat this page
// holds (getCharacter, docs/api.md "A player's character"). The health the
// system names (its first range) with damage, healing and temporary values
// (the server applies the same rules as the game master's console), the
// maximum and the tallies the system declares (D&D 5e's death saves) where
// it lets the player write them, conditions and effects with the rounds
// they have left, the system's sheet page, the sheet's actions (a tap
// rolls into the chat with the roll options the system declares toggled
// on, and the answer shows the outcome the system names), and the
// initiative roll and "end my turn" during combat. Every change goes to
// the server, which decides; the panel only draws what the server answers.
import type { ClientRequests, RequestRollAction } from "../wire.gen";
import type { Reply, RequestName } from "../net/events";
import { t } from "../i18n";
import { button, h } from "./dom";

export interface SeatView {
  id: string;
  name: string;
  kind: string;
  image?: string;
  taken: boolean;
  player?: string;
}

export interface HitPoints {
  key: string;
  /** What the system calls it ("Hit points"). */
  title?: string;
  current: number;
  max: number;
  temp: number;
  bloodied: boolean;
  defeated: boolean;
}

export interface SheetAction {
  id: string;
  title: string;
  type: string;
  roll: string;
  group: string;
  /** The ids of the sheet's roll options this action takes. */
  options?: string[] | null;
  /** The action rolled after this one (an attack's damage). */
  follow?: string;
}

/** A track the player marks, as the system declares it (D&D 5e's death saves). */
export interface Tally {
  key: string;
  title: string;
  marks: { id: string; title: string }[];
  most: number;
  /** "always", or "down": while health is 0 or below, or a mark is set. */
  shown: string;
}

/** The marks of a tally as the character's data holds them, each a whole count from 0 to its most. */
export function tallyCounts(tally: Tally, data: Record<string, unknown> | undefined): Record<string, number> {
  const raw = (data?.[tally.key] ?? {}) as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const m of tally.marks) {
    const n = Number(raw && typeof raw === "object" ? raw[m.id] : 0);
    out[m.id] = Number.isFinite(n) ? Math.max(0, Math.min(tally.most, Math.trunc(n))) : 0;
  }
  return out;
}

/** A roll option the system declares (the sheet's rollOptions). */
export interface RollOption {
  id: string;
  title: string;
}

export interface EffectView {
  id: string;
  name: string;
  duration?: number;
  durationUnit?: string;
  remainingRounds: number | null;
}

export interface CharacterSheet {
  seat: SeatView;
  character: { id: string; name?: string; data?: Record<string, unknown> } | null;
  reference: string;
  combatant: { id: string } | null;
  tokenIds: string[] | null;
  controls: string[] | null;
  hitPoints: HitPoints | null;
  effects: EffectView[] | null;
  editable: string[] | null;
  hitPointsEditable: boolean;
  actions: SheetAction[] | null;
  rollOptions?: RollOption[] | null;
  tallies?: Tally[] | null;
  initiative: number | null;
  myTurn: boolean;
  round: number;
  /** How the system's combat passes turns (absent from older servers: initiative). */
  turns?: "initiative" | "passed";
  /** Whom the acting player may pass the turn to (turns "passed"). */
  passTo?: { id?: string; name?: string }[] | null;
}

/** A button of the turn row: its label and the endTurn data it sends. */
export interface TurnChoice {
  label: string;
  data: { to: string } | null;
}

/**
 * What the turn row offers: "Roll initiative" only where the system rolls
 * initiative; on one's turn, a button per combatant the turn may be passed
 * to (turns "passed"), then "End my turn" (to whoever is next; a new round
 * once everyone has acted).
 */
export function turnChoices(s: Pick<CharacterSheet, "combatant" | "initiative" | "myTurn" | "turns" | "passTo">): { rollInitiative: boolean; pass: TurnChoice[] } {
  const passed = s.turns === "passed";
  const pass: TurnChoice[] = [];
  if (s.myTurn && passed) {
    for (const c of s.passTo ?? []) if (c.id) pass.push({ label: `Pass to ${c.name || "?"}`, data: { to: c.id } });
  }
  if (s.myTurn) pass.push({ label: "End my turn", data: null });
  return { rollInitiative: !passed && !!s.combatant && s.initiative == null, pass };
}

export interface CharacterDeps {
  /** Sends a request on the socket and resolves with its answer (rejects with the server's message). */
  request<K extends RequestName>(name: K, data: ClientRequests[K]): Promise<Reply<K>>;
  openEntity(path: string, title: string): void;
  /** Opens the seat picker. */
  pickSeat(): void;
  /** The sheet was fetched again: the tokens the seat plays may have changed. */
  sheetChanged?(): void;
}

/** The rollAction request for a tap on an action: the chosen options this action takes, its follow-up with it. */
export function rollRequest(a: SheetAction, chosen: ReadonlySet<string>, privately = false): RequestRollAction {
  const data: RequestRollAction = { action: a.id };
  const options = (a.options ?? []).filter((o) => chosen.has(o));
  if (options.length > 0) data.options = options;
  if (a.follow) data.follow = true;
  if (privately) data.private = true;
  return data;
}

/** The line a roll's answer shows ("Boathook swing: 17 · Boathook swing harm: 8 — Hard success"): the system's outcome last. */
export function rollSummary(answer: Reply<"rollAction">, title: string): string {
  const messages = (answer.messages ?? []) as { content?: { name?: string; result?: number } }[];
  const lines = messages.map((m) => `${m.content?.name ?? title}: ${m.content?.result ?? "?"}`);
  return lines.join(" · ") + (answer.outcome?.title ? ` — ${answer.outcome.title}` : "");
}

/** How full the hit-point bar is, 0 to 100. */
export function hitPointPercent(hp: { current: number; max: number }): number {
  return hp.max > 0 ? Math.max(0, Math.min(100, (hp.current / hp.max) * 100)) : 0;
}

export class CharacterPanel {
  readonly el = h("div", { className: "character" });
  sheet: CharacterSheet | null = null;
  spectator = false;
  /** The last roll's result line, as shown ("Longsword attack: 17"). */
  lastRoll = "";
  error = "";
  /** The roll options toggled on for the next roll (cleared after it). */
  private chosen = new Set<string>();
  /** Roll to the game master only: kept until switched off. */
  private privately = false;
  private initiativeAsked = false;
  private refreshTimer: number | undefined;
  private fetching = false;
  private again = false;

  constructor(private deps: CharacterDeps) {
    this.draw();
  }

  /** The seat changed (null: none): fetch its sheet, or clear the panel. */
  setSeat(seat: SeatView | null): void {
    if (!seat) {
      this.sheet = null;
      this.initiativeAsked = false;
      this.draw();
      this.deps.sheetChanged?.();
      return;
    }
    this.refresh();
  }

  setSpectator(on: boolean): void {
    this.spectator = on;
    this.draw();
  }

  /** Something the sheet shows may have changed: fetch it again (coalesced). */
  refreshSoon(): void {
    if (this.refreshTimer !== undefined) return;
    this.refreshTimer = window.setTimeout(() => {
      this.refreshTimer = undefined;
      this.refresh();
    }, 16);
  }

  async refresh(): Promise<void> {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    try {
      this.sheet = (await this.deps.request("getCharacter", null)) as unknown as CharacterSheet;
      this.error = "";
    } catch (err) {
      this.sheet = null;
      this.error = (err as Error).message;
    } finally {
      this.fetching = false;
    }
    this.draw();
    this.deps.sheetChanged?.();
    if (this.again) {
      this.again = false;
      this.refresh();
    }
  }

  /** The game master started combat (initiativeRequested names this seat). */
  promptInitiative(): void {
    this.initiativeAsked = true;
    this.refresh();
  }

  private async act<K extends RequestName>(name: K, data: ClientRequests[K], after?: (answer: Reply<K>) => void): Promise<void> {
    try {
      const answer = await this.deps.request(name, data);
      this.error = "";
      after?.(answer);
    } catch (err) {
      this.error = (err as Error).message;
    }
    await this.refresh();
  }

  private draw(): void {
    const s = this.sheet;
    const parts: (Node | null)[] = [];
    if (this.spectator) {
      parts.push(h("p", { className: "muted" }, "You are watching as a spectator: you cannot chat, drag tokens or roll."));
    } else if (!s) {
      parts.push(h("p", { className: "muted" }, "Pick your character to see its sheet here."),
        button("Pick a character", () => this.deps.pickSeat(), "primary char-pick"));
    } else {
      parts.push(this.header(s), this.turn(s), this.hitPoints(s), ...this.tallies(s), this.effects(s), this.actions(s));
    }
    if (this.error) parts.push(h("p", { className: "char-error", role: "alert" }, this.error));
    this.el.replaceChildren(...parts.filter((p): p is Node => !!p));
  }

  private header(s: CharacterSheet): HTMLElement {
    const name = s.character?.name || s.seat.name;
    return h("header", { className: "char-head" },
      s.seat.image ? h("img", { src: s.seat.image, alt: "", className: "char-art" }) : null,
      h("strong", { className: "char-name" }, name),
      s.reference ? button("Sheet", () => this.deps.openEntity(s.reference, name), "char-sheet-open", { title: "Open the character sheet" }) : null);
  }

  private turn(s: CharacterSheet): HTMLElement | null {
    const row = h("div", { className: "char-turn" });
    const choices = turnChoices(s);
    if (choices.rollInitiative) {
      row.append(button("Roll initiative", () => this.act("rollInitiative", null, () => (this.initiativeAsked = false)),
        `primary char-initiative${this.initiativeAsked ? " asked" : ""}`));
      if (this.initiativeAsked) row.append(h("span", { className: "char-note" }, "Combat starts: roll your initiative."));
    }
    if (s.myTurn) row.append(h("span", { className: "char-note your-turn" }, "It is your turn."));
    for (const c of choices.pass) {
      row.append(button(c.label, () => this.act("endTurn", c.data), c.data ? "char-pass" : "primary char-end-turn"));
    }
    return row.childElementCount ? row : null;
  }

  private hitPoints(s: CharacterSheet): HTMLElement | null {
    const hp = s.hitPoints;
    if (!hp) return null;
    const pct = hitPointPercent(hp);
    const box = h("section", { className: `char-hp${hp.bloodied ? " bloodied" : ""}${hp.defeated ? " defeated" : ""}` },
      h("div", { className: "hp-line" },
        h("span", { className: "hp-label" }, `${hp.title || "Health"} `),
        h("span", { className: "hp-now" }, String(hp.current)), " / ", h("span", { className: "hp-max" }, String(hp.max)),
        hp.temp > 0 ? h("span", { className: "hp-temp" }, ` +${hp.temp} temp`) : null),
      h("div", { className: "hp-bar", "aria-hidden": "true" }, h("div", { className: "hp-fill", style: `width:${pct}%` })));
    if (s.hitPointsEditable) {
      const amount = h("input", { type: "number", min: "0", step: "1", inputmode: "numeric", className: "hp-amount", "aria-label": "Amount" });
      const apply = (field: "damage" | "healing" | "temp") => {
        const n = Number(amount.value);
        if (!amount.value || !Number.isFinite(n) || n < 0) {
          this.error = "Type a number of hit points first.";
          this.draw();
          return;
        }
        this.act("changeHitPoints", { [field]: n });
      };
      box.append(h("div", { className: "hp-edit" }, amount,
        button("Damage", () => apply("damage"), "hp-damage"),
        button("Heal", () => apply("healing"), "hp-heal"),
        button("Set temp", () => apply("temp"), "hp-set-temp")));
    }
    const maxKey = `max_${hp.key}`;
    if (s.editable?.includes(maxKey)) {
      const max = h("input", { type: "number", min: "1", step: "1", inputmode: "numeric", className: "hp-max-input", value: String(hp.max), "aria-label": "Maximum hit points" });
      box.append(h("div", { className: "hp-max-edit" }, h("label", {}, "Maximum ", max),
        button("Set", () => {
          const n = Number(max.value);
          if (!Number.isFinite(n) || n < 1) return;
          this.act("updateCharacter", { data: { [maxKey]: n } });
        }, "hp-max-set")));
    }
    return box;
  }

  /** The system's tallies the player may mark (those in editable), each mark a row of pips. */
  private tallies(s: CharacterSheet): (HTMLElement | null)[] {
    return (s.tallies ?? []).map((tally) => {
      if (!s.editable?.includes(tally.key)) return null;
      const counts = tallyCounts(tally, s.character?.data);
      const down = (s.hitPoints?.current ?? 1) <= 0;
      if (tally.shown === "down" && !down && !Object.values(counts).some((n) => n > 0)) return null;
      const write = (mark: string, k: number) => this.act("updateCharacter", { data: { [tally.key]: { ...counts, [mark]: k } } });
      const pips = Array.from({ length: tally.most }, (_, i) => i + 1);
      return h("section", { className: "char-tally", "data-tally": tally.key }, h("h3", {}, tally.title),
        ...tally.marks.map((m) => h("div", { className: `saves tally-mark mark-${m.id}` }, h("span", {}, m.title),
          ...pips.map((k) => button(k <= counts[m.id] ? "●" : "○", () => write(m.id, k === counts[m.id] ? k - 1 : k), k <= counts[m.id] ? "on" : "",
            { "aria-label": `${m.title} ${k}`, "aria-pressed": String(k <= counts[m.id]) })))));
    });
  }

  private effects(s: CharacterSheet): HTMLElement {
    const list = s.effects ?? [];
    return h("section", { className: "char-effects" }, h("h3", {}, "Conditions and effects"),
      list.length === 0 ? h("p", { className: "muted" }, "None.") :
        h("ul", {}, ...list.map((e) => h("li", {}, h("span", { className: "effect-name" }, e.name), " ",
          h("span", { className: "muted effect-left" }, e.remainingRounds == null ? "until removed" :
            `${e.remainingRounds} round${e.remainingRounds === 1 ? "" : "s"} left`)))));
  }

  private actions(s: CharacterSheet): HTMLElement | null {
    const list = s.actions ?? [];
    if (list.length === 0) return null;
    // The system's roll options, each a toggle: the next roll takes those
    // on that its action offers.
    const adv = h("div", { className: "adv roll-options", role: "group", "aria-label": "Roll with" });
    for (const o of s.rollOptions ?? []) {
      adv.append(button(o.title, () => {
        if (!this.chosen.delete(o.id)) this.chosen.add(o.id);
        this.draw();
      }, `roll-option option-${o.id}`, { "aria-pressed": String(this.chosen.has(o.id)), "data-option": o.id }));
    }
    adv.append(button(t.privateRoll, () => {
      this.privately = !this.privately;
      this.draw();
    }, "private-roll", { "aria-pressed": String(this.privately) }));
    const groups = new Map<string, SheetAction[]>();
    for (const a of list) {
      const g = a.group || "Actions";
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g)!.push(a);
    }
    const out = h("section", { className: "char-actions" }, h("h3", {}, "Rolls"), adv);
    if (this.lastRoll) out.append(h("p", { className: "last-roll", role: "status" }, this.lastRoll));
    for (const [g, acts] of groups) {
      out.append(h("h4", {}, g), h("div", { className: "action-list" },
        ...acts.map((a) => button(a.title, () => this.roll(a), `action action-${a.type || "other"}`,
          { title: a.roll, "data-action": a.id }))));
    }
    return out;
  }

  private roll(a: SheetAction): void {
    const data = rollRequest(a, this.chosen, this.privately);
    this.chosen.clear();
    this.act("rollAction", data, (answer) => {
      this.lastRoll = rollSummary(answer, a.title);
    });
  }
}
