// The selected token (a tap on the GM map): hide or reveal it, add it to
// combat, have it carry a light or put the light out, have the players'
// displays look at it, delete it. Buttons are
// disabled while their request runs; the panel redraws from the token the
// socket sends back, so it always shows the server's state.
import type { Store } from "../state/store";
import type { Token } from "../types";
import { hostAPI } from "../net/host-api";
import { busy, want } from "../ui/busy";

/**
 * What the panel says of a token: its name, what players see of it, and
 * whether it may join combat (a token in combat already has its
 * combatant: the server refuses a second).
 */
export function tokenSummary(
  t: Pick<Token, "id" | "name" | "label" | "hidden">,
  inCombat = false,
): { name: string; seen: string; visibility: "reveal" | "hide"; combat: { label: string; enabled: boolean } } {
  // Hiding a token hides its combatant too (one rule, in the core), so say both.
  return {
    name: t.name || t.label || "Token",
    seen: t.hidden
      ? "Hidden: players see neither the token nor its place in the turn order."
      : "Players see this token, and its place in the turn order if it is in combat.",
    visibility: t.hidden ? "reveal" : "hide",
    combat: inCombat ? { label: "In combat", enabled: false } : { label: "Add to combat", enabled: true },
  };
}

/**
 * The PATCH body that gives a token a light to carry (its vision's light,
 * bright and dim radii in grid units, as the Light tool's) or puts it out.
 * A token without vision gets its vision on, so that it lights its place.
 */
export function carriedLight(t: Pick<Token, "vision">, on: boolean, bright: number, dim: number, color: string): { vision: Record<string, unknown> } {
  if (!on) return { vision: { light: false } };
  const lit: Record<string, unknown> = { light: true, lightRadiusMin: bright, lightRadiusMax: Math.max(bright, dim), lightColor: color };
  if (!t.vision) lit.enabled = true;
  return { vision: lit };
}

/** The Light tool's radii and colour (tools.ts), or a torch's when the options are absent. */
function lightOptions(): { bright: number; dim: number; color: string } {
  const value = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value;
  const bright = Number.parseFloat(value("gm-light-bright") ?? "");
  const dim = Number.parseFloat(value("gm-light-dim") ?? "");
  return { bright: Number.isFinite(bright) ? bright : 4, dim: Number.isFinite(dim) ? dim : 8, color: value("gm-light-color") || "#ffe08a" };
}

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
    const summary = tokenSummary(t, this.store.combatantsByToken.has(t.id));
    const name = document.createElement("p");
    name.className = "gm-token-name";
    name.textContent = summary.name;
    this.el.appendChild(name);
    const seen = document.createElement("p");
    seen.className = "small gm-token-seen";
    seen.textContent = summary.seen;
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
      return b;
    };
    if (summary.visibility === "reveal") button("Reveal to players", "reveal", async () => {
      await hostAPI("PATCH", `tokens/${id}`, { hidden: false });
      return "Revealed: players see it on the map and in the initiative.";
    }, "primary");
    else button("Hide from players", "hide", async () => {
      await hostAPI("PATCH", `tokens/${id}`, { hidden: true });
      return "Hidden: players no longer see it on the map or in the initiative.";
    });
    const combat = button(summary.combat.label, "combat", async () => {
      await hostAPI("POST", "combatants", { tokenId: t.id });
      return "Added to combat.";
    });
    want(combat, summary.combat.enabled);
    const lit = !!t.vision?.light;
    button(lit ? "Put out its light" : "Carry a light", "light", async () => {
      const o = lightOptions();
      await hostAPI("PATCH", `tokens/${id}`, carriedLight(t, !lit, o.bright, o.dim, o.color));
      return lit ? "Its light is out." : "It carries a light (the Light tool's radii and colour).";
    });
    button("Players look here", "focus", async () => {
      await hostAPI("POST", "screen/focus", { x: t.x, y: t.y });
      return "The players' displays look at it.";
    });
    button("Delete", "delete", async () => {
      if (!confirm(`Delete the token “${t.name || t.label || t.id}”?`)) return "";
      await hostAPI("DELETE", `tokens/${id}`);
      this.select(null);
      return "Deleted.";
    }, "danger");
    this.el.appendChild(bar);
  }
}
