// The Modules and Web client cards: installed modules with update checks,
// Update and Delete; the client players get at /client/ (installed from a
// zip, offered from a URL, removed). Rules in offer-rules.ts.
import { errorStatus, errorText, hostAPI } from "../net/host-api";
import { busy } from "../ui/busy";
import { $, chosenFile, el, replaceChildren, say } from "./dom";
import { when } from "./format";
import { drawn, load, refreshDestinationSelects, reload, setLoader, state } from "./console-state";
import { checkUpdatesText, moduleInfo, updateText } from "./offer-rules";
import type { Module as ModuleRow, ModuleUpdate as UpdateCheck } from "./types";

const updates = new Map<string, UpdateCheck>(); // module id -> update check result

async function loadModules(): Promise<void> {
  let modules: ModuleRow[];
  try {
    modules = await hostAPI<ModuleRow[]>("GET", "modules");
  } catch (e) {
    if (errorStatus(e) === 503) modules = [];
    else throw e;
  }
  const names = (list: ModuleRow[]) => JSON.stringify(list.map((m) => [m.id, m.name]));
  const before = names(state.modules);
  state.modules = modules;
  if (names(modules) !== before) refreshDestinationSelects();
  if (!drawn.changed("modules", { modules, updates: [...updates] })) return;
  $("modules-empty").hidden = modules.length > 0;
  replaceChildren($("module-list"), modules.map(moduleRow));
}

function moduleRow(m: ModuleRow): HTMLElement {
  const u = updates.get(m.id);
  const row = el(
    "li",
    { className: "module" },
    el(
      "div",
      {},
      el("strong", {}, m.name),
      el("div", { className: "small muted" }, moduleInfo(m)),
      u?.error ? el("div", { className: "error" }, u.error) : null,
      u && !u.error ? el("div", { className: u.update ? "good small" : "small muted" }, updateText(u)) : null,
    ),
  );
  const buttons = el("div", { className: "buttons" });
  if (m.package) {
    const update = el("button", { type: "button", className: u?.update ? "primary" : "" }, "Update");
    update.onclick = () =>
      busy(update, async () => {
        try {
          say("modules-msg", `Updating ${m.name}…`);
          const res = await hostAPI<{ name: string }>("POST", `modules/${encodeURIComponent(m.id)}/update`);
          updates.delete(m.id);
          say("modules-msg", `Updated “${res.name}”.`, "good");
          await loadModules();
        } catch (e) {
          say("modules-msg", errorText(e), "bad");
        }
      });
    buttons.append(update);
  }
  const del = el("button", { type: "button", className: "danger" }, "Delete");
  del.onclick = () => {
    if (!confirm(`Delete the module “${m.name}” and everything it holds (entities, maps, files)?`)) return;
    busy(del, async () => {
      try {
        await hostAPI("DELETE", `modules/${encodeURIComponent(m.id)}`);
        updates.delete(m.id);
        say("modules-msg", `Deleted “${m.name}”.`, "good");
        await loadModules();
      } catch (e) {
        say("modules-msg", errorText(e), "bad");
      }
    });
  };
  buttons.append(del);
  row.append(buttons);
  return row;
}

function wireModules(): void {
  const b = $<HTMLButtonElement>("check-updates");
  b.addEventListener("click", () =>
    busy(b, async () => {
      say("modules-msg", "Checking for updates…");
      try {
        const list = await hostAPI<UpdateCheck[]>("POST", "modules/check-updates");
        updates.clear();
        for (const u of list) updates.set(u.module, u);
        say("modules-msg", checkUpdatesText(list), list.some((u) => u.update) ? "good" : "");
        await reload("modules");
      } catch (e) {
        say("modules-msg", errorText(e), "bad");
      }
    }),
  );
}

// ---- web client ----------------------------------------------------------------

interface ClientInfo {
  installed: boolean;
  name?: string;
  version?: string;
  installedAt?: string;
}

// The client served at /client/: installed from a zip (uploaded here) or
// from a URL (an offer of type "client", accepted under Import offers), or
// the built-in one.
async function loadWebClient(): Promise<void> {
  let info: ClientInfo | null;
  try {
    info = await hostAPI<ClientInfo>("GET", "client");
  } catch (e) {
    if (errorStatus(e) === 503) info = null;
    else throw e;
  }
  if (!drawn.changed("webclient", info)) return;
  $("webclient-remove").hidden = !info?.installed;
  let text: string;
  if (info === null) text = "Installing a web client is not available on this server.";
  else if (!info.installed) text = "The built-in client is served.";
  else {
    const name = (info.name || "An installed client") + (info.version ? ` ${info.version}` : "");
    text = `${name} is installed${info.installedAt ? ` (${when(info.installedAt)})` : ""}.`;
  }
  $("webclient-current").textContent = text;
}

function wireWebClient(): void {
  const upload = $<HTMLFormElement>("webclient-upload-form");
  upload.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = chosenFile($<HTMLInputElement>("webclient-file"));
    if (!file) {
      say("webclient-msg", "Choose the client's zip first.", "bad");
      return;
    }
    const form = new FormData();
    form.append("file", file, file.name);
    say("webclient-msg", `Installing ${file.name}…`);
    await busy($<HTMLButtonElement>("webclient-upload"), async () => {
      try {
        const info = await hostAPI<ClientInfo>("POST", "client", form);
        say("webclient-msg", `Installed ${info.name || file.name}${info.version ? ` ${info.version}` : ""}.`, "good");
        upload.reset();
        await loadWebClient();
      } catch (e) {
        say("webclient-msg", errorText(e), "bad");
      }
    });
  });
  const byURL = $<HTMLFormElement>("webclient-url-form");
  byURL.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const url = $<HTMLInputElement>("webclient-url").value.trim();
    await busy($<HTMLButtonElement>("webclient-offer"), async () => {
      try {
        await hostAPI("POST", "offers", { type: "client", url });
        say("webclient-msg", "Offered: check it and accept it under Import offers.", "good");
        byURL.reset();
        await load("offers");
      } catch (e) {
        say("webclient-msg", errorText(e), "bad");
      }
    });
  });
  const remove = $<HTMLButtonElement>("webclient-remove");
  remove.addEventListener("click", () => {
    if (!confirm("Remove the installed web client? Players get the built-in client again.")) return;
    busy(remove, async () => {
      try {
        await hostAPI("DELETE", "client");
        say("webclient-msg", "Removed: the built-in client is served again.", "good");
        await loadWebClient();
      } catch (e) {
        say("webclient-msg", errorText(e), "bad");
      }
    });
  });
}

export function startModules(): void {
  setLoader("modules", loadModules);
  setLoader("webclient", loadWebClient);
  wireModules();
  wireWebClient();
}
