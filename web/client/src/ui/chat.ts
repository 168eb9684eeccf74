// The chat panel: the message log, the input and the dice tray.
// The log keeps at most domLimit messages in the page (older ones stay in
// TableState and come back on "show older"): a new message appends one
// element, so a long session stays smooth. What the player sends goes out
// as a createMessage request; the server's error for it (a bad dice
// expression) is shown under the input, to the sender alone, with the text
// put back. While the connection is down, sends wait in a queue shown in
// the log and leave when it is back.
import { t } from "../i18n";
import { icons } from "./icons";
import { humanRollError, privateTrayText, trayExpression, trayText, type RollView, type TrayChoice } from "../table/dice";
import { renderMarkdown } from "../table/markdown";
import type { MessageView, TableState } from "../table/state";

export const domLimit = 200;

export interface Outgoing {
  text: string;
}

export interface ChatDeps {
  state: TableState;
  /** Sends createMessage and settles with the server's answer; null when the socket is not open (nothing was sent). */
  send(text: string): Promise<unknown> | null;
  onEntity(path: string, title: string): void;
}

/** What the input says when the server refused a line: a dice error in plain words, else the server's message. */
export function refusalText(text: string, message: string): string {
  const human = humanRollError(message);
  return human !== message ? human : t.refused(text, message);
}

export class ChatPanel {
  readonly el = document.createElement("section");
  private log = document.createElement("ol");
  private more = document.createElement("button");
  private form = document.createElement("form");
  private input = document.createElement("input");
  private error = document.createElement("p");
  private tray = document.createElement("fieldset");
  private shown = new Map<string, HTMLLIElement>();
  private extra = 0; // older messages the reader asked to see
  private history: string[] = [];
  private historyAt = -1;
  private draft = "";
  readonly queue: Outgoing[] = [];
  inputError: string | null = null;
  /** Whether the log follows new messages: the reader is at its end (kept from scroll events, never read from layout per message). */
  private stick = true;
  private scrollDue = 0;

  constructor(private deps: ChatDeps) {
    this.el.className = "chat";
    this.el.setAttribute("aria-label", t.chat);
    this.log.className = "log";
    this.log.setAttribute("role", "log");
    this.log.setAttribute("aria-live", "polite");
    this.log.tabIndex = 0;
    this.log.addEventListener("scroll", () => (this.stick = this.atEnd()), { passive: true });
    this.more.type = "button";
    this.more.className = "more";
    this.more.hidden = true;
    this.more.addEventListener("click", () => {
      this.extra += domLimit;
      this.rebuild();
    });
    this.log.addEventListener("click", (e) => {
      const a = (e.target as HTMLElement).closest<HTMLAnchorElement>("a[data-entity]");
      if (a) {
        e.preventDefault();
        this.deps.onEntity(a.dataset.entity!, a.textContent ?? "");
      }
    });
    this.buildForm();
    this.el.append(this.more, this.log, this.error, this.form, this.tray);
  }

  private buildForm(): void {
    this.form.className = "say";
    this.input.type = "text";
    this.input.name = "say";
    this.input.autocomplete = "off";
    this.input.maxLength = 2000;
    this.input.placeholder = t.chatPlaceholder;
    this.input.setAttribute("aria-label", t.chatLabel);
    this.input.setAttribute("aria-describedby", "chat-error");
    this.error.id = "chat-error";
    this.error.className = "input-error";
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    const trayBtn = button("tray-toggle", "", t.diceTray);
    trayBtn.innerHTML = icons.dice;
    trayBtn.setAttribute("aria-expanded", "false");
    trayBtn.addEventListener("click", () => {
      this.tray.hidden = !this.tray.hidden;
      trayBtn.setAttribute("aria-expanded", String(!this.tray.hidden));
    });
    const send = button("send", "", t.send);
    send.innerHTML = icons.send;
    send.type = "submit";
    this.form.append(trayBtn, this.input, send);
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit(this.input.value);
    });
    this.input.addEventListener("keydown", (e) => this.onKey(e));
    this.input.addEventListener("input", () => this.setError(null));

    this.tray.className = "tray";
    this.tray.hidden = true;
    const legend = document.createElement("legend");
    legend.textContent = t.diceTray;
    const count = numberField(t.count, "count", 1, 1, 100);
    const mod = numberField(t.modifier, "modifier", 0, -100, 100);
    const mode = document.createElement("select");
    mode.name = "mode";
    mode.setAttribute("aria-label", `${t.advantage} / ${t.disadvantage}`);
    for (const [v, label] of [["normal", t.normal], ["advantage", t.advantage], ["disadvantage", t.disadvantage]]) {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = label;
      mode.append(o);
    }
    const secret = document.createElement("label");
    secret.className = "private-roll";
    const secretBox = document.createElement("input");
    secretBox.type = "checkbox";
    secretBox.name = "private";
    secret.append(secretBox, " ", t.privateRoll);
    const dice = document.createElement("div");
    dice.className = "dice";
    for (const sides of [4, 6, 8, 10, 12, 20, 100]) {
      const b = button("die", `d${sides}`, "");
      b.dataset.sides = String(sides);
      dice.append(b);
    }
    dice.addEventListener("click", (e) => {
      const b = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-sides]");
      if (!b) return;
      const choice: TrayChoice = {
        sides: Number(b.dataset.sides),
        count: Number((count.querySelector("input") as HTMLInputElement).value),
        modifier: Number((mod.querySelector("input") as HTMLInputElement).value),
        mode: mode.value as TrayChoice["mode"],
      };
      const line = trayText(choice);
      this.submit(secretBox.checked ? privateTrayText(line) : line);
    });
    for (const b of dice.querySelectorAll("button")) {
      b.addEventListener("pointerenter", () => (b.title = t.rollOf(this.previewFor(Number(b.dataset.sides), count, mod, mode))));
      b.setAttribute("aria-label", t.rollOf(`d${b.dataset.sides}`));
    }
    this.tray.append(legend, dice, count, mod, mode, secret);
  }

  private previewFor(sides: number, count: HTMLElement, mod: HTMLElement, mode: HTMLSelectElement): string {
    return trayExpression({
      sides,
      count: Number((count.querySelector("input") as HTMLInputElement).value),
      modifier: Number((mod.querySelector("input") as HTMLInputElement).value),
      mode: mode.value as TrayChoice["mode"],
    });
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === "ArrowUp" && this.history.length) {
      if (this.historyAt === -1) {
        this.draft = this.input.value;
        this.historyAt = this.history.length;
      }
      this.historyAt = Math.max(0, this.historyAt - 1);
      this.input.value = this.history[this.historyAt];
      e.preventDefault();
    } else if (e.key === "ArrowDown" && this.historyAt !== -1) {
      this.historyAt++;
      if (this.historyAt >= this.history.length) {
        this.historyAt = -1;
        this.input.value = this.draft;
      } else this.input.value = this.history[this.historyAt];
      e.preventDefault();
    }
  }

  /** Sends a line, or queues it while offline (nothing typed is lost). */
  submit(raw: string): void {
    const text = raw.trim();
    if (!text) return;
    if (this.history[this.history.length - 1] !== text) this.history.push(text);
    if (this.history.length > 100) this.history.shift();
    this.historyAt = -1;
    if (raw === this.input.value) this.input.value = "";
    this.setError(null);
    if (!this.sendLine(text)) {
      this.queue.push({ text });
      this.drawQueue();
    }
  }

  /** The connection is back: send what waited, in order. */
  flush(): void {
    while (this.queue.length) {
      if (!this.sendLine(this.queue[0].text)) break;
      this.queue.shift();
    }
    this.drawQueue();
  }

  /** Sends one line; false when it could not go. A refusal is shown under the input, the text given back. */
  private sendLine(text: string): boolean {
    const answer = this.deps.send(text);
    if (!answer) return false;
    answer.catch((err: Error) => {
      if (!this.input.value) this.input.value = text;
      this.setError(refusalText(text, err.message));
    });
    return true;
  }

  private setError(msg: string | null): void {
    this.inputError = msg;
    this.error.textContent = msg ?? "";
    this.error.hidden = !msg;
    this.input.toggleAttribute("aria-invalid", !!msg);
  }

  private drawQueue(): void {
    for (const li of this.log.querySelectorAll("li.pending")) li.remove();
    for (const q of this.queue) {
      const li = document.createElement("li");
      li.className = "message pending";
      li.title = t.notSent;
      const p = document.createElement("p");
      p.textContent = q.text;
      const s = document.createElement("small");
      s.textContent = t.notSent;
      li.append(p, s);
      this.log.append(li);
    }
    this.scrollToEnd();
  }

  /** All messages changed (snapshot, update, delete): redraw the tail. */
  rebuild(): void {
    const all = this.deps.state.messageList();
    const from = Math.max(0, all.length - domLimit - this.extra);
    const keep = new Set<string>();
    const frag = document.createDocumentFragment();
    for (let i = from; i < all.length; i++) {
      const m = all[i];
      keep.add(m.id);
      frag.append(this.elementFor(m, true));
    }
    for (const id of [...this.shown.keys()]) if (!keep.has(id)) this.shown.delete(id);
    this.log.replaceChildren(frag);
    const hidden = from + this.deps.state.dropped;
    this.more.hidden = from === 0;
    this.more.textContent = t.olderHidden(hidden);
    this.drawQueue();
  }

  /** One new message: append it, drop the oldest beyond the limit. */
  added(id: string): void {
    const m = this.deps.state.messages.get(id);
    if (!m) return;
    const list = this.deps.state.order;
    if (list[list.length - 1] !== id) {
      this.rebuild(); // arrived out of order
      return;
    }
    const li = this.elementFor(m, false);
    const firstPending = this.log.querySelector("li.pending");
    this.log.insertBefore(li, firstPending);
    while (this.shown.size > domLimit + this.extra) {
      const first = this.log.firstElementChild as HTMLLIElement | null;
      if (!first || first.classList.contains("pending")) break;
      this.shown.delete(first.dataset.id ?? "");
      first.remove();
      this.more.hidden = false;
    }
    if (!this.more.hidden) this.more.textContent = t.olderHidden(list.length - this.shown.size + this.deps.state.dropped);
    if (this.stick) this.scrollToEnd();
  }

  private atEnd(): boolean {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
  }

  /** Scrolls to the newest message on the next frame (one layout for any number of new messages). */
  scrollToEnd(): void {
    this.stick = true;
    if (this.scrollDue) return;
    this.scrollDue = requestAnimationFrame(() => {
      this.scrollDue = 0;
      this.log.scrollTop = this.log.scrollHeight;
    });
  }

  private elementFor(m: MessageView, reuse: boolean): HTMLLIElement {
    let li = reuse ? this.shown.get(m.id) : undefined;
    if (li && li.dataset.sig === sigOf(m)) return li;
    li = renderMessage(m);
    this.shown.set(m.id, li);
    return li;
  }
}

function sigOf(m: MessageView): string {
  return `${m.created}|${m.text.length}|${m.rolls.length}|${m.private}|${m.text.slice(0, 64)}`;
}

/** A roll's title as printed: "" when it only repeats one of its formulas (a /r command's name). */
export function rollTitle(m: MessageView): string {
  if (!m.title || m.rolls.some((r) => r.formula === m.title || r.expression === m.title)) return "";
  return m.title;
}

type Die = RollView["dice"][number];

/** One die as drawn: its value with a mark (★ critical, ✗ fumble, ✸ exploded), and what a screen reader says. */
export function dieFace(d: Die): { text: string; label: string } {
  const notes: string[] = [];
  if (!d.kept) notes.push(d.rerolled ? t.rerolled : t.dropped);
  if (d.exploded) notes.push(t.exploded);
  if (d.crit) notes.push(t.critical);
  if (d.fumble) notes.push(t.fumble);
  const text = String(d.value) + (d.crit ? "★" : d.fumble ? "✗" : "") + (d.exploded ? "✸" : "");
  return { text, label: t.dieAria(d.sides, d.value, notes) };
}

/** A roll's total, to two decimals at most; "?" when the server sent none. */
export function totalText(total: number | null): string {
  return total == null ? "?" : String(Math.round(total * 100) / 100);
}

/**
 * A formula as a player reads it: without the critical and fumble marks the
 * server adds to a sheet's attack (`1d20cs>=20cf+7` is `1d20+7`), which the
 * dice themselves show (★, ✗). Labels in brackets are left as written.
 */
export function readableFormula(formula: string): string {
  return formula.replace(/(\[[^\]]*\])|c[sf](?:[<>]=?|=)?\d*(?:\.\d+)?/g, (_all, label: string | undefined) => label ?? "");
}

/** A comment without the roll kind a sheet's roll carries after a colon ("Longbow attack:attack"). */
function commentTitle(comment: string): string {
  return comment.replace(/:\s*(attack|damage|heal|check|save)\s*$/i, "").trim();
}

/**
 * The formula line: the formula as a player reads it, and the roller's
 * comment after a #, unless it only repeats the roll's title (title: the
 * name its message gives it, printed above).
 */
export function formulaText(r: RollView, title = ""): string {
  const formula = readableFormula(r.formula);
  const comment = r.comment.trim();
  if (!comment || (title !== "" && commentTitle(comment) === title.trim())) return formula;
  return `${formula} # ${comment}`;
}

/**
 * Who a message is from, as its header says it: the game master only when
 * the server signed it as theirs (gm), whatever name a player typed; a
 * player's message without a name is a player's, never the game master's.
 */
export function senderOf(m: Pick<MessageView, "source" | "gm">): { name: string; gm: boolean } {
  if (m.gm) return { name: m.source || t.gameMaster, gm: true };
  return { name: m.source || t.somePlayer, gm: false };
}

/** One message element: sender, colour, time, creature, the text, each roll die by die. */
export function renderMessage(m: MessageView): HTMLLIElement {
  const li = document.createElement("li");
  li.className = `message ${m.type === "roll" ? "roll-message" : "chat-message"}`;
  li.dataset.id = m.id;
  li.dataset.sig = sigOf(m);
  if (/^#[0-9a-f]{6}$/i.test(m.color)) li.style.setProperty("--sender", m.color);
  const head = document.createElement("header");
  const who = document.createElement("strong");
  who.className = "sender";
  const sender = senderOf(m);
  who.textContent = sender.name;
  head.append(who);
  if (sender.gm) {
    li.classList.add("from-gm");
    const mark = document.createElement("span");
    mark.className = "gm-mark";
    mark.textContent = t.gmMark;
    mark.title = t.gmMarkTitle;
    head.append(" ", mark);
  }
  // A character's own roll is said by the character: its name once.
  if (m.creature && m.creature !== m.source) {
    const c = document.createElement("span");
    c.className = "creature";
    c.textContent = m.creature;
    head.append(" · ", c);
  }
  const when = new Date(m.created);
  if (!Number.isNaN(when.getTime())) {
    const time = document.createElement("time");
    time.dateTime = m.created;
    time.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    time.title = when.toLocaleString();
    head.append(time);
  }
  if (m.private) {
    li.classList.add("private");
    const mark = document.createElement("span");
    mark.className = "private-mark";
    mark.textContent = t.privateTo(m.to);
    head.append(mark);
  }
  li.append(head);
  const isRoll = m.type === "roll" && m.rolls.length > 0;
  if (!isRoll && m.text) {
    const body = document.createElement("div");
    body.className = "text";
    body.append(renderMarkdown(m.text));
    li.append(body);
  }
  const title = isRoll ? rollTitle(m) : "";
  if (title) {
    const h = document.createElement("p");
    h.className = "roll-title";
    h.textContent = title;
    li.append(h);
  }
  for (const r of m.rolls) li.append(renderRoll(r, isRoll ? m.title : ""));
  // The outcome the game system named the roll, in its own words.
  if (isRoll && m.outcome) {
    const o = document.createElement("p");
    o.className = "roll-outcome";
    o.textContent = m.outcome;
    li.append(o);
  }
  return li;
}

/** One roll, die by die; title is its message's name for it (see formulaText). */
export function renderRoll(r: RollView, title = ""): HTMLElement {
  const box = document.createElement("div");
  box.className = "roll";
  if (r.error) {
    box.classList.add("failed");
    box.setAttribute("role", "note");
    box.textContent = humanRollError(r.error);
    return box;
  }
  const dice = document.createElement("span");
  dice.className = "dice";
  for (const d of r.dice) {
    const s = document.createElement(d.kept ? "span" : "s");
    s.className = "die";
    const face = dieFace(d);
    s.classList.toggle("dropped", !d.kept);
    s.classList.toggle("crit", !!d.crit);
    s.classList.toggle("fumble", !!d.fumble);
    s.classList.toggle("exploded", !!d.exploded);
    s.dataset.sides = String(d.sides);
    s.textContent = face.text;
    s.title = face.label;
    s.setAttribute("aria-label", s.title);
    s.setAttribute("role", "img");
    dice.append(s);
  }
  const total = document.createElement("span");
  total.className = "total";
  total.textContent = totalText(r.total);
  total.setAttribute("aria-label", `${t.total} ${total.textContent}`);
  const formula = document.createElement("small");
  formula.className = "formula";
  formula.textContent = formulaText(r, title);
  box.append(formula, dice, total);
  return box;
}

function button(cls: string, text: string, label: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  if (label) {
    b.title = label;
    b.setAttribute("aria-label", label);
  }
  return b;
}

function numberField(label: string, name: string, value: number, min: number, max: number): HTMLLabelElement {
  const l = document.createElement("label");
  const i = document.createElement("input");
  i.type = "number";
  i.name = name;
  i.value = String(value);
  i.min = String(min);
  i.max = String(max);
  l.append(`${label} `, i);
  return l;
}
