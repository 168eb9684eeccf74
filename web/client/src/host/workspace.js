// The console as one working surface (docs/host-console.md, "Layout"): the
// header's tabs open the panels that are not the fight in a drawer over the
// map's left side; a stat block opens in the same drawer; the selected
// token's card gains hit points, armour class and conditions. console.js
// draws the combat rows and calls companionWorkspace.openStatBlock from
// them; this file needs nothing else from it but the "companion:campaign"
// event it sends with each campaign view.
"use strict";

(() => {
  const byId = (id) => document.getElementById(id);
  const TITLES = {
    library: "Library", maps: "Maps, grid, export and backups", screen: "Player screen and handouts",
    messages: "Messages", seats: "Seats, join key and clients", content: "Content: imports, modules, web client",
    settings: "Settings and game system", stat: "Stat block",
  };
  // Which tab holds an element (a link to #import opens "content").
  const TAB_OF_CARD = {
    library: "library", campaign: "maps", "maps-admin": "maps", screen: "screen", messages: "messages",
    seats: "seats", clients: "seats", offers: "content", import: "content", modules: "content",
    "web-client": "content", settings: "settings", system: "settings", statblock: "stat",
  };

  const drawer = () => byId("drawer");

  function openTab(name) {
    const d = drawer();
    if (!d) return;
    if (name) d.dataset.tab = name;
    else delete d.dataset.tab;
    byId("drawer-title").textContent = name === "stat" ? (byId("statblock-title").textContent || TITLES.stat) : (TITLES[name] || "");
    for (const b of document.querySelectorAll("#tabs [data-tab]")) b.setAttribute("aria-expanded", String(b.dataset.tab === name));
    if (name) d.scrollTop = 0;
    // Narrow, every card is on the page: the tab scrolls to its first one.
    if (name && name !== "stat" && window.matchMedia("(max-width: 1099.98px)").matches) {
      const first = Object.keys(TAB_OF_CARD).map(byId).find((c) => c && TAB_OF_CARD[c.id] === name);
      if (first) first.scrollIntoView({ block: "start" });
    }
  }

  // The card an element sits in, and so the tab to open to show it.
  function tabFor(elem) {
    for (let n = elem; n && n !== document.body; n = n.parentElement) {
      if (n.classList && n.classList.contains("card") && TAB_OF_CARD[n.id]) return TAB_OF_CARD[n.id];
    }
    return null;
  }

  function showHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && byId(id);
    const tab = target ? tabFor(target) : (TAB_OF_CARD[id] || null);
    if (!tab) return;
    openTab(tab);
    if (target) target.scrollIntoView({ block: "start" });
  }

  // A reference is "/<kind>/<slug-or-id>" (what the API hands out); the host
  // listener answers it with the system's page, whole (routes/server.go).
  function openStatBlock(reference, name) {
    if (typeof reference !== "string" || !/^\/[a-z][a-z0-9_]*\/[A-Za-z0-9_-]+$/.test(reference)) return false;
    byId("statblock-title").textContent = name || reference;
    byId("statblock-link").href = reference;
    const frame = byId("statblock-frame");
    frame.title = "Stat block of " + (name || reference);
    frame.src = reference;
    openTab("stat");
    return true;
  }

  function statButton(reference, name) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "stat-open";
    b.dataset.statblock = reference;
    b.textContent = "Stat block";
    b.title = "Open the stat block of " + name;
    b.addEventListener("click", () => openStatBlock(reference, name));
    return b;
  }

  // ---- entity facts: armour class and maximum hit points ---------------------------

  let collections = null; // kind -> collection, from the system
  const facts = new Map(); // "kind/id" -> {ac, maxHP} or a promise of it

  async function loadCollections() {
    if (collections) return collections;
    const res = await fetch("/host/api/system", { headers: { Accept: "application/json" } });
    const sys = res.ok ? await res.json() : {};
    collections = {};
    for (const k of sys.kinds || []) collections[k.kind] = k.collection;
    return collections;
  }

  // armorClass reads a number, {value} or a list of them (the SRD form).
  function armorClass(v) {
    if (typeof v === "number") return v;
    if (Array.isArray(v)) return v.length ? armorClass(v[0]) : null;
    if (v && typeof v === "object" && typeof v.value === "number") return v.value;
    return null;
  }

  function entityFacts(kind, id, onReady) {
    if (!kind || !id) return null;
    const key = kind + "/" + id;
    const known = facts.get(key);
    if (known && !(known instanceof Promise)) return known;
    if (!known) {
      facts.set(key, (async () => {
        try {
          const cols = await loadCollections();
          const col = cols[kind];
          if (!col) throw new Error("no collection");
          const res = await fetch("/host/api/entities/" + encodeURIComponent(col) + "/" + encodeURIComponent(id), { headers: { Accept: "application/json" } });
          const e = res.ok ? await res.json() : {};
          const d = e.data || {};
          facts.set(key, { ac: armorClass(d.armor_class ?? d.ac), maxHP: typeof d.max_hit_points === "number" ? d.max_hit_points : (typeof d.hit_points === "number" ? d.hit_points : null) });
        } catch (err) {
          facts.set(key, { ac: null, maxHP: null });
        }
        if (onReady) onReady();
      })());
    }
    return null;
  }

  // ---- the selected token's card ---------------------------------------------------

  let combatantsByToken = new Map();
  let gameNow = {};

  function drawTokenFacts() {
    const panel = byId("gm-token-panel");
    const gm = window.companionGM;
    if (!panel || !gm) return;
    const old = panel.querySelector(".gm-token-facts");
    const id = gm.selected && gm.selected();
    const t = id && gm.store && gm.store.tokens.get(id);
    if (!t) { if (old) old.remove(); return; }
    const c = combatantsByToken.get(t.id);
    const kind = (c && c.entityType) || (typeof t.reference === "string" ? t.reference.split("/")[1] : "");
    const entityId = (c && c.entityId) || t.entityId;
    const f = entityFacts(kind, entityId, drawTokenFacts) || {};
    const d = (c && c.data) || {};
    const hp = typeof d.hit_points === "number" ? d.hit_points : (typeof t.hitpoints === "number" ? t.hitpoints : null);
    const max = typeof d.max_hit_points === "number" ? d.max_hit_points : f.maxHP;
    const box = document.createElement("div");
    box.className = "gm-token-facts";
    const line = document.createElement("p");
    line.className = "gm-token-stats";
    line.textContent = [
      hp != null ? "HP " + hp + (max != null ? "/" + max : "") : "HP —",
      "AC " + (f.ac != null ? f.ac : "—"),
      c ? (c.defeated ? "defeated" : c.bloodied ? "bloodied" : "") : "not in combat",
    ].filter(Boolean).join(" · ");
    box.append(line);
    const effects = (c && c.effects) || [];
    const cond = document.createElement("p");
    cond.className = "gm-token-conditions small";
    cond.textContent = effects.length ? "Conditions: " + effects.map((e) => e.name).join(", ") : "No condition.";
    box.append(cond);
    const ref = (c && c.reference) || t.reference;
    if (typeof ref === "string" && ref) box.append(statButton(ref, t.name || t.label || "the token"));
    // Above the buttons, under the name; only when it changed, so a redraw
    // does not loop through the observer below.
    if (old && old.textContent === box.textContent) return;
    if (old) old.replaceWith(box);
    else {
      const name = panel.querySelector(".gm-token-name");
      if (name) name.after(box);
      else panel.append(box);
    }
  }

  function watchTokenPanel() {
    const panel = byId("gm-token-panel");
    if (!panel) { setTimeout(watchTokenPanel, 200); return; }
    new MutationObserver(() => { if (!panel.querySelector(".gm-token-facts")) drawTokenFacts(); }).observe(panel, { childList: true });
    drawTokenFacts();
  }

  // ---- wiring --------------------------------------------------------------------

  function start() {
    for (const b of document.querySelectorAll("#tabs [data-tab]")) {
      b.addEventListener("click", () => openTab(drawer().dataset.tab === b.dataset.tab ? null : b.dataset.tab));
    }
    byId("drawer-close").addEventListener("click", () => openTab(null));
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && drawer().dataset.tab && !document.body.classList.contains("gm-placing")) openTab(null);
    });
    // A link to a card inside the drawer (#import, #seats …) opens its tab.
    document.addEventListener("click", (e) => {
      const a = e.target.closest && e.target.closest('a[href^="#"]');
      if (!a) return;
      const target = byId(decodeURIComponent(a.getAttribute("href").slice(1)));
      const tab = target && tabFor(target);
      if (tab) { e.preventDefault(); openTab(tab); target.scrollIntoView({ block: "start" }); }
    });
    window.addEventListener("hashchange", showHash);
    // The GM map's place-a-token rows ask for a stat block so (entities.ts).
    window.addEventListener("companion:statblock", (e) => { if (e.detail) openStatBlock(e.detail.reference, e.detail.name); });
    showHash();
    window.addEventListener("companion:campaign", (e) => {
      const g = (e.detail && e.detail.game) || {};
      gameNow = g;
      combatantsByToken = new Map((g.combatants || []).filter((c) => c.tokenId).map((c) => [c.tokenId, c]));
      drawTokenFacts();
    });
    watchTokenPanel();
  }

  window.companionWorkspace = { openTab, openStatBlock, statButton, entityFacts, game: () => gameNow };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
