// Placing tokens: a searchable list of the loaded system's collections
// (GET /host/api/system for the collections, /host/api/entities/{collection}
// for the rows). Press a row and release it over the map to place a token
// there, or click a row and then click the map. The server makes the token
// from the entity through the system's Lua rules (art, size, vision).
import type { MapRenderer } from "../map/renderer";
import type { Store } from "../state/store";
import { hostAPI } from "../net/host-api";

export interface Kind {
  kind: string;
  collection: string;
  title?: string;
  collectionTitle?: string;
}
export interface Row {
  id: string;
  kind?: string;
  slug?: string;
  name?: string;
  data?: { name?: string };
}

// statBlockButton opens the row's page: the console (src/host/workspace.ts)
// listens for "companion:statblock" and shows it in its drawer.
function statBlockButton(r: Row): HTMLButtonElement | null {
  const ref = statBlockRef(r);
  if (!ref) return null;
  const b = document.createElement("button");
  b.type = "button";
  b.className = "gm-stat";
  // The mark is drawn by CSS, so the row's text stays the entity's name.
  b.title = `Stat block of ${nameOf(r)}`;
  b.setAttribute("aria-label", b.title);
  b.dataset.statblock = ref;
  b.addEventListener("pointerdown", (e) => e.stopPropagation()); // not a drag, not arming the row
  b.addEventListener("click", (e) => {
    e.stopPropagation();
    window.dispatchEvent(new CustomEvent("companion:statblock", { detail: { reference: ref, name: nameOf(r) } }));
  });
  return b;
}

export class EntityPicker {
  private rows: Row[] = [];
  private armed: Row | null = null;
  private list: HTMLUListElement;
  private search: HTMLInputElement;
  private select: HTMLSelectElement;
  private hidden: HTMLInputElement;
  private addButton: HTMLButtonElement | null = null;

  constructor(el: HTMLElement, private store: Store, private renderer: () => MapRenderer | null, private say: (t: string, bad?: boolean) => void) {
    el.innerHTML = `<h3>Place a token</h3>
      <div class="gm-picker-bar">
        <select id="gm-collection" aria-label="Collection"></select>
        <input type="search" id="gm-search" placeholder="Search…" aria-label="Search the collection">
      </div>
      <label class="small"><input type="checkbox" id="gm-place-hidden"> Place hidden</label>
      <button type="button" id="gm-add-entity" disabled title="Adds the chosen row to combat without a token">Add the chosen one to combat</button>
      <p class="muted small">Drag a row onto the map, or click it and then the map.</p>
      <ul id="gm-entities" class="gm-entities"></ul>`;
    this.list = el.querySelector("#gm-entities")!;
    this.search = el.querySelector("#gm-search")!;
    this.select = el.querySelector("#gm-collection")!;
    this.hidden = el.querySelector("#gm-place-hidden")!;
    this.search.addEventListener("input", () => this.draw());
    const add = el.querySelector<HTMLButtonElement>("#gm-add-entity")!;
    this.addButton = add;
    add.addEventListener("click", async () => {
      const row = this.armed;
      if (!row || add.dataset.busy) return;
      add.dataset.busy = "1";
      add.disabled = true;
      try {
        await hostAPI("POST", "combatants", { entityId: row.id, hidden: this.hidden.checked || undefined });
        this.say(`${nameOf(row)} joined combat.`);
        this.armed = null;
        this.highlight();
      } catch (err) {
        this.say((err as Error).message, true);
      } finally {
        delete add.dataset.busy;
        add.disabled = !this.armed;
      }
    });
    this.select.addEventListener("change", () => this.load());
    // A release over the map places the row pressed (a drag from the list).
    document.addEventListener("pointerup", (e) => this.drop(e));
    document.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || !this.armed) return;
      this.armed = null;
      this.highlight();
      this.say("");
    });
    this.loadKinds();
  }

  /** Reads the system's collections again: a reload may have changed them. */
  reloadKinds(): Promise<void> {
    return this.loadKinds();
  }

  private async loadKinds(): Promise<void> {
    try {
      const sys = await hostAPI<{ kinds?: Kind[] }>("GET", "system");
      const kinds = sys.kinds ?? [];
      const chosen = this.select.value;
      this.select.replaceChildren(...kinds.map((k) => {
        const o = document.createElement("option");
        o.value = k.collection;
        o.textContent = k.collectionTitle || k.collection;
        return o;
      }));
      const pick = chooseCollection(kinds, chosen);
      if (pick) this.select.value = pick;
      await this.load();
    } catch (err) {
      this.say((err as Error).message, true);
    }
  }

  private async load(): Promise<void> {
    const c = this.select.value;
    if (!c) return;
    try {
      const rows = await hostAPI<Row[]>("GET", `entities/${encodeURIComponent(c)}?schema=list`);
      this.rows = listRows(rows);
      this.draw();
    } catch (err) {
      this.say((err as Error).message, true);
    }
  }

  private draw(): void {
    const shown = matchingRows(this.rows, this.search.value);
    this.list.replaceChildren(...shown.map((r) => {
      const li = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = nameOf(r);
      li.append(label);
      const stat = statBlockButton(r);
      if (stat) li.append(stat);
      li.dataset.entityId = r.id;
      li.tabIndex = 0;
      li.className = this.armed?.id === r.id ? "armed" : "";
      li.addEventListener("pointerdown", (e) => {
        e.preventDefault(); // no text selection while dragging
        this.armed = r;
        this.highlight();
      });
      li.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          this.armed = r;
          this.highlight();
        }
      });
      return li;
    }));
  }

  private highlight(): void {
    for (const li of this.list.querySelectorAll("li")) li.classList.toggle("armed", li.dataset.entityId === this.armed?.id);
    document.body.classList.toggle("gm-placing", !!this.armed);
    if (this.addButton && !this.addButton.dataset.busy) this.addButton.disabled = !this.armed;
    if (this.armed) this.say(`Release or click on the map to place ${nameOf(this.armed)}; Escape cancels.`);
  }

  private drop(e: PointerEvent): void {
    const r = this.renderer();
    const row = this.armed;
    const map = this.store.map;
    if (!row || !r || !map) return;
    if (e.target !== r.app.canvas) return; // released over the list: stays armed for a click on the map
    this.armed = null;
    this.highlight();
    const p = r.screenToMap(e.clientX, e.clientY);
    hostAPI<{ id: string }>("POST", `maps/${encodeURIComponent(map.id)}/tokens`, {
      entityId: row.id, x: Math.round(p.x), y: Math.round(p.y), hidden: this.hidden.checked || undefined,
    }).then(() => this.say(`Placed ${nameOf(row)}.`), (err: Error) => this.say(err.message, true));
  }
}

/** A row's name as listed: its name, else its data's, else its id. */
export function nameOf(r: Row): string {
  return r.name || r.data?.name || r.id;
}

/** The page of a row's stat block (/kind/slug), or "" when its kind is not one a page can have. */
export function statBlockRef(r: Row): string {
  return r.kind && /^[a-z][a-z0-9_]*$/.test(r.kind) ? `/${r.kind}/${r.slug || r.id}` : "";
}

/** The collection to show after the list of kinds was read: the one shown before if still there, else the monsters, else none (the first). */
export function chooseCollection(kinds: Kind[], shown: string): string {
  if (kinds.some((k) => k.collection === shown)) return shown;
  return kinds.find((k) => /monster/i.test(k.collection))?.collection ?? "";
}

/** The rows of an answer as listed: those with an id, by name. */
export function listRows(rows: unknown): Row[] {
  const list = (Array.isArray(rows) ? rows : []).filter((r): r is Row => !!r && typeof r.id === "string");
  return list.sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

/** The rows whose name holds the search (any case), at most limit of them. */
export function matchingRows(rows: Row[], search: string, limit = 200): Row[] {
  const q = search.trim().toLowerCase();
  return rows.filter((r) => !q || nameOf(r).toLowerCase().includes(q)).slice(0, limit);
}
