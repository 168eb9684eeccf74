// The Campaign card (maps: show, rename, delete, new), the Combat card's
// buttons and turn order, and the Player screen card (fit, frame, clear,
// handouts). Each campaign view read is drawn here, then handed to the
// combat rows (combat.ts), the speakers (messages.ts) and the rest of the
// page ("companion:campaign").
import { errorStatus, errorText, hostAPI } from "../net/host-api";
import { busy, want } from "../ui/busy";
import { gmHandle } from "../gm/handle";
import { $, chosenFile, el, replaceChildren, say } from "./dom";
import { announceCampaign } from "./events";
import { drawn, refreshDestinationSelects, reload, setLoader, state } from "./console-state";
import { combatButtons, combatStateText, isActing, passState } from "./combat-rules";
import { mapLine, newMapFields, newMapForm, screenState } from "./campaign-rules";
import { drawCombatants } from "./combat";
import { drawSpeakers } from "./messages";
import type { CampaignMap, HostCampaign, Game, TurnSlot } from "./types";
import { turnsPassed } from "./workspace";

/** The campaign as read, or why there is none (missing: the 404's text). */
type CampaignView = HostCampaign & { missing?: string };

const button = (id: string) => $<HTMLButtonElement>(id);
const reloadCampaign = () => reload("campaign").catch(() => {});

export async function loadCampaign(): Promise<void> {
  let view: CampaignView;
  try {
    view = await hostAPI<CampaignView>("GET", "campaign");
  } catch (e) {
    if (errorStatus(e) !== 404) throw e;
    view = { missing: errorText(e), campaign: null, game: null, maps: null, screen: null, turnOrder: null };
  }
  const had = state.campaign?.campaign?.id;
  state.campaign = view.missing ? null : view;
  if (view.campaign?.id !== had) refreshDestinationSelects();
  if (!drawn.changed("campaign", view)) return;
  drawCampaign(view);
}

function drawCampaign(view: CampaignView): void {
  announceCampaign(view);
  const buttons = document.querySelectorAll<HTMLButtonElement>("[data-combat]");
  $("campaign-parts").hidden = !!view.missing;
  if (view.missing) {
    $("campaign-name").textContent = `There is no campaign for this game system yet (${view.missing}). Import one below to run a game.`;
    for (const b of buttons) want(b, false);
    return;
  }
  $("campaign-name").textContent = view.campaign?.name ?? "";

  const maps = view.maps ?? [];
  replaceChildren($("maps"), maps.length ? maps.map(mapRow) : [el("li", { className: "muted" }, "This campaign has no map.")]);
  drawMapManager(maps);

  const g: Partial<Game> = view.game ?? {};
  const order = view.turnOrder ?? [];
  // The system says whether initiative is rolled or turns are passed.
  const passed = turnsPassed(() => drawCampaign(view)) === true;
  $("combat-state").textContent = combatStateText(g, order, passed);
  const enabled = combatButtons(g, order, passed);
  for (const b of buttons) want(b, !!enabled[b.dataset.combat ?? ""]);
  $("initiative-rolls").hidden = passed;
  drawScreen(view);
  drawCombatants(view);
  drawSpeakers(view);

  replaceChildren(
    $("initiative"),
    order.map((s) => {
      const current = isActing(s, g);
      if (passed) return passRow(s, g);
      return el(
        "li",
        { className: (current ? "current " : "") + (s.role || "hostile"), "aria-current": current ? "step" : undefined },
        el("span", { className: "init" }, String(s.value)),
        el("span", { className: "who" }, s.name),
        s.hidden ? el("span", { className: "tag" }, "hidden") : null,
      );
    }),
  );
  if (!order.length) $("initiative").append(el("li", { className: "muted" }, passed ? "No combatant yet." : "Nobody has rolled initiative yet."));
}

/** A turn-order row where turns are passed: acting, acted or waiting this round, and a button that hands the turn to it. */
function passRow(s: TurnSlot, g: Partial<Game>): HTMLElement {
  const state = passState(s, g);
  const pass = el("button", { type: "button", className: "small", "data-pass": s.combatantId }, "Pass the turn here");
  pass.onclick = () =>
    busy(pass, async () => {
      try {
        await hostAPI("POST", "game/pass", { to: s.combatantId });
        say("campaign-msg", `${s.name} acts.`, "good");
      } catch (e) {
        say("campaign-msg", errorText(e), "bad");
      }
      await loadCampaign();
    });
  return el(
    "li",
    { className: `${state.mark === "acting" ? "current " : ""}${state.mark} ${s.role || "hostile"}`, "aria-current": state.mark === "acting" ? "step" : undefined },
    el("span", { className: "init turn-mark" }, state.mark === "acted" ? "✓" : state.mark === "acting" ? "▶" : "·"),
    el("span", { className: "who" }, s.name),
    el("span", { className: "tag" }, state.mark === "acted" ? "acted" : state.mark === "acting" ? "acting" : "to act"),
    s.hidden ? el("span", { className: "tag" }, "hidden") : null,
    state.canPass ? pass : null,
  );
}

function mapRow(m: CampaignMap): HTMLElement {
  const show = el("button", { type: "button", className: m.onScreen ? "" : "primary", disabled: !!m.onScreen }, m.onScreen ? "On the player screen" : "Show on player screen");
  show.onclick = () =>
    busy(show, async () => {
      try {
        await hostAPI("POST", "screen", { mapId: m.id });
        say("campaign-msg", `“${m.name}” is on the player screen.`, "good");
        await loadCampaign();
      } catch (e) {
        say("campaign-msg", errorText(e), "bad");
      }
    });
  return el(
    "li",
    { className: `map${m.onScreen ? " current" : ""}`, "data-map": m.id },
    el("div", {}, el("strong", {}, m.name), el("div", { className: "small muted" }, mapLine(m))),
    show,
  );
}

// Rename and delete act on the map chosen in #map-pick (kept out of the
// #maps rows, whose only buttons put a map on the player screen).
function drawMapManager(maps: CampaignMap[]): void {
  const sel = $<HTMLSelectElement>("map-pick");
  const keep = sel.value;
  replaceChildren(sel, maps.map((m) => el("option", { value: m.id, selected: m.id === keep }, m.name + (m.onScreen ? " (on the player screen)" : ""))));
  want(button("map-rename"), maps.length > 0);
  want(button("map-delete"), maps.length > 0);
}

function wireMapManager(): void {
  const chosen = () => (state.campaign?.maps ?? []).find((m) => m.id === $<HTMLSelectElement>("map-pick").value);
  const rename = button("map-rename");
  rename.addEventListener("click", () => {
    const m = chosen();
    if (!m) return;
    const name = prompt(`New name for “${m.name}”`, m.name);
    if (!name || name.trim() === m.name) return;
    busy(rename, async () => {
      try {
        await hostAPI("PATCH", `maps/${encodeURIComponent(m.id)}`, { name: name.trim() });
        say("campaign-msg", `Renamed to “${name.trim()}”.`, "good");
      } catch (e) {
        say("campaign-msg", errorText(e), "bad");
      }
      await reloadCampaign();
    });
  });
  const del = button("map-delete");
  del.addEventListener("click", () => {
    const m = chosen();
    if (!m) return;
    if (!confirm(`Delete the map “${m.name}” with its tokens and fog?${m.onScreen ? " It leaves the player screen." : ""}`)) return;
    busy(del, async () => {
      try {
        await hostAPI("DELETE", `maps/${encodeURIComponent(m.id)}`);
        say("campaign-msg", `Deleted “${m.name}”.`, "good");
      } catch (e) {
        say("campaign-msg", errorText(e), "bad");
      }
      await reloadCampaign();
    });
  });
}

// A new, empty map in the campaign: size, grid, and an optional background
// (whose size is the map's when none is given).
function wireNewMap(): void {
  const form = $<HTMLFormElement>("newmap-form");
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const value = (id: string) => $<HTMLInputElement>(id).value;
    const file = chosenFile($<HTMLInputElement>("newmap-file"));
    const fields = newMapFields({
      name: value("newmap-name"),
      gridType: value("newmap-grid"),
      width: value("newmap-width"),
      height: value("newmap-height"),
      gridSize: value("newmap-gridSize"),
    });
    busy(button("newmap-create"), async () => {
      try {
        const m = await hostAPI<{ name?: string } | null>("POST", "maps", file ? newMapForm(fields, file) : fields);
        say("campaign-msg", `Created the map “${m?.name || fields.name}”.`, "good");
        form.reset();
      } catch (e) {
        say("campaign-msg", errorText(e), "bad");
      }
      await reloadCampaign();
    });
  });
}

function wireCombat(): void {
  document.querySelectorAll<HTMLButtonElement>("[data-combat]").forEach((b) => {
    b.addEventListener("click", () =>
      busy(b, async () => {
        const action = b.dataset.combat ?? "";
        if (action === "end" && !confirm("End combat?")) return;
        try {
          await hostAPI("POST", `game/${action}`);
          say("campaign-msg", "");
          await reload("campaign");
        } catch (e) {
          say("campaign-msg", errorText(e), "bad");
          await reloadCampaign();
        }
      }),
    );
  });
}

// ---- player screen: fit, frame, clear, handouts -------------------------------

function drawScreen(view: CampaignView): void {
  const s = screenState(view);
  $("screen-state").textContent = s.text;
  want(button("screen-fit"), !!s.map);
  want(button("screen-frame"), !!s.map);
  want(button("screen-clear"), !!s.map);
  want(button("handout-down"), !!s.overlay);
}

function wireScreen(): void {
  const act = (id: string, fn: () => Promise<unknown>, done: string) => {
    const b = button(id);
    b.addEventListener("click", () =>
      busy(b, async () => {
        try {
          await fn();
          say("screen-msg", done, "good");
        } catch (e) {
          say("screen-msg", errorText(e), "bad");
        }
        await reloadCampaign();
      }),
    );
  };
  act("screen-fit", () => hostAPI("POST", "screen/fit"), "The players' displays fit the map.");
  act(
    "screen-frame",
    () => {
      const r = gmHandle()?.renderer;
      if (!r) throw new Error("The map is not drawn yet.");
      const c = r.viewport.center;
      return hostAPI("POST", "screen/frame", { x: Math.round(c.x), y: Math.round(c.y), zoom: Math.round(r.viewport.scaled * 1000) / 1000 });
    },
    "The players' displays show what the map above shows.",
  );
  act(
    "screen-clear",
    () => {
      if (!confirm("Clear the player screen?")) return Promise.resolve();
      return hostAPI("POST", "screen", { mapId: "" });
    },
    "The player screen is clear.",
  );
  act("handout-down", () => hostAPI("DELETE", "screen/overlay"), "The handout is down.");
  const imageForm = $<HTMLFormElement>("handout-image-form");
  imageForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const file = chosenFile($<HTMLInputElement>("handout-file"));
    if (!file) {
      say("screen-msg", "Choose an image first.", "bad");
      return;
    }
    const form = new FormData();
    form.append("file", file, file.name);
    busy(button("handout-image"), async () => {
      try {
        await hostAPI("POST", "screen/handout", form);
        imageForm.reset();
        say("screen-msg", "The players see the image.", "good");
      } catch (e) {
        say("screen-msg", errorText(e), "bad");
      }
      await reloadCampaign();
    });
  });
  $("handout-text-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $<HTMLTextAreaElement>("handout-text").value.trim();
    if (!text) return;
    busy(button("handout-show-text"), async () => {
      try {
        await hostAPI("PATCH", "screen/overlay", { overlayHandoutText: text, overlayImage: "" });
        say("screen-msg", "The players see the text.", "good");
      } catch (e) {
        say("screen-msg", errorText(e), "bad");
      }
      await reloadCampaign();
    });
  });
}

export function startCampaign(): void {
  setLoader("campaign", loadCampaign);
  wireCombat();
  wireMapManager();
  wireNewMap();
  wireScreen();
}
