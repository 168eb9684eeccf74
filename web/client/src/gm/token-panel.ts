// The selected token (a tap on the GM map): hide or reveal it, add it to
// combat, have the players' displays look at it, delete it. Buttons are
// disabled while their request runs; the panel redraws from the token the
// socket sends back, so it always shows the server's state.
import type { Store } from "../state/store";
import { hostAPI } from "../net/host-api";
import { busy } from "../ui/busy";

export class TokenPanel {
  selectedId: string | null = null;

  constructor(private el: HTMLElement, private store: Store, private say: (t: string, bad?: boolean) => void) {
    this.redraw();
  }

  select(id: string | null): void {
    this.selectedId = id;
    this.redraw();
  }

  redraw(): void {
    const t = this.selectedId ? this.store.tokens.get(this.selectedId) : undefined;
    this.el.replaceChildren();
    const h = document.createElement("h3");
    h.textContent = "Selected token";
    this.el.appendChild(h);
    if (!t) {
      const p = document.createElement("p");
      p.className = "muted small";
      p.textContent = "Click a token on the map to select it.";
      this.el.appendChild(p);
      return;
    }
    const name = document.createElement("p");
    name.className = "gm-token-name";
    name.textContent = t.name || t.label || "Token";
    this.el.appendChild(name);
    // What players will see: hiding a token hides its combatant too (one
    // rule, in the core), so say both.
    const seen = document.createElement("p");
    seen.className = "small gm-token-seen";
    seen.textContent = t.hidden
      ? "Hidden: players see neither the token nor its place in the initiative."
      : "Players see this token, and its place in the initiative if it is in combat.";
    this.el.appendChild(seen);
    const bar = document.createElement("div");
    bar.className = "buttons";
    const id = encodeURIComponent(t.id);
    const button = (label: string, act: string, fn: () => Promise<string>, cls = "") => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.dataset.tokenAction = act;
      if (cls) b.className = cls;
      b.addEventListener("click", () => busy(b, async () => {
        try {
          this.say(await fn());
        } catch (err) {
          this.say((err as Error).message, true);
        }
      }));
      bar.appendChild(b);
    };
    if (t.hidden) button("Reveal to players", "reveal", async () => (await hostAPI("PATCH", "tokens/" + id, { hidden: false }), "Revealed: players see it on the map and in the initiative."), "primary");
    else button("Hide from players", "hide", async () => (await hostAPI("PATCH", "tokens/" + id, { hidden: true }), "Hidden: players no longer see it on the map or in the initiative."));
    button("Add to combat", "combat", async () => (await hostAPI("POST", "combatants", { tokenId: t.id }), "Added to combat."));
    button("Players look here", "focus", async () => (await hostAPI("POST", "screen/focus", { x: t.x, y: t.y }), "The players' displays look at it."));
    button("Delete", "delete", async () => {
      if (!confirm(`Delete the token “${t.name || t.label || t.id}”?`)) return "";
      await hostAPI("DELETE", "tokens/" + id);
      this.select(null);
      return "Deleted.";
    }, "danger");
    this.el.appendChild(bar);
  }
}
