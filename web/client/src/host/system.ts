// The Game system, Settings and Connected clients cards, and the header's
// badges (system, paused) and the failed-reload banner.
import { hostAPI, errorText } from "../net/host-api";
import { $, el, replaceChildren, say } from "./dom";
import { when } from "./format";
import { drawn, load, setLoader } from "./console-state";
import type { DeepPartial } from "./partial";
import type { HostClient as ClientRow } from "./types";

interface SystemStatus {
  id: string;
  name: string;
  version: string;
  author?: string;
  watching?: string;
  kinds?: { kind: string; collection: string; collectionTitle?: string; unique?: boolean }[];
  lastReload?: { ok: boolean; error?: string; version?: string; time?: string; latencyMs?: number } | null;
  time?: unknown;
}

interface Settings {
  remoteInteraction?: boolean;
  interaction?: string;
  paused?: boolean;
}

/** What the last reload line says, and its tone. */
export function reloadLine(sys: SystemStatus): { text: string; tone: string } {
  const last = sys.lastReload;
  if (!last) return { text: sys.watching ? "No edit since the server started." : "—", tone: "" };
  if (last.ok) return { text: `Reloaded version ${last.version} at ${when(last.time)}${last.latencyMs ? ` (${last.latencyMs.toFixed(0)} ms)` : ""}`, tone: "good" };
  return { text: `Failed at ${when(last.time)}: ${last.error}`, tone: "bad" };
}

async function loadSystem(): Promise<void> {
  const sys = await hostAPI<SystemStatus>("GET", "system");
  if (!drawn.changed("system", { ...sys, time: undefined })) return;
  $("system-badge").textContent = `${sys.name} ${sys.version}`;
  $("system-name").textContent = sys.name + (sys.author ? ` — by ${sys.author}` : "");
  $("system-version").textContent = `${sys.id} · version ${sys.version}`;
  $("system-watch").textContent = sys.watching ? `Watching ${sys.watching}` : "Off (built-in system)";
  replaceChildren(
    $("system-kinds"),
    (sys.kinds ?? []).map((k) =>
      el("li", { title: `kind ${k.kind}` }, `${k.collectionTitle || k.collection} `, el("code", {}, `/api/${k.collection}`), k.unique ? el("span", { className: "tag" }, "unique") : null),
    ),
  );
  const line = reloadLine(sys);
  const reload = $("system-reload");
  reload.textContent = line.text;
  reload.className = line.tone;
  const last = sys.lastReload;
  const banner = $("reload-error");
  banner.hidden = !(last && !last.ok);
  if (last && !last.ok) {
    $("reload-error-text").textContent = last.error ?? "";
    $("reload-error-time").textContent = `At ${when(last.time)}. Fix the file and save it again.`;
  }
}

async function loadSettings(): Promise<void> {
  const s = await hostAPI<Settings>("GET", "settings");
  if (!drawn.changed("settings", s)) return;
  // defaultChecked mirrors the state into the checked attribute as well,
  // so that a saved copy of the page (or a DOM dump) shows it.
  const paused = $<HTMLInputElement>("set-paused");
  paused.checked = !!s.paused;
  paused.defaultChecked = !!s.paused;
  // The mode (none, token, all); a server without it has the boolean only.
  const mode = s.interaction || (s.remoteInteraction ? "all" : "none");
  for (const opt of $<HTMLSelectElement>("set-interaction").options) {
    opt.selected = opt.value === mode;
    opt.defaultSelected = opt.value === mode;
  }
  $("pause-badge").hidden = !s.paused;
}

function wireSettings(): void {
  const select = $<HTMLSelectElement>("set-interaction");
  select.addEventListener("change", async () => {
    select.disabled = true;
    try {
      await hostAPI("PATCH", "settings", { interaction: select.value });
      drawn.forget("settings");
      say("settings-msg", "Saved.", "good");
    } catch (e) {
      drawn.forget("settings");
      say("settings-msg", errorText(e), "bad");
      load("settings").catch(() => {});
    } finally {
      select.disabled = false;
    }
  });
  const box = $<HTMLInputElement>("set-paused");
  box.addEventListener("change", async () => {
    const wanted = box.checked;
    box.disabled = true;
    try {
      const s = await hostAPI<Settings>("PATCH", "settings", { paused: wanted });
      drawn.forget("settings");
      $("pause-badge").hidden = !s.paused;
      say("settings-msg", "Saved.", "good");
    } catch (e) {
      box.checked = !wanted;
      say("settings-msg", errorText(e), "bad");
    } finally {
      box.disabled = false;
    }
  });
}

/** Where a client looks, or null when it has not said (the Encounter+ client reports it only as a display). */
export function viewText(c: DeepPartial<ClientRow>): string | null {
  if (!(c.mapZoom !== undefined && c.mapZoom > 0)) return null;
  return `centre ${Math.round(c.mapCenterX || 0)}, ${Math.round(c.mapCenterY || 0)} · zoom ${c.mapZoom.toFixed(2)}`;
}

async function loadClients(): Promise<void> {
  const clients = await hostAPI<ClientRow[]>("GET", "clients");
  if (!drawn.changed("clients", clients)) return;
  $("clients-empty").hidden = clients.length > 0;
  $("clients-table").hidden = clients.length === 0;
  replaceChildren(
    $("client-rows"),
    clients.map((c) => {
      const display = c.runMode && c.runMode !== "normal";
      const swatch = el("span", { className: "swatch" });
      if (/^#[0-9a-fA-F]{3,8}$/.test(c.color || "")) swatch.style.background = c.color ?? "";
      const view = viewText(c);
      return el(
        "tr",
        {},
        el("td", {}, swatch, c.name || `(unnamed) #${c.channel}`),
        el("td", {}, display ? `Player display (${c.runMode})` : "Player browser", c.device ? el("div", { className: "small muted" }, c.device) : null),
        el("td", {}, c.address || ""),
        el(
          "td",
          {},
          view ?? el("span", { className: "muted" }, "view not reported yet (some clients report it only as a display)"),
          c.screenWidth ? el("div", { className: "small muted" }, `screen ${Math.round(c.screenWidth)}×${Math.round(c.screenHeight ?? 0)}`) : null,
        ),
      );
    }),
  );
}

export function startSystem(): void {
  setLoader("system", loadSystem);
  setLoader("settings", loadSettings);
  setLoader("clients", loadClients);
  wireSettings();
}
