// Companion host console: the library. Plain JavaScript, no build step,
// mounted by index.html into <section id="library">; it keeps to itself
// (one closure, its own helpers) so that console.js and it can change
// apart.
//
// The game master browses a module's or campaign's groups, pages, maps and
// encounters (GET /host/api/library, /host/api/library/{owner}), reads a
// page beside the GM map (GET /host/api/pages/{id}), puts a page's map on
// the player screen, adds an encounter to the map and to combat in one
// step, and shows a page, or one section of it, to players as a handout
// (or hides it again). The GM map and the console's other sections follow
// from the live socket's events (screenUpdated, tokenUpdated, gameUpdated),
// so the library only says what it did.
//
// A page's HTML comes from the server sanitised by an allow-list
// (pagehtml); it is parsed inertly here and cleaned once more (no script,
// no event attribute, no javascript: URL) before it is shown. Everything
// else goes in as text.
(() => {
  "use strict";

  const root = document.getElementById("library");
  if (!root) return;

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

  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch("/host/api/" + path, init);
    } catch (e) {
      throw new Error("The server is not answering.");
    }
    const text = await resp.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
    if (!resp.ok) throw new Error((data && (data.message || data.error)) || resp.status + " " + resp.statusText);
    return data;
  }

  // The section's parts.
  const ownerPick = el("select", { id: "library-owner", "aria-label": "Module or campaign" });
  const tree = el("ul", { id: "library-tree", className: "library-tree" });
  const reader = el("article", { id: "library-page", className: "library-page", "aria-live": "polite" });
  const actions = el("div", { id: "library-actions", className: "buttons" });
  const msg = el("p", { id: "library-msg", className: "msg", role: "status" });
  root.append(
    el("div", { className: "buttons" }, el("label", null, "Module or campaign ", ownerPick)),
    el("div", { className: "library-columns" },
      el("nav", { className: "library-nav", "aria-label": "Library contents" }, tree),
      el("div", { className: "library-reader" }, actions, reader)),
    msg);

  function say(text, kind) {
    msg.textContent = text || "";
    msg.className = "msg" + (kind ? " " + kind : "");
  }

  // run does an action on a button, saying what it did or why it failed.
  async function run(button, fn) {
    if (button) button.disabled = true;
    try {
      const text = await fn();
      if (text) say(text, "good");
    } catch (e) {
      say(e.message, "bad");
    } finally {
      if (button) button.disabled = false;
    }
  }

  let libraries = [];
  let current = null; // the open page's view
  const owner = () => libraries.find((l) => l.id === ownerPick.value);

  async function loadLibraries() {
    try {
      const list = await api("GET", "library");
      const sig = JSON.stringify(list);
      if (sig === loadLibraries.sig) return;
      loadLibraries.sig = sig;
      libraries = list || [];
      const keep = ownerPick.value;
      // Modules with something to read first; the compendiums last.
      const order = (l) => (l.pages + l.encounters + l.maps > 0 ? 0 : 1);
      const sorted = [...libraries].sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
      ownerPick.replaceChildren(...sorted.map((l) => el("option", { value: l.id },
        l.name + (l.kind === "campaign" ? " (campaign)" : "") + " — " + plural(l.pages, "page", "pages") + ", " +
        plural(l.maps, "map", "maps") + ", " + plural(l.encounters, "encounter", "encounters"))));
      if (keep && libraries.some((l) => l.id === keep)) ownerPick.value = keep;
      await loadTree();
    } catch (e) {
      say(e.message, "bad");
    }
  }

  async function loadTree() {
    const o = owner();
    if (!o) {
      tree.replaceChildren(el("li", { className: "muted" }, "Nothing is installed."));
      return;
    }
    const lib = await api("GET", "library/" + encodeURIComponent(o.id));
    tree.replaceChildren(...lib.items.map(itemNode));
    if (!lib.items.length) tree.append(el("li", { className: "muted" }, "This holds no pages, maps or encounters."));
  }

  // What a row is, said in words (no icon font is assumed).
  const kinds = { page: "page", map: "map", encounter: "encounter", asset: "asset" };
  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);

  // nameFrom makes a name of a reference's slug: "/monster/ford-toad" is
  // "Ford Toad".
  const nameFrom = (ref) => (ref || "").split("/").pop().split(/[-_]/).filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");

  function itemNode(it) {
    const label = it.name;
    const kind = kinds[it.type] ? el("small", { className: "muted" }, " " + kinds[it.type]) : null;
    let head;
    switch (it.type) {
      case "page":
        head = el("button", { type: "button", className: "link", "data-page": it.id, onclick: () => openPage(it.id) }, label,
          it.shown ? el("span", { className: "badge good" }, it.shown === "page" ? "shown" : "sections shown") : null);
        head = el("span", null, head, kind);
        break;
      case "map":
        head = el("span", null, label, kind, " ",
          el("button", { type: "button", "data-map": it.id, onclick: (ev) => run(ev.target, () => showMap(it.id, it.name)) },
            it.onScreen ? "On the player screen" : "Put on the player screen"));
        break;
      case "encounter":
        head = el("span", null, el("button", { type: "button", className: "link", "data-encounter": it.id, onclick: () => openEncounter(it.id) },
          label + (it.creatures ? " (" + it.creatures + ")" : "")), kind);
        break;
      default:
        head = el("span", null, it.type === "group" ? el("strong", null, label) : label, kind);
    }
    const li = el("li", { className: "lib-" + it.type });
    if (it.children && it.children.length) {
      const details = el("details", { open: it.type === "group" },
        el("summary", null, head), el("ul", null, ...it.children.map(itemNode)));
      li.append(details);
    } else {
      li.append(head);
    }
    return li;
  }

  async function showMap(mapId, name) {
    await api("POST", "screen", { mapId });
    return "“" + name + "” is on the player screen." + await darkNote(mapId);
  }

  // darkNote warns when players will see nothing of a map: its line of
  // sight is on and no party token (friendly or a player's, not hidden,
  // with vision: the tokens whose sight players receive) stands on it, so
  // their screens stay black until one does. A legacy module's map often
  // comes so; without a word the game master thinks the screen is broken.
  async function darkNote(mapId) {
    let m;
    try { m = await api("GET", "maps/" + encodeURIComponent(mapId)); } catch (e) { return ""; }
    if (!m || !m.lineOfSight) return "";
    const party = (m.tokens || []).some((t) => !t.hidden && t.vision && t.vision.enabled && (t.role === "friendly" || t.player));
    return party ? "" : " Players see nothing of it yet: its line of sight is on and no party token stands on it.";
  }

  // ---- reading a page ---------------------------------------------------

  // clean parses the server's (already sanitised) HTML inertly and drops
  // anything active, should any slip through.
  function clean(html) {
    const doc = new DOMParser().parseFromString("<body>" + html, "text/html");
    doc.querySelectorAll("script, style, iframe, object, embed, form, link, meta, base").forEach((n) => n.remove());
    for (const n of doc.body.querySelectorAll("*")) {
      for (const a of [...n.attributes]) {
        const v = a.value.trim().toLowerCase();
        if (a.name.startsWith("on") || ((a.name === "href" || a.name === "src") && v.startsWith("javascript:"))) n.removeAttribute(a.name);
      }
    }
    return [...doc.body.childNodes].map((n) => document.importNode(n, true));
  }

  async function openPage(id) {
    try {
      current = await api("GET", "pages/" + encodeURIComponent(id));
    } catch (e) {
      say(e.message, "bad");
      return;
    }
    drawPage();
    say("");
  }

  function shownText(v) {
    if (v.shown === "page") return "Players may read this page.";
    if (v.shown === "sections") {
      const titles = v.sections.filter((s) => (v.shownSections || []).includes(s.id)).map((s) => s.title);
      return "Players may read: " + titles.join(", ") + ".";
    }
    return "Players cannot read this page.";
  }

  function drawPage() {
    const v = current;
    const body = el("div", { className: "page-body" }, ...clean(v.html));
    // Links to the library act here: a page opens, a map goes on the
    // player screen, an encounter opens. Others open in a new tab.
    body.addEventListener("click", (ev) => {
      const a = ev.target.closest("a");
      if (!a) return;
      const kind = a.getAttribute("data-link"), id = a.getAttribute("data-id");
      if (kind === "page" && id) { ev.preventDefault(); openPage(id); return; }
      if (kind === "map" && id) { ev.preventDefault(); run(null, () => showMap(id, a.textContent)); return; }
      if (kind === "encounter" && id) { ev.preventDefault(); openEncounter(id); return; }
      a.target = "_blank";
      a.rel = "noopener";
    });
    reader.replaceChildren(
      el("h3", { className: "page-title" }, v.page.name),
      el("p", { id: "library-shown", className: "muted" }, shownText(v), " ", el("a", { href: v.url, target: "_blank", rel: "noopener" }, "Players' link")),
      body);

    const section = el("select", { id: "library-section", "aria-label": "Section to show" },
      el("option", { value: "" }, "The whole page"),
      ...v.sections.map((s) => el("option", { value: s.id }, "—".repeat(Math.max(0, s.level - 1)) + " " + s.title)));
    const showBtn = el("button", { type: "button", id: "library-show", className: "primary" }, "Show to players");
    showBtn.onclick = () => run(showBtn, async () => {
      const sec = section.value;
      await api("POST", "pages/" + encodeURIComponent(v.page.id) + "/show", sec ? { section: sec } : {});
      await openPage(v.page.id);
      await loadTree();
      return sec ? "The players see the section as a handout." : "The players see the page as a handout.";
    });
    const hideBtn = el("button", { type: "button", id: "library-hide", disabled: !v.shown }, "Hide from players");
    hideBtn.onclick = () => run(hideBtn, async () => {
      await api("DELETE", "pages/" + encodeURIComponent(v.page.id) + "/show");
      await openPage(v.page.id);
      await loadTree();
      return "Players can no longer read the page.";
    });
    const parts = [el("label", null, "Show ", section), showBtn, hideBtn];
    for (const m of v.maps || []) {
      const b = el("button", { type: "button", "data-page-map": m.id }, "Open “" + m.name + "” on the player screen");
      b.onclick = () => run(b, async () => {
        await api("POST", "pages/" + encodeURIComponent(v.page.id) + "/map", { mapId: m.id });
        await loadTree();
        return "“" + m.name + "” is on the player screen." + await darkNote(m.id);
      });
      parts.push(b);
    }
    for (const e of v.encounters || []) {
      const b = el("button", { type: "button", "data-page-encounter": e.id }, "Encounter: " + e.name);
      b.onclick = () => openEncounter(e.id);
      parts.push(b);
    }
    actions.replaceChildren(...parts);
  }

  // ---- encounters -------------------------------------------------------

  async function openEncounter(id) {
    let enc;
    try {
      enc = await api("GET", "encounters/" + encodeURIComponent(id));
    } catch (e) {
      say(e.message, "bad");
      return;
    }
    current = null;
    const list = el("ul", { className: "rows" }, ...enc.combatants.map((c) => el("li", null,
      (c.name || nameFrom(c.reference) || c.label || "Creature") + (c.count > 1 ? " ×" + c.count : "") + (c.label ? " (" + c.label + ")" : ""),
      c.missing ? el("span", { className: "badge warn" }, "not installed: placed by name") : null)));
    const hidden = el("input", { type: "checkbox", id: "library-run-hidden" });
    const runBtn = el("button", { type: "button", id: "library-run", className: "primary" }, "Add to the map and to combat");
    runBtn.onclick = () => run(runBtn, async () => {
      // An encounter with a map of its own is played there: the map goes
      // on the player screen first, so that the game master sees it too.
      if (enc.mapId) {
        const campaign = await api("GET", "campaign");
        if (!campaign.screen || campaign.screen.mapId !== enc.mapId) await api("POST", "screen", { mapId: enc.mapId });
      }
      const out = await api("POST", "encounters/" + encodeURIComponent(enc.id) + "/run", { hidden: hidden.checked });
      const missing = out.missing && out.missing.length ? " Not installed, placed by name: " + out.missing.join(", ") + "." : "";
      return out.tokens.length + " tokens placed and " + out.combatants.length + " combatants added." + missing + await darkNote(out.mapId);
    });
    actions.replaceChildren(runBtn, el("label", { className: "inline" }, hidden, " Place them hidden"));
    reader.replaceChildren(...[el("h3", { className: "page-title" }, enc.name),
      enc.descr ? el("p", null, enc.descr) : null,
      el("p", { className: "muted" }, enc.mapId ? "Played on its own map (it goes on the player screen)." : "Played on the map on the player screen."),
      list].filter(Boolean));
  }

  ownerPick.addEventListener("change", () => { loadTree().catch((e) => say(e.message, "bad")); });
  loadLibraries();
  // New content arrives from imports and offers: look again now and then,
  // and at once when the console says something changed.
  setInterval(() => { if (!document.hidden) loadLibraries(); }, 5000);
  window.addEventListener("companion:host-event", (ev) => {
    const name = ev.detail && ev.detail.name;
    if (name === "screenUpdated" || name === "mapLoaded") { loadLibraries.sig = undefined; loadLibraries(); }
  });
  window.companionLibrary = { openPage, openEncounter, reload: () => { loadLibraries.sig = undefined; return loadLibraries(); } };
})();
