// The Combat card's rows: one per combatant, with its tick box, initiative,
// name (opening its stat block), hit points, armour class, tags, and under
// ⋯ Damage/Heal, Hide, Remove and the effect field; conditions as chips.
// Rows are never redrawn under the game master's typing. The rules are in
// combat-rules.ts.
import { errorText, hostAPI } from "../net/host-api";
import { busy } from "../ui/busy";
import { $, el, maybe, replaceChildren, say } from "./dom";
import { reload } from "./console-state";
import { effectBody, effectLabel, conditionNames, hitPointAmount, hitPointText, initiativeValue } from "./combat-rules";
import { healthKey, hitPoints } from "./entity-facts";
import { entityFacts, healthLabel, healthRanges, openStatBlock, turnsPassed } from "./workspace";
import type { HostCampaign as CampaignView, Combatant, Game } from "./types";

let conditions: string[] | null = null; // the system's condition names, once read

async function loadConditions(): Promise<void> {
  try {
    const sys = await hostAPI<{ definitions?: { types?: { conditions?: unknown } } }>("GET", "system/definitions");
    conditions = conditionNames(sys.definitions?.types?.conditions);
  } catch {
    conditions = [];
  }
  const list = maybe("condition-names");
  if (list) replaceChildren(list, conditions.map((c) => el("option", { value: c })));
}

const reloadCampaign = () => reload("campaign").catch(() => {});

let pending: CampaignView | null = null;

export function drawCombatants(view: CampaignView): void {
  let list = maybe<HTMLUListElement>("combatants");
  if (!list) {
    const made = el("ul", { id: "combatants", className: "rows combatants" });
    $("initiative").after(el("h4", {}, "Combatants"), made, el("datalist", { id: "condition-names" }, ...(conditions ?? []).map((c) => el("option", { value: c }))));
    made.addEventListener("focusout", () =>
      window.setTimeout(() => {
        if (pending && !made.contains(document.activeElement)) {
          const v = pending;
          pending = null;
          drawCombatants(v);
        }
      }, 0),
    );
    list = made;
  }
  // Never redraw under the game master's typing: after, from the newest view.
  const active = document.activeElement;
  if (active && list.contains(active) && active.matches("input, select")) {
    pending = view;
    return;
  }
  const g: Partial<Game> = view.game ?? {};
  const all = g.combatants ?? [];
  const ticked = new Set([...list.querySelectorAll<HTMLInputElement>("input[data-tick]:checked")].map((b) => b.dataset.tick));
  if (!all.length) {
    replaceChildren(list, [el("li", { className: "muted" }, "No combatant yet: select a token on the map and Add to combat, or add a creature from Place a token.")]);
    return;
  }
  // Rows whose ⋯ is open stay open across the redraw.
  const open = new Set([...list.querySelectorAll("li[data-combatant] details.cb-more[open]")].map((d) => d.closest<HTMLElement>("li")?.dataset.combatant));
  replaceChildren(
    list,
    all.map((c) => {
      const row = combatantRow(c, ticked.has(c.id), g);
      if (open.has(c.id)) {
        const more = row.querySelector("details.cb-more");
        if (more instanceof HTMLDetailsElement) more.open = true;
      }
      return row;
    }),
  );
}

function combatantRow(c: Combatant, ticked: boolean, g: Partial<Game>): HTMLElement {
  const id = encodeURIComponent(c.id);
  const name = c.name || c.id;
  const run = (b: HTMLButtonElement, fn: () => Promise<unknown>, done = "") =>
    busy(b, async () => {
      try {
        await fn();
        say("campaign-msg", done, done ? "good" : "");
      } catch (e) {
        say("campaign-msg", errorText(e), "bad");
      }
      await reloadCampaign();
    });
  const first = (c.initiative ?? [])[0];
  const init = el("input", {
    type: "number",
    step: "any",
    className: "init-edit",
    value: first && first.value != null ? String(first.value) : "",
    "aria-label": `Initiative of ${c.name}`,
    "data-init": c.id,
  });
  init.addEventListener("change", () => {
    hostAPI("PUT", `combatants/${id}/initiative`, { value: initiativeValue(init.value) }).then(reloadCampaign, (e) => say("campaign-msg", errorText(e), "bad"));
  });
  const hp = hitPoints(c.data, healthKey(c.entityType, c.data, healthRanges(reloadCampaign) ?? {}));
  const label = healthLabel(reloadCampaign); // the system's word for health ("HP" in D&D 5e)
  const amount = el("input", { type: "number", min: "0", step: "1", className: "hp-amount", "aria-label": `${label} for ${c.name}`, "data-hp": c.id });
  const damage = el("button", { type: "button", "data-act": "damage" }, "Damage");
  const heal = el("button", { type: "button", "data-act": "heal" }, "Heal");
  const hpCall = (key: "damage" | "healing", b: HTMLButtonElement) => {
    const n = hitPointAmount(amount.value);
    if (n == null) {
      say("campaign-msg", "Type an amount first.", "bad");
      return;
    }
    run(b, () => hostAPI("POST", `combatants/${id}/hitpoints`, { [key]: n }), `${(key === "damage" ? `${n} damage to ` : `${n} healing for `) + c.name}.`);
  };
  damage.onclick = () => hpCall("damage", damage);
  heal.onclick = () => hpCall("healing", heal);
  const effName = el("input", { type: "text", placeholder: "Condition or effect", "aria-label": `Effect for ${c.name}`, "data-effect": c.id });
  effName.setAttribute("list", "condition-names"); // a read-only property: the attribute names the datalist
  const effRounds = el("input", { type: "number", min: "0", step: "1", placeholder: "rounds", className: "rounds", "aria-label": "Duration in rounds" });
  const addEff = el("button", { type: "button", "data-act": "effect" }, "Add");
  addEff.onclick = () => {
    const body = effectBody(effName.value, effRounds.value);
    if (!body) return;
    run(addEff, () => hostAPI("POST", `combatants/${id}/effects`, body), `${body.name} on ${c.name}.`);
  };
  const effects = (c.effects ?? []).map((e) => {
    const x = el("button", { type: "button", className: "chip-x", "aria-label": `Remove ${e.name}`, title: "Remove" }, "×");
    x.onclick = () => run(x, () => hostAPI("DELETE", `combatants/${id}/effects/${encodeURIComponent(e.id)}`));
    return el("span", { className: "chip" }, effectLabel(e, g), x);
  });
  const hide = el("button", { type: "button", "data-act": "hide" }, c.hidden ? "Show to players" : "Hide");
  hide.onclick = () => run(hide, () => hostAPI("PATCH", `combatants/${id}`, { hidden: !c.hidden }));
  const remove = el("button", { type: "button", className: "danger", "data-act": "remove" }, "Remove");
  remove.onclick = () => {
    if (!confirm(`Remove ${c.name} from combat?`)) return;
    run(remove, () => hostAPI("DELETE", `combatants/${id}`), `${c.name} left combat.`);
  };
  // One line: tick, initiative, the name (opens the stat block), hit points,
  // armour class, and ⋯ for the rest; conditions under it when there are any.
  const known = entityFacts(c.entityType, c.entityId, reloadCampaign);
  const fx = known ?? { ac: null, maxHP: null };
  const max = hp && hp.max != null ? hp.max : fx.maxHP;
  const nameButton = el(
    "button",
    { type: "button", className: "cb-name", title: c.reference ? `Open the stat block of ${c.name}` : c.name || "", "data-statblock": c.reference || undefined },
    el("strong", {}, name),
  );
  if (c.reference) nameButton.onclick = () => openStatBlock(c.reference, c.name);
  const acting = g.started && c.id === g.combatantId;
  return el(
    "li",
    { className: `combatant${c.bloodied ? " bloodied" : ""}${c.defeated ? " defeated" : ""}${acting ? " current" : ""}`, "data-combatant": c.id },
    el(
      "div",
      { className: "row-head cb-line" },
      el("input", { type: "checkbox", "data-tick": c.id, checked: ticked, "aria-label": `Tick ${c.name}` }),
      turnsPassed(reloadCampaign) === true ? null : init, // no initiative where the system passes turns
      nameButton,
      c.hidden ? el("span", { className: "tag" }, "hidden") : null,
      c.bloodied && !c.defeated ? el("span", { className: "tag bad" }, "bloodied") : null,
      c.defeated ? el("span", { className: "tag bad" }, "defeated") : null,
      hp
        ? el("span", { className: "cb-stat hp", "data-hp-value": c.id, title: max != null ? `${label} of ${max}` : label }, hitPointText(hp, label))
        : el("span", { className: "cb-stat hp muted" }, `${label} —`),
      hp && hp.max == null && max != null ? el("span", { className: "cb-stat muted small" }, `of ${max}`) : null,
      // Armour class where the entity has one (D&D 5e); "—" while its facts load.
      !known || fx.ac != null ? el("span", { className: "cb-stat ac", "data-ac-value": c.id }, `AC ${fx.ac != null ? fx.ac : "—"}`) : null,
      el(
        "details",
        { className: "cb-more" },
        el("summary", { title: "Damage, healing, effects, hide, remove", "aria-label": `More for ${c.name}` }, "⋯"),
        el("div", { className: "cb-controls" }, el("div", { className: "buttons small" }, amount, damage, heal, hide, remove), el("div", { className: "buttons small" }, effName, effRounds, addEff)),
      ),
    ),
    el("div", { className: "cb-effects" }, ...effects),
  );
}

function wireInitiative(): void {
  const roll = (b: HTMLButtonElement, ids?: string[]) =>
    busy(b, async () => {
      try {
        await hostAPI("POST", "combatants/initiative", ids ? { combatants: ids } : undefined);
        say("campaign-msg", "Initiative rolled.", "good");
      } catch (e) {
        say("campaign-msg", errorText(e), "bad");
      }
      await reloadCampaign();
    });
  const all = $<HTMLButtonElement>("roll-all");
  all.addEventListener("click", () => roll(all));
  const some = $<HTMLButtonElement>("roll-selected");
  some.addEventListener("click", () => {
    const ids = [...document.querySelectorAll<HTMLInputElement>("#combatants input[data-tick]:checked")].map((b) => b.dataset.tick ?? "");
    if (!ids.length) {
      say("campaign-msg", "Tick the combatants to roll for first.", "bad");
      return;
    }
    roll(some, ids);
  });
}

export function startCombat(): void {
  wireInitiative();
  loadConditions();
}
