// The initiative panel: round and turn, one row per visible combatant in
// turn order. Rows are keyed by combatant id and touched only when what
// they show changed, so a gameUpdated with 40 combatants costs a few
// string compares, not a rebuild. The acting row is highlighted
// (aria-current) and scrolled into view; the player's own row is marked.
import { t } from "../i18n";
import { icons } from "./icons";
import type { CombatantRow, TableState } from "../table/state";

interface RowView {
  el: HTMLLIElement;
  sig: string;
}

export class InitiativePanel {
  readonly el = document.createElement("section");
  private heading = document.createElement("p");
  private list = document.createElement("ol");
  private rows = new Map<string, RowView>();
  private activeId = "";
  /** Opens a combatant's reference page. */
  onReference: (ref: string, title: string) => void = () => {};

  private reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  /** The label of the system's health bar (config.entities.Default.combatant.bars[0].label). */
  healthLabel = "";

  constructor(private state: TableState, private isOwn: (r: CombatantRow) => boolean) {
    this.el.className = "initiative";
    this.el.setAttribute("aria-label", t.initiative);
    this.heading.className = "round";
    this.list.className = "combatants";
    this.el.append(this.heading, this.list);
    this.list.addEventListener("click", (e) => {
      const b = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-ref]");
      if (b) this.onReference(b.dataset.ref!, b.dataset.title ?? "");
    });
  }

  update(): void {
    const s = this.state;
    // Written only when it changes: the same text written again still
    // replaces the text node, and the panel is painted again (its blur and
    // shadow on a CPU renderer: a whole frame's time) after every token
    // update, such as the end of each drag.
    const heading = roundHeading(s.started, s.round);
    if (this.heading.textContent !== heading) this.heading.textContent = heading;
    const seen = new Set<string>();
    let prev: HTMLLIElement | null = null;
    for (const r of s.combatants) {
      seen.add(r.id);
      const own = this.isOwn(r);
      const active = r.id === s.activeId;
      const acted = s.acted.includes(r.id);
      const sig = JSON.stringify([r, own, active, acted, this.healthLabel]);
      let v = this.rows.get(r.id);
      if (!v) {
        v = { el: document.createElement("li"), sig: "" };
        this.rows.set(r.id, v);
      }
      if (v.sig !== sig) {
        this.fill(v.el, r, own, active, acted);
        v.sig = sig;
      }
      // Keep DOM order = turn order, moving only rows out of place.
      const want: ChildNode | null = prev ? prev.nextSibling : this.list.firstChild;
      if (want !== v.el) this.list.insertBefore(v.el, want);
      prev = v.el;
    }
    for (const [id, v] of this.rows) {
      if (!seen.has(id)) {
        v.el.remove();
        this.rows.delete(id);
      }
    }
    if (s.activeId !== this.activeId) {
      this.activeId = s.activeId;
      // On the next frame: reading layout here would cost every update a reflow.
      requestAnimationFrame(() => {
        const el = this.rows.get(this.activeId)?.el;
        if (el && this.el.offsetParent !== null) el.scrollIntoView({ block: "nearest", behavior: this.reducedMotion() ? "auto" : "smooth" });
      });
    }
  }

  private fill(li: HTMLLIElement, r: CombatantRow, own: boolean, active: boolean, acted: boolean): void {
    li.className = "combatant";
    li.dataset.id = r.id;
    li.dataset.role = r.role;
    li.classList.toggle("active", active);
    li.classList.toggle("own", own);
    li.classList.toggle("bloodied", r.bloodied);
    li.classList.toggle("defeated", r.defeated);
    li.classList.toggle("acted", acted);
    if (active) li.setAttribute("aria-current", "true");
    else li.removeAttribute("aria-current");
    li.replaceChildren();

    const pic = document.createElement("span");
    pic.className = "portrait";
    pic.setAttribute("aria-hidden", "true");
    if (r.image) {
      const img = document.createElement("img");
      img.src = r.image;
      img.alt = "";
      img.loading = "lazy";
      img.onerror = () => img.replaceWith(document.createTextNode(r.initials));
      pic.append(img);
    } else pic.textContent = r.initials;

    const who = document.createElement("span");
    who.className = "who";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = r.name;
    who.append(name);
    if (r.label) {
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = r.label;
      who.append(" ", label);
    }
    const state = document.createElement("span");
    state.className = "state";
    if (r.hp) {
      const hp = document.createElement("span");
      hp.className = "hp";
      hp.textContent = t.hitPoints(r.hp.current, r.hp.max, this.healthLabel);
      state.append(hp);
    }
    if (acted) state.append(badge("acted", `✓ ${t.acted}`, t.acted));
    if (r.defeated) state.append(badge("defeated", icons.skull, t.defeated, true));
    else if (r.bloodied) state.append(badge("bloodied", icons.drop, t.bloodied, true));
    const conds = document.createElement("span");
    conds.className = "conditions";
    for (const c of r.conditions) {
      // The name written out: a letter (P is Poisoned, Prone, Paralyzed or
      // Petrified) needs a hover that phones do not have.
      const b = badge("condition", "", c.name);
      if (c.icon && c.icon.length <= 3) {
        const icon = document.createElement("span");
        icon.className = "icon";
        icon.setAttribute("aria-hidden", "true");
        icon.textContent = c.icon;
        b.append(icon);
      }
      b.append(c.name);
      if (/^#[0-9a-f]{6}$/i.test(c.color)) b.style.borderColor = c.color;
      conds.append(b);
    }
    li.setAttribute("aria-label", rowLabel(r, own, active));
    li.append(pic, who, state, conds);
    if (own) state.append(badge("you", icons.star, t.you, true));
    // A foe's stat block is the game master's to reveal (they can still link it in chat).
    if (offersReference(r)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ref";
      b.dataset.ref = r.reference;
      b.dataset.title = r.name;
      b.title = b.ariaLabel = t.openReference(r.name);
      b.innerHTML = icons.info;
      state.append(b);
    }
  }
}

/** The panel's heading: the round once combat started, else "No combat". */
export function roundHeading(started: boolean, round: number): string {
  return started || round > 0 ? t.round(Math.max(1, round)) : t.noCombat;
}

/** What a screen reader says for a row: name, label, role, you, acting, its state and conditions. */
export function rowLabel(r: CombatantRow, own: boolean, active: boolean): string {
  const tags: string[] = [t.roles[r.role] ?? r.role];
  if (own) tags.push(t.you);
  if (active) tags.push(t.acting);
  const state = r.defeated ? t.defeated : r.bloodied ? t.bloodied : "";
  return [r.name, r.label, ...tags, state, ...r.conditions.map((c) => c.name)].filter(Boolean).join(", ");
}

/** Whether a foe's or a friend's reference page is offered: a foe's stat block is the game master's to reveal. */
export function offersReference(r: CombatantRow): boolean {
  return !!r.reference && r.role !== "hostile";
}

/** A small icon with its name on hover (title) and for screen readers (aria-label); focusable so a tap shows it. */
function badge(kind: string, icon: string, name: string, svg = false): HTMLElement {
  const b = document.createElement("span");
  b.className = `badge ${kind}`;
  if (svg) b.innerHTML = icon; // one of the fixed icons, never data
  else b.textContent = icon;
  b.title = name;
  b.setAttribute("aria-label", name);
  b.setAttribute("role", "img");
  b.tabIndex = 0;
  return b;
}
