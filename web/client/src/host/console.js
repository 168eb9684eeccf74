// Companion host console. Plain JavaScript, no build step, nothing loaded
// from elsewhere. Every piece of text from the server goes into the page
// through textContent (el() below), never as HTML.
//
// The page keeps itself current from the game master's live socket
// (GET /host/ws, opened by the GM map, /host/gm/gm.js, which passes every
// event on as a "companion:host-event" DOM event): the campaign, settings,
// clients and messages are fetched again when an event says they changed.
// Polling remains where no event exists (offers, the system status, the web
// client, modules), and as a slow fallback while the socket is down. A
// section is redrawn only when its document changed, so a choice being made
// is not lost.
"use strict";

// ---- helpers ----------------------------------------------------------

const $ = (id) => document.getElementById(id);

// el builds an element: attrs are properties (onclick, className, ...) or,
// for names with a dash, attributes; children are nodes or text.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.includes("-")) node.setAttribute(k, v === true ? "" : String(v));
    else node[k] = v;
  }
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function replaceChildren(parent, children) {
  parent.replaceChildren(...children.filter((c) => c));
}

class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// api calls the host API and returns the decoded JSON (null for 204). A
// failure throws an APIError with the server's own explanation.
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch("/host/api/" + path, init);
  } catch (e) {
    throw new APIError(0, "The server is not answering.");
  }
  const text = await resp.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (e) { data = null; }
  }
  if (!resp.ok) {
    const message = (data && (data.message || data.error)) || resp.status + " " + resp.statusText;
    throw new APIError(resp.status, message);
  }
  return data;
}

function say(id, text, kind) {
  const p = $(id);
  p.textContent = text || "";
  p.className = "msg" + (kind ? " " + kind : "");
}

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString();
}

function bytes(n) {
  if (n < 0 || n === undefined) return "?";
  if (n < 1024) return n + " B";
  if (n < 1 << 20) return (n / 1024).toFixed(1) + " KiB";
  return (n / (1 << 20)).toFixed(1) + " MiB";
}

// changed remembers the last document drawn per section.
const drawn = {};
function changed(key, value) {
  const json = JSON.stringify(value);
  if (drawn[key] === json) return false;
  drawn[key] = json;
  return true;
}

// busy disables a button while its action runs. A second click while it
// runs does nothing. Afterwards the button takes the state the last redraw
// wanted for it (want() below), not simply "enabled": a "Start combat" whose
// answer started combat stays disabled.
async function busy(button, fn) {
  if (button && button.dataset.busy) return;
  if (button) { button.dataset.busy = "1"; button.disabled = true; }
  try { return await fn(); } finally {
    if (button) {
      delete button.dataset.busy;
      button.disabled = button.dataset.off === "1";
    }
  }
}

// want sets whether a button may be used: now, or when its action ends.
function want(button, enabled) {
  button.dataset.off = enabled ? "" : "1";
  button.disabled = !enabled || !!button.dataset.busy;
}

// ---- state shared between sections --------------------------------------

const state = {
  campaign: null,         // GET campaign
  modules: [],            // GET modules
  destinations: {},       // offer id -> chosen destination
};

// destinationOptions lists where a loose collection or map can be filed:
// the primary campaign (the server's default) or a module.
function destinationOptions(selected) {
  const c = state.campaign && state.campaign.campaign;
  const opts = [el("option", { value: "" }, c ? "The campaign “" + c.name + "” (default)" : "The primary campaign (default)")];
  for (const m of state.modules) {
    opts.push(el("option", { value: m.id, selected: selected === m.id }, "Module: " + m.name));
  }
  return opts;
}

function refreshDestinationSelects() {
  const sel = $("import-destination");
  const keep = sel.value;
  replaceChildren(sel, destinationOptions(keep));
  drawn.offers = undefined; // offers hold selects too
}

// ---- system --------------------------------------------------------------

async function loadSystem() {
  const sys = await api("GET", "system");
  if (!changed("system", { ...sys, time: undefined })) return;
  $("system-badge").textContent = sys.name + " " + sys.version;
  $("system-name").textContent = sys.name + (sys.author ? " — by " + sys.author : "");
  $("system-version").textContent = sys.id + " · version " + sys.version;
  $("system-watch").textContent = sys.watching ? "Watching " + sys.watching : "Off (built-in system)";
  replaceChildren($("system-kinds"), (sys.kinds || []).map((k) =>
    el("li", { title: "kind " + k.kind }, (k.collectionTitle || k.collection) + " ", el("code", {}, "/api/" + k.collection),
      k.unique ? el("span", { className: "tag" }, "unique") : null)));

  const last = sys.lastReload;
  const reload = $("system-reload");
  const banner = $("reload-error");
  if (!last) {
    reload.textContent = sys.watching ? "No edit since the server started." : "—";
    reload.className = "";
    banner.hidden = true;
  } else if (last.ok) {
    reload.textContent = "Reloaded version " + last.version + " at " + when(last.time) +
      (last.latencyMs ? " (" + last.latencyMs.toFixed(0) + " ms)" : "");
    reload.className = "good";
    banner.hidden = true;
  } else {
    reload.textContent = "Failed at " + when(last.time) + ": " + last.error;
    reload.className = "bad";
    $("reload-error-text").textContent = last.error;
    $("reload-error-time").textContent = "At " + when(last.time) + ". Fix the file and save it again.";
    banner.hidden = false;
  }
}

// ---- settings --------------------------------------------------------------

async function loadSettings() {
  const s = await api("GET", "settings");
  if (!changed("settings", s)) return;
  // defaultChecked mirrors the state into the checked attribute as well,
  // so that a saved copy of the page (or a DOM dump) shows it.
  $("set-paused").checked = !!s.paused;
  $("set-paused").defaultChecked = !!s.paused;
  // The mode (none, token, all); a server without it has the boolean only.
  const mode = s.interaction || (s.remoteInteraction ? "all" : "none");
  for (const opt of $("set-interaction").options) {
    opt.selected = opt.value === mode;
    opt.defaultSelected = opt.value === mode;
  }
  $("pause-badge").hidden = !s.paused;
}

function wireSettings() {
  const select = $("set-interaction");
  select.addEventListener("change", async () => {
    const wanted = select.value;
    select.disabled = true;
    try {
      await api("PATCH", "settings", { interaction: wanted });
      drawn.settings = undefined;
      say("settings-msg", "Saved.", "good");
    } catch (e) {
      drawn.settings = undefined;
      say("settings-msg", e.message, "bad");
      loadSettings().catch(() => {});
    } finally {
      select.disabled = false;
    }
  });
  for (const [id, key] of [["set-paused", "paused"]]) {
    const box = $(id);
    box.addEventListener("change", async () => {
      const wanted = box.checked;
      box.disabled = true;
      try {
        const s = await api("PATCH", "settings", { [key]: wanted });
        drawn.settings = undefined;
        $("pause-badge").hidden = !s.paused;
        say("settings-msg", "Saved.", "good");
      } catch (e) {
        box.checked = !wanted;
        say("settings-msg", e.message, "bad");
      } finally {
        box.disabled = false;
      }
    });
  }
}

// ---- offers ----------------------------------------------------------------

// The offer the page last accepted: its "downloading" message goes when it fails.
let lastAccepted = "";

const offerStatus = {
  pending: "Waiting for you",
  downloading: "Downloading",
  installed: "Installed",
  declined: "Declined",
  failed: "Failed",
};

async function loadOffers() {
  let offers;
  try {
    offers = await api("GET", "offers");
  } catch (e) {
    if (e.status === 503) offers = null; else throw e;
  }
  // A message about an offer that has since failed would contradict its row.
  if (offers && offers.some((o) => o.status === "failed" && o.id === lastAccepted)) {
    lastAccepted = "";
    say("offers-msg", "");
  }
  if (!changed("offers", offers)) return;
  const list = $("offer-list");
  if (offers === null) {
    replaceChildren(list, [el("li", { className: "muted" }, "Import is not available on this server.")]);
    return;
  }
  if (offers.length === 0) {
    replaceChildren(list, [el("li", { className: "muted" }, "No offer.")]);
    return;
  }
  // Newest first: the one just offered is at the top.
  replaceChildren(list, offers.slice().reverse().map(offerRow));
}

function offerRow(o) {
  const pkg = o.package;
  const isClient = o.type === "client"; // a web client to install (see the Web client panel)
  const title = (isClient ? "Web client from " : "") + (pkg ? pkg.name + " " + pkg.version : (o.url || o.manifest || (o.file ? "File " + o.file : "")));
  const details = [];
  if (pkg) {
    details.push(pkg.type);
    if (pkg.installed === "same") details.push("this version is installed");
    else if (pkg.installed === "older") details.push("updates installed version " + pkg.installedVersion);
    else if (pkg.installed === "newer") details.push("a newer version " + pkg.installedVersion + " is installed");
    if (!pkg.compatible) details.push("not compatible with this version of Companion");
  } else if (o.checking) {
    details.push("reading the manifest…");
  }
  details.push("from " + o.from + (o.host ? " · " + o.host : ""));

  const row = el("li", { className: "offer status-" + o.status },
    el("div", { className: "row-head" },
      el("strong", {}, title),
      el("span", { className: "badge " + (o.status === "failed" ? "bad" : o.status === "installed" ? "good" : "") },
        offerStatus[o.status] || o.status)),
    el("div", { className: "muted small" }, details.join(" · ")),
    pkg && pkg.description ? el("div", { className: "small" }, pkg.description) : null);

  if (o.status === "downloading" && o.install) {
    row.append(installProgress(o.install));
  } else if (o.status === "downloading") {
    const p = o.progress || {};
    const bar = el("progress", { max: p.total > 0 ? p.total : undefined, value: p.done || 0 });
    if (!(p.total > 0)) bar.removeAttribute("value"); // indeterminate
    row.append(el("div", { className: "progress" }, bar,
      el("span", { className: "small" }, bytes(p.done) + (p.total > 0 ? " of " + bytes(p.total) : ""))));
  }
  if (o.error) row.append(el("div", { className: "error" }, o.status === "failed" ? "Failed: " + o.error : o.error));
  if (o.status === "failed") {
    // One clear state: the reason above, and what can be done about it.
    const retry = el("button", { type: "button", className: "primary", "data-offer-act": "retry" }, "Retry");
    const dismiss = el("button", { type: "button", "data-offer-act": "dismiss" }, "Dismiss");
    retry.onclick = () => busy(retry, async () => {
      try {
        await api("POST", "offers/" + encodeURIComponent(o.id) + "/retry");
        say("offers-msg", "Trying again: accept it when it is ready.", "good");
        await loadOffers();
      } catch (e) { say("offers-msg", e.message, "bad"); }
    });
    dismiss.onclick = () => busy(dismiss, async () => {
      try {
        await api("DELETE", "offers/" + encodeURIComponent(o.id));
        say("offers-msg", "");
        await loadOffers();
      } catch (e) { say("offers-msg", e.message, "bad"); }
    });
    row.append(el("div", { className: "buttons" }, retry, dismiss));
  }
  if (o.result) row.append(el("div", { className: "good small" }, "Installed " + (isClient ? "web client" : o.result.kind) + " “" + o.result.name + "”" + compendiumText(o.result)));

  if (o.status === "pending") {
    if (isClient) details.push("replaces the web client players get");
    const select = el("select", { "aria-label": "Destination for a loose collection or map" },
      ...destinationOptions(state.destinations[o.id] || ""));
    select.addEventListener("change", () => { state.destinations[o.id] = select.value; });
    const accept = el("button", { type: "button", className: "primary", disabled: !!o.checking }, "Accept");
    const decline = el("button", { type: "button" }, "Decline");
    accept.onclick = () => busy(accept, async () => {
      try {
        const body = select.value ? { destination: select.value } : undefined;
        await api("POST", "offers/" + encodeURIComponent(o.id) + "/accept", body);
        lastAccepted = o.id;
        say("offers-msg", "Accepted: downloading " + title + ".", "good");
        await loadOffers();
      } catch (e) { say("offers-msg", e.message, "bad"); }
    });
    decline.onclick = () => busy(decline, async () => {
      try {
        await api("POST", "offers/" + encodeURIComponent(o.id) + "/decline");
        say("offers-msg", "Declined " + title + ".");
        await loadOffers();
      } catch (e) { say("offers-msg", e.message, "bad"); }
    });
    row.append(el("div", { className: "buttons" },
      isClient ? null : el("label", { className: "small" }, "File into ", select), accept, decline));
  }
  return row;
}

// ---- install progress -------------------------------------------------------

// installProgress shows how far a long install has come (a compendium of
// thousands of entries): the file read and its entries mapped, then the
// rows written in one transaction.
function installProgress(p) {
  const reading = p.stage === "reading";
  const bar = el("progress", { max: p.total > 0 ? p.total : undefined, value: p.done || 0 });
  if (!(p.total > 0)) bar.removeAttribute("value");
  const text = reading
    ? "Reading entries: " + (p.entries || 0).toLocaleString() + (p.total > 0 ? " (" + Math.floor(100 * p.done / p.total) + "% of the file)" : "")
    : "Writing " + (p.done || 0).toLocaleString() + " of " + (p.total || 0).toLocaleString() + " entries";
  return el("div", { className: "progress install-progress" }, bar, el("span", { className: "small" }, text));
}

// compendiumText: " — 46 entries; 3 race not imported: ...".
function compendiumText(res) {
  const c = res && res.compendium;
  if (!c) return "";
  const parts = [c.entities + " " + (c.entities === 1 ? "entry" : "entries")];
  return ": " + parts.concat(c.notes || []).join("; ");
}

// ---- file import -------------------------------------------------------------

function wireImport() {
  $("import-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = $("import-file").files[0];
    if (!file) { say("import-msg", "Choose a file first.", "bad"); return; }
    const form = new FormData();
    const destination = $("import-destination").value;
    if (destination) form.append("destination", destination); // before the file: the server reads in order
    form.append("file", file, file.name);
    say("import-msg", "Importing " + file.name + "…");
    // While the upload installs, the server's list of running imports
    // says how far it has come (a compendium of thousands of entries).
    const progress = $("import-progress");
    const poll = setInterval(async () => {
      try {
        const running = await api("GET", "imports");
        const mine = running.filter((a) => a.name === file.name && a.install);
        replaceChildren(progress, mine.length ? [installProgress(mine[mine.length - 1].install)] : []);
      } catch (e) { /* the request below reports failures */ }
    }, 400);
    await busy($("import-button"), async () => {
      try {
        const res = await api("POST", "import", form);
        say("import-msg", "Imported " + res.kind + " “" + res.name + "”" + (compendiumText(res) || ".") , "good");
        $("import-form").reset();
        loadModules().catch(() => {});
        loadCampaign().catch(() => {});
      } catch (e) { say("import-msg", e.message, "bad"); }
    });
    clearInterval(poll);
    replaceChildren(progress, []);
  });
}

// ---- web client ----------------------------------------------------------------

// The client served at /client/: installed from a zip (uploaded here) or
// from a URL (an offer of type "client", accepted under Import offers), or
// the built-in one.
async function loadWebClient() {
  let info;
  try {
    info = await api("GET", "client");
  } catch (e) {
    if (e.status === 503) info = null; else throw e;
  }
  if (!changed("webclient", info)) return;
  const current = $("webclient-current");
  $("webclient-remove").hidden = !(info && info.installed);
  if (info === null) {
    current.textContent = "Installing a web client is not available on this server.";
  } else if (!info.installed) {
    current.textContent = "The built-in client is served.";
  } else {
    const name = (info.name || "An installed client") + (info.version ? " " + info.version : "");
    current.textContent = name + " is installed" + (info.installedAt ? " (" + when(info.installedAt) + ")" : "") + ".";
  }
}

function wireWebClient() {
  $("webclient-upload-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = $("webclient-file").files[0];
    if (!file) { say("webclient-msg", "Choose the client's zip first.", "bad"); return; }
    const form = new FormData();
    form.append("file", file, file.name);
    say("webclient-msg", "Installing " + file.name + "…");
    await busy($("webclient-upload"), async () => {
      try {
        const info = await api("POST", "client", form);
        say("webclient-msg", "Installed " + (info.name || file.name) + (info.version ? " " + info.version : "") + ".", "good");
        $("webclient-upload-form").reset();
        await loadWebClient();
      } catch (e) { say("webclient-msg", e.message, "bad"); }
    });
  });
  $("webclient-url-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const url = $("webclient-url").value.trim();
    await busy($("webclient-offer"), async () => {
      try {
        await api("POST", "offers", { type: "client", url });
        say("webclient-msg", "Offered: check it and accept it under Import offers.", "good");
        $("webclient-url-form").reset();
        await loadOffers();
      } catch (e) { say("webclient-msg", e.message, "bad"); }
    });
  });
  const remove = $("webclient-remove");
  remove.addEventListener("click", () => {
    if (!confirm("Remove the installed web client? Players get the built-in client again.")) return;
    busy(remove, async () => {
      try {
        await api("DELETE", "client");
        say("webclient-msg", "Removed: the built-in client is served again.", "good");
        await loadWebClient();
      } catch (e) { say("webclient-msg", e.message, "bad"); }
    });
  });
}

// ---- clients ---------------------------------------------------------------

async function loadClients() {
  const clients = await api("GET", "clients");
  if (!changed("clients", clients)) return;
  $("clients-empty").hidden = clients.length > 0;
  $("clients-table").hidden = clients.length === 0;
  replaceChildren($("client-rows"), clients.map((c) => {
    const display = c.runMode && c.runMode !== "normal";
    const swatch = el("span", { className: "swatch" });
    if (/^#[0-9a-fA-F]{3,8}$/.test(c.color || "")) swatch.style.background = c.color;
    return el("tr", {},
      el("td", {}, swatch, c.name || "(unnamed) #" + c.channel),
      el("td", {}, display ? "Player display (" + c.runMode + ")" : "Player browser", c.device ? el("div", { className: "small muted" }, c.device) : null),
      el("td", {}, c.address || ""),
      // A page that has not said where it looks (the Encounter+ client
      // reports its view only in TV mode) shows that, not a view at 0, 0.
      el("td", {}, c.mapZoom > 0
        ? "centre " + Math.round(c.mapCenterX || 0) + ", " + Math.round(c.mapCenterY || 0) + " · zoom " + c.mapZoom.toFixed(2)
        : el("span", { className: "muted" }, "view not reported yet (some clients report it only as a display)"),
        c.screenWidth ? el("div", { className: "small muted" }, "screen " + Math.round(c.screenWidth) + "×" + Math.round(c.screenHeight)) : null));
  }));
}

// ---- campaign: maps and combat ---------------------------------------------------

async function loadCampaign() {
  let view;
  try {
    view = await api("GET", "campaign");
  } catch (e) {
    if (e.status !== 404) throw e;
    view = { missing: e.message };
  }
  const hadCampaign = state.campaign && state.campaign.campaign && state.campaign.campaign.id;
  state.campaign = view.missing ? null : view;
  if ((view.campaign && view.campaign.id) !== hadCampaign) refreshDestinationSelects();
  if (!changed("campaign", view)) return;
  drawCampaign(view);
}

function drawCampaign(view) {
  window.dispatchEvent(new CustomEvent("companion:campaign", { detail: view }));
  const buttons = document.querySelectorAll("[data-combat]");
  $("campaign-parts").hidden = !!view.missing;
  if (view.missing) {
    $("campaign-name").textContent = "There is no campaign for this game system yet (" + view.missing +
      "). Import one below to run a game.";
    buttons.forEach((b) => want(b, false));
    return;
  }
  $("campaign-name").textContent = view.campaign.name;

  const maps = view.maps || [];
  replaceChildren($("maps"), maps.length ? maps.map((m) => {
    const show = el("button", { type: "button", className: m.onScreen ? "" : "primary", disabled: m.onScreen },
      m.onScreen ? "On the player screen" : "Show on player screen");
    show.onclick = () => busy(show, async () => {
      try {
        await api("POST", "screen", { mapId: m.id });
        say("campaign-msg", "“" + m.name + "” is on the player screen.", "good");
        await loadCampaign();
      } catch (e) { say("campaign-msg", e.message, "bad"); }
    });
    const size = m.width && m.height ? m.width + "×" + m.height + " px" : "";
    return el("li", { className: "map" + (m.onScreen ? " current" : ""), "data-map": m.id },
      el("div", {}, el("strong", {}, m.name),
        el("div", { className: "small muted" }, [size, m.tokens + " token" + (m.tokens === 1 ? "" : "s")].filter(Boolean).join(" · "))),
      show);
  }) : [el("li", { className: "muted" }, "This campaign has no map.")]);

  drawMapManager(maps);

  const g = view.game || {};
  const order = view.turnOrder || [];
  const byId = {};
  for (const c of g.combatants || []) byId[c.id] = c;
  const acting = g.started ? byId[g.combatantId] : null;
  $("combat-state").textContent = g.started
    ? "Round " + g.round + " · turn " + g.turn + (acting ? " · " + acting.name + " acts" : "")
    : "No combat running. " + order.length + " of " + (g.combatants || []).length + " combatants have rolled initiative.";
  const enabled = { start: !g.started && order.length > 0, previous: g.started, next: g.started, end: g.started };
  buttons.forEach((b) => want(b, !!enabled[b.dataset.combat]));
  drawScreen(view);
  drawCombatants(view);
  drawSpeakers(view);

  replaceChildren($("initiative"), order.map((s) => {
    const current = g.started && s.initiativeId === g.initiativeId && s.combatantId === g.combatantId;
    return el("li", { className: (current ? "current " : "") + (s.role || "hostile"), "aria-current": current ? "step" : undefined },
      el("span", { className: "init" }, String(s.value)),
      el("span", { className: "who" }, s.name),
      s.hidden ? el("span", { className: "tag" }, "hidden") : null);
  }));
  if (!order.length) {
    $("initiative").append(el("li", { className: "muted" }, "Nobody has rolled initiative yet."));
  }
}

// Rename and delete act on the map chosen in #map-pick (kept out of the
// #maps rows, whose only buttons put a map on the player screen).
function drawMapManager(maps) {
  const sel = $("map-pick");
  const keep = sel.value;
  replaceChildren(sel, maps.map((m) => el("option", { value: m.id, selected: m.id === keep }, m.name + (m.onScreen ? " (on the player screen)" : ""))));
  want($("map-rename"), maps.length > 0);
  want($("map-delete"), maps.length > 0);
}

function wireMapManager() {
  const chosen = () => ((state.campaign && state.campaign.maps) || []).find((m) => m.id === $("map-pick").value);
  const rename = $("map-rename");
  rename.addEventListener("click", () => {
    const m = chosen();
    if (!m) return;
    const name = prompt("New name for “" + m.name + "”", m.name);
    if (!name || name.trim() === m.name) return;
    busy(rename, async () => {
      try {
        await api("PATCH", "maps/" + encodeURIComponent(m.id), { name: name.trim() });
        say("campaign-msg", "Renamed to “" + name.trim() + "”.", "good");
      } catch (e) { say("campaign-msg", e.message, "bad"); }
      drawn.campaign = undefined;
      await loadCampaign().catch(() => {});
    });
  });
  const del = $("map-delete");
  del.addEventListener("click", () => {
    const m = chosen();
    if (!m) return;
    if (!confirm("Delete the map “" + m.name + "” with its tokens and fog?" + (m.onScreen ? " It leaves the player screen." : ""))) return;
    busy(del, async () => {
      try {
        await api("DELETE", "maps/" + encodeURIComponent(m.id));
        say("campaign-msg", "Deleted “" + m.name + "”.", "good");
      } catch (e) { say("campaign-msg", e.message, "bad"); }
      drawn.campaign = undefined;
      await loadCampaign().catch(() => {});
    });
  });
}

// A new, empty map in the campaign: size, grid, and an optional background
// (whose size is the map's when none is given).
function wireNewMap() {
  $("newmap-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const file = $("newmap-file").files[0];
    const fields = { name: $("newmap-name").value.trim(), gridType: $("newmap-grid").value };
    for (const k of ["width", "height", "gridSize"]) {
      const v = $("newmap-" + k).value.trim();
      if (v) fields[k] = Number(v);
    }
    let body = fields;
    if (file) {
      body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, String(v));
      body.append("file", file, file.name);
    }
    busy($("newmap-create"), async () => {
      try {
        const m = await api("POST", "maps", body);
        say("campaign-msg", "Created the map “" + (m && m.name || fields.name) + "”.", "good");
        $("newmap-form").reset();
      } catch (e) { say("campaign-msg", e.message, "bad"); }
      drawn.campaign = undefined;
      await loadCampaign().catch(() => {});
    });
  });
}

function wireCombat() {
  document.querySelectorAll("[data-combat]").forEach((b) => {
    b.addEventListener("click", () => busy(b, async () => {
      const action = b.dataset.combat;
      if (action === "end" && !confirm("End combat?")) return;
      try {
        await api("POST", "game/" + action);
        say("campaign-msg", "");
        drawn.campaign = undefined;
        await loadCampaign();
      } catch (e) {
        say("campaign-msg", e.message, "bad");
        drawn.campaign = undefined;
        await loadCampaign().catch(() => {});
      }
    }));
  });
}

// ---- player screen: fit, frame, clear, handouts -------------------------------

function drawScreen(view) {
  const sc = view.screen || {};
  const map = (view.maps || []).find((m) => m.onScreen);
  const overlay = sc.overlayType === "image" ? "an image handout" : sc.overlayType === "handout" ? "a text handout" : "";
  $("screen-state").textContent = (map ? "“" + map.name + "” is on the player screen" : "Nothing is on the player screen") +
    (overlay ? ", under " + overlay + "." : ".");
  want($("screen-fit"), !!map);
  want($("screen-frame"), !!map);
  want($("screen-clear"), !!map);
  want($("handout-down"), !!overlay);
}

function wireScreen() {
  const act = (id, fn, done) => {
    const b = $(id);
    b.addEventListener("click", () => busy(b, async () => {
      try {
        await fn();
        say("screen-msg", done, "good");
      } catch (e) { say("screen-msg", e.message, "bad"); }
      drawn.campaign = undefined;
      await loadCampaign().catch(() => {});
    }));
  };
  act("screen-fit", () => api("POST", "screen/fit"), "The players' displays fit the map.");
  act("screen-frame", () => {
    const r = window.companionGM && window.companionGM.renderer;
    if (!r) throw new Error("The map is not drawn yet.");
    const c = r.viewport.center;
    return api("POST", "screen/frame", { x: Math.round(c.x), y: Math.round(c.y), zoom: Math.round(r.viewport.scaled * 1000) / 1000 });
  }, "The players' displays show what the map above shows.");
  act("screen-clear", () => {
    if (!confirm("Clear the player screen?")) return Promise.resolve();
    return api("POST", "screen", { mapId: "" });
  }, "The player screen is clear.");
  act("handout-down", () => api("DELETE", "screen/overlay"), "The handout is down.");
  $("handout-image-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const file = $("handout-file").files[0];
    if (!file) { say("screen-msg", "Choose an image first.", "bad"); return; }
    const form = new FormData();
    form.append("file", file, file.name);
    busy($("handout-image"), async () => {
      try {
        await api("POST", "screen/handout", form);
        $("handout-image-form").reset();
        say("screen-msg", "The players see the image.", "good");
      } catch (e) { say("screen-msg", e.message, "bad"); }
      drawn.campaign = undefined;
      await loadCampaign().catch(() => {});
    });
  });
  $("handout-text-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("handout-text").value.trim();
    if (!text) return;
    busy($("handout-show-text"), async () => {
      try {
        await api("PATCH", "screen/overlay", { overlayHandoutText: text, overlayImage: "" });
        say("screen-msg", "The players see the text.", "good");
      } catch (e) { say("screen-msg", e.message, "bad"); }
      drawn.campaign = undefined;
      await loadCampaign().catch(() => {});
    });
  });
}

// ---- combatants: initiative, hit points, effects, hidden, remove ------------------

let conditions = null; // the system's condition names, once read

async function loadConditions() {
  try {
    const sys = await api("GET", "system/definitions");
    const rows = (sys.definitions && sys.definitions.types && sys.definitions.types.conditions) || [];
    conditions = rows.map((r) => (typeof r === "string" ? r : r.name || r.label || r.id)).filter(Boolean);
  } catch (e) {
    conditions = [];
  }
  const list = $("condition-names");
  if (list) replaceChildren(list, conditions.map((c) => el("option", { value: c })));
}

function hitPoints(c) {
  const d = c.data || {};
  if (typeof d.hit_points !== "number") return null;
  return { hp: d.hit_points, max: d.max_hit_points, temp: d.temp_hit_points };
}

let combatantsPending = null;
function drawCombatants(view) {
  let list = $("combatants");
  if (!list) {
    list = el("ul", { id: "combatants", className: "rows combatants" });
    $("initiative").after(el("h4", {}, "Combatants"), list,
      el("datalist", { id: "condition-names" }, ...(conditions || []).map((c) => el("option", { value: c }))));
    list.addEventListener("focusout", () => setTimeout(() => {
      if (combatantsPending && !list.contains(document.activeElement)) { const v = combatantsPending; combatantsPending = null; drawCombatants(v); }
    }, 0));
  }
  // Never redraw under the game master's typing: after, from the newest view.
  if (list.contains(document.activeElement) && document.activeElement.matches("input, select")) { combatantsPending = view; return; }
  const g = view.game || {};
  const all = g.combatants || [];
  const ticked = new Set([...list.querySelectorAll("input[data-tick]:checked")].map((b) => b.dataset.tick));
  if (!all.length) {
    replaceChildren(list, [el("li", { className: "muted" }, "No combatant yet: select a token on the map and Add to combat, or add a creature from Place a token.")]);
    return;
  }
  // Rows whose ⋯ is open stay open across the redraw.
  const open = new Set([...list.querySelectorAll("li[data-combatant] details.cb-more[open]")].map((d) => d.closest("li").dataset.combatant));
  replaceChildren(list, all.map((c) => {
    const row = combatantRow(c, ticked.has(c.id), g);
    if (open.has(c.id)) row.querySelector("details.cb-more").open = true;
    return row;
  }));
}

// roundsLeft is what remains of an effect's duration as the game now stands
// (the rule the server expires effects by, core/effects.go): an effect of
// duration rounds applied at (roundStart, turnStart) ends when the order
// comes back to that turn duration rounds later; one counted in the
// target's or source's turns has turnsElapsed of them behind it. Rounds
// begun count whole; null when it does not run out by itself.
function roundsLeft(e, g) {
  const unit = String(e.durationUnit || "round").toLowerCase();
  const per = { round: 1, rounds: 1, minute: 10, minutes: 10, hour: 600, hours: 600 }[unit];
  if (!(e.duration > 0) || !per) return null;
  const rounds = e.duration * per;
  const kind = String(e.durationType || "").toLowerCase();
  if (kind.endsWith("startnextturn") || kind.endsWith("endnextturn")) {
    return Math.max(0, rounds - (Number((e.data || {}).turnsElapsed) || 0));
  }
  if (!g || !g.started) return rounds;
  const end = Math.max(e.roundStart || 1, 1) + rounds;
  return Math.max(0, end - g.round + (g.turn < Math.max(e.turnStart || 1, 1) ? 1 : 0));
}

function effectLabel(e, g) {
  const left = roundsLeft(e, g);
  return (e.name || "effect") + (left == null ? "" : " (" + left + " round" + (left === 1 ? "" : "s") + ")");
}

function combatantRow(c, ticked, g) {
  const id = encodeURIComponent(c.id);
  const run = (button, fn, done) => busy(button, async () => {
    try {
      await fn();
      say("campaign-msg", done || "", done ? "good" : "");
    } catch (e) { say("campaign-msg", e.message, "bad"); }
    drawn.campaign = undefined;
    await loadCampaign().catch(() => {});
  });
  const first = (c.initiative || [])[0];
  const init = el("input", { type: "number", step: "any", className: "init-edit", value: first && first.value != null ? first.value : "",
    "aria-label": "Initiative of " + c.name, "data-init": c.id });
  init.addEventListener("change", () => {
    const v = init.value.trim() === "" ? null : Number(init.value);
    api("PUT", "combatants/" + id + "/initiative", { value: v }).then(() => { drawn.campaign = undefined; return loadCampaign(); },
      (e) => say("campaign-msg", e.message, "bad"));
  });
  const hp = hitPoints(c);
  const amount = el("input", { type: "number", min: "0", step: "1", className: "hp-amount", "aria-label": "Hit points for " + c.name, "data-hp": c.id });
  const damage = el("button", { type: "button", "data-act": "damage" }, "Damage");
  const heal = el("button", { type: "button", "data-act": "heal" }, "Heal");
  const hpCall = (key, b) => {
    const n = Number(amount.value);
    if (!(n > 0)) { say("campaign-msg", "Type a number of hit points first.", "bad"); return; }
    run(b, () => api("POST", "combatants/" + id + "/hitpoints", { [key]: n }), (key === "damage" ? n + " damage to " : n + " healing for ") + c.name + ".");
  };
  damage.onclick = () => hpCall("damage", damage);
  heal.onclick = () => hpCall("healing", heal);
  const effName = el("input", { type: "text", placeholder: "Condition or effect", "aria-label": "Effect for " + c.name, "data-effect": c.id });
  effName.setAttribute("list", "condition-names"); // a read-only property: the attribute names the datalist
  const effRounds = el("input", { type: "number", min: "0", step: "1", placeholder: "rounds", className: "rounds", "aria-label": "Duration in rounds" });
  const addEff = el("button", { type: "button", "data-act": "effect" }, "Add");
  addEff.onclick = () => {
    const name = effName.value.trim();
    if (!name) return;
    const body = { name };
    if (Number(effRounds.value) > 0) { body.duration = Number(effRounds.value); body.durationUnit = "round"; }
    run(addEff, () => api("POST", "combatants/" + id + "/effects", body), name + " on " + c.name + ".");
  };
  const effects = (c.effects || []).map((e) => {
    const x = el("button", { type: "button", className: "chip-x", "aria-label": "Remove " + e.name, title: "Remove" }, "×");
    x.onclick = () => run(x, () => api("DELETE", "combatants/" + id + "/effects/" + encodeURIComponent(e.id)));
    return el("span", { className: "chip" }, effectLabel(e, g), x);
  });
  const hide = el("button", { type: "button", "data-act": "hide" }, c.hidden ? "Show to players" : "Hide");
  hide.onclick = () => run(hide, () => api("PATCH", "combatants/" + id, { hidden: !c.hidden }));
  const remove = el("button", { type: "button", className: "danger", "data-act": "remove" }, "Remove");
  remove.onclick = () => {
    if (!confirm("Remove " + c.name + " from combat?")) return;
    run(remove, () => api("DELETE", "combatants/" + id), c.name + " left combat.");
  };
  // One line: tick, initiative, the name (opens the stat block), hit points,
  // armour class, and ⋯ for the rest; conditions under it when there are any.
  const ws = window.companionWorkspace;
  const fx = (ws && ws.entityFacts(c.entityType, c.entityId, () => { drawn.campaign = undefined; loadCampaign().catch(() => {}); })) || {};
  const max = hp && hp.max != null ? hp.max : fx.maxHP;
  const name = el("button", { type: "button", className: "cb-name", title: c.reference ? "Open the stat block of " + c.name : c.name || "", "data-statblock": c.reference || undefined }, el("strong", {}, c.name || c.id));
  if (c.reference && ws) name.onclick = () => ws.openStatBlock(c.reference, c.name);
  const acting = g.started && c.id === g.combatantId;
  return el("li", { className: "combatant" + (c.bloodied ? " bloodied" : "") + (c.defeated ? " defeated" : "") + (acting ? " current" : ""), "data-combatant": c.id },
    el("div", { className: "row-head cb-line" },
      el("input", { type: "checkbox", "data-tick": c.id, checked: ticked, "aria-label": "Tick " + c.name }), init, name,
      c.hidden ? el("span", { className: "tag" }, "hidden") : null,
      c.bloodied && !c.defeated ? el("span", { className: "tag bad" }, "bloodied") : null,
      c.defeated ? el("span", { className: "tag bad" }, "defeated") : null,
      hp ? el("span", { className: "cb-stat hp", "data-hp-value": c.id, title: max != null ? "Hit points of " + max : "Hit points" }, "HP " + hp.hp + (hp.max != null ? "/" + hp.max : "") + (hp.temp ? " +" + hp.temp : ""))
        : el("span", { className: "cb-stat hp muted" }, "HP —"),
      hp && hp.max == null && max != null ? el("span", { className: "cb-stat muted small" }, "of " + max) : null,
      el("span", { className: "cb-stat ac", "data-ac-value": c.id }, "AC " + (fx.ac != null ? fx.ac : "—")),
      el("details", { className: "cb-more" }, el("summary", { title: "Hit points, effects, hide, remove", "aria-label": "More for " + c.name }, "⋯"),
        el("div", { className: "cb-controls" },
          el("div", { className: "buttons small" }, amount, damage, heal, hide, remove),
          el("div", { className: "buttons small" }, effName, effRounds, addEff)))),
    el("div", { className: "cb-effects" }, ...effects));
}

function wireInitiative() {
  const roll = (button, ids) => busy(button, async () => {
    try {
      await api("POST", "combatants/initiative", ids ? { combatants: ids } : undefined);
      say("campaign-msg", "Initiative rolled.", "good");
    } catch (e) { say("campaign-msg", e.message, "bad"); }
    drawn.campaign = undefined;
    await loadCampaign().catch(() => {});
  });
  $("roll-all").addEventListener("click", () => roll($("roll-all")));
  $("roll-selected").addEventListener("click", () => {
    const ids = [...document.querySelectorAll("#combatants input[data-tick]:checked")].map((b) => b.dataset.tick);
    if (!ids.length) { say("campaign-msg", "Tick the combatants to roll for first.", "bad"); return; }
    roll($("roll-selected"), ids);
  });
}

// ---- messages ---------------------------------------------------------------------

function drawSpeakers(view) {
  const sel = $("message-as");
  const keep = sel.value;
  const names = [...new Set(((view.game || {}).combatants || []).map((c) => c.name).filter(Boolean))].sort();
  replaceChildren(sel, [el("option", { value: "" }, "Game master"), ...names.map((n) => el("option", { value: n, selected: n === keep }, n))]);
}

async function loadMessages() {
  const list = await api("GET", "messages");
  if (!changed("messages", list)) return;
  replaceChildren($("message-list"), (list || []).slice(-30).map((m) => {
    const who = speaker(m);
    return el("li", { className: m.private ? "private" : "" },
      m.private ? el("span", { className: "tag" }, "private GM roll") : null,
      el("strong", {}, who + ": "), messageText(m));
  }));
  const box = $("message-list");
  box.scrollTop = box.scrollHeight;
}

// speaker names who said a message: the creature it was said as, with the
// player (the message's source, a name) beside it; the game master when
// neither is set (the console's own messages carry neither).
function speaker(m) {
  const source = typeof m.source === "string" ? m.source : "";
  if (m.creature) return source && source !== m.creature ? `${m.creature} (${source})` : m.creature;
  return source || "Game master";
}

function messageText(m) {
  let text = m.text || m.message || "";
  const roll = m.roll || (m.rolls && m.rolls[0]);
  if (roll && roll.total !== undefined) text += " → " + roll.total;
  return text;
}

function wireMessages() {
  $("message-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("message-text").value.trim();
    if (!text) return;
    const body = { text };
    if ($("message-as").value) body.creature = $("message-as").value;
    if ($("message-private").checked) body.private = true;
    busy($("message-send"), async () => {
      try {
        await api("POST", "messages", body);
        $("message-text").value = "";
        say("messages-msg", body.private ? "Rolled privately: players never see it." : "");
        await loadMessages();
      } catch (e) { say("messages-msg", e.message, "bad"); }
    });
  });
}

// ---- live events from the host socket -------------------------------------------------

// Which sections an event changes; each is fetched again once however many
// events arrive together.
const eventSections = {
  gameUpdated: ["campaign"], combatantUpdated: ["campaign"], combatantsUpdated: ["campaign"],
  screenUpdated: ["campaign"], mapLoaded: ["campaign"], tokenUpdated: ["campaign"], tokensUpdated: ["campaign"],
  systemPaused: ["settings"], interactionUpdated: ["settings"],
  clientUpdated: ["clients"], clientConnected: ["clients"], clientDisconnected: ["clients"], mapViewportUpdated: ["clients"],
  messageCreated: ["messages"], messageUpdated: ["messages"], reload: ["campaign", "settings", "clients", "messages"],
};
const loaders = { campaign: loadCampaign, settings: loadSettings, clients: loadClients, messages: loadMessages };
let liveSocket = false;
const due = new Set();
function wireLive() {
  window.addEventListener("companion:host-event", (ev) => {
    for (const section of eventSections[ev.detail && ev.detail.name] || []) due.add(section);
    scheduleFlush();
  });
  window.addEventListener("companion:host-socket", (ev) => {
    const open = ev.detail === "open";
    if (open && !liveSocket) for (const k of Object.keys(loaders)) due.add(k); // catch up on what happened meanwhile
    liveSocket = open;
    document.body.dataset.live = open ? "socket" : "polling";
    scheduleFlush();
  });
}
let flushTimer = 0;
function scheduleFlush() {
  if (!flushTimer && due.size) flushTimer = setTimeout(flushDue, 30);
}
function flushDue() {
  flushTimer = 0;
  const sections = [...due];
  due.clear();
  for (const k of sections) loaders[k]().catch(() => {});
}

// whenPolling runs fn only while the live socket is down (the fallback).
function whenPolling(fn) {
  return () => (liveSocket ? Promise.resolve() : fn());
}

// ---- modules -----------------------------------------------------------------

const updates = {}; // module id -> update check result

async function loadModules() {
  let modules;
  try {
    modules = await api("GET", "modules");
  } catch (e) {
    if (e.status === 503) modules = []; else throw e;
  }
  const before = JSON.stringify(state.modules.map((m) => [m.id, m.name]));
  state.modules = modules;
  if (JSON.stringify(modules.map((m) => [m.id, m.name])) !== before) refreshDestinationSelects();
  if (!changed("modules", { modules, updates })) return;
  $("modules-empty").hidden = modules.length > 0;
  replaceChildren($("module-list"), modules.map(moduleRow));
}

function moduleRow(m) {
  const u = updates[m.id];
  const info = [m.version ? "version " + m.version : "", m.author ? "by " + m.author : "", m.category || ""].filter(Boolean);
  const row = el("li", { className: "module" },
    el("div", {}, el("strong", {}, m.name), el("div", { className: "small muted" }, info.join(" · ")),
      u && u.error ? el("div", { className: "error" }, u.error) : null,
      u && !u.error ? el("div", { className: u.update ? "good small" : "small muted" },
        u.update ? "Version " + u.available + " is available." + (u.changelog ? " " + u.changelog : "")
          : u.available && !u.compatible ? "Version " + u.available + " needs another version of Companion." : "Up to date.") : null));
  const buttons = el("div", { className: "buttons" });
  if (m.package) {
    const update = el("button", { type: "button", className: u && u.update ? "primary" : "" }, "Update");
    update.onclick = () => busy(update, async () => {
      try {
        say("modules-msg", "Updating " + m.name + "…");
        const res = await api("POST", "modules/" + encodeURIComponent(m.id) + "/update");
        delete updates[m.id];
        say("modules-msg", "Updated “" + res.name + "”.", "good");
        await loadModules();
      } catch (e) { say("modules-msg", e.message, "bad"); }
    });
    buttons.append(update);
  }
  const del = el("button", { type: "button", className: "danger" }, "Delete");
  del.onclick = () => {
    if (!confirm("Delete the module “" + m.name + "” and everything it holds (entities, maps, files)?")) return;
    busy(del, async () => {
      try {
        await api("DELETE", "modules/" + encodeURIComponent(m.id));
        delete updates[m.id];
        say("modules-msg", "Deleted “" + m.name + "”.", "good");
        await loadModules();
      } catch (e) { say("modules-msg", e.message, "bad"); }
    });
  };
  buttons.append(del);
  row.append(buttons);
  return row;
}

function wireModules() {
  const b = $("check-updates");
  b.addEventListener("click", () => busy(b, async () => {
    say("modules-msg", "Checking for updates…");
    try {
      const list = await api("POST", "modules/check-updates");
      for (const k of Object.keys(updates)) delete updates[k];
      for (const u of list) updates[u.module] = u;
      const n = list.filter((u) => u.update).length;
      say("modules-msg", list.length === 0 ? "No module was installed from a package, so none can be updated."
        : n === 0 ? "Every module is up to date." : n + " update" + (n === 1 ? " is" : "s are") + " available.", n ? "good" : "");
      drawn.modules = undefined;
      await loadModules();
    } catch (e) { say("modules-msg", e.message, "bad"); }
  }));
}

// ---- polling -----------------------------------------------------------------

// every runs fn now and then every ms, never two at once; the offline badge
// shows while the server does not answer.
function every(ms, fn) {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await fn();
      $("offline-badge").hidden = true;
    } catch (e) {
      if (e.status === 0) $("offline-badge").hidden = false;
    } finally {
      running = false;
    }
  };
  run();
  setInterval(run, ms);
}

function start() {
  wireLive();
  wireSettings();
  wireImport();
  wireCombat();
  wireInitiative();
  wireNewMap();
  wireMapManager();
  wireScreen();
  wireMessages();
  wireModules();
  wireWebClient();
  refreshDestinationSelects();
  loadConditions();
  // No event exists for these: polled.
  every(1000, loadSystem);
  every(1000, loadOffers);
  every(1000, loadClients); // viewports change without an event
  every(10000, loadModules);
  every(2000, loadWebClient);
  // These follow the live socket; polled only while it is down.
  every(1000, whenPolling(loadSettings));
  every(2000, whenPolling(loadCampaign));
  every(2000, whenPolling(loadMessages));
}

start();
