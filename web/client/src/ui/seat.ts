// Seats and roles on the player's page (docs/api.md "Seats, roles and the
// join key"): the seat picker (the free characters, plus watching as a
// spectator), the seat token kept in localStorage and presented again
// after every connect (so a reload or a server restart keeps the seat),
// the spectator's limits, the character panel, the "ask the game master
// for the link" page when the join key shuts this page out, and, on a
// table display, who sits where.
import type { ClientRequests } from "../wire.gen";
import type { EventRouter, Reply, RequestName } from "../net/events";
import { CharacterPanel, type SeatView, type CharacterSheet } from "./character";
import { button, h } from "./dom";
import { JournalPanel } from "./journal";
import { t } from "../i18n";
import { seatStyles } from "./seat-styles";
import type { TableUI } from "./table";

const tokenKey = "companion.seatToken";
const roleKey = "companion.role";

export interface SeatDeps {
  app: HTMLElement;
  table: TableUI;
  display: boolean;
  /** The name the player joined with (the seat's player name). */
  name(): string;
  /** The page's one event router: seats read their events and send their requests through it. */
  events: EventRouter;
  /** Stops the socket for good (kicked, or shut out by the join key). */
  stopSocket(): void;
  /** The seat's sheet was fetched again (its tokens: whose sight the page shows). */
  sheetChanged?(): void;
}

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* not remembered: the seat lasts this page */
  }
}

/**
 * Why the server closed the socket, as far as seats care: 4403 the game
 * master removed this page ("kicked": stop, the seat is gone), 4401 the join
 * key changed ("key": stop, and reload if the page still gets in), anything
 * else a drop the socket reconnects after.
 */
export function closeReason(code: number): "kicked" | "key" | "drop" {
  return code === 4403 ? "kicked" : code === 4401 ? "key" : "drop";
}

/** A seat in the picker: its button's text, and whether it is this page's. */
export function seatChoice(s: SeatView, mySeatId: string | undefined): { label: string; mine: boolean } {
  const mine = !!mySeatId && mySeatId === s.id;
  const label = mine ? `${s.name} (yours)` : s.taken ? `${s.name} — ${s.player || "taken"}` : s.name;
  return { label, mine };
}

/** Whether initiativeRequested asks this page's seat to roll. */
export function asksForInitiative(seats: unknown, mySeatId: string | undefined): boolean {
  return !!mySeatId && Array.isArray(seats) && seats.includes(mySeatId);
}

export class SeatUI {
  seat: SeatView | null = null;
  seats: SeatView[] = [];
  spectator = false;
  /** What blocks the page, when something does: "key" (ask for the link) or "kicked". */
  blocked: "" | "key" | "kicked" = "";
  readonly character: CharacterPanel;
  journal: JournalPanel | null = null;
  private picker: HTMLElement | null = null;
  private pickerNote = "";
  /** The player closed the picker without a seat: reconnects do not open it again. */
  private dismissed = false;
  private seatButton = h("button", { type: "button", className: "seat-button" });
  private strip = h("div", { className: "seat-strip", "aria-label": "Who sits where" });
  private note = h("p", { className: "spectator-note" }, "You are watching as a spectator: you see the map, the initiative and the chat, but you cannot chat, drag tokens or roll.");

  constructor(private deps: SeatDeps) {
    document.head.append(h("style", {}, seatStyles));
    this.listen(deps.events);
    this.character = new CharacterPanel({
      request: (name, data) => this.request(name, data),
      openEntity: (path, title) => deps.table.screen.openEntity(path, title),
      pickSeat: () => this.openPicker(),
      sheetChanged: () => deps.sheetChanged?.(),
    });
    if (deps.display) {
      deps.app.append(this.strip);
      return;
    }
    deps.table.addPanel("character", "Character", this.character.el);
    // The handout journal, beside the character (ui/journal.ts).
    this.journal = new JournalPanel(deps.table.screen, deps.events);
    deps.table.addPanel("journal", t.journal, this.journal.el, false);
    void this.journal.load();
    this.seatButton.addEventListener("click", () => this.openPicker());
    // Before the name button, which keeps clear of the connection badge.
    const who = deps.app.querySelector(".bar .who");
    if (who) who.before(this.seatButton);
    else deps.app.querySelector(".bar")?.append(this.seatButton);
    const chat = deps.app.querySelector("#panel-chat .chat");
    chat?.append(this.note);
    this.drawButton();
  }

  /** Whom the map's permissions see: the seat's character and the tokens it plays. */
  who(): { spectator: boolean; seat: { id: string; tokens: string[] } | null } {
    const sh: CharacterSheet | null = this.character.sheet;
    const tokens = sh ? [...(sh.tokenIds ?? []), ...(sh.controls ?? [])] : [];
    return { spectator: this.spectator, seat: this.seat ? { id: this.seat.id, tokens } : null };
  }

  /** Sends a request and resolves with its answer; rejects with the server's message. */
  request<K extends RequestName>(name: K, data: ClientRequests[K]): Promise<Reply<K>> {
    const answer = this.deps.events.request(name, data, { timeoutMs: 10_000 });
    return answer ?? Promise.reject(new Error("Not connected: try again in a moment."));
  }

  /** The events seats read (the answers to their requests are settled by the router). */
  private listen(events: EventRouter): void {
    events.on("seatsUpdated", (d) => {
      this.seats = Array.isArray(d?.seats) ? (d.seats as SeatView[]) : [];
      this.drawSeats();
      if (this.seat) this.character.refreshSoon(); // the tokens the seat controls may have changed
    });
    events.on("seatChanged", (d) => {
      if (d && "seatToken" in d && typeof d.seatToken === "string") store(tokenKey, d.seatToken);
      if (d?.seat) this.setSeat(d.seat as SeatView);
      else {
        store(tokenKey, null);
        this.setSeat(null);
        this.openPicker("The game master freed your seat: pick a character again.");
      }
    });
    events.on("roleChanged", (d) => this.setSpectator(d?.role === "spectator"));
    events.on("initiativeRequested", (d) => {
      if (asksForInitiative(d?.seats, this.seat?.id)) {
        this.character.promptInitiative();
        this.deps.table.showPanel("character");
      }
    });
    // What may change the seat's sheet: read it again.
    const refresh = () => {
      if (this.seat) this.character.refreshSoon();
    };
    for (const name of ["entityUpdated", "combatantUpdated", "combatantsUpdated", "gameUpdated", "tokenUpdated", "tokensUpdated", "mapLoaded"] as const) {
      events.on(name, refresh);
    }
  }

  /** The socket (re)opened and the page registered: take the seat back, or offer one. */
  async connected(): Promise<void> {
    this.loadSeats();
    if (this.deps.display) return;
    let me: { role?: string; joinKey?: boolean } = {};
    try {
      const res = await fetch("/api/me", { headers: { Accept: "application/json" }, cache: "no-store" });
      if (res.status === 401) return this.shutOut("key");
      if (res.ok) me = await res.json();
    } catch {
      /* the socket decides below */
    }
    if (me.role === "spectator" || stored(roleKey) === "spectator") {
      try {
        if (me.role !== "spectator") await this.request("setRole", { role: "spectator" });
        return this.setSpectator(true);
      } catch {
        store(roleKey, null); // a spectator no longer: fall through to a seat
      }
    }
    const token = stored(tokenKey);
    if (token) {
      try {
        const ans = await this.request("takeSeat", { seatToken: token });
        return this.setSeat(ans.seat ?? null);
      } catch (err) {
        store(tokenKey, null);
        this.setSeat(null);
        return this.openPicker(`Your seat is no longer yours (${(err as Error).message}): pick a character again.`);
      }
    }
    // With the join key on the game master has taken charge of who plays:
    // the seats are offered at once. Off (the contract's open table), the
    // seat button and the character panel offer them.
    if (!this.seat && !this.dismissed && me.joinKey) this.openPicker();
  }

  /**
   * The socket closed. A kick (4403) or a changed join key (4401) ends the
   * page's play: it asks whether the key still lets it in. Any other close
   * reconnects as before, unless the server now wants a key this page has not.
   */
  closed(code: number): boolean {
    const why = closeReason(code);
    if (why === "kicked") {
      store(tokenKey, null);
      this.shutOut("kicked");
      // The server revokes the kicked device's pass just after closing its
      // socket: ask a moment later whether the old link still lets it in.
      for (const wait of [400, 1500]) setTimeout(() => this.probeKey(), wait);
      return true;
    }
    this.probeKey(why === "key");
    return why === "key";
  }

  /** Whether the join key still lets this page in; shut out when not. */
  private probeKey(reloadIfIn = false): void {
    fetch("/api/me", { cache: "no-store" }).then((res) => {
      if (res.status !== 401) {
        if (reloadIfIn) location.reload();
      } else if (this.blocked === "kicked") {
        const line = document.querySelector<HTMLElement>(".shut-out-key");
        if (line) line.hidden = false;
        document.querySelector(".shut-out .join-again")?.remove();
      } else this.shutOut("key");
    }, () => {});
  }

  private shutOut(why: "key" | "kicked"): void {
    if (this.blocked === "key" || this.blocked === why) return;
    this.blocked = why;
    this.deps.stopSocket();
    this.closePicker();
    document.querySelector(".shut-out")?.remove();
    const page = why === "key"
      ? h("div", { className: "shut-out", role: "alertdialog", "aria-labelledby": "shut-out-title" },
        h("h1", { id: "shut-out-title" }, "Ask the game master for the link"),
        h("p", {}, "This game needs its join key, and this page does not have it (any more). Scan the QR code or open the link the game master shows you."))
      : h("div", { className: "shut-out", role: "alertdialog", "aria-labelledby": "shut-out-title" },
        h("h1", { id: "shut-out-title" }, "The game master removed you from the game"),
        h("p", {}, "Your seat is free again."),
        h("p", { className: "shut-out-key", hidden: true }, "This game needs its join key, and the link you had no longer opens it: ask the game master for the link."),
        button("Join again", () => location.reload(), "primary join-again"));
    document.body.append(page);
  }

  private async loadSeats(): Promise<void> {
    try {
      const res = await fetch("/api/seats", { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!res.ok) return;
      const body = await res.json();
      this.seats = Array.isArray(body?.seats) ? body.seats : [];
      this.drawSeats();
    } catch {
      /* seatsUpdated will tell */
    }
  }

  private setSeat(seat: SeatView | null): void {
    this.seat = seat;
    if (seat) this.closePicker();
    this.character.setSeat(seat);
    this.drawButton();
  }

  private setSpectator(on: boolean): void {
    this.spectator = on;
    store(roleKey, on ? "spectator" : null);
    document.body.classList.toggle("spectator", on);
    if (on) {
      this.seat = null;
      this.character.setSeat(null);
      this.closePicker();
    }
    this.character.setSpectator(on);
    this.drawButton();
  }

  private drawButton(): void {
    this.seatButton.textContent = this.spectator ? "Spectator" : this.seat ? this.seat.name : "Pick a character";
    this.seatButton.title = "Your seat at the table";
  }

  private drawSeats(): void {
    if (this.deps.display) {
      this.strip.replaceChildren(h("strong", {}, "At the table"), ...this.seats.map((s) =>
        h("span", { className: `seat-pill${s.taken ? " taken" : ""}` }, `${s.name} — ${s.taken ? s.player || "taken" : "free"}`)));
      this.strip.hidden = this.seats.length === 0;
      return;
    }
    if (this.seat) {
      const mine = this.seats.find((s) => s.id === this.seat!.id);
      if (mine) this.seat = mine;
    }
    if (this.picker) this.drawPicker();
  }

  openPicker(note = ""): void {
    if (this.deps.display || this.blocked) return;
    this.pickerNote = note;
    if (!this.picker) {
      this.picker = h("div", { className: "seat-picker", role: "dialog", "aria-labelledby": "seat-picker-title" });
      document.body.append(this.picker);
    }
    this.drawPicker();
  }

  private closePicker(): void {
    this.picker?.remove();
    this.picker = null;
  }

  private drawPicker(): void {
    const p = this.picker!;
    const error = h("p", { className: "seat-error", role: "alert" });
    const run = (fn: () => Promise<void>) => () => fn().catch((err) => (error.textContent = (err as Error).message));
    const list = h("ul", { className: "seat-list" }, ...this.seats.map((s) => {
      const { label, mine } = seatChoice(s, this.seat?.id);
      const b = button(label, run(async () => {
        const ans = await this.request("takeSeat", { seatId: s.id, player: this.deps.name() });
        if (ans.seatToken) store(tokenKey, ans.seatToken);
        this.setSeat(ans.seat ?? null);
      }), `seat-choice${s.taken ? " taken" : ""}`, { disabled: s.taken && !mine, "data-seat": s.id });
      return h("li", {}, b);
    }));
    const actions = h("div", { className: "seat-actions" });
    if (this.spectator) {
      actions.append(button("Play instead", run(async () => {
        await this.request("setRole", { role: "player" });
        this.setSpectator(false);
        this.drawPicker();
      }), "seat-play"));
    } else {
      actions.append(button("Watch as a spectator", run(async () => {
        if (this.seat) await this.request("leaveSeat", null);
        store(tokenKey, null);
        await this.request("setRole", { role: "spectator" });
        this.setSpectator(true);
      }), "seat-spectate"));
    }
    if (this.seat) {
      actions.append(button("Leave my seat", run(async () => {
        await this.request("leaveSeat", null);
        store(tokenKey, null);
        this.setSeat(null);
        this.drawPicker();
      }), "seat-leave"));
    }
    actions.append(button("Close", () => {
      this.dismissed = true;
      this.closePicker();
    }, "seat-close"));
    p.replaceChildren(h("div", { className: "seat-card" },
      h("h1", { id: "seat-picker-title" }, "Choose your character"),
      this.pickerNote ? h("p", { className: "seat-note" }, this.pickerNote) : null,
      this.seats.length ? list : h("p", { className: "muted" }, "This game has no player characters to pick."),
      actions, error));
  }
}
